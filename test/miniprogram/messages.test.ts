/**
 * Subscription messages end to end: the mini-program's pages (miniprogram-simulate) against the real service
 * (startTestApp: templates configured, a manual clock, its log captured) and its platform simulator, which, as the
 * platform, delivers a message only against a grant (one accepted `wx.requestSubscribeMessage`, one message).
 *
 * The template ids come with the login; a worker's tap on 提交报工单 asks for the review result, a reviewer's taps on
 * 审核报工单 and 通过 ask for the next new report; whatever the person answers, the tap goes on. The messages the
 * simulator received are opened as WeChat opens them (their `page`, with its query) and the pages show the report
 * they name; a worker who did not accept gets no message, and the service's log says why.
 */
import { pino } from 'pino';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEMPLATE_FIELDS, TEMPLATE_PAGES, type TemplateName } from '../../src/notifications/templates.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PageDriver, SOURCE, ScriptedWx, forwardTo, openPage, splitUrl, until } from './harness.ts';
import { ok, script, session } from './script.ts';

const REVIEW_TEMPLATE = 'tmpl-review-result-0001';
const NEW_TEMPLATE = 'tmpl-new-report-0001';
const WORKER = '13700000001'; // accepts the review-result message
const WORKER2 = '13700000002'; // declines it
const WORKER3 = '13700000003'; // accepts; the report is rejected
const ADMIN = '13800000001';

let app: TestApp;
const logLines: Record<string, any>[] = [];
const phones: Record<string, ScriptedWx> = {};
const opened: PageDriver[] = [];
const reports: Record<string, string> = {};

function setTime(iso: string) {
  app.clock.set(iso);
  vi.setSystemTime(new Date(iso));
}

async function open(phone: string, url: string): Promise<PageDriver> {
  const p = await openPage(url, phones[phone]);
  opened.push(p);
  return p;
}

/** Logs `phone` in on the login page with the simulator's phone code, as a person taps the phone button. */
async function logIn(phone: string): Promise<void> {
  const wx = phones[phone];
  const before = wx.navigations.length;
  const p = await open(phone, '/pages/login/login');
  p.dispatch('#phone', 'getphonenumber', { code: `sim:${phone}#${before}`, errMsg: 'getPhoneNumber:ok' });
  await until(() => wx.navigations.length > before, `${phone}'s login`);
}

/** The openid the simulator gives `phone`'s WeChat user (stable between logins, as on the platform). */
const openidOf = (phone: string) => app.simulator.openidFor(phones[phone].user.replace(/^sim:/, ''));

/** A shift 08:00–17:00 on K-12 through the API (the clock page is not what this file tests); answers its session. */
async function shift(phone: string): Promise<string> {
  const token = await app.login(phone, 'worker');
  setTime('2026-03-02T08:00:00+08:00');
  expect((await app.request('POST', '/api/clock/start', { token, body: { deviceNo: 'K-12' } })).status).toBe(200);
  setTime('2026-03-02T17:00:00+08:00');
  const finished = await app.request('POST', '/api/clock/finish', { token, body: { deviceNo: 'K-12' } });
  expect(finished.status).toBe(200);
  return finished.body.sessionId;
}

/** Fills the 报工单 of `phone`'s shift with `finished` / `defective` and taps 提交报工单; answers the report id. */
async function submit(phone: string, finished: string, defective: string): Promise<string> {
  const sessionId = await shift(phone);
  setTime('2026-03-02T17:05:00+08:00');
  const report = await open(phone, `/pages/report/report?sessionId=${sessionId}`);
  report.input('.finished', finished, 0);
  report.input('.defective', defective, 0);
  await report.settle();
  report.tap('#submit');
  await until(() => (phones[phone].lastUrl ?? '').startsWith('/pages/mine/mine'), `${phone}'s submission`);
  const id = splitUrl(phones[phone].lastUrl!).query.submitted;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id;
}

/** The messages the simulator delivered to `phone`. */
const messagesTo = (phone: string) => app.simulator.messages.filter((m) => m.touser === openidOf(phone));

beforeAll(async () => {
  const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });
  app = await startTestApp({ WX_TEMPLATE_REVIEW_RESULT: REVIEW_TEMPLATE, WX_TEMPLATE_NEW_REPORT: NEW_TEMPLATE }, '2026-03-02T07:30:00+08:00', { log });
  vi.useFakeTimers({ toFake: ['Date'] });
  setTime('2026-03-02T07:30:00+08:00');
  const admin = await app.login(ADMIN, 'admin', '王管理');
  for (const [phone, name] of [[WORKER, '张三'], [WORKER2, '李四'], [WORKER3, '王五']]) await app.login(phone, 'worker', name);
  const product = { projectNo: 'P-1', productName: '前围横梁', deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 24, standardWorkload: 1200 };
  expect((await app.request('POST', '/api/products', { token: admin, body: product })).body.result).toBe('created');
  for (const phone of [WORKER, WORKER2, WORKER3, ADMIN]) {
    const wx = new ScriptedWx(forwardTo(app.url));
    wx.subscribeAt = app.simulator.url;
    phones[phone] = wx;
  }
  phones[WORKER2].subscribeAnswer = 'reject';
}, 60_000);

afterAll(async () => {
  for (const p of opened.splice(0)) p.close();
  vi.useRealTimers();
  await app?.close();
});

describe('subscription messages, from the tap to the page the message opens', () => {
  it('the login keeps the template ids; 审核报工单 asks for the new-report message inside the tap', async () => {
    await logIn(ADMIN);
    expect(phones[ADMIN].storage.get('messageTemplates')).toEqual({ reviewResult: REVIEW_TEMPLATE, newReport: NEW_TEMPLATE });
    const home = await open(ADMIN, '/pages/index/index');
    home.tap('.menu', home.texts('.menu').indexOf('审核报工单'));
    await until(() => (phones[ADMIN].lastUrl ?? '').startsWith('/pages/review/review'), 'the review queue');
    expect(phones[ADMIN].subscribeRequests).toEqual([{ tmplIds: [NEW_TEMPLATE], outcome: 'accept' }]);
    expect(app.simulator.grantsLeft(openidOf(ADMIN), NEW_TEMPLATE)).toBe(1);
  });

  it('提交报工单 asks for the review result and submits whatever the answer', async () => {
    for (const phone of [WORKER, WORKER2, WORKER3]) await logIn(phone);
    reports[WORKER] = await submit(WORKER, '500', '5');
    reports[WORKER2] = await submit(WORKER2, '300', '0');
    reports[WORKER3] = await submit(WORKER3, '205', '1');
    expect(phones[WORKER].subscribeRequests).toEqual([{ tmplIds: [REVIEW_TEMPLATE], outcome: 'accept' }]);
    expect(phones[WORKER2].subscribeRequests).toEqual([{ tmplIds: [REVIEW_TEMPLATE], outcome: 'reject' }]);
    expect(app.simulator.grantsLeft(openidOf(WORKER), REVIEW_TEMPLATE)).toBe(1);
    expect(app.simulator.grantsLeft(openidOf(WORKER2), REVIEW_TEMPLATE)).toBe(0);
    const admin = await app.login(ADMIN, 'admin');
    const pending = (await app.request('GET', '/api/reviews/pending', { token: admin })).body.items.map((r: any) => r.reportId);
    expect(pending.sort()).toEqual(Object.values(reports).sort());
  });

  it("the reviewer's one grant gives one new-report message; it opens pages/review/detail of that report, whose 通过 and 确认驳回 ask again", async () => {
    await app.catchUpAll();
    expect(await app.service.sender.deliverDue()).toEqual({ sent: 1, dropped: 2, retrying: 0, failed: 0 });
    const toAdmin = messagesTo(ADMIN);
    expect(toAdmin).toHaveLength(1);
    expect(toAdmin[0].template_id).toBe(NEW_TEMPLATE);
    expect(toAdmin[0].page).toBe(`pages/review/detail?reportId=${reports[WORKER]}`);

    const detail = await open(ADMIN, `/${toAdmin[0].page}`);
    expect(detail.texts('#status')).toEqual(['待审核']);
    expect(detail.text()).toContain(`张三 ${WORKER}`);
    expect(detail.text()).toContain('2026-03-02');
    expect(detail.text()).toContain('成品 500，不良 5，产出 505');
    detail.tap('#approve');
    await detail.waitFor('已通过');
    expect(phones[ADMIN].subscribeRequests.at(-1)).toEqual({ tmplIds: [NEW_TEMPLATE], outcome: 'accept' });
    expect(app.simulator.grantsLeft(openidOf(ADMIN), NEW_TEMPLATE)).toBe(1);

    const admin = await app.login(ADMIN, 'admin');
    expect((await app.request('POST', `/api/reviews/${reports[WORKER2]}/approve`, { token: admin, body: {} })).status).toBe(200);
    // 确认驳回 asks too (驳回 only opens the reason).
    const third = await open(ADMIN, `/pages/review/detail?reportId=${reports[WORKER3]}`);
    third.tap('#reject-mode');
    await third.settle();
    expect(phones[ADMIN].subscribeRequests).toHaveLength(2);
    third.input('#reason', '数量与班组记录不符');
    third.tap('#reject');
    await third.waitFor('已驳回');
    expect(phones[ADMIN].subscribeRequests).toEqual([
      { tmplIds: [NEW_TEMPLATE], outcome: 'accept' },
      { tmplIds: [NEW_TEMPLATE], outcome: 'accept' },
      { tmplIds: [NEW_TEMPLATE], outcome: 'accept' },
    ]);
    expect(app.simulator.grantsLeft(openidOf(ADMIN), NEW_TEMPLATE)).toBe(2);
  });

  it('a subscribed worker gets exactly one message for one approval; it opens their report with its figures', async () => {
    const logged = logLines.length;
    const sends = app.simulator.callCount('subscribe_send');
    await app.catchUpAll();
    expect(await app.service.sender.deliverDue()).toEqual({ sent: 2, dropped: 1, retrying: 0, failed: 0 });
    expect(app.simulator.callCount('subscribe_send') - sends).toBe(3);
    const mine = messagesTo(WORKER);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ template_id: REVIEW_TEMPLATE, page: `pages/mine/detail?reportId=${reports[WORKER]}` });
    expect(mine[0].data.phrase1.value).toBe('已通过');

    const page = await open(WORKER, `/${mine[0].page}`);
    expect(page.texts('#date')).toEqual(['2026-03-02']);
    expect(page.texts('#status')).toEqual(['已通过']);
    expect(page.texts('#times')).toEqual(['08:00–17:00，休息 60 分钟；有效工作时间 8 小时 00 分']);
    expect(page.texts('.line')).toEqual(['前围横梁：成品 500，不良 5，产出 505']);
    expect(page.texts('.next-step')).toEqual([]);
    expect(page.texts('#error')).toEqual([]);

    // The worker who declined: nothing delivered, and the service's log says why, naming them.
    expect(messagesTo(WORKER2)).toEqual([]);
    const why = logLines.slice(logged).filter((l) => l.recipient === WORKER2);
    expect(why).toHaveLength(1);
    expect(why[0]).toMatchObject({ level: 30, errcode: 43101, kind: 'REVIEW_RESULT', outcome: 'dropped' });
    expect(why[0].msg).toContain(`subscription message to ${WORKER2} not delivered`);
    // Not retried: nothing is due later, and the platform is not asked again.
    app.clock.advance(3_600_000);
    expect(await app.service.sender.deliverDue()).toEqual({ sent: 0, dropped: 0, retrying: 0, failed: 0 });
    expect(app.simulator.callCount('subscribe_send') - sends).toBe(3);
    const rows = (await app.service.ctx.db.pool.query(`SELECT recipient_phone, status, attempts FROM notification_outbox WHERE kind = 'REVIEW_RESULT' ORDER BY recipient_phone`)).rows;
    expect(rows).toEqual([
      { recipient_phone: WORKER, status: 'sent', attempts: 1 },
      { recipient_phone: WORKER2, status: 'dropped', attempts: 1 },
      { recipient_phone: WORKER3, status: 'sent', attempts: 1 },
    ]);
  });

  it("a rejection's message opens the report with the reason and the next step", async () => {
    const [msg] = messagesTo(WORKER3);
    expect(msg.data.phrase1.value).toBe('已驳回');
    const page = await open(WORKER3, `/${msg.page}`);
    expect(page.texts('#status')).toEqual(['已驳回']);
    expect(page.texts('.reject-reason')).toEqual(['驳回原因：数量与班组记录不符']);
    expect(page.texts('.next-step')).toEqual(['这张报工单不能修改或重新提交。请按驳回原因与审核人或班组长核对数量；需要补记时请联系管理员。']);
    expect(page.texts('.line')).toEqual(['前围横梁：成品 205，不良 1，产出 206']);
    // Another worker opening that page (a forwarded message) reads the service's refusal, not the report.
    const other = await open(WORKER, `/${msg.page}`);
    expect(other.texts('#error')).toEqual(['没有找到这份报工单（只能查看自己的报工单），请在“我的报工”中查看']);
    expect(other.texts('.line')).toEqual([]);
  });

  it('every page the service can send is a page of app.json, and each was opened from a real message above', () => {
    const pages: string[] = JSON.parse(readFileSync(`${SOURCE}app.json`, 'utf8')).pages;
    const sentPages = new Set(app.simulator.messages.map((m) => splitUrl(m.page ?? '').path));
    for (const kind of Object.keys(TEMPLATE_FIELDS) as TemplateName[]) {
      const { path, query } = splitUrl(TEMPLATE_PAGES[kind]('5f0c9a8e-7b1d-4f2a-8c3e-6d9b0a1e2f34'));
      expect(pages, kind).toContain(path);
      expect(Object.keys(query), kind).toEqual(['reportId']);
      expect(sentPages.has(path), `${kind}: ${path}`).toBe(true);
    }
  });
});

describe('asking on the page, with scripted answers', () => {
  const worker = () => {
    const wx = new ScriptedWx(
      script({
        'GET /api/reports/draft': ok({
          sessionId: 's1',
          clockInAt: '2026-03-02T08:00:00+08:00',
          clockOutAt: '2026-03-02T17:00:00+08:00',
          devices: ['K-12'],
          breakMinutes: 60,
          breakSource: 'default',
          shift: null,
          expiresAt: '2099-01-01T00:00:00+08:00',
          candidates: [{ productId: 1, projectNo: 'P-1', productName: '前围横梁', deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 24, standardWorkload: 1200 }],
        }),
        'POST /api/reports': ok({ reportId: '5f0c9a8e-7b1d-4f2a-8c3e-6d9b0a1e2f34', reportDate: '2026-03-02', status: 'pending' }, 201),
      }),
    );
    wx.storage.set('session', session('worker'));
    return wx;
  };

  it('a failed request (messages switched off) does not hold the submission back', async () => {
    const wx = worker();
    wx.storage.set('messageTemplates', { reviewResult: REVIEW_TEMPLATE });
    wx.subscribeAnswer = 'fail';
    const p = await openPage('/pages/report/report?sessionId=s1', wx);
    opened.push(p);
    p.input('.finished', '10', 0);
    p.tap('#submit');
    await until(() => (wx.lastUrl ?? '').startsWith('/pages/mine/mine'), 'the submission');
    expect(wx.subscribeRequests).toEqual([{ tmplIds: [REVIEW_TEMPLATE], outcome: 'requestSubscribeMessage:fail 用户关闭了主开关，无法进行订阅' }]);
    expect(wx.requests.filter((r) => r.method === 'POST').map((r) => r.data)).toEqual([{ sessionId: 's1', lines: [{ productId: 1, finishedQty: 10, defectiveQty: 0 }] }]);
  });

  it('首页 reads the templates configured now (GET /api/auth/me): a template set after the login is asked for from then on', async () => {
    const wx = new ScriptedWx(script({ 'GET /api/auth/me': ok({ person: { phone: '13800138000', name: '张三' }, role: 'admin', roles: ['admin'], messageTemplates: { newReport: NEW_TEMPLATE } }) }));
    wx.storage.set('session', session('admin'));
    wx.storage.set('messageTemplates', {});
    const home = await openPage('/pages/index/index', wx);
    opened.push(home);
    await until(() => wx.storage.get('messageTemplates') !== undefined && Object.keys(wx.storage.get('messageTemplates') as object).length > 0, 'the templates');
    expect(wx.storage.get('messageTemplates')).toEqual({ newReport: NEW_TEMPLATE });
    home.tap('.menu', 0);
    await until(() => wx.navigations.length > 0, 'the review queue');
    expect(wx.subscribeRequests).toEqual([{ tmplIds: [NEW_TEMPLATE], outcome: 'accept' }]);
  });

  it('no template configured: nothing is asked, the submission goes on', async () => {
    const wx = worker();
    wx.storage.set('messageTemplates', {});
    const p = await openPage('/pages/report/report?sessionId=s1', wx);
    opened.push(p);
    p.input('.finished', '10', 0);
    p.tap('#submit');
    await until(() => (wx.lastUrl ?? '').startsWith('/pages/mine/mine'), 'the submission');
    expect(wx.subscribeRequests).toEqual([]);
  });
});
