/**
 * Plausibility flags over HTTP (异常报工): a worker reports 205 pieces for a shift of 0 minutes through the
 * mini-program's endpoints; the review queue marks and filters it, the report and the review answers carry the
 * flag with its sentence, approving it stays possible and is audited as 已知异常, the dashboard row says so, a break
 * change recomputes the flags, the read models rebuilt from the events equal the incremental ones, and a report
 * whose events were written before flags existed reads as unflagged.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { replayProjection } from '../../src/projections/replay.ts';
import { reportsProjection } from '../../src/projections/reports.ts';
import { auditLogProjection } from '../../src/projections/audit-log.ts';
import { dashboardProjection } from '../../src/projections/dashboard.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, MIN, workerClient } from '../clock/helpers.ts';

const WORKER = '13700000001';
const DAY = '2026-03-02';
let app: TestApp;
let admin: string;
let manager: string;
let product: number;
let flagged: string;
let honest: string;

const get = (path: string, token = admin) => app.request('GET', path, { token });
const NO_TIME_SENTENCE = '有效工作时间 0 分钟却报了 205 件，按标准节拍需要 102 分钟';

beforeAll(async () => {
  app = await startTestApp({}, `${DAY}T08:00:00+08:00`);
  admin = await app.login('13900000001', 'admin', '王管理');
  manager = await app.login('13900000002', 'manager', '李经理');
  const w = workerClient(app, await app.login(WORKER, 'worker', '张三'));
  product = await addProduct(app, 'JC-01', { name: '前围横梁', cycle: 30, workload: 960 });
  // 开始上班 and 下班报工 at the same instant: 0 minutes, and 205 pieces reported.
  const s1 = (await w.start('JC-01')).body.sessionId;
  expect((await w.finish('JC-01')).status).toBe(200);
  app.clock.advance(MIN);
  const r1 = await w.submit(s1, [{ productId: product, finishedQty: 200, defectiveQty: 5 }]);
  expect(r1.status).toBe(201);
  flagged = r1.body.reportId;
  // An honest shift: 09:00–17:00, 60 minutes' break, 500 pieces at 30 s (4 h 10 min of standard time).
  app.clock.set(`${DAY}T09:00:00+08:00`);
  const s2 = (await w.start('JC-01')).body.sessionId;
  app.clock.set(`${DAY}T17:00:00+08:00`);
  await w.finish('JC-01');
  const r2 = await w.submit(s2, [{ productId: product, finishedQty: 500, defectiveQty: 0 }]);
  expect(r2.status).toBe(201);
  honest = r2.body.reportId;
});
afterAll(() => app?.close());

describe('the review queue', () => {
  it('carries each report’s flags with the sentence; flagged=true lists only flagged reports, false only the others', async () => {
    const all = (await get('/api/reviews/pending')).body.items;
    expect(all.map((r: { reportId: string }) => r.reportId)).toEqual([flagged, honest]);
    expect(all[0].flags).toEqual([{ code: 'NO_WORKING_TIME', effectiveSeconds: 0, outputQty: 205, standardSeconds: 6150, message: NO_TIME_SENTENCE }]);
    expect(all[1].flags).toEqual([]);
    expect((await get('/api/reviews/pending?flagged=true')).body).toMatchObject({ total: 1, items: [{ reportId: flagged }] });
    expect((await get('/api/reviews/pending?flagged=false')).body).toMatchObject({ total: 1, items: [{ reportId: honest }] });
    const bad = await get('/api/reviews/pending?flagged=yes');
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('只看异常');
  });

  it('GET /api/reports/:id says the same, for managers too', async () => {
    expect((await get(`/api/reports/${flagged}`, manager)).body.flags.map((f: { message: string }) => f.message)).toEqual([NO_TIME_SENTENCE]);
  });
});

describe('approving a flagged report', () => {
  it('is possible; the answer carries the flags and the audit trail says the approval knew them', async () => {
    const r = await app.request('POST', `/api/reviews/${flagged}/approve`, { token: admin, body: {} });
    expect(r.status).toBe(200);
    expect(r.body.flags.map((f: { code: string }) => f.code)).toEqual(['NO_WORKING_TIME']);
    const trail = (await get(`/api/reports/${flagged}/audit-logs`)).body.items;
    expect(trail.map((e: { action: string; flags: { message: string }[] }) => [e.action, e.flags.map((f) => f.message)])).toEqual([
      ['submitted', [NO_TIME_SENTENCE]],
      ['approved', [NO_TIME_SENTENCE]],
    ]);
    expect(trail[1].after).toBeNull();
    expect(trail[0].after).toMatchObject({ breakMinutes: 0, lines: [{ productId: product, outputQty: 205 }] });
    expect(trail[0].after.flags).toBeUndefined();
  });

  it('a correction recomputes them: a corrected report of 0 pieces is flagged no more', async () => {
    // A third report of 0 minutes, corrected to nothing produced.
    const w = workerClient(app, await app.login(WORKER, 'worker'));
    const s = (await w.start('JC-01')).body.sessionId;
    await w.finish('JC-01');
    const id = (await w.submit(s, [{ productId: product, finishedQty: 9, defectiveQty: 0 }])).body.reportId;
    const r = await app.request('POST', `/api/reviews/${id}/approve`, { token: admin, body: { lines: [{ productId: product, finishedQty: 0, defectiveQty: 0 }] } });
    expect(r.body).toMatchObject({ corrected: true, flags: [] });
    expect((await get(`/api/reports/${id}`)).body.flags).toEqual([]);
  });
});

describe('the dashboard', () => {
  it('the day’s row names the flags of its approved reports; the export writes them under 异常', async () => {
    expect((await app.request('POST', `/api/reviews/${honest}/approve`, { token: admin, body: {} })).status).toBe(200);
    await app.catchUpAll();
    const [row] = (await get(`/api/dashboard/reports?startDate=${DAY}&endDate=${DAY}`, manager)).body.items;
    // Merged with the honest report the figures look ordinary (7 h for 705 pieces); the flags say they are not.
    expect(row).toMatchObject({ reportCount: 3, reportedQty: 705, actualCycleSeconds: 35.74 });
    expect(row.flags).toEqual([{ reportId: flagged, code: 'NO_WORKING_TIME', effectiveSeconds: 0, outputQty: 205, standardSeconds: 6150, message: NO_TIME_SENTENCE }]);
    expect(row.untrusted).toEqual({ cycleTime: true, workload: true });
    const summary = (await get(`/api/dashboard/summary?startDate=${DAY}&endDate=${DAY}`, manager)).body;
    expect(summary.byEmployee).toMatchObject([{ employeePhone: WORKER, flaggedReports: 1 }]);
    const res = await fetch(`${app.url}/api/dashboard/reports.xlsx?startDate=${DAY}&endDate=${DAY}`, { headers: { authorization: `Bearer ${manager}` } });
    const book = XLSX.read(Buffer.from(await res.arrayBuffer()));
    const [sheetRow] = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets[book.SheetNames[0]]);
    expect(sheetRow).toMatchObject({ 报工数量: 705, 成品数量: 700, 不良数量: 5, 异常: NO_TIME_SENTENCE });
  });

  it('a break change recomputes the flags of an approved report, and the dashboard follows', async () => {
    const patch = (breakMinutes: number) => app.request('PATCH', `/api/reports/${honest}/break-minutes`, { token: manager, body: { breakMinutes } });
    // 09:00–17:00 with a break of 475 minutes: 5 minutes for 500 pieces.
    const r = await patch(475);
    expect(r.status).toBe(200);
    expect(r.body.flags.map((f: { code: string }) => f.code)).toEqual(['CYCLE_TOO_FAST', 'OUTPUT_OVER_WORKLOAD']);
    expect(r.body.flags[0].message).toBe('5 分钟报了 500 件，按标准节拍需要 4 小时 10 分（实际节拍 0.60 秒，不到标准节拍 30.00 秒的 50%）');
    await app.catchUpAll();
    let [row] = (await get(`/api/dashboard/reports?startDate=${DAY}&endDate=${DAY}`, manager)).body.items;
    expect(row.flags.map((f: { reportId: string; code: string }) => [f.reportId, f.code])).toEqual([
      [flagged, 'NO_WORKING_TIME'],
      [honest, 'CYCLE_TOO_FAST'],
      [honest, 'OUTPUT_OVER_WORKLOAD'],
    ]);
    const trail = (await get(`/api/reports/${honest}/audit-logs`)).body.items;
    expect(trail.at(-1)).toMatchObject({ action: 'break_changed', after: { breakMinutes: 475 }, flags: [{ code: 'CYCLE_TOO_FAST' }, { code: 'OUTPUT_OVER_WORKLOAD' }] });
    expect((await patch(60)).body.flags).toEqual([]);
    await app.catchUpAll();
    [row] = (await get(`/api/dashboard/reports?startDate=${DAY}&endDate=${DAY}`, manager)).body.items;
    expect(row.flags.map((f: { reportId: string }) => f.reportId)).toEqual([flagged]);
    // The honest report alone, on a day of its own, would be trusted: the marks follow the flags, not the figures.
    expect(row.untrusted).toEqual({ cycleTime: true, workload: true });
  });
});

describe('from the events', () => {
  it('rebuilding the reports, the audit trail and the dashboard gives the same rows', async () => {
    const pool = app.service.ctx.db.pool;
    const snapshot = async () => ({
      reports: (await pool.query(`SELECT report_id, flags, lines, break_minutes, status FROM reports ORDER BY report_id`)).rows,
      audit: (await pool.query(`SELECT * FROM report_audit_logs ORDER BY report_id, stream_version, seq`)).rows,
      daily: (await pool.query(`SELECT * FROM dashboard_daily ORDER BY report_date, employee_phone`)).rows,
    });
    const before = await snapshot();
    expect(before.daily[0].flagged).toHaveLength(1);
    for (const p of [reportsProjection, auditLogProjection, dashboardProjection]) await replayProjection(pool, app.service.ctx.store, p);
    expect(await snapshot()).toEqual(before);
  });

  it('a report whose events were written before flags existed (version 1) reads as unflagged and can be approved', async () => {
    const pool = app.service.ctx.db.pool;
    const reportId = randomUUID();
    const v1 = {
      reportId,
      employeePhone: WORKER,
      reportDate: DAY,
      sessionId: randomUUID(),
      clockInAt: `${DAY}T00:00:00.000Z`,
      clockOutAt: `${DAY}T00:00:00.000Z`,
      breakMinutes: 0,
      devices: ['JC-01'],
      lines: [{ productId: product, projectNo: 'P-100', productName: '前围横梁', deviceNo: 'JC-01', processName: '冲压', standardCycleSeconds: 30, standardWorkload: 960, finishedQty: 205, defectiveQty: 0, outputQty: 205 }],
      at: `${DAY}T00:01:00.000Z`,
    };
    await pool.query(`INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, metadata) VALUES ($1, 1, 'ReportSubmitted', 1, $2, '{}')`, [
      `report-${reportId}`,
      JSON.stringify(v1),
    ]);
    await replayProjection(pool, app.service.ctx.store, reportsProjection);
    expect((await get(`/api/reports/${reportId}`)).body).toMatchObject({ status: 'pending', flags: [] });
    const r = await app.request('POST', `/api/reviews/${reportId}/approve`, { token: admin, body: {} });
    expect(r.body).toMatchObject({ status: 'approved', flags: [] });
  });
});
