/**
 * Looking back, end to end: the mini-program's pages against the real service (startTestApp: a fresh database, a
 * manual clock the phones' `Date` follows). A worker reports on Friday 2026-02-20 and on Monday 2026-03-09; the
 * reviewer corrects February's report by adding a product of its device (the service takes it with the product's
 * current standards); on that Monday 看板's 本周 holds Monday only and 上月 shows February's approved report; the
 * manager opens February's reports from 看板 and changes a break there; 我的报工 and 我审核的 filter by 上月 and 本月.
 * Every request the pages made is one the API document describes, answered as it says.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { contractDeviations, recordFetch, type Exchange } from '../helpers/contract.ts';
import { PageDriver, ScriptedWx, forwardTo, openPage, until } from './harness.ts';

let app: TestApp;
let recording: ReturnType<typeof recordFetch>;
const WORKER = '13700000011';
const ADMIN = '13800000011';
const MANAGER = '13900000011';
const ids: Record<string, number> = {};
const reports: Record<string, string> = {};
const opened: PageDriver[] = [];

/** Moves the service's clock and the phones' `Date` to `iso` (the phones' zone is UTC: vitest.config.ts). */
function setTime(iso: string) {
  app.clock.set(iso);
  vi.setSystemTime(new Date(iso));
}

/** `role`'s phone with a stored login made now (the service's token), its requests sent to the service. */
async function phone(who: string, role: 'worker' | 'admin' | 'manager', name: string): Promise<ScriptedWx> {
  const wx = new ScriptedWx(forwardTo(app.url));
  const token = await app.login(who, role, name);
  wx.storage.set('session', { token, expiresAt: '2099-01-01T00:00:00+08:00', person: { phone: who, name }, role, roles: [role] });
  return wx;
}
async function open(url: string, wx: ScriptedWx): Promise<PageDriver> {
  const p = await openPage(url, wx);
  opened.push(p);
  return p;
}
const asked = (wx: ScriptedWx, path: string) => wx.requests.map((r) => new URL(r.url)).filter((u) => u.pathname === path).map((u) => u.search);

/** The worker clocks 08:00–17:00 on `day` on K-12 and submits `lines`; answers the report's id. */
async function shift(day: string, lines: { productId: number; finishedQty: number; defectiveQty: number }[]): Promise<string> {
  setTime(`${day}T08:00:00+08:00`);
  const token = await app.login(WORKER, 'worker', '张三');
  const started = await app.request('POST', '/api/clock/start', { token, body: { deviceNo: 'K-12' } });
  expect(started.status).toBe(200);
  setTime(`${day}T17:00:00+08:00`);
  expect((await app.request('POST', '/api/clock/finish', { token, body: { deviceNo: 'K-12' } })).status).toBe(200);
  const submitted = await app.request('POST', '/api/reports', { token, body: { sessionId: started.body.sessionId, lines } });
  expect(submitted.status).toBe(201);
  return submitted.body.reportId;
}

beforeAll(async () => {
  app = await startTestApp({}, '2026-02-20T07:30:00+08:00');
  vi.useFakeTimers({ toFake: ['Date'] });
  setTime('2026-02-20T07:30:00+08:00');
  const admin = await app.login(ADMIN, 'admin', '王管理');
  for (const p of [
    { projectNo: 'P-1', productName: '前围横梁', deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 24, standardWorkload: 1200 },
    { projectNo: 'P-1', productName: '后围横梁', deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 12, standardWorkload: 2400 },
    { projectNo: 'P-1', productName: '侧围', deviceNo: '冲床 02', processName: '冲压', standardCycleSeconds: 30, standardWorkload: 960 },
  ]) {
    const r = await app.request('POST', '/api/products', { token: admin, body: p });
    expect(r.body.result).toBe('created');
    ids[p.productName] = r.body.product.id;
  }
  recording = recordFetch();
}, 60_000);

afterAll(async () => {
  for (const p of opened.splice(0)) p.close();
  vi.useRealTimers();
  await recording?.stop();
  await app?.close();
});

it("a correction adds a product of the report's device; the service approves it with that product's standards", async () => {
  reports.feb = await shift('2026-02-20', [{ productId: ids['前围横梁'], finishedQty: 500, defectiveQty: 5 }]);
  setTime('2026-02-20T18:00:00+08:00');
  const wx = await phone(ADMIN, 'admin', '王管理');
  const detail = await open(`/pages/review/detail?reportId=${reports.feb}`, wx);
  detail.tap('#correct');
  await detail.settle();
  // Only the device's other product: 前围横梁 is on the report, 侧围 is another device's.
  expect(detail.comp.instance.data.addable.map((a: { label: string }) => a.label)).toEqual(['后围横梁（冲压 · K-12）']);
  detail.dispatch('#add-line', 'change', { value: 0 });
  await detail.settle();
  detail.input('.finished', '300', 1);
  detail.input('.defective', '2', 1);
  detail.tap('#approve-corrected');
  await detail.waitFor('已修正并通过');
  expect(detail.texts('#status')).toEqual(['已通过']);
  expect(detail.texts('.line .sub')).toEqual(['成品 500，不良 5，产出 505', '成品 300，不良 2，产出 302']);

  const report = await app.request('GET', `/api/reports/${reports.feb}`, { token: await app.login(ADMIN, 'admin') });
  expect(report.body.lines.map((l: any) => [l.productName, l.finishedQty, l.defectiveQty, l.standardCycleSeconds, l.standardWorkload])).toEqual([
    ['前围横梁', 500, 5, 24, 1200],
    ['后围横梁', 300, 2, 12, 2400],
  ]);
});

it('看板 on a Monday: 本周 is Monday only; 上月 shows last month’s approved report; the manager changes its break from there', async () => {
  reports.mar = await shift('2026-03-09', [{ productId: ids['前围横梁'], finishedQty: 1000, defectiveQty: 0 }]);
  setTime('2026-03-09T18:00:00+08:00');
  expect((await app.request('POST', `/api/reviews/${reports.mar}/approve`, { token: await app.login(ADMIN, 'admin'), body: {} })).status).toBe(200);
  await app.catchUpAll();

  const wx = await phone(MANAGER, 'manager', '李经理');
  const dash = await open('/pages/dashboard/dashboard', wx);
  expect(dash.texts('.tab-on')).toEqual(['本周']);
  expect(dash.texts('.dash-row .row')).toEqual(['张三2026-03-09']);
  // 本周 on Monday is today: one card. 1,000 finished against 1,200: (1,000 − 1,200) / 1,200 = −16.67 %.
  expect(dash.texts('#today')).toEqual(['今天（1 人）报工 1000，成品 1000标准工作量 1200，工作量 -16.67%']);
  expect(dash.texts('#range-figures')).toEqual(['本周（1 人）报工 1000，成品 1000标准工作量 1200，工作量 -16.67%']);

  dash.tap('.range-choice', 3);
  await dash.settle();
  expect(dash.texts('.tab-on')).toEqual(['上月']);
  expect(dash.texts('#range-note')[0]).toMatch(/^2026-02-01 至 2026-02-28，只统计已通过的报工单/);
  // February: 500 + 300 finished, 505 + 302 reported; standard workload 1,200 + 2,400 = 3,600 (the added line's).
  expect(dash.texts('#range-figures')).toEqual(['上月（1 人）报工 807，成品 800标准工作量 3600，工作量 -77.78%']);
  expect(dash.texts('.dash-row .row')).toEqual(['张三2026-02-20']);
  expect(asked(wx, '/api/dashboard/summary')).toContain('?startDate=2026-02-01&endDate=2026-02-28');

  dash.tap('#breaks');
  await dash.settle();
  expect(wx.lastUrl).toBe('/pages/dashboard/breaks?range=lastMonth');
  const breaks = await open(wx.lastUrl!, wx);
  expect(breaks.texts('.report-date')).toEqual(['2026-02-20']);
  expect(breaks.texts('.effective')).toEqual(['休息 60 分钟，有效工作时间 8 小时 00 分']);
  breaks.input('.break-minutes', '30');
  breaks.input('.break-reason', '补录：当天只休息半小时');
  breaks.tap('.save-break');
  await breaks.waitFor('已改为休息 30 分钟');
  expect(breaks.texts('.effective')).toEqual(['休息 30 分钟，有效工作时间 8 小时 30 分']);
  const audit = await app.request('GET', `/api/reports/${reports.feb}/audit-logs`, { token: await app.login(ADMIN, 'admin') });
  expect(audit.body.items.at(-1)).toMatchObject({ action: 'break_changed', actorName: '李经理', before: { breakMinutes: 60 }, after: { breakMinutes: 30 } });

  // This week's report is not in last month's list; 本周 on the break page is Monday's.
  breaks.tap('.range-choice', 1);
  await breaks.settle();
  expect(breaks.texts('.report-date')).toEqual(['2026-03-09']);
});

it('我的报工 and 我审核的 filter by 上月 and 本月, passed to the service', async () => {
  setTime('2026-03-09T19:00:00+08:00');
  const worker = await phone(WORKER, 'worker', '张三');
  const mine = await open('/pages/mine/mine', worker);
  expect(mine.texts('.report .big')).toEqual(['2026-03-09', '2026-02-20']);
  mine.tap('.range-choice', 4);
  await mine.settle();
  expect(mine.texts('.report .big')).toEqual(['2026-02-20']);
  expect(mine.text()).toContain('后围横梁：成品 300，不良 2，产出 302');
  mine.tap('.range-choice', 3);
  await mine.settle();
  expect(mine.texts('.report .big')).toEqual(['2026-03-09']);
  expect(asked(worker, '/api/reports/mine')).toEqual([
    '?page=1&pageSize=20',
    '?startDate=2026-02-01&endDate=2026-02-28&page=1&pageSize=20',
    '?startDate=2026-03-01&endDate=2026-03-09&page=1&pageSize=20',
  ]);

  const admin = await phone(ADMIN, 'admin', '王管理');
  const queue = await open('/pages/review/review', admin);
  queue.tap('#tab-mine');
  await queue.settle();
  expect(queue.texts('.review-row .big')).toEqual(['张三 2026-03-09', '张三 2026-02-20']);
  queue.tap('.range-choice', 4);
  await until(() => queue.texts('.review-row .big').length === 1, 'last month’s reviews');
  expect(queue.texts('.review-row .big')).toEqual(['张三 2026-02-20']);
});

it('every request the pages made is one the API document describes, answered as it says', async () => {
  for (const p of opened.splice(0)) p.close();
  const exchanges: Exchange[] = await recording.stop();
  const doc = (await app.request('GET', '/api/openapi.json')).body;
  const fromPages = exchanges.filter((x) => x.url.origin === new URL(app.url).origin);
  expect(fromPages.length).toBeGreaterThan(15);
  expect(contractDeviations(doc, fromPages)).toEqual([]);
});
