/**
 * Every answer of every test's service checked against the API document ("the document is the single
 * source of every answer"): `guardContract(server)` watches the HTTP server of a test service (test/helpers/app.ts
 * starts each with it) and checks each answer under `/api/` as it finishes — the operation's documented status,
 * content type, body schema (error codes and their `details` included) and `requestId` — with the contract test's
 * own checker (contract.ts), against the document built from the same routes (`buildOpenApi`, what
 * `/api/openapi.json` serves). Answers the client-error handler writes straight to the socket (400, 408, 431: no
 * request was read) are checked too, against every operation, as each may get them.
 *
 * So each test of the suite — its hostile uploads, rate limits, broken requests and database failures — is also a
 * contract test: an answer the document does not describe fails the test file that provoked it (at `close()`,
 * which throws the list). Requests are not kept: what the request sent is the contract test's to check.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { buildOpenApi } from '../../src/http/openapi.ts';
import { routes } from '../../src/http/routes/index.ts';
import { SchemaChecker, clientErrorDeviations, contractDeviations } from './contract.ts';

let document: ReturnType<typeof buildOpenApi> | undefined;
let checker: SchemaChecker | undefined;
/** The API document (built once per test process) and its checker. */
const contract = () => ({ doc: (document ??= buildOpenApi(routes)) as any, checker: (checker ??= new SchemaChecker()) });

/** The status and headers of an answer's head as written (`HTTP/1.1 200 OK\r\nname: value…`). */
function parseHead(head: string): { status: number; headers: Headers } {
  const [first, ...lines] = head.split('\r\n');
  const headers = new Headers();
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers.append(l.slice(0, i).trim(), l.slice(i + 1).trim());
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(first)?.[1] ?? 0), headers };
}

const toBuffer = (chunk: unknown, encoding: unknown): Buffer | undefined =>
  typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : chunk instanceof Uint8Array ? Buffer.from(chunk) : undefined;

/** Watches `server` (module docstring) → `deviations()`: every difference from the document seen so far. */
export function guardContract(server: Server): { deviations(): string[] } {
  const found: string[] = [];

  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? '/';
    const path = raw.split('?')[0];
    if (!path.startsWith('/api/')) return; // the console's files are no operation of the API
    const url = new URL(raw, 'http://service');
    const chunks: Buffer[] = [];
    const write = res.write;
    const end = res.end;
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      const b = toBuffer(chunk, rest[0]);
      if (b) chunks.push(b);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as ServerResponse['write'];
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      const b = typeof chunk === 'function' ? undefined : toBuffer(chunk, rest[0]);
      if (b) chunks.push(b);
      return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as ServerResponse['end'];
    res.once('finish', () => {
      const head = (res as ServerResponse & { _header?: string })._header;
      if (!head) return;
      const { status, headers } = parseHead(head);
      const { doc, checker } = contract();
      found.push(...contractDeviations(doc, [{ method: req.method ?? 'GET', url, path, status, headers, body: Buffer.concat(chunks) }], checker));
    });
  });

  // The client-error handler writes its whole answer with one socket.end(text) (src/http/client-error.ts).
  const listeners = server.listeners('clientError') as ((err: Error, socket: Socket) => void)[];
  server.removeAllListeners('clientError');
  server.on('clientError', (err: Error, socket: Socket) => {
    const end = socket.end;
    socket.end = function (this: Socket, data?: unknown, ...rest: unknown[]) {
      if (typeof data === 'string' && data.startsWith('HTTP/1.1 ')) {
        const split = data.indexOf('\r\n\r\n');
        const { status, headers } = parseHead(data.slice(0, split));
        const { doc, checker } = contract();
        found.push(...clientErrorDeviations(doc, { status, headers, body: Buffer.from(data.slice(split + 4)) }, checker));
      }
      return (end as (...a: unknown[]) => Socket).call(this, data, ...rest);
    } as Socket['end'];
    for (const l of listeners) l.call(server, err, socket);
  });

  return { deviations: () => [...new Set(found)] };
}
