/**
 * The kept progress of the work orders (projections/work-order-progress.ts, migrations/023) through HTTP, worked out
 * by hand:
 *
 *   orders  WO-P 支架 冲压→折弯, WO-Q 支架 冲压
 *   张三 03-02  冲压 WO-P 100 + 2 on D1, and 冲压 WO-P 50 + 0 on D3 (one report, two lines)    → approved as is
 *   李四 03-02  折弯 WO-P 80 + 1                                                              → rejected
 *   李四 03-03  冲压 WO-Q 30 + 0                                  → approved, corrected to WO-P 30 + 1
 *   张三 03-04  折弯 WO-P 70 + 3                                                              → pending
 *
 *   WO-P 冲压: approved 180 / 3 (150 + 30, 2 + 1), pending 0 / 0, 2 reports, 2 workers, 03-02 … 03-03
 *   WO-P 折弯: approved 0 / 0, pending 70 / 3, 1 report (the rejected one counts nowhere), 1 worker, 03-04 … 03-04
 *   WO-Q 冲压: nothing left (its only line was corrected away): released, not in progress
 *
 * A replay from the events writes the same rows as the commands did, and the migration's fill from the reports
 * (`work_order_progress_from_reports()`) the same figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayProjection } from '../../src/projections/replay.ts';
import { workOrderProgressProjection } from '../../src/projections/work-order-progress.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { tablesOf } from '../helpers/test-projection.ts';
import { addProduct, MIN, workerClient } from '../clock/helpers.ts';

let app: TestApp;
let manager: string;
let admin: string;
const P: Record<string, number> = {};
const ids: Record<string, string> = {};
const call = (method: string, path: string, token: string, body?: unknown) => app.request(method, path, { token, body });

/**
 * A session of `token`'s worker from 08:00 of `date` on `device` (switching to `also` at 12:00) to 16:00, submitted
 * with `lines`; → the report id.
 */
async function report(token: string, date: string, device: string, lines: unknown[], also?: string): Promise<string> {
  app.clock.set(`${date}T08:00:00+08:00`);
  const w = workerClient(app, token);
  const started = await w.start(device);
  expect(started.status).toBe(200);
  app.clock.advance(4 * 60 * MIN);
  if (also) expect((await w.switchDevice(also)).status).toBe(200);
  app.clock.advance(4 * 60 * MIN);
  expect((await w.finish(also ?? device)).status).toBe(200);
  const r = await w.submit(started.body.sessionId, lines);
  expect([r.status, r.body.error]).toEqual([201, undefined]);
  return r.body.reportId;
}

const ops = async (orderNo: string) =>
  (await call('GET', `/api/work-orders/${orderNo}`, manager)).body.operations.map((o: any) => [
    o.processName,
    o.approvedFinishedQty,
    o.approvedDefectiveQty,
    o.pendingFinishedQty,
    o.pendingDefectiveQty,
    o.reports,
    o.workers,
    o.firstReportDate,
    o.lastReportDate,
  ]);

/** Rows adding nothing (every sum 0) left out: what a fill from the reports has no row for. */
const nonZero = (tables: Record<string, unknown[]>) =>
  Object.fromEntries(
    Object.entries(tables).map(([name, rows]) => [
      name,
      (rows as Record<string, unknown>[]).filter((r) => name === 'work_order_report_lines' || Object.entries(r).some(([c, v]) => /qty|reports/.test(c) && Number(v) !== 0)),
    ]),
  );

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-01T08:00:00+08:00');
  manager = await app.login('13800000002', 'manager', '李经理');
  admin = await app.login('13800000004', 'admin', '王管理');
  P.stamp = await addProduct(app, 'D1', { project: 'P1', name: '支架', process: '冲压', cycle: 1 });
  P.stamp2 = await addProduct(app, 'D3', { project: 'P1', name: '支架', process: '冲压', cycle: 1 });
  P.bend = await addProduct(app, 'D2', { project: 'P1', name: '支架', process: '折弯', cycle: 1 });
  for (const [orderNo, operations] of [['WO-P', ['冲压', '折弯']], ['WO-Q', ['冲压']]] as const) {
    const r = await call('POST', '/api/work-orders', manager, { orderNo, projectNo: 'P1', productName: '支架', plannedQty: 1000, dueDate: '2026-03-31', operations });
    expect(r.status).toBe(201);
  }
});
afterAll(() => app?.close());

describe('work order progress kept as sums', () => {
  it('submissions, an approval, a correction moving a line to another order, a rejection and a pending report', async () => {
    const zhang = await app.login('13800000011', 'worker', '张三');
    const li = await app.login('13800000012', 'worker', '李四');
    ids.a = await report(zhang, '2026-03-02', 'D1', [
      { productId: P.stamp, finishedQty: 100, defectiveQty: 2, workOrderNo: 'WO-P' },
      { productId: P.stamp2, finishedQty: 50, defectiveQty: 0, workOrderNo: 'WO-P' },
    ], 'D3');
    ids.b = await report(li, '2026-03-02', 'D2', [{ productId: P.bend, finishedQty: 80, defectiveQty: 1, workOrderNo: 'WO-P' }]);
    ids.c = await report(li, '2026-03-03', 'D1', [{ productId: P.stamp, finishedQty: 30, defectiveQty: 0, workOrderNo: 'WO-Q' }]);
    expect((await call('GET', '/api/work-orders/WO-Q', manager)).body.status).toBe('in_progress');
    ids.d = await report(zhang, '2026-03-04', 'D2', [{ productId: P.bend, finishedQty: 70, defectiveQty: 3, workOrderNo: 'WO-P' }]);
    expect((await call('POST', `/api/reviews/${ids.a}/approve`, admin, {})).status).toBe(200);
    expect((await call('POST', `/api/reviews/${ids.b}/reject`, admin, { reason: '数量不对' })).status).toBe(200);
    const corrected = await call('POST', `/api/reviews/${ids.c}/approve`, admin, { lines: [{ productId: P.stamp, finishedQty: 30, defectiveQty: 1, workOrderNo: 'WO-P' }] });
    expect([corrected.status, corrected.body.corrected]).toEqual([200, true]);

    expect(await ops('WO-P')).toEqual([
      ['冲压', 180, 3, 0, 0, 2, 2, '2026-03-02', '2026-03-03'],
      ['折弯', 0, 0, 70, 3, 1, 1, '2026-03-04', '2026-03-04'],
    ]);
    const q = (await call('GET', '/api/work-orders/WO-Q', manager)).body;
    expect([q.status, q.operations[0].reports, q.operations[0].workers, q.operations[0].firstReportDate]).toEqual(['released', 0, 0, null]);
    const inProgress = await call('GET', '/api/work-orders?status=in_progress', manager);
    expect(inProgress.body.items.map((o: any) => o.orderNo)).toEqual(['WO-P']);
  });

  it('a replay from the events writes the same rows as the commands did', async () => {
    const pool = app.service.ctx.db.pool;
    const incremental = await tablesOf(pool, workOrderProgressProjection);
    expect(incremental.work_order_report_lines).toHaveLength(1); // the pending report's
    await pool.query(`UPDATE work_order_progress SET approved_finished_qty = 7, reports = 9`);
    await pool.query(`DELETE FROM work_order_progress_workers`);
    await replayProjection(pool, app.service.ctx.store, workOrderProgressProjection, 2);
    expect(await tablesOf(pool, workOrderProgressProjection)).toEqual(incremental);
    await replayProjection(pool, app.service.ctx.store, workOrderProgressProjection);
    expect(await tablesOf(pool, workOrderProgressProjection)).toEqual(incremental);
  });

  it('the fill from the reports (the migration of an existing database) gives the same figures', async () => {
    const pool = app.service.ctx.db.pool;
    const incremental = nonZero(await tablesOf(pool, workOrderProgressProjection));
    const before = await ops('WO-P');
    await pool.query(`SELECT work_order_progress_from_reports()`);
    expect(nonZero(await tablesOf(pool, workOrderProgressProjection))).toEqual(incremental);
    expect(await ops('WO-P')).toEqual(before);
  });
});
