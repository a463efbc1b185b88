/**
 * Work orders end to end through HTTP, worked out by hand (never by the code under test):
 *
 *   products  P-26 支架 on JC-1 冲压, JC-2 折弯
 *   import    WO-A 支架 plan 1000, due 2026-03-04, route 冲压→折弯; WO-B 支架 plan 200, due 2026-03-31, route 冲压,折弯
 *   03-02     张三 reports 500 at 冲压 for WO-A; 李四 reports 520 at 折弯 for WO-A (510 成品 + 10 不良)
 *   flow      折弯 520 > 冲压 500 → EXCEEDS_PREVIOUS_OPERATION「工单 WO-A：折弯已报 520 件，上道工序冲压只产出 500 件」
 *   approve   both, the second knowing the flag (its audit trail says so)
 *   progress  冲压 approved 500 / 0, 折弯 approved 510 / 10; goodQty = 510 (the last operation), 510 ÷ 1000 = 51.0 %
 *   03-05     WO-A is late (due 03-04, still open), WO-B is not (due 03-31)
 *   closed    WO-B closed; a line naming it is refused with a Chinese sentence
 *   replay    the reports, the audit trail and the orders rebuilt from the events give the same progress
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayProjection } from '../../src/projections/replay.ts';
import { reportsProjection } from '../../src/projections/reports.ts';
import { workOrdersProjection } from '../../src/projections/work-orders.ts';
import { workOrderProgressProjection } from '../../src/projections/work-order-progress.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { MIN, workerClient } from '../clock/helpers.ts';
import { upload, workbook } from '../products/support.ts';

let app: TestApp;
let office: string;
let reviewer: string;
const reports: Record<string, string> = {};
const call = (method: string, path: string, token: string, body?: unknown) => app.request(method, path, { token, body });

/** A worker's shift on `device` from 08:00 to 16:00 of the clock's day, submitted with `lines`. */
async function shift(token: string, device: string, lines: (draft: any) => unknown[]) {
  const w = workerClient(app, token);
  const started = await w.start(device);
  expect(started.status).toBe(200);
  app.clock.advance(8 * 60 * MIN);
  expect((await w.finish(device)).status).toBe(200);
  const draft = await w.draft(started.body.sessionId);
  expect(draft.status).toBe(200);
  return { draft: draft.body, submitted: await w.submit(started.body.sessionId, lines(draft.body)) };
}

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-01T09:00:00+08:00');
  office = await app.login('13800000002', 'manager', '李经理');
  reviewer = await app.login('13800000004', 'admin', '王管理');
  for (const [deviceNo, processName] of [['JC-1', '冲压'], ['JC-2', '折弯']]) {
    const r = await call('POST', '/api/products', office, { projectNo: 'P-26', productName: '支架', deviceNo, processName, standardCycleSeconds: 10 });
    expect(r.status).toBe(200);
  }
});
afterAll(() => app?.close());

describe('work orders: done when', () => {
  it('the office imports two orders from a spreadsheet (preview, then confirm)', async () => {
    const sheet = workbook([
      ['工单号', '项目号', '产品名称', '计划数量', '交期', '工序路线', '备注'],
      ['WO-A', 'P-26', '支架', 1000, '2026-03-04', '冲压→折弯', '急单'],
      ['WO-B', 'P-26', '支架', 200, '2026/3/31', '冲压,折弯', null],
      ['WO-C', 'P-26', '底座', 50, null, '冲压', null],
    ]);
    const preview = await upload(app, '/api/work-orders/import', office, sheet);
    expect([preview.status, preview.body.counts]).toEqual([200, { create: 2, update: 0, unchanged: 0, errors: 1 }]);
    expect(preview.body.errors[0]).toMatchObject({ row: 4, code: 'unknown_product', reason: '产品清单中没有项目号 P-26、产品名称「底座」的产品，请先导入产品清单' });
    const confirmed = await call('POST', `/api/work-orders/import/${preview.body.importId}/confirm`, office);
    expect([confirmed.status, confirmed.body.counts]).toEqual([200, { created: 2, updated: 0, unchanged: 0, errors: 1 }]);
    const list = await call('GET', '/api/work-orders', office);
    expect(list.body.items.map((o: any) => [o.orderNo, o.plannedQty, o.dueDate, o.operations.map((x: any) => x.processName), o.status])).toEqual([
      ['WO-A', 1000, '2026-03-04', ['冲压', '折弯'], 'released'],
      ['WO-B', 200, '2026-03-31', ['冲压', '折弯'], 'released'],
    ]);
  });

  it('a worker reports 500 at 冲压 and another 520 at 折弯 for WO-A; the reviewer sees the flow flag with its sentence', async () => {
    app.clock.set('2026-03-02T08:00:00+08:00');
    const first = await shift(await app.login('13800000011', 'worker', '张三'), 'JC-1', (d) => {
      // the draft offers the open orders of the product at this operation, earliest due first
      expect(d.candidates[0].workOrders.map((o: any) => o.orderNo)).toEqual(['WO-A', 'WO-B']);
      return [{ productId: d.candidates[0].productId, finishedQty: 500, defectiveQty: 0, workOrderNo: d.candidates[0].workOrders[0].orderNo }];
    });
    expect(first.submitted.status).toBe(201);
    reports.stamp = first.submitted.body.reportId;
    app.clock.set('2026-03-02T08:00:00+08:00');
    const second = await shift(await app.login('13800000012', 'worker', '李四'), 'JC-2', (d) => [{ productId: d.candidates[0].productId, finishedQty: 510, defectiveQty: 10, workOrderNo: 'WO-A' }]);
    expect(second.submitted.status).toBe(201);
    reports.bend = second.submitted.body.reportId;

    const pending = await call('GET', '/api/reviews/pending', reviewer);
    const bend = pending.body.items.find((r: any) => r.reportId === reports.bend);
    expect(bend.flags.filter((f: any) => f.code === 'EXCEEDS_PREVIOUS_OPERATION').map((f: any) => f.message)).toEqual(['工单 WO-A：折弯已报 520 件，上道工序冲压只产出 500 件']);
    expect(pending.body.items.find((r: any) => r.reportId === reports.stamp).flags.filter((f: any) => f.code === 'EXCEEDS_PREVIOUS_OPERATION')).toEqual([]);
  });

  it('the reviewer approves both, the second knowingly (已知异常 in its audit trail)', async () => {
    for (const id of [reports.stamp, reports.bend]) expect((await call('POST', `/api/reviews/${id}/approve`, reviewer, {})).status).toBe(200);
    const trail = await call('GET', `/api/reports/${reports.bend}/audit-logs`, office);
    const approved = trail.body.items.find((i: any) => i.action === 'approved');
    expect([approved.actorName, approved.flags.map((f: any) => f.code)]).toEqual(['王管理', ['EXCEEDS_PREVIOUS_OPERATION']]);
  });

  it('the order’s page shows each operation’s approved quantities; completionPct follows the last operation', async () => {
    const o = await call('GET', '/api/work-orders/WO-A', office);
    expect(o.status).toBe(200);
    expect(o.body.operations.map((x: any) => [x.sequence, x.processName, x.approvedFinishedQty, x.approvedDefectiveQty, x.pendingFinishedQty, x.reports, x.workers])).toEqual([
      [1, '冲压', 500, 0, 0, 1, 1],
      [2, '折弯', 510, 10, 0, 1, 1],
    ]);
    expect([o.body.status, o.body.goodQty, o.body.completionPct, o.body.late]).toEqual(['in_progress', 510, 51, false]);
    expect(o.body.audit.map((a: any) => [a.type, a.actorName])).toEqual([['WorkOrderReleased', '李经理']]);
    const listed = await call('GET', '/api/work-orders/WO-A/reports', office);
    expect(listed.body.items.map((r: any) => r.employeeName).sort()).toEqual(['张三', '李四']);
  });

  it('the quality Pareto by work order counts the approved 不良 of each order', async () => {
    const r = await call('GET', '/api/quality/defects?startDate=2026-03-01&endDate=2026-03-31&groupBy=workOrder', office);
    expect([r.status, r.body.items, r.body.totalDefectiveQty, r.body.totalOutputQty]).toEqual([
      200,
      [{ key: 'WO-A', label: 'WO-A', defectiveQty: 10, sharePct: 100, cumulativePct: 100 }],
      10,
      1020,
    ]);
  });

  it('past its due date the open order is late; the other is not', async () => {
    app.clock.set('2026-03-05T09:00:00+08:00');
    const late = await call('GET', '/api/work-orders?late=true', office);
    expect(late.body.items.map((o: any) => [o.orderNo, o.late])).toEqual([['WO-A', true]]);
    expect((await call('GET', '/api/work-orders/WO-B', office)).body.late).toBe(false);
  });

  it('a closed order refuses a new line with a Chinese sentence naming the order and the operation', async () => {
    expect((await call('POST', '/api/work-orders/WO-B/close', office, { reason: '客户取消剩余数量' })).body.status).toBe('closed');
    const refused = await shift(await app.login('13800000011', 'worker', '张三'), 'JC-1', (d) => {
      expect(d.candidates[0].workOrders.map((o: any) => o.orderNo)).toEqual(['WO-A']);
      return [{ productId: d.candidates[0].productId, finishedQty: 10, defectiveQty: 0, workOrderNo: 'WO-B' }];
    });
    expect([refused.submitted.status, refused.submitted.body.error.code, refused.submitted.body.error.message]).toEqual([
      422,
      'WORK_ORDER_NOT_OPEN',
      '第 1 行：工单 WO-B 已关闭，不能再报冲压工序，请选择其他工单或不指定工单',
    ]);
  });

  it('a replay gives the same progress', async () => {
    const orders = async () => (await call('GET', '/api/work-orders?pageSize=100', office)).body;
    const before = await orders();
    const pool = app.service.ctx.db.pool;
    await pool.query(`UPDATE reports SET lines = '[]'::jsonb, status = 'rejected'`);
    await pool.query(`DELETE FROM work_orders`);
    await pool.query(`DELETE FROM work_order_progress`);
    for (const p of [reportsProjection, workOrdersProjection, workOrderProgressProjection]) await replayProjection(pool, app.service.ctx.store, p, 3);
    expect(await orders()).toEqual(before);
    expect(before.items[0]).toMatchObject({ orderNo: 'WO-A', goodQty: 510, completionPct: 51 });
  });
});
