/**
 * Broken bodies, encodings, characters and escapes, for every route (express and the lean dispatcher): a body whose
 * Content-Encoding does not inflate is 400 MALFORMED_REQUEST; a path parameter with a broken percent-escape is
 * 400 MALFORMED_REQUEST; text that is not valid Unicode (a lone UTF-16 surrogate, like NUL) is 422
 * INVALID_CHARACTERS wherever it comes; headers over Node's limit are 431 in the error shape. The route list is
 * read at run time. Assertions are on status, code and shape, never on wording.
 */
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.ts';
import { routes } from '../../src/http/routes/index.ts';
import type { AnyRoute } from '../../src/http/route.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { rawRequest, type RawResponse } from '../helpers/raw-http.ts';

let app: TestApp;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  app = await startTestApp();
  for (const role of ROLES) tokens[role] = await app.login('13700000014', role, '测试');
});
afterAll(() => app.close());

/** A token of a role the route allows (undefined for public routes). */
const tokenFor = (r: AnyRoute) => (r.access === 'public' ? undefined : tokens[r.access === 'authenticated' ? 'worker' : r.access[0]]);

function send(method: string, path: string, opts: { token?: string; headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<RawResponse> {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: x'];
  if (opts.token) lines.push(`Authorization: Bearer ${opts.token}`);
  for (const [k, v] of Object.entries(opts.headers ?? {})) lines.push(`${k}: ${v}`);
  return rawRequest(app.service.port, lines.join('\r\n'), opts.body);
}

/** The documented error shape, with a JSON content type. */
function expectErrorShape(r: RawResponse, status: number, code?: string): void {
  expect({ status: r.status, type: r.headers['content-type'] }).toMatchObject({ status, type: expect.stringMatching(/^application\/json/) });
  expect(typeof r.json?.error?.code).toBe('string');
  expect(typeof r.json?.error?.message).toBe('string');
  expect(Object.keys(r.json).sort()).toEqual(['error']);
  if (code) expect(r.json.error.code).toBe(code);
}

describe('class 3: a Content-Encoding that does not inflate', () => {
  const withBody = routes.filter((r) => r.body);
  const bad: [string, Buffer][] = [
    ['gzip', Buffer.from('this is not gzip')],
    ['gzip', gzipSync('{"deviceNo": "JC-01"}').subarray(0, 15)],
    ['deflate', Buffer.from('neither deflate')],
    ['br', Buffer.from([0x1b, 0xff, 0xff, 0xff, 0x00, 0x12])],
  ];
  it.each(bad)('%s that does not inflate: 400 MALFORMED_REQUEST on every JSON route', async (encoding, body) => {
    expect(withBody.length).toBeGreaterThan(10);
    for (const r of withBody) {
      const res = await send(r.method.toUpperCase(), r.path.replace(/:\w+/g, 'x'), {
        token: tokenFor(r),
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
        body,
      });
      expectErrorShape(res, 400, 'MALFORMED_REQUEST');
    }
  });

  it('a gzip body inflating past the JSON limit: 413, and a good gzip body is read', async () => {
    const bomb = gzipSync(Buffer.from(`{"deviceNo": "${'x'.repeat(5_000_000)}"}`));
    expect(bomb.length).toBeLessThan(20_000);
    const res = await send('POST', '/api/clock/start', {
      token: tokens.worker,
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: bomb,
    });
    expectErrorShape(res, 413, 'PAYLOAD_TOO_LARGE');
    const good = await send('POST', '/api/clock/start', {
      token: tokens.worker,
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'br' },
      body: brotliCompressSync('{"deviceNo": "无此设备"}'),
    });
    expectErrorShape(good, 404, 'DEVICE_NOT_FOUND');
  });
});

describe('class 4: a path parameter with a broken percent-escape', () => {
  const withParams = routes.filter((r) => r.path.includes(':'));
  it.each(['%E0%A4%A', '%', '%zz', '%ED%A0%80', '%C0%80'])('%s: 400 MALFORMED_REQUEST on every route with one, with and without a token', async (bad) => {
    expect(withParams.length).toBeGreaterThan(5);
    for (const r of withParams) {
      for (const token of [tokenFor(r), undefined]) {
        const res = await send(r.method.toUpperCase(), r.path.replace(/:\w+/g, bad), {
          token,
          headers: r.body ? { 'Content-Type': 'application/json' } : {},
          body: r.body ? '{}' : undefined,
        });
        // Without a token a protected route may say 401 first; never a 5xx, always the error shape.
        if (token === undefined && r.access !== 'public') expect([400, 401]).toContain(res.status);
        else expectErrorShape(res, 400, 'MALFORMED_REQUEST');
        expectErrorShape(res, res.status);
      }
    }
  });
});

describe('class 5: text that is not valid Unicode', () => {
  const lone = ['\\ud800', '\\udfff', 'a\\ud83d', '\\ude00b', '\\u0000'];

  it.each(lone)('%s in a JSON body: 422 INVALID_CHARACTERS on the lean path and through express', async (s) => {
    const cases: [string, string, string | undefined][] = [
      ['POST', '/api/clock/switch-device', `{"deviceNo": "${s}"}`],
      ['POST', '/api/clock/start', `{"deviceKey": "${s}"}`],
      ['POST', '/api/products', `{"projectNo": "${s}", "productName": "N", "deviceNo": "D", "processName": "S", "standardCycleSeconds": 30}`],
      ['POST', '/api/people', `{"phone": "13800138000", "name": "${s}", "role": "worker"}`],
      ['POST', '/api/auth/platform-login', `{"code": "sim:${s}", "phoneCode": "sim:13800138000"}`],
      ['POST', '/api/people', `{"phone": "13800138000", "name": "x", "role": "worker", "${s}": 1}`],
    ];
    for (const [method, path, body] of cases) {
      const route = routes.find((r) => r.path === path && r.method === method.toLowerCase())!;
      const res = await send(method, path, { token: tokenFor(route), headers: { 'Content-Type': 'application/json' }, body });
      expectErrorShape(res, 422, 'INVALID_CHARACTERS');
    }
  });

  it('a surrogate pair (an emoji) is valid text: accepted', async () => {
    const res = await send('POST', '/api/people', {
      token: tokens.admin,
      headers: { 'Content-Type': 'application/json' },
      body: '{"phone": "13800138001", "name": "张\\ud83d\\ude00", "role": "worker"}',
    });
    expect(res.status).toBe(200);
    expect(res.json.person.name).toBe('张😀');
  });

  it('nested deeper than any schema: still checked', async () => {
    let deep = '"\\ud800"';
    for (let i = 0; i < 40; i++) deep = `{"a": ${deep}}`;
    const res = await send('POST', '/api/people', { token: tokens.admin, headers: { 'Content-Type': 'application/json' }, body: deep });
    expectErrorShape(res, 422, 'INVALID_CHARACTERS');
  });

  it('percent-escapes of surrogates in a query or path never reach a handler as text', async () => {
    const q = await send('GET', '/api/products?keyword=%ED%A0%80&deviceNo=%00', { token: tokens.admin });
    expectErrorShape(q, 422, 'INVALID_CHARACTERS');
    const p = await send('DELETE', '/api/people/%ED%A0%80?role=worker', { token: tokens.admin });
    expectErrorShape(p, 400, 'MALFORMED_REQUEST');
  });
});

describe('class 9: headers over the limit', () => {
  it.each([20_000, 90_000, 300_000])('%i bytes of headers: 431 in the error shape, not a reset', async (size) => {
    const res = await send('GET', '/api/health', { headers: { 'X-Big': 'a'.repeat(size) } });
    expectErrorShape(res, 431, 'HEADERS_TOO_LARGE');
    const h = await app.request('GET', '/api/health');
    expect(h.status).toBe(200);
  });

  it('a request line that is not HTTP: 400 in the error shape', async () => {
    const res = await rawRequest(app.service.port, 'GARBAGE\x01 / HTTP/1.1\r\nHost: x');
    expectErrorShape(res, 400, 'MALFORMED_REQUEST');
  });
});
