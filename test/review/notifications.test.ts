/**
 * Subscription-message notifications: the reactor writes the outbox exactly once (by its checkpoint, and by
 * the outbox's unique key when events are read again), only for configured templates and recipients with an
 * openid; the sender delivers through the platform, retrying -1 and network errors a bounded number of times
 * with backoff and dropping 43101 — first against a fake PlatformApi, then against the platform simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { withTransaction } from '../../src/db/transaction.ts';
import { START } from '../../src/events/store.ts';
import { NotificationSender } from '../../src/notifications/sender.ts';
import { notificationReactor, REACTOR_NAME } from '../../src/notifications/reactor.ts';
import { templateConfigs } from '../../src/notifications/templates.ts';
import { PlatformError, type PlatformApi, type SubscribeMessage } from '../../src/platform/types.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { submitReport } from './fixtures.ts';

const W1 = '13800000001';
const W2 = '13800000002';
const ADMIN1 = '13900000001';
const ADMIN2 = '13900000002'; // no openid: never notified
let app: TestApp;
let admin: string;

/** A platform whose sendSubscribeMessage follows a script of outcomes per openid (then succeeds). */
class FakePlatform implements PlatformApi {
  readonly sent: SubscribeMessage[] = [];
  readonly attempts: string[] = [];
  constructor(private readonly script: Record<string, (number | 'network')[]>) {}
  async sendSubscribeMessage(msg: SubscribeMessage) {
    this.attempts.push(msg.toUser);
    const next = this.script[msg.toUser]?.shift();
    if (next === 'network') throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    if (next !== undefined) throw new PlatformError(next, 'scripted');
    this.sent.push(msg);
  }
  code2Session = () => Promise.reject(new Error('unused'));
  getPhoneNumber = () => Promise.reject(new Error('unused'));
  getUnlimitedQrCode = () => Promise.reject(new Error('unused'));
}

const outbox = async () =>
  (await app.service.ctx.db.pool.query(`SELECT * FROM notification_outbox ORDER BY id`)).rows as any[];

beforeAll(async () => {
  app = await startTestApp({
    WX_TEMPLATE_REVIEW_RESULT: 'tmpl-review',
    WX_TEMPLATE_NEW_REPORT: 'tmpl-new',
    WX_TEMPLATE_NEW_REPORT_KEYS: 'worker=name1,reportDate=date2,devices=thing3,submittedAt=time4',
  });
  admin = await app.login(ADMIN1, 'admin', '审核员甲');
  await app.login(ADMIN2, 'admin', '审核员乙');
  await app.login(W1, 'worker', '张三');
  await app.login(W2, 'worker', '李四');
  // Who has logged in through the mini-program (the platform_accounts): W1, W2 and ADMIN1.
  await app.service.ctx.db.pool.query(
    `INSERT INTO platform_accounts (phone, openid, updated_at) VALUES ($1, 'o-w1', now()), ($2, 'o-w2', now()), ($3, 'o-admin1', now())`,
    [W1, W2, ADMIN1],
  );
});
afterAll(() => app?.close());

describe('notification reactor and sender (fake platform)', () => {
  it('enqueues each message once, and the sender retries -1 and network errors, drops 43101, never sends twice', async () => {
    const ctx = app.service.ctx;
    const r1 = await submitReport(ctx, { phone: W1, devices: ['D1', 'D 2'] }, '张三');
    const r2 = await submitReport(ctx, { phone: W2 }, '李四');
    expect((await app.request('POST', `/api/reviews/${r1.reportId}/approve`, { token: admin, body: {} })).status).toBe(200);
    expect((await app.request('POST', `/api/reviews/${r2.reportId}/reject`, { token: admin, body: { reason: '数量与记录不符' } })).status).toBe(200);
    await app.catchUpAll();

    let rows = await outbox();
    // Two submissions → NEW_REPORT to ADMIN1 only (ADMIN2 has no openid); approval and rejection → REVIEW_RESULT.
    expect(rows.map((r) => [r.kind, r.recipient_phone, r.openid, r.template_id])).toEqual([
      ['NEW_REPORT', ADMIN1, 'o-admin1', 'tmpl-new'],
      ['NEW_REPORT', ADMIN1, 'o-admin1', 'tmpl-new'],
      ['REVIEW_RESULT', W1, 'o-w1', 'tmpl-review'],
      ['REVIEW_RESULT', W2, 'o-w2', 'tmpl-review'],
    ]);
    expect(rows[0].data).toEqual({ name1: '张三', date2: r1.reportDate, thing3: 'D1、D 2', time4: r1.at });
    expect(rows[0].page).toBe(`pages/review/detail?reportId=${r1.reportId}`);
    expect(rows[2].data).toEqual({ phrase1: '已通过', date2: r1.reportDate, thing3: '审核通过', thing4: '审核员甲' });
    expect(rows[3].data).toEqual({ phrase1: '已驳回', date2: r2.reportDate, thing3: '数量与记录不符', thing4: '审核员甲' });
    expect(rows[3].page).toBe(`pages/mine/detail?reportId=${r2.reportId}`);

    // Reading the same events again (checkpoint lost) adds nothing: the outbox key holds.
    await ctx.db.pool.query(`UPDATE projection_checkpoints SET transaction_id = '0', global_position = 0 WHERE name = $1`, [REACTOR_NAME]);
    await app.catchUpAll();
    expect(await outbox()).toHaveLength(4);

    // o-admin1 gave no grant (43101); o-w1: busy twice then fine; o-w2: network error, then busy, busy: gives up.
    const fake = new FakePlatform({ 'o-admin1': [43101, 43101], 'o-w1': [-1, -1], 'o-w2': ['network', -1, -1, -1] });
    const sender = new NotificationSender({ pool: ctx.db.pool, platform: fake, clock: app.clock }, { maxAttempts: 3, backoffMs: (n) => n * 60_000 });
    expect(await sender.deliverDue()).toEqual({ sent: 0, dropped: 2, retrying: 2, failed: 0 });
    // Nothing is due before the backoff (1 minute after the first attempt).
    app.clock.advance(59_000);
    expect(await sender.deliverDue()).toEqual({ sent: 0, dropped: 0, retrying: 0, failed: 0 });
    app.clock.advance(1_000);
    expect(await sender.deliverDue()).toEqual({ sent: 0, dropped: 0, retrying: 2, failed: 0 });
    app.clock.advance(120_000); // second backoff: 2 minutes
    expect(await sender.deliverDue()).toEqual({ sent: 1, dropped: 0, retrying: 0, failed: 1 });
    app.clock.advance(3_600_000);
    expect(await sender.deliverDue()).toEqual({ sent: 0, dropped: 0, retrying: 0, failed: 0 });

    expect(fake.sent.map((m) => m.toUser)).toEqual(['o-w1']);
    expect(fake.attempts.filter((o) => o === 'o-admin1')).toHaveLength(2); // one per message, never retried
    expect(fake.attempts.filter((o) => o === 'o-w1')).toHaveLength(3);
    expect(fake.attempts.filter((o) => o === 'o-w2')).toHaveLength(3); // maxAttempts
    rows = await outbox();
    expect(rows.map((r) => [r.recipient_phone, r.status, r.attempts])).toEqual([
      [ADMIN1, 'dropped', 1],
      [ADMIN1, 'dropped', 1],
      [W1, 'sent', 3],
      [W2, 'failed', 3],
    ]);
    expect(fake.sent[0]).toEqual({ toUser: 'o-w1', templateId: 'tmpl-review', page: `pages/mine/detail?reportId=${r1.reportId}`, data: rows[2].data });
  });

  it('takes a row back from a sender that died after claiming it, once its lease has run out', async () => {
    const ctx = app.service.ctx;
    const r = await submitReport(ctx, { phone: W1 }, '张三');
    await app.catchUpAll();
    await ctx.db.pool.query(`UPDATE notification_outbox SET status = 'sending', lease_until = $2 WHERE event_position IN (SELECT global_position FROM events WHERE stream_id = $1)`, [
      `report-${r.reportId}`,
      new Date(app.clock.now().getTime() + 60_000),
    ]);
    const fake = new FakePlatform({});
    const sender = new NotificationSender({ pool: ctx.db.pool, platform: fake, clock: app.clock });
    expect((await sender.deliverDue()).sent).toBe(0);
    app.clock.advance(60_000);
    expect((await sender.deliverDue()).sent).toBe(1);
    expect((await sender.deliverDue()).sent).toBe(0);
  });

  it('sends nothing for an unset template, and nothing for events older than a day', async () => {
    const ctx = app.service.ctx;
    const before = (await outbox()).length;
    const bare = notificationReactor({ config: loadConfig({ JWT_SECRET: 'x' }), clock: app.clock });
    const events = await withTransaction(ctx.db.pool, (tx) => ctx.store.readAfter(tx, START, 1000));
    expect(events.length).toBeGreaterThan(0);
    await withTransaction(ctx.db.pool, (tx) => bare.handle(tx, events));
    expect(await outbox()).toHaveLength(before);

    await submitReport(ctx, { phone: W1 }, '张三');
    app.clock.advance(24 * 3_600_000 + 1000);
    await app.catchUpAll();
    expect(await outbox()).toHaveLength(before);
  });

  it('refuses a malformed field mapping with the variable’s name', () => {
    expect(() => templateConfigs({ REVIEW_RESULT: 't', REVIEW_RESULT_KEYS: 'result=phrase1,nonsense=thing2' })).toThrow(/WX_TEMPLATE_REVIEW_RESULT_KEYS/);
    expect(() => templateConfigs({ REVIEW_RESULT: 't', REVIEW_RESULT_KEYS: 'result=not a key' })).toThrow(/WX_TEMPLATE_REVIEW_RESULT_KEYS/);
    expect(templateConfigs({ NEW_REPORT: 't', NEW_REPORT_KEYS: 'worker=thing7' })).toEqual({ NEW_REPORT: { templateId: 't', keys: { worker: 'thing7' } } });
  });
});

describe('sender against the platform simulator', () => {
  it('delivers with the cut values, retries a busy platform and drops a denied grant', async () => {
    const ctx = app.service.ctx;
    const sim = ctx.simulator!;
    expect(sim).toBeDefined();
    await ctx.db.pool.query(`DELETE FROM notification_outbox`);
    // The simulator knows only openids of its own form.
    const [w1, admin1] = [sim.openidFor('w1'), sim.openidFor('admin1')];
    await ctx.db.pool.query(`UPDATE platform_accounts SET openid = CASE phone WHEN $1 THEN $2 WHEN $3 THEN $4 ELSE openid END`, [W1, w1, ADMIN1, admin1]);
    const r = await submitReport(ctx, { phone: W1 }, '张三');
    const reason = '第二行的成品数量与班组长记录的数量不一致，请重新核对';
    app.clock.advance(60_000);
    expect((await app.request('POST', `/api/reviews/${r.reportId}/reject`, { token: admin, body: { reason } })).status).toBe(200);
    await app.catchUpAll();
    // The worker accepted the review-result message when submitting; the admin accepted nothing.
    sim.grant(w1, 'tmpl-review');
    sim.failNext('subscribe_send', -1, { times: 3 }); // more than the client's own quick retries
    const sender = app.service.sender;
    // Rows in order: NEW_REPORT to the admin (meets the busy platform: 3 × -1, the client's two quick retries
    // included, so the sender schedules it again), then the review result to the worker (delivered).
    expect(await sender.deliverDue()).toEqual({ sent: 1, dropped: 0, retrying: 1, failed: 0 });
    app.clock.advance(29_000);
    expect(await sender.deliverDue()).toEqual({ sent: 0, dropped: 0, retrying: 0, failed: 0 });
    app.clock.advance(1_000); // first backoff: 30 s; now the admin's missing grant shows: dropped
    expect(await sender.deliverDue()).toEqual({ sent: 0, dropped: 1, retrying: 0, failed: 0 });
    expect((await outbox()).map((x) => [x.kind, x.status, x.attempts])).toEqual([
      ['NEW_REPORT', 'dropped', 2],
      ['REVIEW_RESULT', 'sent', 1],
    ]);
    const mine = sim.messages.filter((m) => m.touser === w1);
    expect(mine).toHaveLength(1);
    expect(mine[0].template_id).toBe('tmpl-review');
    expect(mine[0].data.phrase1.value).toBe('已驳回');
    // thing: at most 20 characters (the client cuts: 19 + "…").
    expect(Array.from(mine[0].data.thing3.value)).toHaveLength(20);
    expect(mine[0].data.thing3.value.startsWith(reason.slice(0, 19))).toBe(true);
    expect(mine[0].data.date2.value).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日$/);
    expect(sim.messages.filter((m) => m.touser === admin1)).toHaveLength(0);
    expect(sim.grantsLeft(w1, 'tmpl-review')).toBe(0); // one acceptance, one message
  });
});

describe('what the mini-program reads for its messages', () => {
  it('the template ids to ask for come with the login, the role switch and GET /api/auth/me; an unset one is absent', async () => {
    const ids = { reviewResult: 'tmpl-review', newReport: 'tmpl-new' };
    const c = `sim:notify-w1#${Date.now()}`;
    const login = await app.request('POST', '/api/auth/platform-login', { body: { code: c, phoneCode: `sim:${W1}#${Date.now()}` } });
    expect([login.status, login.body.status, login.body.messageTemplates]).toEqual([200, 'ok', ids]);
    expect((await app.request('GET', '/api/auth/me', { token: login.body.token })).body.messageTemplates).toEqual(ids);
    const both = await app.login('13900000009', 'admin', '双角色');
    await app.login('13900000009', 'worker', '双角色');
    expect((await app.request('POST', '/api/auth/switch-role', { token: both, body: { role: 'worker' } })).body.messageTemplates).toEqual(ids);

    const only = await startTestApp({ WX_TEMPLATE_NEW_REPORT: 'tmpl-new-only' });
    try {
      const token = await only.login(W1, 'worker', '张三');
      expect((await only.request('GET', '/api/auth/me', { token })).body.messageTemplates).toEqual({ newReport: 'tmpl-new-only' });
    } finally {
      await only.close();
    }
  });

  it('GET /api/reports/mine?reportId=: the worker’s own report as 我的报工 lists it; another worker’s or an unknown one: none', async () => {
    const ctx = app.service.ctx;
    const r = await submitReport(ctx, { phone: W2 }, '李四');
    const w2 = await app.login(W2, 'worker');
    const one = await app.request('GET', `/api/reports/mine?reportId=${r.reportId}`, { token: w2 });
    const listed = (await app.request('GET', '/api/reports/mine', { token: w2 })).body.items.find((x: any) => x.reportId === r.reportId);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ items: [listed], page: 1, pageSize: 20, total: 1 });
    const w1 = await app.login(W1, 'worker');
    for (const id of [r.reportId, '00000000-0000-4000-8000-000000000000']) {
      const other = await app.request('GET', `/api/reports/mine?reportId=${id}`, { token: w1 });
      expect([other.status, other.body.items, other.body.total]).toEqual([200, [], 0]);
    }
    const bad = await app.request('GET', '/api/reports/mine?reportId=not-a-report', { token: w1 });
    expect([bad.status, bad.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(bad.body.error.message).toContain('报工单编号');
  });
});
