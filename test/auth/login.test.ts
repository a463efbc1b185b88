import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
let seq = 0;
const code = () => `sim:login-${++seq}`;
/** A fresh (single-use) phone credential for `phone`. */
const phoneCode = (phone: string) => `sim:${phone}#${++seq}`;
const addPerson = (phone: string, name: string, ...roles: string[]) =>
  Promise.all(roles.map((r) => app.service.ctx.db.pool.query(`INSERT INTO personnel (phone, name, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [phone, name, r])));
const login = (body: unknown) => app.request('POST', '/api/auth/platform-login', { body });
const complete = (body: unknown) => app.request('POST', '/api/auth/platform-login/complete', { body });
const openidOf = async (phone: string) =>
  (await app.service.ctx.db.pool.query(`SELECT openid FROM platform_accounts WHERE phone = $1`, [phone])).rows[0]?.openid;

beforeAll(async () => {
  app = await startTestApp();
  await addPerson('13800000001', '王一', 'worker');
  await addPerson('13800000002', '李二', 'worker', 'admin', 'manager');
  await addPerson('13800000003', '张三', 'admin');
});
afterAll(() => app.close());
beforeEach(() => app.simulator.clearFailures());

describe('POST /api/auth/platform-login', () => {
  it('one phone with one role: straight to the token; the openid is kept for notifications', async () => {
    const c = code();
    const r = await login({ code: c, phoneCode: phoneCode('13800000001') });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', person: { phone: '13800000001', name: '王一' }, role: 'worker', roles: ['worker'] });
    expect(app.service.ctx.tokens.verify(r.body.token)).toEqual({ phone: '13800000001', role: 'worker' });
    expect(r.body.expiresAt).toMatch(/\+08:00$/);
    expect(await openidOf('13800000001')).toBe(app.simulator.openidFor(c.slice(4)));
    const me = await app.request('GET', '/api/auth/me', { token: r.body.token });
    expect(me.body).toEqual({ person: { phone: '13800000001', name: '王一' }, role: 'worker', roles: ['worker'], messageTemplates: {}, scope: { workshops: [], teams: [] } });
  });

  it('the legacy credential (encryptedData + iv) logs in the same way', async () => {
    const c = code();
    const r = await login({ code: c, ...app.simulator.legacyPhoneData(c, '13800000003') });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', role: 'admin', person: { phone: '13800000003', name: '张三' } });
  });

  it('legacy data of another mini-program or with a wrong iv is refused', async () => {
    const c1 = code();
    const foreign = await login({ code: c1, ...app.simulator.legacyPhoneData(c1, '13800000003', 'wxforeign00000000') });
    expect([foreign.status, foreign.body.error.code]).toEqual([400, 'PHONE_DATA_FOREIGN_APP']);
    const c2 = code();
    const data = app.simulator.legacyPhoneData(c2, '13800000003');
    const otherIv = app.simulator.legacyPhoneData(code(), '13800000003').iv;
    const wrongIv = await login({ code: c2, encryptedData: data.encryptedData, iv: otherIv });
    expect([wrongIv.status, wrongIv.body.error.code]).toEqual([400, 'PHONE_DATA_INVALID']);
    expect(wrongIv.body.error.message).toMatch(/重新授权手机号/);
  });

  it('several roles: the roles to choose from with a ticket; completing with one gives its token', async () => {
    const c = code();
    const r = await login({ code: c, phoneCode: phoneCode('13800000002') });
    expect(r.body).toMatchObject({ status: 'choose_role', person: { phone: '13800000002', name: '李二' }, roles: ['worker', 'admin', 'manager'] });
    expect(r.body.token).toBeUndefined();
    expect(app.service.ctx.tokens.verify(r.body.ticket)).toBeNull();
    const done = await complete({ ticket: r.body.ticket, role: 'manager' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'ok', role: 'manager', roles: ['worker', 'admin', 'manager'] });
    expect(app.service.ctx.tokens.verify(done.body.token)).toEqual({ phone: '13800000002', role: 'manager' });
    expect(await openidOf('13800000002')).toBe(app.simulator.openidFor(c.slice(4)));
    const again = await complete({ ticket: r.body.ticket, role: 'admin' });
    expect([again.status, again.body.error.code]).toEqual([401, 'LOGIN_TICKET_USED']);
  });

  it('a role the phone does not hold cannot be chosen, and the ticket survives the mistake', async () => {
    await addPerson('13800000004', '赵四', 'worker', 'admin');
    const r = await login({ code: code(), phoneCode: phoneCode('13800000004') });
    const bad = await complete({ ticket: r.body.ticket, role: 'manager' });
    expect([bad.status, bad.body.error.code]).toEqual([403, 'ROLE_NOT_HELD']);
    const good = await complete({ ticket: r.body.ticket, role: 'admin' });
    expect(good.body).toMatchObject({ status: 'ok', role: 'admin' });
  });

  it('several phones: only the registered ones are offered; the client cannot name another phone', async () => {
    const r = await login({ code: code(), phoneCode: [phoneCode('13800000001'), phoneCode('13900000009'), phoneCode('13800000002')] });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('choose_phone');
    expect(r.body.phones).toEqual([
      { phone: '13800000001', name: '王一', roles: ['worker'] },
      { phone: '13800000002', name: '李二', roles: ['worker', 'admin', 'manager'] },
    ]);
    const foreign = await complete({ ticket: r.body.ticket, phone: '13800000003' });
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'PHONE_NOT_OFFERED']);
    const none = await complete({ ticket: r.body.ticket });
    expect([none.status, none.body.error.code]).toEqual([422, 'PHONE_REQUIRED']);
    const chosen = await complete({ ticket: r.body.ticket, phone: '13800000002' });
    expect(chosen.body).toMatchObject({ status: 'choose_role', person: { phone: '13800000002' }, roles: ['worker', 'admin', 'manager'] });
    const done = await complete({ ticket: chosen.body.ticket, role: 'worker' });
    expect(done.body).toMatchObject({ status: 'ok', role: 'worker', person: { phone: '13800000002' } });
  });

  it('phone and role in one completion step', async () => {
    const r = await login({ code: code(), phoneCode: [phoneCode('13800000001'), phoneCode('13800000002')] });
    const done = await complete({ ticket: r.body.ticket, phone: '13800000002', role: 'admin' });
    expect(done.body).toMatchObject({ status: 'ok', role: 'admin', person: { phone: '13800000002' } });
  });

  it('unregistered phone: 403 PHONE_NOT_REGISTERED naming the phone', async () => {
    const r = await login({ code: code(), phoneCode: phoneCode('13912345678') });
    expect([r.status, r.body.error.code]).toEqual([403, 'PHONE_NOT_REGISTERED']);
    expect(r.body.error.message).toContain('13912345678');
    const foreign = await login({ code: code(), phoneCode: 'sim:852-61234567' });
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'PHONE_NOT_REGISTERED']);
  });

  it('used, invalid and blocked codes, platform rate limit and outage: clear answers', async () => {
    const c = code();
    expect((await login({ code: c, phoneCode: phoneCode('13800000001') })).status).toBe(200);
    const used = await login({ code: c, phoneCode: phoneCode('13800000001') });
    expect([used.status, used.body.error.code]).toEqual([401, 'LOGIN_CODE_USED']);
    const invalid = await login({ code: 'whatever', phoneCode: phoneCode('13800000001') });
    expect([invalid.status, invalid.body.error.code]).toEqual([401, 'LOGIN_CODE_INVALID']);
    const p = phoneCode('13800000001');
    const usedPhone = await login({ code: code(), phoneCode: p });
    expect(usedPhone.status).toBe(200);
    const again = await login({ code: code(), phoneCode: p });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('PHONE_CODE_INVALID');
    app.simulator.failNext('jscode2session', 45011);
    const limited = await login({ code: code(), phoneCode: phoneCode('13800000001') });
    expect([limited.status, limited.body.error.code]).toEqual([429, 'PLATFORM_RATE_LIMITED']);
    app.simulator.failNext('jscode2session', 40226);
    const blocked = await login({ code: code(), phoneCode: phoneCode('13800000001') });
    expect([blocked.status, blocked.body.error.code]).toEqual([403, 'WECHAT_USER_BLOCKED']);
    app.simulator.failNext('jscode2session', -1, { times: 3 });
    const down = await login({ code: code(), phoneCode: phoneCode('13800000001') });
    expect([down.status, down.body.error.code]).toEqual([503, 'PLATFORM_UNAVAILABLE']);
    for (const r of [used, invalid, limited, blocked, down]) expect(r.body.error.message).toMatch(/[\u4e00-\u9fa5]/);
  });

  it('a login without a phone credential is refused before the platform is asked', async () => {
    const before = app.simulator.callCount('jscode2session');
    const r = await login({ code: code() });
    expect([r.status, r.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(r.body.error.message).toContain('请先授权手机号');
    expect(app.simulator.callCount('jscode2session')).toBe(before);
  });
});

describe('login tickets', () => {
  it('expire after 5 minutes on the clock', async () => {
    const r = await login({ code: code(), phoneCode: phoneCode('13800000002') });
    app.clock.advance(301_000);
    const late = await complete({ ticket: r.body.ticket, role: 'admin' });
    expect([late.status, late.body.error.code]).toEqual([401, 'LOGIN_TICKET_INVALID']);
  });

  it('an access token, a forged ticket or a ticket with extra phones is refused', async () => {
    const token = await app.login('13800000002', 'admin');
    expect((await complete({ ticket: token, role: 'admin' })).body.error.code).toBe('LOGIN_TICKET_INVALID');
    const forged = jwt.sign({ oid: 'o1', phones: ['13800000003'], aud: 'platform-login-ticket', jti: 'j' }, 'test-secret', { expiresIn: 60 });
    expect((await complete({ ticket: forged, role: 'admin' })).body.error.code).toBe('LOGIN_TICKET_INVALID');
    const r = await login({ code: code(), phoneCode: phoneCode('13800000002') });
    const [h, p, s] = r.body.ticket.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    claims.phones.push('13800000003');
    const tampered = [h, Buffer.from(JSON.stringify(claims)).toString('base64url'), s].join('.');
    expect((await complete({ ticket: tampered, phone: '13800000003' })).body.error.code).toBe('LOGIN_TICKET_INVALID');
  });
});

describe('GET /api/auth/me and POST /api/auth/switch-role', () => {
  it('switches to a role the phone holds and returns a new token for it', async () => {
    const worker = await app.login('13800000002', 'worker');
    const r = await app.request('POST', '/api/auth/switch-role', { token: worker, body: { role: 'manager' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ role: 'manager', person: { phone: '13800000002', name: '李二' }, roles: ['worker', 'admin', 'manager'] });
    expect(app.service.ctx.tokens.verify(r.body.token)).toEqual({ phone: '13800000002', role: 'manager' });
    const me = await app.request('GET', '/api/auth/me', { token: r.body.token });
    expect(me.body).toEqual({ person: { phone: '13800000002', name: '李二' }, role: 'manager', roles: ['worker', 'admin', 'manager'], messageTemplates: {}, scope: { workshops: [], teams: [] } });
  });

  it('refuses a role the phone does not hold, and an unknown role value', async () => {
    const worker = await app.login('13800000001', 'worker');
    const r = await app.request('POST', '/api/auth/switch-role', { token: worker, body: { role: 'admin' } });
    expect([r.status, r.body.error.code]).toEqual([403, 'ROLE_NOT_HELD']);
    const bad = await app.request('POST', '/api/auth/switch-role', { token: worker, body: { role: 'boss' } });
    expect(bad.status).toBe(422);
  });

  it('a token whose role was removed from personnel stops working', async () => {
    await addPerson('13800000005', '钱五', 'worker', 'admin');
    const admin = await app.login('13800000005', 'admin');
    await app.service.ctx.db.pool.query(`DELETE FROM personnel WHERE phone = '13800000005' AND role = 'admin'`);
    const me = await app.request('GET', '/api/auth/me', { token: admin });
    expect(me.status).toBe(401);
  });
});

describe('login rate limits', () => {
  it('per openid: beyond 20 attempts in 10 minutes, 429 with Retry-After; the next window allows again', async () => {
    app.clock.set('2026-03-03T08:00:00+08:00');
    for (let i = 1; i <= 20; i++) {
      const r = await login({ code: `sim:hammer#${i}`, phoneCode: phoneCode('13800000001') });
      expect(r.status, `attempt ${i}`).toBe(200);
    }
    const refused = await login({ code: 'sim:hammer#21', phoneCode: phoneCode('13800000001') });
    expect([refused.status, refused.body.error.code]).toEqual([429, 'TOO_MANY_LOGIN_ATTEMPTS']);
    expect(refused.body.error.message).toContain('10 分钟后再试');
    expect(refused.headers.get('retry-after')).toBe('600');
    const other = await login({ code: 'sim:someone-else', phoneCode: phoneCode('13800000001') });
    expect(other.status).toBe(200);
    app.clock.advance(600_000);
    const later = await login({ code: 'sim:hammer#22', phoneCode: phoneCode('13800000001') });
    expect(later.status).toBe(200);
  });

  it('per IP: successful logins are not limited; beyond 100 refused attempts in 10 minutes the IP is refused', async () => {
    app.clock.set('2026-03-04T08:00:00+08:00');
    const from = (ip: string, body: unknown) =>
      app.request('POST', '/api/auth/platform-login', { body, headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.7', { code: code(), phoneCode: phoneCode('13800000001') })).status).toBe(200);
    const rows = async (ip: string) =>
      (await app.service.ctx.db.pool.query(`SELECT attempts FROM login_attempts WHERE bucket = $1`, [`ip:${ip}`])).rows.map((r) => r.attempts);
    expect(await rows('203.0.113.7')).toEqual([]);
    const windowStart = new Date(Math.floor(app.clock.now().getTime() / 600_000) * 600_000);
    await app.service.ctx.db.pool.query(`INSERT INTO login_attempts (bucket, window_start, attempts) VALUES ('ip:203.0.113.7', $1, 99)`, [windowStart]);
    const refused = await from('203.0.113.7', { code: code(), phoneCode: phoneCode('13911112222') });
    expect(refused.body.error.code).toBe('PHONE_NOT_REGISTERED');
    expect(await rows('203.0.113.7')).toEqual([100]);
    const blocked = await from('203.0.113.7', { code: code(), phoneCode: phoneCode('13800000001') });
    expect([blocked.status, blocked.body.error.code]).toEqual([429, 'TOO_MANY_LOGIN_ATTEMPTS']);
    const ticketTry = await app.request('POST', '/api/auth/platform-login/complete', { body: { ticket: 'x' }, headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(ticketTry.status).toBe(429);
    expect((await from('198.51.100.9', { code: code(), phoneCode: phoneCode('13800000001') })).status).toBe(200);
  });
});
