/**
 * Only documented paths answer (strict, case-sensitive routing; no implicit HEAD or OPTIONS under
 * /api), a route without a body reads none, error bodies carry the request id of the `x-request-id` header (on the
 * express path and the lean one), and request log lines carry the actor's phone and role with an ISO 8601 time.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../src/http/app.ts';
import { clientErrorListener } from '../../src/http/client-error.ts';
import { leanDispatcher } from '../../src/http/lean.ts';
import { routes } from '../../src/http/routes/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { rawRequest } from '../helpers/raw-http.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** One request with exactly this method, path, headers and body (fetch refuses a GET with a body). */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
    const req = httpRequest(base + path, { method, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('paths match exactly', () => {
  it('answers the documented path only: no trailing slash, no other case, no implicit HEAD or OPTIONS', async () => {
    expect((await raw(app.url, 'GET', '/api/health')).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/api/health/'],
      ['GET', '/API/HEALTH'],
      ['GET', '/api/Health'],
      ['HEAD', '/api/health'],
      ['OPTIONS', '/api/health'],
      ['HEAD', '/api/openapi.json'],
      ['GET', '/api/clock/state/?deviceNo=x'],
      ['GET', '/API/clock/state?deviceNo=x'],
      ['POST', '/api/clock/start/'],
    ]) {
      const r = await raw(app.url, method, path);
      expect(r.status, `${method} ${path}`).toBe(404);
      if (method !== 'HEAD') expect(JSON.parse(r.text).error.code, `${method} ${path}`).toBe('NOT_FOUND');
    }
  });

  it('does not read a body on a route that takes none', async () => {
    const r = await raw(app.url, 'GET', '/api/health', { 'content-type': 'application/json', 'content-length': '5' }, '{"a":');
    expect(r.status).toBe(200);
  });
});

describe('error bodies carry the request id', () => {
  it('the same id as the x-request-id header, given or generated, on the express and the lean path', async () => {
    const worker = await app.login('13600000001', 'worker');
    const cases: [string, string, Record<string, string>, string?][] = [
      ['GET', '/api/nothing', {}],
      ['GET', '/api/auth/me', {}],
      ['GET', '/api/clock/state', { authorization: `Bearer ${worker}` }],
      ['POST', '/api/clock/start', { authorization: `Bearer ${worker}`, 'content-type': 'application/json' }, '{"deviceNo":"没有"}'],
    ];
    for (const [method, path, headers, body] of cases) {
      for (const given of [undefined, 'abc-123']) {
        const r = await raw(app.url, method, path, { ...headers, ...(given ? { 'x-request-id': given } : {}) }, body);
        const id = r.headers['x-request-id'];
        expect(r.status).toBeGreaterThanOrEqual(400);
        expect(JSON.parse(r.text).error.requestId, `${method} ${path}`).toBe(id);
        if (given) expect(id).toBe(given);
      }
    }
  });
});

describe('request log lines', () => {
  let server: Server;
  let base = '';
  const lines: any[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    const log = pino({ level: 'info', timestamp: pino.stdTimeFunctions.isoTime }, sink);
    const ctx = { ...app.service.ctx, log };
    const express = createHttpApp(ctx, routes);
    const lean = leanDispatcher(ctx, routes);
    server = createServer((req, res) => {
      if (!lean(req, res)) void express(req, res);
    });
    server.on('clientError', clientErrorListener(log));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("carry the actor's phone and role once authenticated, and an ISO 8601 time", async () => {
    const admin = await app.login('13600000002', 'admin');
    const worker = await app.login('13600000003', 'worker');
    await raw(base, 'GET', '/api/auth/me', { authorization: `Bearer ${admin}` });
    await raw(base, 'GET', '/api/clock/state?deviceNo=x', { authorization: `Bearer ${worker}` }); // the lean path
    await raw(base, 'GET', '/api/health');
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.find((l) => l.url === '/api/auth/me')).toMatchObject({ phone: '13600000002', role: 'admin', status: 200 });
    expect(requests.find((l) => l.url.startsWith('/api/clock/state'))).toMatchObject({ phone: '13600000003', role: 'worker' });
    const health = requests.find((l) => l.url === '/api/health');
    expect(health.phone).toBeUndefined();
    expect(health.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('a request refused before it was read (431) gets a request id of its own: in the header, the body and the log', async () => {
    const port = Number(new URL(base).port);
    const r = await rawRequest(port, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}`);
    expect(r.status).toBe(431);
    const id = r.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.json.error).toMatchObject({ code: 'HEADERS_TOO_LARGE', requestId: id });
    expect(lines.find((l) => l.requestId === id)).toMatchObject({ msg: 'request refused', status: 431, code: 'HEADERS_TOO_LARGE' });
  });
});
