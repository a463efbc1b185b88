/**
 * Work orders through HTTP: release, list, one with its audit trail, change, complete, close, reopen, cancel; report
 * lines naming an order (the 422 codes and their sentences, the draft's candidates' orders, a correction changing a
 * line's order, audited); the flow flags; a replay of the work order model equal to the rows the commands wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayProjection } from '../../src/projections/replay.ts';
import { workOrdersProjection } from '../../src/projections/work-orders.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { tablesOf } from '../helpers/test-projection.ts';
import { addProduct, MIN, workerClient } from '../clock/helpers.ts';
import { deviceKeyOf } from '../../src/devices/device.ts';

let app: TestApp;
let manager: string;
let admin: string;
let workerToken: string;
const P: Record<string, number> = {};
const call = (method: string, path: string, token: string, body?: unknown) => app.request(method, path, { token, body });

/** A day's session of the worker on `device`, submitted with `lines`; → the answer of the submission. */
async function report(device: string, lines: unknown[]) {
  const w = workerClient(app, workerToken);
  const started = await w.start(device);
  expect(started.status).toBe(200);
  app.clock.advance(8 * 60 * MIN);
  expect((await w.finish(device)).status).toBe(200);
  const draft = await w.draft(started.body.sessionId);
  const r = await w.submit(started.body.sessionId, lines);
  app.clock.advance(16 * 60 * MIN);
  return { submitted: r, draft };
}

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-02T08:00:00+08:00');
  manager = await app.login('13800000002', 'manager', '李经理');
  admin = await app.login('13800000004', 'admin', '王管理');
  workerToken = await app.login('13800000011', 'worker', '张三');
  P.stamp = await addProduct(app, 'D1', { project: 'P1', name: '支架', process: '冲压', cycle: 1 });
  P.bend = await addProduct(app, 'D2', { project: 'P1', name: '支架', process: '折弯', cycle: 1 });
  P.other = await addProduct(app, 'D1', { project: 'P1', name: '横梁', process: '冲压', cycle: 1 });
  P.weld = await addProduct(app, 'D3', { project: 'P1', name: '支架', process: '焊接', cycle: 1 });
});
afterAll(() => app?.close());

describe('work orders', () => {
  it('a manager releases an order; a worker may not; the same number again is 409, an unknown operation 422', async () => {
    const body = { orderNo: 'WO-1', projectNo: 'P1', productName: '支架', plannedQty: 500, dueDate: '2026-03-05', operations: ['冲压', '折弯'] };
    const r = await call('POST', '/api/work-orders', manager, body);
    expect([r.status, r.body.status, r.body.operations.map((o: any) => o.processName), r.body.completionPct]).toEqual([201, 'released', ['冲压', '折弯'], 0]);
    expect((await call('POST', '/api/work-orders', workerToken, body)).status).toBe(403);
    expect((await call('POST', '/api/work-orders', admin, body)).body.error.code).toBe('WORK_ORDER_EXISTS');
    const bad = await call('POST', '/api/work-orders', admin, { ...body, orderNo: 'WO-X', operations: ['冲压', '电镀'] });
    expect([bad.status, bad.body.error.code, bad.body.error.message]).toEqual([422, 'UNKNOWN_WORK_ORDER_OPERATION', '产品「支架」在产品清单中没有工序：电镀，请检查工序路线或先在“产品”中添加']);
    const noProduct = await call('POST', '/api/work-orders', admin, { ...body, orderNo: 'WO-X', productName: '底座' });
    expect([noProduct.status, noProduct.body.error.code]).toEqual([422, 'UNKNOWN_WORK_ORDER_PRODUCT']);
    expect((await call('POST', '/api/work-orders', admin, { ...body, orderNo: 'WO-2', dueDate: '2026-03-20', plannedQty: 100 })).status).toBe(201);
  });

  it('the draft offers the open orders of each candidate, earliest due first', async () => {
    const w = workerClient(app, workerToken);
    const started = await w.start('D1');
    app.clock.advance(60 * MIN);
    await w.finish('D1');
    const d = await w.draft(started.body.sessionId);
    const stamp = d.body.candidates.find((c: any) => c.productId === P.stamp);
    const other = d.body.candidates.find((c: any) => c.productId === P.other);
    expect(stamp.workOrders).toEqual([
      { orderNo: 'WO-1', plannedQty: 500, reportedFinishedQty: 0, dueDate: '2026-03-05' },
      { orderNo: 'WO-2', plannedQty: 100, reportedFinishedQty: 0, dueDate: '2026-03-20' },
    ]);
    expect(other.workOrders).toEqual([]);
    // a line naming another product's order, an unknown order, an operation the order lacks: 422 with the sentence
    const wrong = await w.submit(started.body.sessionId, [{ productId: P.other, finishedQty: 1, defectiveQty: 0, workOrderNo: 'WO-1' }]);
    expect([wrong.status, wrong.body.error.code, wrong.body.error.message]).toEqual([422, 'WORK_ORDER_WRONG_PRODUCT', '第 1 行：工单 WO-1 生产的是「支架」，不是本行的「横梁」，请选择该产品的工单']);
    const missing = await w.submit(started.body.sessionId, [{ productId: P.stamp, finishedQty: 1, defectiveQty: 0, workOrderNo: 'WO-404' }]);
    expect([missing.status, missing.body.error.code, missing.body.error.details]).toEqual([422, 'WORK_ORDER_NOT_FOUND', { orderNo: 'WO-404', line: 1 }]);
    // a line without an order is accepted as before
    const ok = await w.submit(started.body.sessionId, [{ productId: P.other, finishedQty: 1, defectiveQty: 0 }]);
    expect(ok.status).toBe(201);
    app.clock.advance(16 * 60 * MIN);
  });

  it('a report naming the order moves it to in_progress; 折弯 beyond 冲压 is flagged with its sentence', async () => {
    const a = await report('D1', [{ productId: P.stamp, finishedQty: 500, defectiveQty: 0, workOrderNo: 'WO-1' }]);
    expect([a.submitted.status, a.draft.body.candidates.find((c: any) => c.productId === P.stamp).workOrders[0].orderNo]).toEqual([201, 'WO-1']);
    const b = await report('D2', [{ productId: P.bend, finishedQty: 515, defectiveQty: 5, workOrderNo: 'WO-1' }]);
    expect(b.submitted.status).toBe(201);
    const pending = (await call('GET', '/api/reviews/pending', admin)).body.items.find((x: any) => x.reportId === b.submitted.body.reportId);
    const flow = pending.flags.filter((f: any) => f.code === 'EXCEEDS_PREVIOUS_OPERATION');
    expect(flow).toEqual([
      {
        code: 'EXCEEDS_PREVIOUS_OPERATION',
        workOrderNo: 'WO-1',
        processName: '折弯',
        reportedQty: 520,
        previousProcessName: '冲压',
        previousFinishedQty: 500,
        tolerance: 0,
        message: '工单 WO-1：折弯已报 520 件，上道工序冲压只产出 500 件',
      },
    ]);
    const o = await call('GET', '/api/work-orders/WO-1', manager);
    expect([o.body.status, o.body.operations[0].pendingFinishedQty, o.body.operations[1].pendingFinishedQty, o.body.goodQty]).toEqual(['in_progress', 500, 515, 0]);
    // approvals: the order's good output follows the last operation's approved 成品
    expect((await call('POST', `/api/reviews/${a.submitted.body.reportId}/approve`, admin, {})).status).toBe(200);
    expect((await call('POST', `/api/reviews/${b.submitted.body.reportId}/approve`, admin, {})).status).toBe(200);
    const after = await call('GET', '/api/work-orders/WO-1', manager);
    expect([after.body.goodQty, after.body.completionPct, after.body.operations[1].approvedDefectiveQty, after.body.operations[1].reports]).toEqual([515, 103, 5, 1]);
    const reports = await call('GET', '/api/work-orders/WO-1/reports?processName=折弯', admin);
    expect([reports.status, reports.body.total, reports.body.items[0].lines.map((l: any) => l.workOrderNo)]).toEqual([200, 1, ['WO-1']]);
  });

  it('an order cannot be cancelled once reported, nor lose a reported operation; it can gain one mid-order', async () => {
    const c = await call('POST', '/api/work-orders/WO-1/cancel', manager);
    expect([c.status, c.body.error.code]).toEqual([409, 'WORK_ORDER_REPORTED']);
    const removed = await call('PATCH', '/api/work-orders/WO-1', manager, { operations: ['冲压'] });
    expect([removed.status, removed.body.error.message]).toEqual([409, '工单 WO-1 的工序 折弯 已有报工，不能从工序路线中删除']);
    const added = await call('PATCH', '/api/work-orders/WO-1', manager, { operations: ['冲压', '折弯', '焊接'], plannedQty: 600 });
    expect([added.status, added.body.operations.length, added.body.goodQty, added.body.plannedQty]).toEqual([200, 3, 0, 600]);
    const audit = (await call('GET', '/api/work-orders/WO-1', manager)).body.audit;
    expect(audit.map((a: any) => [a.type, a.actorName])).toEqual([
      ['WorkOrderReleased', '李经理'],
      ['WorkOrderChanged', '李经理'],
      ['WorkOrderOperationsChanged', '李经理'],
    ]);
    expect(audit[1].changes).toEqual([{ field: 'plannedQty', before: 500, after: 600 }]);
    expect((await call('POST', '/api/work-orders/WO-2/cancel', admin)).body.status).toBe('cancelled');
  });

  it('a closed order refuses a new line with a Chinese sentence; reopened, it takes lines again; late after its due date', async () => {
    const closed = await call('POST', '/api/work-orders/WO-1/close', manager, { reason: '短缺关闭' });
    expect([closed.status, closed.body.status, closed.body.statusReason]).toEqual([200, 'closed', '短缺关闭']);
    const refused = await report('D3', [{ productId: P.weld, finishedQty: 10, defectiveQty: 0, workOrderNo: 'WO-1' }]);
    expect([refused.submitted.status, refused.submitted.body.error.code, refused.submitted.body.error.message]).toEqual([
      422,
      'WORK_ORDER_NOT_OPEN',
      '第 1 行：工单 WO-1 已关闭，不能再报焊接工序，请选择其他工单或不指定工单',
    ]);
    expect((await call('POST', '/api/work-orders/WO-1/reopen', manager, { reason: '客户追加' })).body.status).toBe('in_progress');
    const list = await call('GET', '/api/work-orders?late=true', manager);
    expect([list.status, list.body.items.map((o: any) => [o.orderNo, o.late])]).toEqual([200, [['WO-1', true]]]);
    expect((await call('POST', '/api/work-orders/WO-1/complete', admin)).body).toMatchObject({ status: 'completed', late: false });
  });

  it('a correction may change a line’s order (audited as a diff)', async () => {
    await call('POST', '/api/work-orders', manager, { orderNo: 'WO-3', projectNo: 'P1', productName: '支架', plannedQty: 50, operations: ['冲压'] });
    await call('POST', '/api/work-orders', manager, { orderNo: 'WO-4', projectNo: 'P1', productName: '支架', plannedQty: 50, operations: ['冲压'] });
    const r = await report('D1', [{ productId: P.stamp, finishedQty: 40, defectiveQty: 0, workOrderNo: 'WO-3' }]);
    const approved = await call('POST', `/api/reviews/${r.submitted.body.reportId}/approve`, admin, { lines: [{ productId: P.stamp, finishedQty: 40, defectiveQty: 0, workOrderNo: 'WO-4' }] });
    expect([approved.status, approved.body.corrected, approved.body.lines[0].workOrderNo]).toEqual([200, true, 'WO-4']);
    const [three, four] = [(await call('GET', '/api/work-orders/WO-3', manager)).body, (await call('GET', '/api/work-orders/WO-4', manager)).body];
    expect([three.status, three.goodQty, four.goodQty]).toEqual(['released', 0, 40]);
    const log = await call('GET', `/api/reports/${r.submitted.body.reportId}/audit-logs`, manager);
    const corrected = log.body.items.find((i: any) => i.action === 'corrected');
    expect([corrected.before.workOrderNo, corrected.after.workOrderNo]).toEqual(['WO-3', 'WO-4']);
  });

  it('the work ticket is a mini-program code of scene o=<key> opening the 报工单; an unknown order is 404', async () => {
    const res = await fetch(`${app.url}/api/work-orders/WO-1/ticket.png`, { headers: { authorization: `Bearer ${manager}` } });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([res.status, res.headers.get('content-type'), bytes.subarray(1, 4).toString()]).toEqual([200, 'image/png', 'PNG']);
    expect(app.simulator.generatedCodes.at(-1)).toMatchObject({ scene: `o=${deviceKeyOf('WO-1')}`, page: 'pages/report/report' });
    const missing = await call('GET', '/api/work-orders/WO-404/ticket.png', manager);
    expect([missing.status, missing.body.error.code]).toEqual([404, 'WORK_ORDER_NOT_FOUND']);
    expect((await call('GET', '/api/work-orders/WO-1/ticket.png', workerToken)).status).toBe(403);
  });

  it('a replay of the work order model writes the same rows as the commands did', async () => {
    const pool = app.service.ctx.db.pool;
    const incremental = await tablesOf(pool, workOrdersProjection);
    expect(incremental.work_orders).toHaveLength(4);
    await pool.query(`UPDATE work_orders SET status = 'cancelled', planned_qty = 1`);
    await replayProjection(pool, app.service.ctx.store, workOrdersProjection, 2);
    expect(await tablesOf(pool, workOrdersProjection)).toEqual(incremental);
  });
});
