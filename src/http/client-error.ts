/**
 * The HTTP server's answer to requests Node refuses before any route sees them (its `clientError` event):
 * headers over Node's limit (16 kB) are 431 HEADERS_TOO_LARGE, a request that is not HTTP (a broken
 * request line, header or chunked body) 400 MALFORMED_REQUEST, a request whose headers or body take too long 408
 * REQUEST_TIMEOUT — status, code and sentence from common-errors.ts, the table the API document lists for every
 * operation — each in the error shape `{"error": {code, message, requestId}}` like every other refusal. The request
 * id is made here (the request's own `X-Request-Id` was never read), sent in the `X-Request-Id` header and the
 * body, and logged with the refusal, so a person quoting it can be found in the log.
 *
 * The answer is written only while the socket is writable and no answer of an earlier request on the connection
 * has begun; the connection is then closed. What the client is still sending (the rest of 90 kB of headers, a
 * body) is read and dropped for up to DRAIN_MS / DRAIN_BYTES first: closing a socket with unread data makes the
 * kernel reset the connection, and the client would see the reset instead of the answer.
 */
import type { Socket } from 'node:net';
import type { Logger } from '../logger.ts';
import { COMMON, type CommonError } from './common-errors.ts';
import type { ErrorBody } from './errors.ts';
import { requestIdOf } from './pipeline.ts';

/** How long, and how many bytes, the rest of a refused request is read and dropped before the connection closes. */
export const DRAIN_MS = 2_000;
export const DRAIN_BYTES = 1024 * 1024;

/** Node's error codes → the answer; any other code is a request that is not HTTP. */
const ANSWERS: Record<string, CommonError> = {
  HPE_HEADER_OVERFLOW: COMMON.HEADERS_TOO_LARGE,
  ERR_HTTP_REQUEST_TIMEOUT: COMMON.REQUEST_TIMEOUT,
  ERR_HTTP_HEADERS_TIMEOUT: COMMON.REQUEST_TIMEOUT,
};

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** The `clientError` listener of the service's HTTP server (module docstring), logging to `log`. Never throws. */
export function clientErrorListener(log: Logger): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    const answered = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (err.code === 'ECONNRESET' || !socket.writable || answered) {
      socket.destroy();
      return;
    }
    const answer = (err.code && Object.hasOwn(ANSWERS, err.code) ? ANSWERS[err.code] : undefined) ?? COMMON.MALFORMED_REQUEST;
    const requestId = requestIdOf(undefined);
    const body: ErrorBody = { error: { code: answer.code, message: answer.message, requestId } };
    const text = JSON.stringify(body);
    log.info({ requestId, status: answer.status, code: answer.code, cause: err.code }, 'request refused');
    socket.on('error', () => socket.destroy());
    socket.end(
      `HTTP/1.1 ${answer.status} ${REASONS[answer.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${text}`,
    );
    // Read and drop what the client is still sending, then close (module docstring).
    let dropped = 0;
    const timer = setTimeout(() => socket.destroy(), DRAIN_MS);
    timer.unref();
    socket.on('data', (c: Buffer) => {
      dropped += c.length;
      if (dropped > DRAIN_BYTES) socket.destroy();
    });
    socket.on('close', () => clearTimeout(timer));
    socket.resume();
  };
}
