/**
 * The quality read's daily sums (projections/quality.ts) count what was approved, worked out by hand through HTTP:
 *
 *   reasons   划伤 SCR 工废 (operator), 材料裂纹 CRK 料废 (material); one product A on device D1; worker 张三
 *   03-02     submitted 100 成品, 6 不良 = 2 划伤 + 3 材料裂纹 + 1 未注明; approved CORRECTED to 100 成品, 4 不良 = 4 材料裂纹
 *             → counts 材料裂纹 4, output 104 (the submitted lines count for nothing)
 *   03-03     50 成品, 5 不良 = 5 划伤: REJECTED → counts nothing
 *   03-04     20 成品, 2 不良 without a reason: approved as submitted → 未注明 2, output 22
 *   03-05     30 成品, 7 不良 = 7 划伤: still PENDING → counts nothing
 *
 *   month     材料裂纹 4 (4/6 = 66.7 %), 未注明 2 (33.3 %, cumulative 100); 不良 6, 产出 104 + 22 = 126, 不良率 6/126 = 4.8 %
 *
 * Each read comes right after the approval, without waiting for the background loop (the route waits for its model),
 * and the projection rebuilt from the events equals the one built as they came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayProjection } from '../../src/projections/replay.ts';
import { qualityProjection } from '../../src/projections/quality.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, MIN, workerClient } from '../clock/helpers.ts';
import { tablesOf } from '../helpers/test-projection.ts';

const WORKER = '13800000011';
let app: TestApp;
let manager: string;
let admin: string;
let product = 0;
const ids: Record<string, string> = {};
const call = (method: string, path: string, token: string, body?: unknown) => app.request(method, path, { token, body });
const pareto = async (groupBy: string) => {
  const r = await call('GET', `/api/quality/defects?startDate=2026-03-01&endDate=2026-03-31&groupBy=${groupBy}`, manager);
  expect(r.status).toBe(200);
  return r.body;
};
const shown = (b: any) => b.items.map((i: any) => [i.key, i.label, i.defectiveQty, i.sharePct, i.cumulativePct]);

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-01T08:00:00+08:00');
  manager = await app.login('13800000002', 'manager', '李经理');
  admin = await app.login('13800000004', 'admin', '王管理');
  const worker = workerClient(app, await app.login(WORKER, 'worker', '张三'));
  product = await addProduct(app, 'D1', { name: '前围横梁' });
  expect((await call('POST', '/api/defect-reasons', manager, { code: 'SCR', name: '划伤', category: 'operator' })).status).toBe(201);
  expect((await call('POST', '/api/defect-reasons', manager, { code: 'CRK', name: '材料裂纹', category: 'material' })).status).toBe(201);
  const submit = async (day: string, line: Record<string, unknown>) => {
    app.clock.set(`2026-03-${day}T08:00:00+08:00`);
    const started = await worker.start('D1');
    app.clock.advance(8 * 60 * MIN);
    expect((await worker.finish('D1')).status).toBe(200);
    const r = await worker.submit(started.body.sessionId, [{ productId: product, ...line }]);
    expect(r.status).toBe(201);
    return r.body.reportId as string;
  };
  ids.corrected = await submit('02', { finishedQty: 100, defectiveQty: 6, defects: [{ reasonCode: 'SCR', qty: 2 }, { reasonCode: 'CRK', qty: 3 }] });
  ids.rejected = await submit('03', { finishedQty: 50, defectiveQty: 5, defects: [{ reasonCode: 'SCR', qty: 5 }] });
  ids.plain = await submit('04', { finishedQty: 20, defectiveQty: 2 });
  ids.pending = await submit('05', { finishedQty: 30, defectiveQty: 7, defects: [{ reasonCode: 'SCR', qty: 7 }] });
});
afterAll(() => app?.close());

describe('the quality sums count the approved lines', () => {
  it('nothing counts while the reports are pending', async () => {
    expect(await pareto('reason')).toEqual({ items: [], totalDefectiveQty: 0, totalOutputQty: 0, defectRatePct: 0 });
  });

  it('an approval with a correction counts the corrected lines: 材料裂纹 4, output 104', async () => {
    const corrected = await call('POST', `/api/reviews/${ids.corrected}/approve`, admin, {
      lines: [{ productId: product, finishedQty: 100, defectiveQty: 4, defects: [{ reasonCode: 'CRK', qty: 4 }] }],
    });
    expect([corrected.status, corrected.body.corrected]).toEqual([200, true]);
    const b = await pareto('reason');
    expect(shown(b)).toEqual([['CRK', '材料裂纹', 4, 100, 100]]);
    expect([b.totalDefectiveQty, b.totalOutputQty, b.defectRatePct]).toEqual([4, 104, 3.8]);
  });

  it('a rejected report counts nothing; an approval as submitted counts its 未注明 2', async () => {
    expect((await call('POST', `/api/reviews/${ids.rejected}/reject`, admin, { reason: '重复报工' })).status).toBe(200);
    expect((await call('POST', `/api/reviews/${ids.plain}/approve`, admin, {})).status).toBe(200);
    const b = await pareto('reason');
    expect(shown(b)).toEqual([
      ['CRK', '材料裂纹', 4, 66.7, 66.7],
      [null, '未注明', 2, 33.3, 100],
    ]);
    expect([b.totalDefectiveQty, b.totalOutputQty, b.defectRatePct]).toEqual([6, 126, 4.8]);
  });

  it('by category, worker, product, device and team the same 6 pieces', async () => {
    expect(shown(await pareto('category'))).toEqual([
      ['material', '料废', 4, 66.7, 66.7],
      [null, '未注明', 2, 33.3, 100],
    ]);
    expect(shown(await pareto('worker'))).toEqual([[WORKER, '张三', 6, 100, 100]]);
    // Not a whole month (read by day, not from the month's row): 03-03 to 04-30 holds only 03-04's 2 pieces.
    const part = await call('GET', `/api/quality/defects?startDate=2026-03-03&endDate=2026-04-30&groupBy=worker`, manager);
    expect([shown(part.body), part.body.totalOutputQty]).toEqual([[[WORKER, '张三', 2, 100, 100]], 22]);
    expect(shown(await pareto('device'))).toEqual([['D1', 'D1', 6, 100, 100]]);
    expect(shown(await pareto('team'))).toEqual([[null, '未分班组', 6, 100, 100]]);
    const p = await pareto('product');
    expect(p.items.map((i: any) => [i.key, i.defectiveQty])).toEqual([[String(product), 6]]);
    expect(p.items[0].label).toMatch(/^前围横梁（.+）$/);
  });

  it('rebuilds the quality projection from the events to exactly the tables built as they came', async () => {
    await app.catchUpAll();
    const pool = app.service.ctx.db.pool;
    const tables = () => tablesOf(pool, qualityProjection);
    const incremental = await tables();
    // The pending report's contribution is kept; the rejected one's is forgotten.
    expect(incremental.quality_report_contributions.map((r: any) => r.report_id)).toEqual([ids.pending]);
    expect(incremental.quality_daily_reasons.map((r: any) => [r.report_date, r.reason_key, r.category, Number(r.qty)])).toEqual([
      ['2026-03-02', 'CRK', 'material', 4],
      ['2026-03-04', '', '', 2],
    ]);
    expect(incremental.quality_daily_dims).toHaveLength(8); // two days × worker, product, device and work order (none: '')
    expect(incremental.quality_monthly_workers.map((r: any) => [r.month, r.employee_phone, Number(r.defective_qty), Number(r.output_qty)])).toEqual([
      ['2026-03-01', WORKER, 6, 126],
    ]);
    await pool.query(`UPDATE quality_daily_dims SET defective_qty = 0, output_qty = 0`);
    await pool.query(`DELETE FROM quality_daily_reasons`);
    await pool.query(`DELETE FROM quality_monthly_workers`);
    await replayProjection(pool, app.service.ctx.store, qualityProjection, 3);
    expect(await tables()).toEqual(incremental);
  });
});
