/**
 * The mini-program's pages driven against the real service (startTestApp: a fresh database,
 * the platform simulator, a manual clock), each person with their own phone (a `ScriptedWx` whose `wx.request`
 * is forwarded to the service over HTTP). The phones' `Date` follows the service's clock. Device codes are made
 * by the service's own code generator and opened as WeChat opens them (the scene URL-encoded once).
 *
 * A whole shift (开始上班 → 换设备 → 下班报工 → 报工单 → submit → 我的报工); the window passing and 重新报工; a
 * reviewer approving with a correction and rejecting; the worker reading both; a manager's break change from the
 * dashboard; a console sign-in confirmed. Every request the client made is checked against the OpenAPI document.
 * The follow-up of a report that cannot be true (0 minutes, 205 pieces) marked 异常 with the service's
 * sentence in the reviewer's queue and detail; 我的工资 (the `GET /api/wages/mine`) with rates
 * set, the amounts worked out by hand in the test, the month closed (已结账), reopened and closed again (the previous
 * close's amount beside the new one).
 * A team with a day shift 08:00–17:00 and lunch 12:00–13:00 made through the API; its worker clocks
 * 08:00–17:00 and the 报工单 shows 60 分钟 按班次「白班」的休息时段计算 (8 h effective), 我的报工 says the same, and
 * the reviewer's queue and detail show the report's 班组.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { contractDeviations, recordFetch, type Exchange } from '../helpers/contract.ts';
import { PageDriver, ScriptedWx, forwardTo, openPage, until } from './harness.ts';
import { REJECTED_NEXT_STEP } from '../../miniprogram/core/my-report.ts';

let app: TestApp;
let recording: ReturnType<typeof recordFetch>;
const WORKER = '13700000001';
const WORKER2 = '13700000002';
const ADMIN = '13800000001';
const MANAGER = '13900000001';
const scenes: Record<string, string> = {};
const phones: Record<string, ScriptedWx> = {};
const clientCalls: string[] = [];

/** Moves the service's clock and the phones' `Date` to `iso`. */
function setTime(iso: string) {
  app.clock.set(iso);
  vi.setSystemTime(new Date(iso));
}

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-02T07:30:00+08:00');
  vi.useFakeTimers({ toFake: ['Date'] });
  setTime('2026-03-02T07:30:00+08:00');
  const admin = await app.login(ADMIN, 'admin', '王管理');
  await app.login(WORKER, 'worker', '张三');
  await app.login(WORKER2, 'worker', '李四');
  await app.login(MANAGER, 'manager', '李经理');
  await app.login(MANAGER, 'admin', '李经理');
  for (const p of [
    { projectNo: 'P-1', productName: '前围横梁', deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 24, standardWorkload: 1200 },
    { projectNo: 'P-1', productName: '后围横梁', deviceNo: '冲床 01', processName: '冲压', standardCycleSeconds: 12, standardWorkload: 2400 },
  ]) {
    expect((await app.request('POST', '/api/products', { token: admin, body: p })).body.result).toBe('created');
  }
  for (const d of ['K-12', '冲床 01']) {
    const code = await app.request('POST', `/api/devices/${encodeURIComponent(d)}/qrcode`, { token: admin });
    expect([code.status, code.body.page]).toEqual([200, 'pages/clock/clock']);
    scenes[d] = code.body.scene;
  }
  expect(scenes).toEqual({ 'K-12': 'deviceNo=K-12', '冲床 01': expect.stringMatching(/^d=/) });
  recording = recordFetch();
  for (const phone of [WORKER, WORKER2, ADMIN, MANAGER]) {
    const wx = new ScriptedWx();
    const forward = forwardTo(app.url);
    wx.answer = (call) => {
      clientCalls.push(`${call.method} ${new URL(call.url).pathname}`);
      return forward(call);
    };
    phones[phone] = wx;
  }
}, 60_000);

afterAll(async () => {
  vi.useRealTimers();
  await recording?.stop();
  await app?.close();
});

const pages: PageDriver[] = [];
/** Opens `url` on `phone`'s mini-program (closing what that test opened before is left to the end). */
async function open(phone: string, url: string): Promise<PageDriver> {
  const p = await openPage(url, phones[phone]);
  pages.push(p);
  return p;
}
/** Opens the page `phone`'s last navigation went to. */
async function follow(phone: string): Promise<PageDriver> {
  const url = phones[phone].lastUrl;
  if (!url) throw new Error('no navigation');
  return open(phone, url);
}
/** The address a device code opens, as WeChat hands it to the page. */
const scanned = (deviceNo: string) => `/pages/clock/clock?scene=${encodeURIComponent(scenes[deviceNo])}`;

/** Logs `phone` in on the login page (the simulator's phone code), picking `role` when asked. */
async function logIn(phone: string, url = '/pages/login/login', role?: string): Promise<void> {
  const wx = phones[phone];
  const before = wx.navigations.length;
  const p = await open(phone, url);
  p.dispatch('#phone', 'getphonenumber', { code: `sim:${phone}#${before}`, errMsg: 'getPhoneNumber:ok' });
  if (role) {
    await p.waitFor('这次以什么身份登录');
    p.tap('.choose-role', p.texts('.choose-role').indexOf(role));
  }
  await until(() => wx.navigations.length > before, `${phone}'s login`);
  p.close();
}

it('a whole shift: 开始上班 → 换设备 → 下班报工 → 报工单 → submit → 我的报工', async () => {
  setTime('2026-03-02T08:00:00+08:00');
  // The worker scans before logging in: the login page comes first, then the device.
  await open(WORKER, scanned('K-12'));
  expect(phones[WORKER].lastUrl).toBe(`/pages/login/login?scene=${encodeURIComponent(scenes['K-12'])}`);
  await logIn(WORKER, phones[WORKER].lastUrl);
  expect(phones[WORKER].lastUrl).toBe(scanned('K-12'));
  const k12 = await follow(WORKER);
  expect(k12.texts('#device')).toEqual(['K-12']);
  expect(k12.texts('#action')).toEqual(['开始上班']);
  k12.tap('#action');
  k12.tap('#action');
  await k12.waitFor('已开始上班（08:00 上班，设备：K-12）');
  expect(k12.texts('#action')).toEqual(['下班报工（请稍候）']);
  expect(clientCalls.filter((c) => c === 'POST /api/clock/start')).toHaveLength(1);
  // A gloved double tap whose second tap lands 300 ms later, after the answer: the held button does nothing.
  setTime('2026-03-02T08:00:00.300+08:00');
  k12.tap('#action');
  await k12.settle();
  expect(clientCalls.filter((c) => c === 'POST /api/clock/finish')).toHaveLength(0);
  expect(phones[WORKER].modals).toEqual([]);
  expect((await open(WORKER, scanned('K-12'))).texts('#action')).toEqual(['下班报工']); // still clocked in

  setTime('2026-03-02T10:00:00+08:00');
  const press = await open(WORKER, scanned('冲床 01'));
  expect(press.texts('#device')).toEqual(['冲床 01']);
  expect(press.texts('#action')).toEqual(['换设备']);
  press.tap('#action');
  await press.waitFor('已换设备');
  expect(press.texts('#action')).toEqual(['下班报工（请稍候）']);

  setTime('2026-03-02T17:00:00+08:00');
  press.tap('#action');
  await until(() => phones[WORKER].lastUrl!.startsWith('/pages/report/report'), 'the report');
  expect(phones[WORKER].modals.map((m) => m.content)).toEqual(['上班时间 08:00:00，确定下班报工吗？']);
  const report = await follow(WORKER);
  expect(report.texts('.product-name')).toEqual(['前围横梁', '后围横梁']);
  expect(report.texts('#effective')).toEqual(['8 小时 00 分']);
  expect(report.texts('#countdown')).toEqual(['还剩 30 分 00 秒']);
  setTime('2026-03-02T17:05:00+08:00');
  report.input('.finished', '500', 0);
  report.input('.defective', '5', 0);
  report.input('.finished', '1000', 1);
  report.input('.defective', '10', 1);
  await report.settle();
  expect(report.texts('#totals')).toEqual(['合计：成品 1500，不良 15，产出 1515']);
  report.tap('#submit');
  await until(() => phones[WORKER].lastUrl!.startsWith('/pages/mine/mine'), 'my reports');
  report.close();
  const mine = await follow(WORKER);
  expect(mine.texts('#submitted')).toEqual(['报工单已提交，等待审核']);
  expect(mine.texts('.report .big')).toEqual(['2026-03-02']);
  expect(mine.text()).toContain('待审核');
  expect(mine.text()).toContain('前围横梁：成品 500，不良 5，产出 505');
  expect(mine.text()).toContain('后围横梁：成品 1000，不良 10，产出 1010');

  // After the submission the session is closed: the next scan says 开始上班.
  const again = await open(WORKER, scanned('K-12'));
  expect(again.texts('#action')).toEqual(['开始上班']);
});

it('the window passes: the report explains 重新报工, leads there, and the new window takes the report with the quantities typed before', async () => {
  setTime('2026-03-02T08:00:00+08:00');
  await logIn(WORKER2);
  const k12 = await open(WORKER2, scanned('K-12'));
  k12.tap('#action');
  await k12.waitFor('已开始上班');
  setTime('2026-03-02T17:00:00+08:00');
  k12.tap('#action');
  await until(() => phones[WORKER2].lastUrl!.startsWith('/pages/report/report'), 'the report');
  const report = await follow(WORKER2);
  report.input('.finished', '1500', 0);
  report.input('.defective', '20', 0);
  setTime('2026-03-02T17:31:00+08:00');
  report.tap('#submit');
  await report.waitFor('填写时限（下班后 30 分钟）已过');
  report.tap('#re-report');
  await until(() => phones[WORKER2].lastUrl === scanned('K-12'), 'back to the device');
  report.close();
  const device = await follow(WORKER2);
  expect(device.texts('#action')).toEqual(['重新报工']);
  expect(device.texts('#hint')).toEqual(['填写时限已过：下班时间改为现在，重新填写报工单']);
  device.tap('#action');
  await until(() => phones[WORKER2].lastUrl!.startsWith('/pages/report/report'), 'the new report');
  expect(phones[WORKER2].modals.at(-1)!.content).toBe('上班时间 08:00:00，确定重新报工吗？下班时间将改为现在。');
  const second = await follow(WORKER2);
  expect(second.text()).toContain('下班17:31');
  // The quantities typed before the window expired are on the new form: nothing to type again.
  expect(second.texts('.product-name')).toEqual(['前围横梁']);
  expect(second.comp.data.rows.map((r: any) => [r.finished, r.defective])).toEqual([['1500', '20']]);
  expect(second.texts('#totals')).toEqual(['合计：成品 1500，不良 20，产出 1520']);
  second.tap('#submit');
  await until(() => phones[WORKER2].lastUrl!.startsWith('/pages/mine/mine'), 'my reports');
  expect(phones[WORKER2].storage.has(`report-typed:${second.comp.data.sessionId}`)).toBe(false);
  second.close();
});

it('a reviewer approves one report with a corrected line and rejects the other; the workers read it', async () => {
  setTime('2026-03-02T18:00:00+08:00');
  await logIn(ADMIN);
  const home = await open(ADMIN, '/pages/index/index');
  expect(home.texts('.menu')).toEqual(['审核报工单', '看板', '扫码登录网页后台']);
  home.tap('.menu', 0);
  await home.settle();
  const queue = await follow(ADMIN);
  expect(queue.texts('.review-row .big')).toEqual(['张三 2026-03-02', '李四 2026-03-02']);
  queue.tap('.review-row', 0);
  await queue.settle();
  const first = await follow(ADMIN);
  expect(first.text()).toContain('标准节拍 24 秒 · 标准工作量 1200');
  first.tap('#correct');
  await first.settle();
  first.input('.finished', '480', 0);
  first.input('.defective', '25', 0);
  first.tap('#approve-corrected');
  await first.waitFor('已修正并通过');
  expect(first.texts('#status')).toEqual(['已通过']);

  queue.tap('.review-row', 1);
  await queue.settle();
  const second = await follow(ADMIN);
  second.tap('#reject-mode');
  await second.settle();
  second.input('#reason', '数量与班组记录不符');
  second.tap('#reject');
  await second.waitFor('已驳回');

  const mine = await open(WORKER, '/pages/mine/mine');
  expect(mine.text()).toContain('已通过');
  expect(mine.texts('.correction')).toEqual(['审核修正：原为 成品 500，不良 5']);
  expect(mine.text()).toContain('前围横梁：成品 480，不良 25，产出 505');
  expect(mine.texts('.reject-next')).toEqual([]);
  const rejected = await open(WORKER2, '/pages/mine/mine');
  expect(rejected.texts('.reject-reason')).toEqual(['驳回原因：数量与班组记录不符']);
  // A rejection is final in the service: the next step is the reviewer, and the next shift as usual.
  expect(rejected.texts('.reject-next')).toEqual([REJECTED_NEXT_STEP]);

  const reviewed = await open(ADMIN, '/pages/review/review');
  reviewed.tap('#tab-mine');
  await reviewed.settle();
  expect(reviewed.texts('.review-row .status-approved, .review-row .status-rejected').sort()).toEqual(['已通过', '已驳回']);
});

it("a manager (who is also an administrator) logs in as manager, reads the dashboard and changes a break", async () => {
  setTime('2026-03-02T18:30:00+08:00');
  await app.catchUpAll();
  await logIn(MANAGER, '/pages/login/login', '经理');
  const dash = await open(MANAGER, '/pages/dashboard/dashboard');
  // 张三: approved 480 + 25 and 1,000 + 10: finished 1,480, standard workload 1,200 + 2,400 = 3,600.
  expect(dash.texts('#today')).toEqual(['今天（1 人）报工 1515，成品 1480标准工作量 3600，工作量 -58.89%']);
  expect(dash.texts('.dash-row')[0]).toContain('张三2026-03-02');
  dash.tap('.dash-row', 0);
  await dash.settle();
  const breaks = await follow(MANAGER);
  expect(breaks.texts('.effective')).toEqual(['休息 60 分钟，有效工作时间 8 小时 00 分']);
  breaks.input('.break-minutes', '45');
  breaks.input('.break-reason', '午休缩短');
  breaks.tap('.save-break');
  await breaks.waitFor('已改为休息 45 分钟');
  expect(breaks.texts('.effective')).toEqual(['休息 45 分钟，有效工作时间 8 小时 15 分']);
  const audit = await app.request('GET', `/api/reports/${(await app.request('GET', '/api/reports?status=approved', { token: await app.login(ADMIN, 'admin') })).body.items[0].reportId}/audit-logs`, { token: await app.login(ADMIN, 'admin') });
  expect(audit.body.items.at(-1)).toMatchObject({ action: 'break_changed', actorName: '李经理', before: { breakMinutes: 60 }, after: { breakMinutes: 45 }, reason: '午休缩短' });
});

it("confirms a console sign-in scanned from the console's code; a worker is told why not", async () => {
  const started = await app.request('POST', '/api/auth/web-login');
  expect(started.status).toBe(201);
  const worker = await open(WORKER, `/pages/login/confirm?scene=${encodeURIComponent(started.body.scene)}`);
  expect(worker.texts('#error')[0]).toContain('只有管理员或经理可以登录网页后台');
  expect(worker.texts('#confirm')).toEqual([]);
  const confirm = await open(ADMIN, `/pages/login/confirm?scene=${encodeURIComponent(started.body.scene)}`);
  expect(confirm.texts('#who')).toEqual(['登录人：王管理（管理员）']);
  confirm.tap('#confirm');
  await confirm.waitFor('已以管理员身份登录网页后台');
  const polled = await app.request('GET', `/api/auth/web-login/${started.body.ticket}`);
  expect([polled.body.status, polled.body.person.name, polled.body.role]).toEqual(['confirmed', '王管理', 'admin']);
});

it('a report that cannot be true (08:00 to 08:00, 205 pieces): the reviewer sees 异常 and the sentence, and approves knowing it', async () => {
  setTime('2026-03-03T08:00:00+08:00');
  const k12 = await open(WORKER2, scanned('K-12'));
  k12.tap('#action');
  await k12.waitFor('已开始上班');
  const finishes = () => clientCalls.filter((c) => c === 'POST /api/clock/finish').length;
  const before = finishes();
  vi.setSystemTime(new Date('2026-03-03T08:00:00.300+08:00'));
  k12.tap('#action'); // the second tap of a double tap: held, nothing happens
  await k12.settle();
  expect(finishes()).toBe(before);
  // The phone's clock passes the hold; the service's still says 08:00:00.
  vi.setSystemTime(new Date('2026-03-03T08:00:01.500+08:00'));
  const asked = phones[WORKER2].modals.length;
  k12.tap('#action'); // 下班报工 at the same second, confirmed: 0 minutes worked
  await until(() => phones[WORKER2].lastUrl!.startsWith('/pages/report/report'), 'the report');
  expect(phones[WORKER2].modals.slice(asked).map((m) => m.content)).toEqual(['上班时间 08:00:00，确定下班报工吗？']);
  const report = await follow(WORKER2);
  expect(report.texts('#effective')).toEqual(['0 分']);
  report.input('.finished', '205', 0);
  report.tap('#submit');
  await until(() => phones[WORKER2].lastUrl!.startsWith('/pages/mine/mine'), 'my reports');
  report.close();

  // 205 pieces of 前围横梁 at the standard 24 s need 205 × 24 s = 4,920 s = 82 minutes (the sentence).
  const sentence = '有效工作时间 0 分钟却报了 205 件，按标准节拍需要 82 分钟';
  const admin = await app.login(ADMIN, 'admin');
  const pending = (await app.request('GET', '/api/reviews/pending?flagged=true', { token: admin })).body.items;
  expect(pending.map((r: any) => [r.employeeName, r.flags.map((f: any) => f.message)])).toEqual([['李四', [sentence]]]);

  const queue = await open(ADMIN, '/pages/review/review');
  expect(queue.texts('.review-row .big')).toEqual(['李四 2026-03-03']);
  expect(queue.texts('.flag-mark')).toEqual(['异常 1']);
  expect(queue.texts('.flag-text')).toEqual([sentence]);
  queue.tap('#flag-filter');
  await queue.settle();
  expect(queue.texts('.flagged .flag-text')).toEqual([sentence]);
  queue.tap('.review-row', 0);
  await queue.settle();
  const detail = await follow(ADMIN);
  expect(detail.texts('#flags .big')).toEqual(['异常报工（1 项）']);
  expect(detail.texts('.flag')).toEqual([sentence]);
  expect(detail.texts('#approve')).toEqual(['核对无误，通过']);
  detail.tap('#approve');
  await detail.waitFor('已通过（已知异常 1 项，已记入审计记录）');
  const audit = await app.request('GET', `/api/reports/${pending[0].reportId}/audit-logs`, { token: admin });
  expect(audit.body.items.at(-1)).toMatchObject({ action: 'approved', actorName: '王管理', flags: [{ code: 'NO_WORKING_TIME', message: sentence }] });
  // The manager's 看板 shows 异常 in place of its 0.00 s cycle and its differences, with the sentence.
  await app.catchUpAll();
  const dash = await open(MANAGER, '/pages/dashboard/dashboard');
  const row = dash.texts('.dash-row').find((t) => t.startsWith('李四2026-03-03'));
  expect(row).toBe(`李四2026-03-03实际节拍 异常，标准 24.00 秒，节拍 异常报工 205（成品 205），标准工作量 1200，工作量 异常异常${sentence}`);
});

it('我的工资: rates set, the approved report priced as worked out by hand; the month closed shows 已结账; reopened and closed again, the previous amount', async () => {
  setTime('2026-03-20T09:00:00+08:00');
  const admin = await app.login(ADMIN, 'admin');
  const products = (await app.request('GET', '/api/products?page=1&pageSize=50', { token: admin })).body.items as { id: number; productName: string }[];
  const id = (name: string) => products.find((p) => p.productName === name)!.id;
  const rate = async (name: string, pieceRate: string, defectRate: string) => {
    const r = await app.request('POST', `/api/products/${id(name)}/rates`, { token: admin, body: { pieceRate, defectRate, effectiveFrom: '2026-03-01' } });
    // Without a 料废单价 of its own, 料废 is priced at the defect rate.
    expect([r.status, r.body]).toEqual([201, { productId: id(name), pieceRate, defectRate, materialDefectRate: defectRate, effectiveFrom: '2026-03-01' }]);
  };
  await rate('前围横梁', '0.3333', '-0.1005');
  await rate('后围横梁', '0.1235', '0.0005');
  await app.catchUpAll();

  // 张三's report of 2026-03-02 as approved (the corrected line): 前围横梁 480 finished, 25 defective; 后围横梁 1,000 and 10.
  // Rates are ten-thousandths of a yuan; a line is rounded to the fen once, half away from zero (README "Wages"):
  //   前围横梁: 480 × 3,333 + 25 × (−1,005) = 1,599,840 − 25,125 = 1,574,715 → 15,747.15 fen → 15,747 fen = ¥157.47
  //   后围横梁: 1,000 × 1,235 + 10 × 5 = 1,235,000 + 50 = 1,235,050 → 12,350.50 fen → 12,351 fen = ¥123.51 (half: up)
  //   month: 15,747 + 12,351 = 28,098 fen = ¥280.98
  // Weeks later the workers' stored logins have expired: the page would open the login page; they log in again.
  await logIn(WORKER);
  await logIn(WORKER2);
  const wages = await open(WORKER, '/pages/wages/wages');
  expect(wages.texts('#month')).toEqual(['2026年3月']);
  expect(wages.texts('#amount')).toEqual(['¥280.98']);
  expect(wages.texts('#month-status')).toEqual(['未结账：金额可能还会变化']);
  expect(wages.texts('.report-date')).toEqual(['2026-03-02']);
  expect(wages.texts('.report-amount')).toEqual(['¥280.98']);
  expect(wages.texts('.wage-line')).toEqual([
    '前围横梁（冲压）¥157.47成品 480 件，不良 25 件；单价 0.3333 元/件，不良 -0.1005 元/件',
    '后围横梁（冲压）¥123.51成品 1000 件，不良 10 件；单价 0.1235 元/件，不良 0.0005 元/件',
  ]);
  expect(wages.texts('#unpriced')).toEqual([]);
  // 李四: the rejected report does not count; the flagged one approved: 205 × 3,333 = 683,265 → 6,832.65 fen → ¥68.33.
  const li = await open(WORKER2, '/pages/wages/wages');
  expect(li.texts('#amount')).toEqual(['¥68.33']);
  expect(li.texts('.report-date')).toEqual(['2026-03-03']);

  // The month has ended: the manager closes it (the console's 月结; the mini-program has no close).
  setTime('2026-04-01T09:00:00+08:00');
  const manager = await app.login(MANAGER, 'manager');
  const closed = await app.request('POST', '/api/periods/2026-03/close', { token: manager });
  expect([closed.status, closed.body.amount, closed.body.version]).toEqual([200, '349.31', 1]); // 280.98 + 68.33
  await app.catchUpAll();
  await logIn(WORKER);
  const april = await open(WORKER, '/pages/wages/wages');
  expect(april.texts('#month')).toEqual(['2026年4月']);
  expect(april.texts('#empty')).toEqual(['2026年4月还没有计入工资的报工单（只计已通过的报工单）']);
  april.tap('#prev');
  await april.settle();
  expect(april.texts('#month')).toEqual(['2026年3月']);
  expect(april.texts('#amount')).toEqual(['¥280.98']);
  expect(april.texts('#month-status')).toEqual(['已结账（金额已确定，4月1日 09:00 李经理结账）']);

  // Reopened with a reason: 后围横梁 0.1335 from the 1st; 1,000 × 1,335 + 10 × 5 = 1,335,050 → 13,351 fen = ¥133.51;
  // the month 15,747 + 13,351 = 29,098 fen = ¥290.98, ¥10.00 more than the first close.
  expect((await app.request('POST', '/api/periods/2026-03/reopen', { token: manager, body: { reason: '后围横梁单价录错' } })).status).toBe(200);
  await app.catchUpAll();
  const reopened = await open(WORKER, '/pages/wages/wages');
  reopened.dispatch('#month-picker', 'change', { value: '2026-03' });
  await reopened.settle();
  expect(reopened.texts('#month-status')).toEqual(['已反结账：正在重新核算，金额可能还会变化']);
  expect((await app.request('POST', `/api/products/${id('后围横梁')}/rates`, { token: await app.login(ADMIN, 'admin'), body: { pieceRate: '0.1335', defectRate: '0.0005', effectiveFrom: '2026-03-01', reason: '改正' } })).status).toBe(201);
  setTime('2026-04-01T10:00:00+08:00');
  expect((await app.request('POST', '/api/periods/2026-03/close', { token: manager })).body).toMatchObject({ version: 2, amount: '359.31' });
  await app.catchUpAll();
  const again = await open(WORKER, '/pages/wages/wages');
  again.tap('#prev');
  await again.settle();
  expect(again.texts('#amount')).toEqual(['¥290.98']);
  expect(again.texts('#month-status')).toEqual(['已结账（第 2 次结账，4月1日 10:00 李经理结账）']);
  expect(again.texts('#previous')).toEqual(['上次结账时 ¥280.98，现在 ¥290.98（多 ¥10.00）']);
  expect(again.texts('.line-amount')).toEqual(['¥157.47', '¥133.51']);
});

// The break computed from the worker's team's shift, said on the 报工单, in 我的报工 and on the 审核 detail.
it('a team with a day shift 08:00–17:00 and lunch 12:00–13:00: clocked 08:00–17:00, the 报工单 shows 60 分钟 按班次「白班」; the reviewer sees the 班组', async () => {
  const WORKER3 = '13700000003';
  setTime('2026-04-02T07:30:00+08:00');
  const manager = await app.login(MANAGER, 'manager');
  await app.login(WORKER3, 'worker', '王五');
  const ok = async (method: string, path: string, body: unknown) => {
    const r = await app.request(method, path, { token: manager, body });
    expect([200, 201], `${method} ${path}: ${JSON.stringify(r.body)}`).toContain(r.status);
    return r.body;
  };
  await ok('POST', '/api/workshops', { code: 'W1', name: '冲压车间' });
  await ok('POST', '/api/teams', { code: 'T1', name: '冲压一班', workshopCode: 'W1', leaders: [MANAGER] });
  await ok('POST', '/api/memberships', { phone: WORKER3, teamCode: 'T1', validFrom: '2026-04-01' });
  const shift = await ok('POST', '/api/shifts', { name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '13:00' }] });
  await ok('POST', '/api/teams/T1/shift-assignments', { validFrom: '2026-04-01', rotation: [shift.shiftId], daysEach: 1 });

  const wx = new ScriptedWx();
  const forward = forwardTo(app.url);
  wx.answer = (call) => {
    clientCalls.push(`${call.method} ${new URL(call.url).pathname}`);
    return forward(call);
  };
  phones[WORKER3] = wx;
  setTime('2026-04-02T08:00:00+08:00');
  await logIn(WORKER3);
  const k12 = await open(WORKER3, scanned('K-12'));
  k12.tap('#action');
  await k12.waitFor('已开始上班（08:00 上班，设备：K-12）');
  setTime('2026-04-02T17:00:00+08:00');
  k12.tap('#action');
  await until(() => wx.lastUrl!.startsWith('/pages/report/report'), 'the report');
  const report = await follow(WORKER3);
  // 08:00–17:00 is 9 h of presence; the unpaid window 12:00–13:00 lies inside it: 60 minutes, 8 h effective.
  expect(report.texts('#break')).toEqual(['60 分钟']);
  expect(report.texts('#break-source')).toEqual(['按班次「白班」的休息时段计算']);
  expect(report.texts('#effective')).toEqual(['8 小时 00 分']);
  report.input('.finished', '900', 0);
  report.tap('#submit');
  await until(() => wx.lastUrl!.startsWith('/pages/mine/mine'), 'my reports');
  report.close();
  const mine = await follow(WORKER3);
  expect(mine.texts('.break-source')).toEqual(['休息：按班次「白班」的休息时段计算']);

  await logIn(ADMIN);
  const queue = await open(ADMIN, '/pages/review/review');
  const row = queue.texts('.review-row').findIndex((t) => t.startsWith('王五 2026-04-02'));
  expect(row).toBeGreaterThanOrEqual(0);
  expect(queue.texts('.review-row')[row]).toContain('班组：冲压一班（冲压车间）');
  queue.tap('.review-row', row);
  await queue.settle();
  const detail = await follow(ADMIN);
  expect(detail.texts('#team')).toEqual(['班组：冲压一班（冲压车间）']);
  expect(detail.texts('#break-source')).toEqual(['休息：按班次「白班」的休息时段计算']);
  expect(detail.text()).toContain('08:00–17:00，休息 60 分钟');
});

it('every request the mini-program made is one the API document describes, answered as it says', async () => {
  for (const p of pages.splice(0)) p.close();
  const exchanges: Exchange[] = await recording.stop();
  const doc = (await app.request('GET', '/api/openapi.json')).body;
  const fromClient = exchanges.filter((x) => x.url.origin === new URL(app.url).origin);
  expect(fromClient.length).toBeGreaterThan(40);
  expect(contractDeviations(doc, fromClient)).toEqual([]);
  expect([...new Set(clientCalls)].sort()).toEqual(
    expect.arrayContaining([
      'GET /api/auth/web-login/setup',
      'POST /api/auth/platform-login',
      'POST /api/auth/platform-login/complete',
      'GET /api/clock/state',
      'POST /api/clock/start',
      'POST /api/clock/switch-device',
      'POST /api/clock/finish',
      'GET /api/reports/draft',
      'POST /api/reports',
      'GET /api/reports/mine',
      'GET /api/reviews/pending',
      'GET /api/reviews/mine',
      'POST /api/auth/web-login/confirm',
      'GET /api/dashboard/summary',
      'GET /api/dashboard/reports',
      'GET /api/reports',
      'GET /api/wages/mine',
    ]),
  );
});
