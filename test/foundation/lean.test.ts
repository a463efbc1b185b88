/**
 * The lean dispatcher (src/http/lean.ts): what it serves itself, what it leaves to express, and that the service's
 * answers to odd requests on the lean routes are exactly express's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { z } from 'zod';
import { createHttpApp } from '../../src/http/app.ts';
import { leanDispatcher } from '../../src/http/lean.ts';
import { defineRoute, RawBody } from '../../src/http/route.ts';
import { routes } from '../../src/http/routes/index.ts';
import { access } from '../../src/auth/roles.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request with exactly these headers and body bytes (fetch would add or fix some). */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string, chunked = false): Promise<Raw> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const buf = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body);
    const h: Record<string, string> = { ...headers };
    if (buf && !chunked) h['content-length'] = String(buf.length);
    const req = httpRequest({ host: u.hostname, port: u.port, method, path, headers: h }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (buf) req.write(buf);
    req.end();
  });
}

const listen = async (server: Server) => {
  await new Promise((r) => server.listen(0, () => r(undefined)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe('lean dispatcher: what it serves and what it leaves to express', () => {
  const lines: any[] = [];
  const log = pino({ level: 'info' }, new Writable({ write: (c, _e, cb) => (lines.push(JSON.parse(String(c))), cb()) }));
  const echo = defineRoute({
    method: 'post',
    path: '/lean/echo',
    tag: 't',
    summary: 'echo',
    access: 'public',
    lean: true,
    body: z.object({ n: z.number() }),
    async handler({ body, req }) {
      return { n: body.n, id: req.id };
    },
  });
  const state = defineRoute({
    method: 'get',
    path: '/lean/state',
    tag: 't',
    summary: 'state',
    access: access.worker,
    lean: true,
    query: z.object({ q: z.string() }),
    async handler({ query, user }) {
      return { q: query.q, phone: user.phone };
    },
  });
  const boom = defineRoute({ method: 'get', path: '/lean/boom', tag: 't', summary: 'boom', access: 'public', lean: true, handler: async () => { throw new TypeError('internal detail'); } });
  const rawBody = defineRoute({ method: 'get', path: '/lean/raw', tag: 't', summary: 'raw', access: 'public', lean: true, handler: async () => new RawBody('image/png', Buffer.from('x')) });
  const empty = defineRoute({ method: 'post', path: '/lean/empty', tag: 't', summary: 'empty', access: 'public', lean: true, handler: async () => undefined });
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const lean = leanDispatcher({ ...app.service.ctx, log }, [echo, state, boom, rawBody, empty]);
    server = createServer((req, res) => {
      if (lean(req, res)) return;
      req.resume();
      res.writeHead(299, { 'content-type': 'text/plain' }).end('express');
    });
    base = await listen(server);
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('serves a plain JSON request itself: answer, status, headers, request id, log line', async () => {
    lines.length = 0;
    const r = await raw(base, 'POST', '/lean/echo', { 'content-type': 'application/json; charset=UTF-8', 'x-request-id': 'req-1' }, '{"n": 7}');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ n: 7, id: 'req-1' });
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.text)));
    expect(r.headers['x-request-id']).toBe('req-1');
    expect(lines).toEqual([expect.objectContaining({ requestId: 'req-1', method: 'POST', url: '/lean/echo', status: 200, ms: expect.any(Number), msg: 'request' })]);
    const generated = await raw(base, 'POST', '/lean/echo', { 'content-type': 'application/json', 'x-request-id': 'bad id!' }, '{"n":1}');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(generated.text).id).toBe(generated.headers['x-request-id']);
  });

  it('answers refusals in the error shape: malformed or non-object JSON 400, validation 422, NUL 422, 401, 403', async () => {
    const json = { 'content-type': 'application/json' };
    const code = (r: Raw) => [r.status, JSON.parse(r.text).error.code];
    expect(code(await raw(base, 'POST', '/lean/echo', json, '{"n":'))).toEqual([400, 'MALFORMED_JSON']);
    expect(code(await raw(base, 'POST', '/lean/echo', json, '123'))).toEqual([400, 'MALFORMED_JSON']);
    expect(code(await raw(base, 'POST', '/lean/echo', json, ''))).toEqual([422, 'VALIDATION_FAILED']);
    expect(code(await raw(base, 'POST', '/lean/echo', json, '{"n":"x"}'))).toEqual([422, 'VALIDATION_FAILED']);
    expect(code(await raw(base, 'POST', '/lean/echo', json, '{"n":1,"s":"a\\u0000"}'))).toEqual([422, 'INVALID_CHARACTERS']);
    expect(code(await raw(base, 'GET', '/lean/state?q=x'))).toEqual([401, 'UNAUTHORIZED']);
    const admin = await app.login('13800138111', 'admin');
    expect(code(await raw(base, 'GET', '/lean/state?q=x', { authorization: `Bearer ${admin}` }))).toEqual([403, 'FORBIDDEN']);
    const worker = await app.login('13800138112', 'worker');
    expect(code(await raw(base, 'GET', '/lean/state?q=%00', { authorization: `Bearer ${worker}` }))).toEqual([422, 'INVALID_CHARACTERS']);
    const ok = await raw(base, 'GET', '/lean/state?q=%E5%86%B2%E5%BA%8A%2001', { authorization: `Bearer ${worker}` });
    expect(JSON.parse(ok.text)).toEqual({ q: '冲床 01', phone: '13800138112' });
  });

  it('answers 500 INTERNAL_ERROR without details for a failing handler or a non-JSON answer, and logs it', async () => {
    lines.length = 0;
    for (const path of ['/lean/boom', '/lean/raw']) {
      const r = await raw(base, 'GET', path);
      expect(r.status).toBe(500);
      expect(JSON.parse(r.text)).toEqual({ error: { code: 'INTERNAL_ERROR', message: '服务器内部错误，请稍后重试', requestId: r.headers['x-request-id'] } });
    }
    expect(lines.filter((l) => l.msg === 'request failed')).toHaveLength(2);
    const none = await raw(base, 'POST', '/lean/empty');
    expect([none.status, none.text]).toEqual([204, '']);
  });

  it('leaves to express whatever is not a plain request of a lean route', async () => {
    const json = { 'content-type': 'application/json' };
    const viaExpress = [
      await raw(base, 'POST', '/lean/other', json, '{"n":1}'),
      await raw(base, 'POST', '/lean/echo/', json, '{"n":1}'),
      await raw(base, 'POST', '/LEAN/echo', json, '{"n":1}'),
      await raw(base, 'PUT', '/lean/echo', json, '{"n":1}'),
      await raw(base, 'HEAD', '/lean/state?q=x'),
      await raw(base, 'POST', '/lean/echo', {}, '{"n":1}'),
      await raw(base, 'POST', '/lean/echo', { 'content-type': 'text/plain' }, '{"n":1}'),
      await raw(base, 'POST', '/lean/echo', { 'content-type': 'application/json; charset=latin1' }, '{"n":1}'),
      await raw(base, 'POST', '/lean/echo', { ...json, 'content-encoding': 'gzip' }, gzipSync('{"n":1}')),
      await raw(base, 'POST', '/lean/echo', json, '{"n":1}', true),
      await raw(base, 'POST', '/lean/echo', json, JSON.stringify({ n: 1, s: 'y'.repeat(300_000) })),
      await raw(base, 'GET', '/lean/state?q=x', json, '{"a":1}'),
    ];
    expect(viaExpress.map((r) => r.status)).toEqual(viaExpress.map(() => 299));
  });

  it('survives a client that sends part of a body and hangs up, and serves the next request', async () => {
    const u = new URL(base);
    await new Promise<void>((resolve) => {
      const sock = connect({ host: u.hostname, port: Number(u.port) }, () => {
        sock.write('POST /lean/echo HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"n":');
        setTimeout(() => {
          sock.destroy();
          resolve();
        }, 50);
      });
    });
    const r = await raw(base, 'POST', '/lean/echo', { 'content-type': 'application/json' }, '{"n":5}');
    expect([r.status, JSON.parse(r.text).n]).toEqual([200, 5]);
  });

  it('refuses to build with a lean route that has path parameters', () => {
    const bad = defineRoute({ method: 'get', path: '/lean/:id', tag: 't', summary: 'bad', access: 'public', lean: true, handler: async () => ({}) });
    expect(() => leanDispatcher(app.service.ctx, [bad])).toThrow(/no path parameters/);
  });
});

describe('the service answers odd requests on its lean routes exactly as express alone does', () => {
  let expressOnly: Server;
  let expressBase: string;
  beforeAll(async () => {
    expressOnly = createServer(createHttpApp(app.service.ctx, routes));
    expressBase = await listen(expressOnly);
  });
  afterAll(() => new Promise<void>((r) => expressOnly.close(() => r())));

  it('same status and body for malformed, mistyped, oversized, encoded and unauthenticated requests', async () => {
    const token = await app.login('13900139111', 'worker');
    const auth = { authorization: `Bearer ${token}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const cases: [string, string, Record<string, string>, (Buffer | string)?, boolean?][] = [
      ['POST', '/api/clock/start', json, '{"deviceNo":'],
      ['POST', '/api/clock/start', json, '"冲床"'],
      ['POST', '/api/clock/start', json, ''],
      ['POST', '/api/clock/start', json, '[]'],
      ['POST', '/api/clock/start', json, '{"deviceNo":"没有这台"}'],
      ['POST', '/api/clock/start', json, '{"deviceNo":"a\\u0000"}'],
      ['POST', '/api/clock/start', auth, '{"deviceNo":"没有这台"}'],
      ['POST', '/api/clock/start', { ...auth, 'content-type': 'text/plain' }, '{"deviceNo":"没有这台"}'],
      ['POST', '/api/clock/start', { ...auth, 'content-type': 'application/json; charset=latin1' }, '{"deviceNo":"x"}'],
      ['POST', '/api/clock/start', { ...json, 'content-encoding': 'gzip' }, gzipSync('{"deviceNo":"没有这台"}')],
      ['POST', '/api/clock/start', json, '{"deviceNo":"没有这台"}', true],
      ['POST', '/api/clock/start', json, JSON.stringify({ deviceNo: 'y'.repeat(300_000) })],
      ['POST', '/api/clock/start/', json, '{"deviceNo":"没有这台"}'],
      ['POST', '/api/clock/finish', { 'content-type': 'application/json' }, '{"deviceNo":"没有这台"}'],
      ['POST', '/api/clock/switch-device', { ...json, authorization: 'Bearer forged' }, '{"deviceNo":"x"}'],
      ['POST', '/api/reports', json, '{"sessionId":"not-a-uuid","lines":[]}'],
      ['GET', '/api/clock/state?deviceNo=%00', auth],
      ['GET', '/api/clock/state?deviceNo=%E6%B2%A1%E6%9C%89', auth],
      ['GET', '/api/clock/state', auth],
      ['GET', '/api/reports/draft?sessionId=x', auth],
      ['GET', '/api/reports/draft?sessionId=8a6e0804-2bd0-4672-b79d-d97358571dd8', auth],
    ];
    for (const [method, path, headers, body, chunked] of cases) {
      // One request id for both, as error bodies carry it.
      const same = { ...headers, 'x-request-id': 'lean-compare' };
      const viaService = await raw(app.url, method, path, same, body, chunked);
      const viaExpress = await raw(expressBase, method, path, same, body, chunked);
      expect({ path, body: String(body).slice(0, 40), status: viaService.status, text: viaService.text }).toEqual({
        path,
        body: String(body).slice(0, 40),
        status: viaExpress.status,
        text: viaExpress.text,
      });
      expect(viaService.status).toBeLessThan(500);
      expect(viaService.headers['content-type']).toBe(viaExpress.headers['content-type']);
    }
  });
});
