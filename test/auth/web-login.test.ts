/**
 * Scan-to-login of the web console over HTTP: the ticket and the
 * code (scene `w=<key>` within 32 characters, page pages/login/confirm), confirmation only by administrators and
 * managers (a worker: 403), the choice of a person holding both roles, the token handed out once (as a cookie on
 * the console's own calls), expiry after 2 minutes, limits like the login's, tickets shared by API instances, and
 * the first administrator with the simulator only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_LOGIN_LIMITS, WEB_LOGIN_TTL_SECONDS } from '../../src/auth/web-login.ts';
import { LOGIN_LIMITS } from '../../src/auth/rate-limit.ts';
import { startTestApp, withSecondInstance, type TestApp } from '../helpers/app.ts';
import { onPostgres } from '../helpers/db.ts';

let app: TestApp;
let admin: string;
let manager: string;
let both: string;
let workerAdmin: string;
let worker: string;

const start = (headers: Record<string, string> = {}) => app.request('POST', '/api/auth/web-login', { headers });
const poll = (ticket: string, headers: Record<string, string> = {}) => app.request('GET', `/api/auth/web-login/${ticket}`, { headers });
const keyOf = (scene: string) => scene.replace(/^w=/, '');
const confirm = (token: string, key: string, role?: string) =>
  app.request('POST', '/api/auth/web-login/confirm', { token, body: role ? { key, role } : { key } });

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login('13800000001', 'admin', '王管理');
  manager = await app.login('13800000002', 'manager', '李经理');
  both = await app.login('13800000003', 'admin', '赵主任');
  await app.login('13800000003', 'manager', '赵主任');
  workerAdmin = await app.login('13800000004', 'worker', '钱班长');
  await app.login('13800000004', 'admin', '钱班长');
  worker = await app.login('13800000005', 'worker', '孙工');
});
afterAll(() => app?.close());

describe('POST /api/auth/web-login', () => {
  it('answers a secret ticket and a mini-program code whose scene carries another key, made through getwxacodeunlimit', async () => {
    const r = await start();
    expect(r.status).toBe(201);
    expect(r.body.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.body.scene).toMatch(/^w=[A-Za-z0-9_-]{16}$/);
    expect(r.body.scene.length).toBeLessThanOrEqual(32);
    expect(r.body.scene).not.toContain(r.body.ticket);
    expect(r.body.expiresInSeconds).toBe(WEB_LOGIN_TTL_SECONDS);
    expect(Date.parse(r.body.expiresAt) - app.clock.now().getTime()).toBe(120_000);
    expect(app.simulator.generatedCodes.at(-1)).toMatchObject({ scene: r.body.scene, page: 'pages/login/confirm', envVersion: 'release', checkPath: true });
    const image = await fetch(app.url + r.body.codeUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await image.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    const stored = await app.service.ctx.db.pool.query(`SELECT ticket_hash, scene_key FROM web_login_tickets WHERE scene_key = $1`, [keyOf(r.body.scene)]);
    expect(stored.rows[0].ticket_hash).not.toBe(r.body.ticket);
  });

  it('the code opens the page WX_WEB_LOGIN_PAGE names', async () => {
    const other = await startTestApp({ WX_WEB_LOGIN_PAGE: 'pages/login/login' });
    try {
      expect((await other.request('POST', '/api/auth/web-login')).status).toBe(201);
      expect(other.simulator.generatedCodes.at(-1)?.page).toBe('pages/login/login');
    } finally {
      await other.close();
    }
  });
});

describe('confirmation and the token', () => {
  it('pending until an administrator confirms in the mini-program; then the token, once; the code is gone', async () => {
    const s = (await start()).body;
    expect((await poll(s.ticket)).body).toEqual({ status: 'pending', expiresAt: s.expiresAt });
    const c = await confirm(admin, keyOf(s.scene));
    expect(c.status).toBe(200);
    expect(c.body).toEqual({ status: 'confirmed', person: { phone: '13800000001', name: '王管理' }, role: 'admin' });
    const p = await poll(s.ticket);
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ status: 'confirmed', person: { phone: '13800000001', name: '王管理' }, role: 'admin', roles: ['admin'] });
    expect(p.headers.get('set-cookie')).toBeNull();
    expect((await app.request('GET', '/api/auth/me', { token: p.body.token })).body.role).toBe('admin');
    const again = await poll(s.ticket);
    expect([again.status, again.body.error.code]).toEqual([409, 'WEB_LOGIN_TICKET_USED']);
    expect((await fetch(app.url + s.codeUrl)).status).toBe(404);
    expect((await confirm(admin, keyOf(s.scene))).body.error.code).toBe('WEB_LOGIN_ALREADY_CONFIRMED');
  });

  it('a worker may not confirm (403); a worker who also holds the admin role confirms as admin', async () => {
    const s = (await start()).body;
    const w = await confirm(worker, keyOf(s.scene));
    expect([w.status, w.body.error.code]).toEqual([403, 'WEB_LOGIN_NOT_ALLOWED']);
    expect((await poll(s.ticket)).body.status).toBe('pending');
    const wa = await confirm(workerAdmin, keyOf(s.scene));
    expect(wa.body).toMatchObject({ status: 'confirmed', role: 'admin' });
    expect((await poll(s.ticket)).body).toMatchObject({ status: 'confirmed', role: 'admin', roles: ['worker', 'admin'] });
  });

  it('a person holding admin and manager chooses: choose_role first, then the chosen role', async () => {
    const s = (await start()).body;
    const first = await confirm(both, keyOf(s.scene));
    expect(first.body).toEqual({ status: 'choose_role', person: { phone: '13800000003', name: '赵主任' }, roles: ['admin', 'manager'] });
    expect((await poll(s.ticket)).body.status).toBe('pending');
    expect((await confirm(manager, keyOf(s.scene), 'admin')).body.error.code).toBe('ROLE_NOT_HELD');
    expect((await confirm(both, keyOf(s.scene), 'manager')).body).toMatchObject({ status: 'confirmed', role: 'manager' });
    expect((await poll(s.ticket)).body).toMatchObject({ status: 'confirmed', role: 'manager', roles: ['admin', 'manager'] });
  });

  it('on the console’s own call the token becomes an HttpOnly SameSite cookie on /api and stays out of the body', async () => {
    const s = (await start()).body;
    await confirm(manager, keyOf(s.scene));
    const p = await poll(s.ticket, { 'x-console-request': '1' });
    expect(p.body).toMatchObject({ status: 'confirmed', role: 'manager' });
    expect(p.body.token).toBeUndefined();
    const cookie = p.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^console_session=[^;]+; Max-Age=\d+; Path=\/api; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
    const token = /^console_session=([^;]+)/.exec(cookie)![1];
    const me = (headers: Record<string, string>) => app.request('GET', '/api/auth/me', { headers: { cookie: `console_session=${token}`, ...headers } });
    expect((await me({ 'x-console-request': '1' })).body.person.name).toBe('李经理');
    expect((await me({})).status).toBe(401);
    expect((await me({ 'x-console-request': '1', 'sec-fetch-site': 'same-site' })).status).toBe(401);
    const out = await app.request('DELETE', '/api/auth/web-session');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^console_session=; Path=\/api; Expires=Thu, 01 Jan 1970/);
  });

  it('the console session switches between the console roles the person holds, the new token again in the cookie', async () => {
    const s = (await start()).body;
    await confirm(both, keyOf(s.scene), 'admin');
    const token = /^console_session=([^;]+)/.exec((await poll(s.ticket, { 'x-console-request': '1' })).headers.get('set-cookie')!)![1];
    const headers = { cookie: `console_session=${token}`, 'x-console-request': '1' };
    const r = await app.request('POST', '/api/auth/web-session/switch-role', { headers, body: { role: 'manager' } });
    expect(r.body).toMatchObject({ role: 'manager', person: { name: '赵主任' } });
    expect(r.body.token).toBeUndefined();
    const next = /^console_session=([^;]+)/.exec(r.headers.get('set-cookie')!)![1];
    expect(app.service.ctx.tokens.verify(next)).toEqual({ phone: '13800000003', role: 'manager' });
  });

  it('a role removed between the confirmation and the poll gives no token', async () => {
    await app.login('13800000006', 'manager', '周经理');
    const token = app.service.ctx.tokens.issue({ phone: '13800000006', role: 'manager' });
    const s = (await start()).body;
    await confirm(token, keyOf(s.scene));
    await app.service.ctx.db.pool.query(`DELETE FROM personnel WHERE phone = '13800000006'`);
    const p = await poll(s.ticket);
    expect([p.status, p.body.error.code]).toEqual([401, 'ROLE_REVOKED']);
  });

  it('expires after 2 minutes: the poll says expired, a late confirmation is refused', async () => {
    const s = (await start()).body;
    app.clock.advance(WEB_LOGIN_TTL_SECONDS * 1000);
    expect((await poll(s.ticket)).body).toEqual({ status: 'expired' });
    const late = await confirm(admin, keyOf(s.scene));
    expect([late.status, late.body.error.code]).toEqual([409, 'WEB_LOGIN_EXPIRED']);
    expect((await fetch(app.url + s.codeUrl)).status).toBe(404);
  });

  it('unknown tickets and keys are 404 and count as refused login attempts of the IP', async () => {
    const before = await app.service.ctx.db.pool.query(`SELECT coalesce(sum(attempts), 0)::int AS n FROM login_attempts WHERE bucket LIKE 'ip:%'`);
    const p = await poll('x'.repeat(43));
    expect([p.status, p.body.error.code]).toEqual([404, 'WEB_LOGIN_TICKET_NOT_FOUND']);
    const c = await confirm(admin, 'nope');
    expect([c.status, c.body.error.code]).toEqual([404, 'WEB_LOGIN_NOT_FOUND']);
    const after = await app.service.ctx.db.pool.query(`SELECT coalesce(sum(attempts), 0)::int AS n FROM login_attempts WHERE bucket LIKE 'ip:%'`);
    expect(after.rows[0].n - before.rows[0].n).toBe(2);
  });
});

describe('limits like the login’s', () => {
  it(`refuses an IP's codes beyond ${WEB_LOGIN_LIMITS.startPerIp.max} within 10 minutes with 429 and Retry-After`, async () => {
    const fresh = await startTestApp();
    try {
      for (let i = 0; i < WEB_LOGIN_LIMITS.startPerIp.max; i++) expect((await fresh.request('POST', '/api/auth/web-login')).status).toBe(201);
      const r = await fresh.request('POST', '/api/auth/web-login');
      expect([r.status, r.body.error.code]).toEqual([429, 'TOO_MANY_LOGIN_ATTEMPTS']);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });

  it('an IP over its refused login attempts is refused on polls too', async () => {
    const fresh = await startTestApp();
    try {
      // One refused poll names the IP's bucket; then the window is full.
      expect((await fresh.request('GET', `/api/auth/web-login/${'y'.repeat(43)}`)).status).toBe(404);
      const n = await fresh.service.ctx.db.pool.query(`UPDATE login_attempts SET attempts = $1 WHERE bucket LIKE 'ip:%' RETURNING bucket`, [
        LOGIN_LIMITS.perIpRefused.max,
      ]);
      expect(n.rows).toHaveLength(1);
      const r = await fresh.request('GET', `/api/auth/web-login/${'y'.repeat(43)}`);
      expect([r.status, r.body.error.code]).toEqual([429, 'TOO_MANY_LOGIN_ATTEMPTS']);
    } finally {
      await fresh.close();
    }
  });
});

describe('several API instances', () => {
  // PostgreSQL only: a second instance needs the shared database, which an in-memory PGlite cannot be.
  it.runIf(onPostgres)('a ticket made on one instance is confirmed on another and polled on the first', async () => {
    const s = (await start()).body;
    await withSecondInstance(app, async (second) => {
      const c = await second.request('POST', '/api/auth/web-login/confirm', { token: admin, body: { key: keyOf(s.scene) } });
      expect(c.body.status).toBe('confirmed');
    });
    expect((await poll(s.ticket)).body).toMatchObject({ status: 'confirmed', role: 'admin' });
  });
});

describe('the first administrator', () => {
  it('with the simulator: setup lists admins and managers; first-admin adds one only while there is none', async () => {
    const fresh = await startTestApp();
    try {
      expect((await fresh.request('GET', '/api/auth/web-login/setup')).body).toEqual({ hasAdministrator: false, simulator: true, people: [] });
      const bad = await fresh.request('POST', '/api/auth/web-login/first-admin', { body: { phone: '123', name: '王' } });
      expect([bad.status, bad.body.error.code]).toEqual([422, 'PERSON_INVALID']);
      const add = await fresh.request('POST', '/api/auth/web-login/first-admin', { body: { phone: '13800138000', name: '王管理' } });
      expect(add.status).toBe(201);
      await fresh.login('13700000001', 'worker', '张三');
      expect((await fresh.request('GET', '/api/auth/web-login/setup')).body).toEqual({
        hasAdministrator: true,
        simulator: true,
        people: [{ phone: '13800138000', name: '王管理', roles: ['admin'] }],
      });
      const second = await fresh.request('POST', '/api/auth/web-login/first-admin', { body: { phone: '13800138001', name: '李' } });
      expect([second.status, second.body.error.code]).toEqual([409, 'ADMINISTRATOR_EXISTS']);
    } finally {
      await fresh.close();
    }
  });

  it('without the simulator (WX_APPID set): nobody is listed and nobody can be added from the web', async () => {
    const prod = await startTestApp({ WX_APPID: 'wx0000000000000001', WX_SECRET: 'secret', WX_API_BASE: 'http://127.0.0.1:9' });
    try {
      expect((await prod.request('GET', '/api/auth/web-login/setup')).body).toEqual({ hasAdministrator: false, simulator: false });
      const add = await prod.request('POST', '/api/auth/web-login/first-admin', { body: { phone: '13800138000', name: '王管理' } });
      expect([add.status, add.body.error.code]).toEqual([403, 'SIMULATOR_ONLY']);
      expect((await prod.service.ctx.db.pool.query(`SELECT count(*)::int AS n FROM personnel`)).rows[0].n).toBe(0);
    } finally {
      await prod.close();
    }
  });
});
