/**
 * The benchmarks' HTTP/1.1 load generator: one keep-alive TCP connection per simulated client, one request at a
 * time on it, the request written as one prepared string and the answer read by Content-Length.
 *
 * Why not an HTTP client library: the load generator shares the 2 cores with the servers it measures, so every
 * microsecond it spends is taken from them. undici, the lightest general client, cost 0.11–0.17 ms of CPU per
 * request here (`npm run bench -- clock` prints the generator's CPU per request), a third of what the whole
 * ceiling server spends; this client does only what the benchmarks need (JSON bodies, answers with a
 * Content-Length, which express always sends for JSON and for 204/empty answers) and fails loudly otherwise.
 *
 * `new HttpClient(base)`; `client.request(method, path, headers, body?)` → `{status, body}` with `body` the raw
 * text (parse it only where needed); `client.close()`.
 */
import { connect, type Socket } from 'node:net';

export interface HttpAnswer {
  status: number;
  /** The body as text (UTF-8). */
  body: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** One keep-alive connection to `base` (http://host:port), one request at a time (module docstring). */
export class HttpClient {
  private socket?: Socket;
  private host: string;
  private port: number;
  private pending?: { resolve: (a: HttpAnswer) => void; reject: (e: Error) => void };
  private buf: Buffer = Buffer.alloc(0);

  constructor(base: string) {
    const u = new URL(base);
    this.host = u.hostname;
    this.port = Number(u.port);
  }

  private open(): Socket {
    const s = connect({ host: this.host, port: this.port, noDelay: true });
    s.on('data', (chunk: Buffer) => this.onData(chunk));
    const fail = (err: Error) => {
      this.socket = undefined;
      const p = this.pending;
      this.pending = undefined;
      p?.reject(err);
    };
    s.on('error', fail);
    s.on('close', () => fail(new Error('connection closed')));
    return (this.socket = s);
  }

  /** Sends one request; `body` (a JSON text) goes with its Content-Length. Rejects on a connection failure. */
  request(method: string, path: string, headers: string, body?: string): Promise<HttpAnswer> {
    if (this.pending) throw new Error('HttpClient: one request at a time');
    const s = this.socket ?? this.open();
    this.buf = Buffer.alloc(0);
    const head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}\r\n${headers}`;
    const text = body === undefined ? `${head}\r\n` : `${head}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    return new Promise<HttpAnswer>((resolve, reject) => {
      this.pending = { resolve, reject };
      s.write(text);
    });
  }

  private onData(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const end = this.buf.indexOf(HEADER_END);
    if (end < 0 || !this.pending) return;
    const head = this.buf.toString('latin1', 0, end);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) {
      this.pending.reject(new Error(`HttpClient: an answer without Content-Length: ${head.split('\r\n')[0]}`));
      this.pending = undefined;
      return;
    }
    const total = end + 4 + Number(length[1]);
    if (this.buf.length < total) return;
    const p = this.pending;
    this.pending = undefined;
    p.resolve({ status: Number(head.slice(9, 12)), body: this.buf.toString('utf8', end + 4, total) });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }
}
