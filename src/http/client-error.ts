/**
 * The HTTP server's answer to requests Node refuses before any route sees them (its `clientError` event; issue
 * #14 class 9): headers over Node's limit (16 kB) are 431 HEADERS_TOO_LARGE, a request that is not HTTP 400
 * MALFORMED_REQUEST, a request whose headers or body take too long 408 REQUEST_TIMEOUT, each in the error shape
 * `{"error": {code, message}}` (decisions.md "HTTP conventions"), like every other refusal.
 *
 * The answer is written only while the socket is writable and no answer of an earlier request on the connection
 * has begun; the connection is then closed. What the client is still sending (the rest of 90 kB of headers, a
 * body) is read and dropped for up to DRAIN_MS / DRAIN_BYTES first: closing a socket with unread data makes the
 * kernel reset the connection, and the client would see the reset instead of the answer.
 */
import type { Socket } from 'node:net';
import type { ErrorBody } from './errors.ts';

/** How long, and how many bytes, the rest of a refused request is read and dropped before the connection closes. */
export const DRAIN_MS = 2_000;
export const DRAIN_BYTES = 1024 * 1024;

const ANSWERS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', '请求头过大（超过 16 KB），请清理 Cookie 或缩短请求头后重试'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', '请求发送超时，请重试'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'REQUEST_TIMEOUT', '请求发送超时，请重试'],
};
const MALFORMED: [number, string, string] = [400, 'MALFORMED_REQUEST', '请求格式不正确（不是有效的 HTTP 请求）'];

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** The `clientError` listener of the service's HTTP server (module docstring). Never throws. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const answered = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (err.code === 'ECONNRESET' || !socket.writable || answered) {
    socket.destroy();
    return;
  }
  const [status, code, message] = (err.code && Object.hasOwn(ANSWERS, err.code) ? ANSWERS[err.code] : undefined) ?? MALFORMED;
  const body: ErrorBody = { error: { code, message } };
  const text = JSON.stringify(body);
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
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
}
