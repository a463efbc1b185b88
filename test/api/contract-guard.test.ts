/**
 * The guard every test service runs under (test/helpers/contract-guard.ts) finds the answers the API
 * document does not describe — here from a stand-in server that answers as the service must not: an undocumented
 * status, a body its schema refuses, an error without its request id, a code the operation does not list, a
 * client-error answer without `requestId` — and lets pass what conforms, and what is no API at all.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { guardContract } from '../helpers/contract-guard.ts';
import { rawRequest } from '../helpers/raw-http.ts';

let server: Server;
let guard: ReturnType<typeof guardContract>;
let port = 0;

/** The stand-in's answers by path: [status, body]. */
const ANSWERS: Record<string, [number, unknown]> = {
  '/api/health': [200, { status: 'ok', database: { kind: 'pglite', ok: true } }],
  '/api/openapi.json': [418, { error: { code: 'TEAPOT', message: '茶壶', requestId: 'r1' } }],
  '/api/auth/me': [401, { error: { code: 'UNAUTHORIZED', message: '请先登录' } }],
  '/api/devices': [401, { error: { code: 'NOT_A_CODE_OF_IT', message: '未知', requestId: 'r1' } }],
  '/api/people': [200, { items: 'not a list' }],
  '/console/': [200, 'a page'],
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const [status, body] = ANSWERS[req.url ?? ''] ?? [404, { error: { code: 'NOT_FOUND', message: '没有', requestId: 'r1' } }];
    res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/html' : 'application/json', 'x-request-id': 'r1' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  // A client-error answer in the error shape but without its request id.
  server.on('clientError', (_err: Error, socket: Socket) => {
    const text = JSON.stringify({ error: { code: 'HEADERS_TOO_LARGE', message: '请求头过大' } });
    socket.end(`HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
  });
  guard = guardContract(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const get = (path: string, headers = '') => rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: x${headers}`);

it('reports each answer the document does not describe, and only those', async () => {
  for (const path of [...Object.keys(ANSWERS), '/api/nothing']) await get(path);
  await get('/api/health', `\r\nX-Big: ${'a'.repeat(20_000)}`);
  const found = guard.deviations();
  const about = (path: string) => found.filter((d) => d.startsWith(`GET ${path} →`));
  expect(about('/api/health')).toEqual([]);
  expect(about('/api/nothing')).toEqual([]);
  expect(found.some((d) => d.startsWith('GET /console'))).toBe(false);
  expect(about('/api/openapi.json').join()).toMatch(/status not documented/);
  expect(about('/api/auth/me').join()).toMatch(/requestId/);
  expect(about('/api/devices').join()).toMatch(/NOT_A_CODE_OF_IT|must match|equal to one of/);
  expect(about('/api/people').join()).toMatch(/body/);
  expect(found.filter((d) => d.startsWith('client error on ')).join()).toMatch(/no X-Request-Id header/);
});
