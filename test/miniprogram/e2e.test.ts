/**
 * Issue #23, end to end: the mini-program's pages driven against the real service (startTestApp: a fresh database,
 * the platform simulator, a manual clock), each person with their own phone (a `ScriptedWx` whose `wx.request`
 * is forwarded to the service over HTTP). The phones' `Date` follows the service's clock. Device codes are made
 * by the service's own code generator and opened as WeChat opens them (the scene URL-encoded once).
 *
 * A whole shift (开始上班 → 换设备 → 下班报工 → 报工单 → submit → 我的报工); the window passing and 重新报工; a
 * reviewer approving with a correction and rejecting; the worker reading both; a manager's break change from the
 * dashboard; a console sign-in confirmed. Every request the client made is checked against the OpenAPI document.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { contractDeviations, recordFetch, type Exchange } from '../helpers/contract.ts';
import { PageDriver, ScriptedWx, forwardTo, openPage, until } from './harness.ts';

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
  expect(k12.texts('#action')).toEqual(['下班报工']);
  expect(clientCalls.filter((c) => c === 'POST /api/clock/start')).toHaveLength(1);

  setTime('2026-03-02T10:00:00+08:00');
  const press = await open(WORKER, scanned('冲床 01'));
  expect(press.texts('#device')).toEqual(['冲床 01']);
  expect(press.texts('#action')).toEqual(['换设备']);
  press.tap('#action');
  await press.waitFor('已换设备');
  expect(press.texts('#action')).toEqual(['下班报工']);

  setTime('2026-03-02T17:00:00+08:00');
  press.tap('#action');
  await until(() => phones[WORKER].lastUrl!.startsWith('/pages/report/report'), 'the report');
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

it('the window passes: the report explains 重新报工, leads there, and the new window takes the report', async () => {
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
  const second = await follow(WORKER2);
  expect(second.text()).toContain('下班17:31');
  second.input('.finished', '1500', 0);
  second.input('.defective', '20', 0);
  second.tap('#submit');
  await until(() => phones[WORKER2].lastUrl!.startsWith('/pages/mine/mine'), 'my reports');
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
  const rejected = await open(WORKER2, '/pages/mine/mine');
  expect(rejected.texts('.reject-reason')).toEqual(['驳回原因：数量与班组记录不符']);

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
    ]),
  );
});
