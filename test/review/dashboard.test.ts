/**
 * The dashboard end to end, for a hand-worked example (decisions.md "Calculations"): several reports per day
 * and employee, a break change while pending, a correction, a break change after approval, a pending and a
 * rejected report (not counted), zero divisors, and a value that naive float rounding gets wrong. Then the
 * export, the rebuild from events and the range rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { replayProjection } from '../../src/projections/replay.ts';
import { dashboardProjection } from '../../src/projections/dashboard.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { line, submitReport } from './fixtures.ts';

let app: TestApp;
let admin: string;
let manager: string;
const A = '13800000001';
const B = '13800000002';
const C = '13800000003';
const ids: Record<string, string> = {};

const range = 'startDate=2026-03-01&endDate=2026-03-31';
const dashboard = (q = range) => app.request('GET', `/api/dashboard/reports?${q}`, { token: manager });

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login('13900000001', 'admin', '审核员甲');
  manager = await app.login('13900000002', 'manager', '经理乙');
  for (const [phone, name] of [
    [A, '张三'],
    [B, '李四'],
    [C, '王五'],
  ]) {
    await app.login(phone, 'worker', name);
  }
  const ctx = app.service.ctx;
  const d2 = '2026-03-02';
  const d3 = '2026-03-03';
  // A, 03-02, report A1: 08:00–12:00 = 240 min, submitted with a 60-minute break, changed to 30 while pending.
  ids.A1 = (await submitReport(ctx, { phone: A, reportDate: d2, clockInAt: `${d2}T08:00:00+08:00`, clockOutAt: `${d2}T12:00:00+08:00`, breakMinutes: 60, lines: [line(1, 10, 2880, 100, 5), line(2, 12.5, 2304, 40, 0)] })).reportId;
  // A, 03-02, report A2: 13:00–17:30 = 270 min, break 0; approved with product 1 corrected from 200+10 to 190+8.
  ids.A2 = (await submitReport(ctx, { phone: A, reportDate: d2, clockInAt: `${d2}T13:00:00+08:00`, clockOutAt: `${d2}T17:30:00+08:00`, breakMinutes: 0, lines: [line(1, 10, 2880, 200, 10)] })).reportId;
  // A, 03-02: A3 stays pending and A4 is rejected: neither counts.
  ids.A3 = (await submitReport(ctx, { phone: A, reportDate: d2, clockInAt: `${d2}T18:00:00+08:00`, clockOutAt: `${d2}T19:00:00+08:00`, breakMinutes: 0, lines: [line(1, 10, 2880, 999, 0)] })).reportId;
  ids.A4 = (await submitReport(ctx, { phone: A, reportDate: d2, clockInAt: `${d2}T19:00:00+08:00`, clockOutAt: `${d2}T20:00:00+08:00`, breakMinutes: 0, lines: [line(1, 10, 2880, 888, 0)] })).reportId;
  // B, 03-02: 08:00–08:30 with a 30-minute break and nothing produced, standard workload 0: every divisor 0.
  ids.B1 = (await submitReport(ctx, { phone: B, reportDate: d2, clockInAt: `${d2}T08:00:00+08:00`, clockOutAt: `${d2}T08:30:00+08:00`, breakMinutes: 30, lines: [line(3, 20, 0, 0, 0)] }, '李四')).reportId;
  // A, 03-03: 08:00–16:00 = 480 min, break 60.
  ids.A5 = (await submitReport(ctx, { phone: A, reportDate: d3, clockInAt: `${d3}T08:00:00+08:00`, clockOutAt: `${d3}T16:00:00+08:00`, breakMinutes: 60, lines: [line(2, 12.5, 2304, 2000, 16)] })).reportId;
  // C, 03-03: 201 seconds, break 0, cycle 1.005 s: 201 / 200 = 1.005 exactly (float rounding would say 1.00).
  ids.C1 = (await submitReport(ctx, { phone: C, reportDate: d3, clockInAt: `${d3}T08:00:00+08:00`, clockOutAt: `${d3}T08:03:21+08:00`, breakMinutes: 0, lines: [line(4, 1.005, 100, 150, 50)] }, '王五')).reportId;
  app.clock.set('2026-03-04T09:00:00+08:00');
});
afterAll(() => app?.close());

describe('dashboard, hand-worked example', () => {
  it('lists the pending reports oldest first with worker, devices, times, lines and effective time', async () => {
    const r = await app.request('GET', '/api/reviews/pending?pageSize=3', { token: admin });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(7);
    // Submitted (fixture: at clock-out) on 03-02 at 08:30 (B1), 12:00 (A1), 17:30 (A2), …; C1 and A5 on 03-03.
    expect(r.body.items.map((i: any) => i.reportId)).toEqual([ids.B1, ids.A1, ids.A2]);
    expect(r.body.items[1]).toMatchObject({
      employeePhone: A,
      employeeName: '张三',
      reportDate: '2026-03-02',
      status: 'pending',
      devices: ['D1'],
      clockInAt: '2026-03-02T08:00:00.000+08:00',
      clockOutAt: '2026-03-02T12:00:00.000+08:00',
      breakMinutes: 60,
      effectiveSeconds: 180 * 60,
      submittedAt: '2026-03-02T12:00:00.000+08:00',
    });
    expect(r.body.items[1].lines).toHaveLength(2);
  });

  it('moves the sums on approval, correction and break change after approval', async () => {
    const patch = (id: string, breakMinutes: number) =>
      app.request('PATCH', `/api/reports/${id}/break-minutes`, { token: manager, body: { breakMinutes, reason: '核对考勤' } });
    const approve = (id: string, body: unknown = {}) => app.request('POST', `/api/reviews/${id}/approve`, { token: admin, body });
    expect((await patch(ids.A1, 30)).status).toBe(200);
    expect((await approve(ids.A1)).status).toBe(200);
    const a2 = await approve(ids.A2, { lines: [{ productId: 1, finishedQty: 190, defectiveQty: 8 }] });
    expect(a2.status).toBe(200);
    expect(a2.body).toMatchObject({ status: 'approved', corrected: true, lines: [{ productId: 1, finishedQty: 190, defectiveQty: 8, outputQty: 198 }] });
    for (const id of [ids.B1, ids.A5, ids.C1]) expect((await approve(id)).status).toBe(200);
    expect((await app.request('POST', `/api/reviews/${ids.A4}/reject`, { token: admin, body: { reason: '重复报工' } })).status).toBe(200);
    await app.catchUpAll();

    // A on 03-02 before the break change: effective = (240 − 30) + (270 − 0) = 480 min = 28800 s;
    // pieces = (100 + 5) + (40 + 0) + (190 + 8) = 343; actual = 28800 / 343 = 83.965… → 83.97.
    let rows = (await dashboard()).body.items;
    expect(rows.find((x: any) => x.reportDate === '2026-03-02' && x.employeePhone === A).actualCycleSeconds).toBe(83.97);

    expect((await patch(ids.A2, 15)).status).toBe(200);
    await app.catchUpAll();
    const r = await dashboard();
    expect(r.status).toBe(200);
    rows = r.body.items;
    expect(r.body).toMatchObject({ page: 1, pageSize: 20, total: 4 });
    // Order: reportDate descending, then phone.
    expect(rows.map((x: any) => [x.reportDate, x.employeePhone])).toEqual([
      ['2026-03-03', A],
      ['2026-03-03', C],
      ['2026-03-02', A],
      ['2026-03-02', B],
    ]);
    // A, 03-03: effective 480 − 60 = 420 min = 25200 s; pieces 2016; actual 25200 / 2016 = 12.5; standard
    // 12.5 × 2016 / 2016 = 12.5; diff 0; workload 2304: (2000 − 2304) / 2304 × 100 = −13.194… → −13.19.
    expect(rows[0]).toEqual({
      reportDate: '2026-03-03',
      employeePhone: A,
      employeeName: '张三',
      reportCount: 1,
      actualCycleSeconds: 12.5,
      standardCycleSeconds: 12.5,
      cycleTimeDiffPct: 0,
      reportedQty: 2016,
      finishedQty: 2000,
      defectiveQty: 16,
      standardWorkload: 2304,
      workloadDiffPct: -13.19,
      flags: [],
      untrusted: { cycleTime: false, workload: false },
      workshopCode: null,
      workshopName: null,
      teamCode: null,
      teamName: null,
    });
    // C, 03-03: 201 s / 200 pieces = 1.005 → 1.01 (halves away from zero); standard 1.005 → 1.01; diff exactly 0;
    // workload (150 − 100) / 100 × 100 = 50.
    expect(rows[1]).toMatchObject({ employeeName: '王五', actualCycleSeconds: 1.01, standardCycleSeconds: 1.01, cycleTimeDiffPct: 0, workloadDiffPct: 50 });
    // A, 03-02 (A1 + A2; A3 pending and A4 rejected left out): effective (240 − 30) + (270 − 15) = 465 min = 27900 s;
    // pieces 343; actual 27900 / 343 = 81.3411… → 81.34.
    // standard = (10 × 105 + 12.5 × 40 + 10 × 198) / 343 = 3530 / 343 = 10.2915… → 10.29.
    // cycle diff = (27900/343 − 3530/343) / (3530/343) × 100 = 24370 / 3530 × 100 = 690.3683… → 690.37.
    // workload = 2880 + 2304 + 2880 = 8064; finished 100 + 40 + 190 = 330; (330 − 8064) / 8064 × 100 = −95.9077… → −95.91.
    expect(rows[2]).toEqual({
      reportDate: '2026-03-02',
      employeePhone: A,
      employeeName: '张三',
      reportCount: 2,
      actualCycleSeconds: 81.34,
      standardCycleSeconds: 10.29,
      cycleTimeDiffPct: 690.37,
      reportedQty: 343,
      finishedQty: 330,
      defectiveQty: 13,
      standardWorkload: 8064,
      workloadDiffPct: -95.91,
      flags: [],
      untrusted: { cycleTime: false, workload: false },
      workshopCode: null,
      workshopName: null,
      teamCode: null,
      teamName: null,
    });
    // B, 03-02: no pieces, workload 0: every ratio null.
    expect(rows[3]).toMatchObject({
      employeeName: '李四',
      reportCount: 1,
      actualCycleSeconds: null,
      standardCycleSeconds: null,
      cycleTimeDiffPct: null,
      reportedQty: 0,
      standardWorkload: 0,
      workloadDiffPct: null,
    });
  });

  it('pages the rows and counts them', async () => {
    const r = await dashboard(`${range}&page=2&pageSize=3`);
    expect(r.body).toMatchObject({ page: 2, pageSize: 3, total: 4 });
    expect(r.body.items.map((x: any) => x.employeePhone)).toEqual([B]);
    // Whatever the page size, the pages put together are the whole list in order (pages jump by whole days).
    const all = (await dashboard(`${range}&pageSize=100`)).body.items;
    for (const size of [1, 2, 3, 5]) {
      const joined = [];
      for (let p = 1; p <= Math.ceil(4 / size) + 1; p++) joined.push(...(await dashboard(`${range}&page=${p}&pageSize=${size}`)).body.items);
      expect(joined).toEqual(all);
    }
    const oneDay = await dashboard('startDate=2026-03-03&endDate=2026-03-03');
    expect(oneDay.body.total).toBe(2);
  });

  it('exports the same rows as .xlsx with Chinese headers', async () => {
    const res = await fetch(`${app.url}/api/dashboard/reports.xlsx?${range}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const book = XLSX.read(Buffer.from(await res.arrayBuffer()));
    const aoa = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]], { header: 1, defval: null });
    expect(aoa[0]).toEqual(['日期', '手机号', '姓名', '车间', '班组', '报工单数', '实际节拍(秒)', '标准节拍(秒)', '节拍差异(%)', '报工数量', '成品数量', '不良数量', '标准工作量', '工作量差异(%)', '异常']);
    expect(aoa).toHaveLength(5);
    expect(aoa[3]).toEqual(['2026-03-02', A, '张三', null, null, 2, 81.34, 10.29, 690.37, 343, 330, 13, 8064, -95.91, null]);
    expect(aoa[4]).toEqual(['2026-03-02', B, '李四', null, null, 1, null, null, null, 0, 0, 0, 0, null, null]);
  });

  it('rebuilds the same tables from the events', async () => {
    const pool = app.service.ctx.db.pool;
    const snapshot = async () => ({
      daily: (await pool.query(`SELECT * FROM dashboard_daily ORDER BY report_date, employee_phone`)).rows,
      days: (await pool.query(`SELECT * FROM dashboard_days ORDER BY report_date`)).rows,
      contributions: (await pool.query(`SELECT * FROM dashboard_report_contributions ORDER BY report_id`)).rows,
    });
    const before = await snapshot();
    expect(before.daily).toHaveLength(4);
    expect(before.contributions).toHaveLength(1); // only the pending A3 waits; approved and rejected are forgotten
    await replayProjection(pool, app.service.ctx.store, dashboardProjection);
    await app.catchUpAll(); // on a shared server the replay may stop at the commit-safe horizon; the rest follows
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['', 'startDate'],
    ['startDate=2026-03-01', 'endDate'],
    ['startDate=2026-3-1&endDate=2026-03-31', 'malformed'],
    ['startDate=2026-02-30&endDate=2026-03-31', 'not a date'],
    ['startDate=2026-03-31&endDate=2026-03-01', 'end before start'],
    ['startDate=2025-01-01&endDate=2026-01-02', '367 days'],
  ])('answers 422 INVALID_DATE_RANGE for %s (%s)', async (q) => {
    for (const path of ['/api/dashboard/reports', '/api/dashboard/reports.xlsx']) {
      const r = await app.request('GET', `${path}?${q}`, { token: manager });
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('INVALID_DATE_RANGE');
      expect(r.body.error.message).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('accepts a range of exactly 366 days', async () => {
    expect((await dashboard('startDate=2025-04-01&endDate=2026-04-01')).status).toBe(200);
  });

  it('is for managers and administrators only', async () => {
    const worker = await app.login(A, 'worker');
    expect((await app.request('GET', `/api/dashboard/reports?${range}`, { token: worker })).status).toBe(403);
    expect((await app.request('GET', `/api/dashboard/reports.xlsx?${range}`, { token: worker })).status).toBe(403);
    expect((await app.request('GET', `/api/dashboard/reports?${range}`)).status).toBe(401);
  });
});
