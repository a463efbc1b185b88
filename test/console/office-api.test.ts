/**
 * The read endpoints the console adds: GET /api/reports (by report date, employee, status) and
 * /api/reports/:reportId for managers and administrators, and GET /api/dashboard/summary, whose per-employee and
 * per-day figures come from the exact sums over the range (worked out by hand below, decisions.md "Calculations").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { line, submitReport } from '../review/fixtures.ts';

let app: TestApp;
let admin: string;
let manager: string;
let worker: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-04T18:00:00+08:00');
  admin = await app.login('13900000001', 'admin', '审核员');
  manager = await app.login('13900000002', 'manager', '经理');
  worker = await app.login('13800000001', 'worker', '张三');
  await app.login('13800000002', 'worker', '李四');
  const ctx = app.service.ctx;
  // 张三: two days of 8 effective hours (09:00–18:00 less 60 min); 李四: 4 hours without a break on the first day.
  ids.a1 = (await submitReport(ctx, { phone: '13800000001', reportDate: '2026-03-02', lines: [line(901, 10, 2880, 100, 5)] })).reportId;
  ids.a2 = (await submitReport(ctx, { phone: '13800000001', reportDate: '2026-03-03', lines: [line(902, 20, 1440, 200, 0)] })).reportId;
  ids.b1 = (
    await submitReport(ctx, {
      phone: '13800000002',
      reportDate: '2026-03-02',
      clockInAt: '2026-03-02T08:00:00+08:00',
      clockOutAt: '2026-03-02T12:00:00+08:00',
      breakMinutes: 0,
      lines: [line(901, 10, 2880, 50, 0)],
    }, '李四')
  ).reportId;
  ids.pending = (await submitReport(ctx, { phone: '13800000002', reportDate: '2026-03-04' }, '李四')).reportId;
  for (const k of ['a1', 'a2', 'b1']) expect((await app.request('POST', `/api/reviews/${ids[k]}/approve`, { token: admin, body: {} })).status).toBe(200);
  await app.catchUpAll();
});
afterAll(() => app?.close());

const list = (query: string, token = manager) => app.request('GET', `/api/reports?${query}`, { token });

describe('GET /api/reports', () => {
  it('lists reports newest report date first, filtered by date range, employee (phone or part of the name) and status', async () => {
    const all = await list('');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(4);
    // Same report date: the later submission first (张三's at 17:00, 李四's at 12:00).
    expect(all.body.items.map((r: { reportId: string }) => r.reportId)).toEqual([ids.pending, ids.a2, ids.a1, ids.b1]);
    const ids2 = (q: string) => list(q).then((r) => r.body.items.map((x: { reportId: string }) => x.reportId).sort());
    expect(await ids2('employee=张')).toEqual([ids.a1, ids.a2].sort());
    expect(await ids2('employee=13800000002')).toEqual([ids.b1, ids.pending].sort());
    expect(await ids2('status=pending')).toEqual([ids.pending]);
    expect(await ids2('startDate=2026-03-02&endDate=2026-03-02')).toEqual([ids.a1, ids.b1].sort());
    expect(await ids2('employee=%25')).toEqual([]);
    expect((await list('startDate=2026-03-05&endDate=2026-03-01')).body.error.code).toBe('INVALID_DATE_RANGE');
    expect((await list('', admin)).status).toBe(200);
    expect((await list('', worker)).status).toBe(403);
  });

  it('GET /api/reports/:reportId: one report with its lines and effective working time; 404 otherwise', async () => {
    const r = await app.request('GET', `/api/reports/${ids.b1}`, { token: manager });
    expect(r.body).toMatchObject({ reportId: ids.b1, employeeName: '李四', status: 'approved', breakMinutes: 0, effectiveSeconds: 14_400 });
    expect(r.body.lines).toHaveLength(1);
    for (const id of ['6f1c1e9e-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const n = await app.request('GET', `/api/reports/${id}`, { token: manager });
      expect([n.status, n.body.error.code]).toEqual([404, 'REPORT_NOT_FOUND']);
    }
    expect((await app.request('GET', `/api/reports/${ids.b1}`, { token: worker })).status).toBe(403);
  });
});

describe('GET /api/dashboard/summary', () => {
  it('sums the range exactly per employee and per day', async () => {
    const r = await app.request('GET', '/api/dashboard/summary?startDate=2026-03-01&endDate=2026-03-31', { token: manager });
    expect(r.status).toBe(200);
    // 张三: 57,600 s / (105 + 200) pieces = 188.852… s; standard (10 × 105 + 20 × 200) / 305 = 16.557… s.
    // 李四: 14,400 s / 50 = 288 s; standard 10 s.
    expect(r.body.byEmployee).toEqual([
      { employeePhone: '13800000001', employeeName: '张三', actualCycleSeconds: 188.85, standardCycleSeconds: 16.56, reportedQty: 305, finishedQty: 300, standardWorkload: 4320, flaggedReports: 0 },
      { employeePhone: '13800000002', employeeName: '李四', actualCycleSeconds: 288, standardCycleSeconds: 10, reportedQty: 50, finishedQty: 50, standardWorkload: 2880, flaggedReports: 0 },
    ]);
    expect(r.body.byDate).toEqual([
      { reportDate: '2026-03-02', reportedQty: 155, finishedQty: 150, standardWorkload: 5760 },
      { reportDate: '2026-03-03', reportedQty: 200, finishedQty: 200, standardWorkload: 1440 },
    ]);
    const one = await app.request('GET', '/api/dashboard/summary?startDate=2026-03-03&endDate=2026-03-03', { token: admin });
    expect(one.body.byEmployee.map((e: { employeePhone: string }) => e.employeePhone)).toEqual(['13800000001']);
  });

  it('follows the dashboard’s range rules and access', async () => {
    expect((await app.request('GET', '/api/dashboard/summary?startDate=2026-03-01', { token: manager })).body.error.code).toBe('INVALID_DATE_RANGE');
    expect((await app.request('GET', '/api/dashboard/summary?startDate=2025-01-01&endDate=2026-03-01', { token: manager })).status).toBe(422);
    expect((await app.request('GET', '/api/dashboard/summary?startDate=2026-03-01&endDate=2026-03-31', { token: worker })).status).toBe(403);
  });
});
