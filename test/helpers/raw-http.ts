/**
 * Raw HTTP/1.1 over a TCP socket, for requests no well-behaved client sends (a multipart body cut before its
 * closing boundary, a Content-Encoding that does not inflate, broken percent-escapes, headers over the limit).
 *
 * `rawRequest(port, head, body?)` writes `head` (request line and headers, without the blank line; it adds
 * `Connection: close` and, when a body is given and none is named, its Content-Length) and the body, then reads
 * until the server closes → `{status, headers, text, json}`; `status` is 0 when the server closed without an answer.
 * `multipart(field, fileName, data, {close})` builds a form body with one file part (and, unless `close` is false,
 * its closing boundary) → `{contentType, body}`.
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON when it is JSON, else undefined. */
  json: any;
  /** The socket ended with an error (e.g. ECONNRESET) before or after an answer. */
  socketError?: string;
}

/** Sends `head` + body to 127.0.0.1:`port` (module docstring) and reads the whole answer. */
export function rawRequest(port: number, head: string, body?: Buffer | string): Promise<RawResponse> {
  const data = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body);
  let headText = head.replace(/\r?\n$/, '');
  if (!/\r?\nconnection:/i.test(headText)) headText += '\r\nConnection: close';
  if (data && !/\r?\ncontent-length:/i.test(headText) && !/\r?\ntransfer-encoding:/i.test(headText)) headText += `\r\nContent-Length: ${data.length}`;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let socketError: string | undefined;
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(headText.replace(/\r?\n/g, '\r\n') + '\r\n\r\n');
      if (data) socket.write(data);
    });
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) => (socketError = err.code ?? err.message));
    socket.on('close', () => resolve(parseResponse(Buffer.concat(chunks), socketError)));
  });
}

function parseResponse(raw: Buffer, socketError: string | undefined): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, text: '', json: undefined, socketError };
  const lines = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0])?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let bodyBytes = raw.subarray(end + 4);
  if (headers['content-length'] !== undefined) bodyBytes = bodyBytes.subarray(0, Number(headers['content-length']));
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) bodyBytes = dechunk(bodyBytes);
  const text = bodyBytes.toString('utf8');
  let json: unknown;
  if (/json/.test(headers['content-type'] ?? '')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status, headers, text, json, socketError };
}

function dechunk(b: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  for (;;) {
    const eol = b.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(b.subarray(i, eol).toString('latin1'), 16);
    if (!size) break;
    out.push(b.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** A multipart/form-data body with one file part in `field` (module docstring). */
export function multipart(field: string, fileName: string, data: Uint8Array, opts: { close?: boolean } = {}): { contentType: string; body: Buffer } {
  const boundary = '----hostile' + Math.random().toString(16).slice(2);
  const parts = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from(data),
  ];
  if (opts.close !== false) parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}
