import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';
import { createHttpApp } from '../../src/http/app.ts';
import { defineRoute } from '../../src/http/route.ts';
import { toErrorAnswer } from '../../src/http/errors.ts';
import { ZodError, z } from 'zod';
import { AppError } from '../../src/errors.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('HTTP skeleton', () => {
  it('health answers 200 with the database status and a request id', async () => {
    const r = await app.request('GET', '/api/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', database: { kind: app.service.ctx.db.kind, ok: true } });
    expect(r.headers.get('x-request-id')).toBe('abc-123');
    const r2 = await app.request('GET', '/api/health');
    expect(r2.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('unknown routes answer a JSON 404 in the error shape', async () => {
    const r = await app.request('GET', '/api/nothing-here');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NOT_FOUND');
    expect(typeof r.body.error.message).toBe('string');
  });

  it('malformed JSON is a 400, an oversized body a 413 and an unreadable charset a 415, never a 500 or a stack trace', async () => {
    const route = '/api/auth/platform-login'; // a route with a JSON body (only those read one)
    const bad = await app.request('POST', route, { body: '{"a":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('MALFORMED_JSON');
    const big = await app.request('POST', route, { body: JSON.stringify({ x: 'y'.repeat(300_000) }) });
    expect(big.status).toBe(413);
    expect(JSON.stringify(big.body)).not.toMatch(/at .*\.ts/);
    const latin1 = await app.request('POST', route, { body: '{}', headers: { 'content-type': 'application/json; charset=latin1' } });
    expect([latin1.status, latin1.body.error.code]).toEqual([415, 'UNSUPPORTED_ENCODING']);
  });

  it('serves its OpenAPI document', async () => {
    const r = await app.request('GET', '/api/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    expect(r.body.paths['/api/health'].get).toBeTruthy();
  });
});

describe('token checks (src/http/auth.ts)', () => {
  // A route of its own, so the check does not depend on which areas are registered.
  const probe = defineRoute({
    method: 'get',
    path: '/api/probe',
    tag: 'test',
    summary: 'probe',
    access: ['admin'],
    async handler({ user }) {
      return { phone: user.phone, role: user.role, name: user.name };
    },
  });
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createHttpApp(app.service.ctx, [probe]).listen(0);
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const get = async (token?: string) => {
    const res = await fetch(`${base}/api/probe`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('lets a valid token of an allowed role through, with the person from personnel', async () => {
    const token = await app.login('13800138000', 'admin', '王管理');
    expect(await get(token)).toEqual({ status: 200, body: { phone: '13800138000', role: 'admin', name: '王管理' } });
  });

  it('refuses a missing, forged, alg-none, expired or garbage token with 401', async () => {
    const none = jwt.sign({ role: 'admin' }, '', { algorithm: 'none', subject: '13800138000' } as any);
    const forged = jwt.sign({ role: 'admin' }, 'other-secret', { algorithm: 'HS256', subject: '13800138000' });
    const expired = jwt.sign({ role: 'admin', exp: Math.floor(Date.now() / 1000) - 10 }, 'test-secret', { algorithm: 'HS256', subject: '13800138000' });
    const other = jwt.sign({ role: 'admin' }, 'test-secret', { algorithm: 'HS512', subject: '13800138000' });
    const noAuth = await get();
    expect(noAuth.status).toBe(401);
    expect(noAuth.body.error.code).toBe('UNAUTHORIZED');
    for (const t of [none, forged, expired, other, 'garbage']) {
      const r = await get(t);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('INVALID_TOKEN');
    }
  });

  it('answers 403 to a role not allowed, and 401 once the role is removed from personnel', async () => {
    const worker = await app.login('13900139000', 'worker');
    expect((await get(worker)).status).toBe(403);
    const admin = await app.login('13900139000', 'admin');
    expect((await get(admin)).status).toBe(200);
    await app.service.ctx.db.pool.query(`DELETE FROM personnel WHERE phone = '13900139000' AND role = 'admin'`);
    const revoked = await get(admin);
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('ROLE_REVOKED');
  });
});

describe('error mapping (src/http/errors.ts)', () => {
  it('maps a lost database to 503, validation to 422, app errors as declared, anything else to 500 without details', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    expect(toErrorAnswer(refused)[0]).toBe(503);
    expect(toErrorAnswer(terminated)).toEqual([503, { error: { code: 'DATABASE_UNAVAILABLE', message: '数据库暂时不可用，请稍后重试' } }]);
    const zodError = z.object({ a: z.number() }).safeParse({ a: 'x' }).error as ZodError;
    const [status, body] = toErrorAnswer(zodError);
    expect(status).toBe(422);
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.details).toEqual([{ path: ['a'], message: expect.any(String) }]);
    expect(toErrorAnswer(new AppError(409, 'X', '冲突', { label: '换设备' }))).toEqual([409, { error: { code: 'X', message: '冲突', details: { label: '换设备' } } }]);
    const internal = toErrorAnswer(new TypeError('secret internals at /src/x.ts:1'));
    expect(internal).toEqual([500, { error: { code: 'INTERNAL_ERROR', message: '服务器内部错误，请稍后重试' } }]);
  });
});
