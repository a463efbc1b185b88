/**
 * The work order import (src/work-orders/import.ts, sheet.ts): an .xls file, the classification of known orders
 * (unchanged, update with the changed fields, another product, a cancelled order) and the rows the sheet refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { upload, workbook } from '../products/support.ts';
import { addProduct } from '../clock/helpers.ts';

let app: TestApp;
let office: string;
const HEADER = ['工单号', '项目号', '产品名称', '计划数量', '交期', '工序路线', '备注'];
const call = (method: string, path: string, body?: unknown) => app.request(method, path, { token: office, body });

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-01T09:00:00+08:00');
  office = await app.login('13800000002', 'manager', '李经理');
  await addProduct(app, 'D1', { project: 'P1', name: '支架', process: '冲压' });
  await addProduct(app, 'D2', { project: 'P1', name: '支架', process: '折弯' });
  await addProduct(app, 'D3', { project: 'P1', name: '横梁', process: '冲压' });
  const first = await upload(app, '/api/work-orders/import', office, workbook([HEADER, ['WO-1', 'P1', '支架', 100, '2026-03-10', '冲压', null], ['WO-2', 'P1', '支架', 50, null, '冲压', null]], { bookType: 'xls' }), 'orders.xls');
  expect([first.status, first.body.counts]).toEqual([200, { create: 2, update: 0, unchanged: 0, errors: 0 }]);
  expect((await call('POST', `/api/work-orders/import/${first.body.importId}/confirm`)).status).toBe(200);
  expect((await call('POST', '/api/work-orders/WO-2/cancel')).status).toBe(200);
});
afterAll(() => app?.close());

describe('importing work orders', () => {
  it('classifies known orders: unchanged, changed (with the fields), another product, cancelled; refuses bad rows', async () => {
    const pre = await upload(
      app,
      '/api/work-orders/import',
      office,
      workbook([
        HEADER,
        ['WO-1', 'P1', '支架', 120, '2026-03-10', '冲压→折弯', '加急'],
        ['WO-2', 'P1', '支架', 50, null, '冲压', null],
        ['WO-3', 'P1', '横梁', 0, null, '冲压', null],
        ['WO 4', 'P1', '横梁', 5, '明天', '冲压,冲压', null],
        ['WO-5', 'P1', '横梁', 5, 46094, '冲压', null],
        ['WO-5', 'P1', '横梁', 6, null, '冲压', null],
      ]),
    );
    expect(pre.status).toBe(200);
    expect(pre.body.counts).toEqual({ create: 1, update: 1, unchanged: 0, errors: 4 });
    expect(pre.body.update[0].changes).toEqual([
      { field: 'plannedQty', label: '计划数量', from: 100, to: 120 },
      { field: 'notes', label: '备注', from: null, to: '加急' },
      { field: 'operations', label: '工序路线', from: '冲压', to: '冲压→折弯' },
    ]);
    expect(pre.body.create[0]).toMatchObject({ orderNo: 'WO-5', dueDate: '2026-03-13' }); // an Excel date cell: 46023 is 2026-01-01, + 71 days
    expect(pre.body.errors.map((e: any) => [e.row, e.code])).toEqual([
      [3, 'order_cancelled'],
      [4, 'bad_planned_qty'],
      [5, 'bad_order_no'],
      [7, 'duplicate_order_no'],
    ]);
    expect(pre.body.errors[2].reason).toContain('交期「明天」不是有效日期');
    const confirmed = await call('POST', `/api/work-orders/import/${pre.body.importId}/confirm`);
    expect(confirmed.body.counts).toEqual({ created: 1, updated: 1, unchanged: 0, errors: 4 });
    const o = await call('GET', '/api/work-orders/WO-1');
    expect([o.body.plannedQty, o.body.notes, o.body.operations.map((x: any) => x.processName), o.body.audit.map((a: any) => a.type)]).toEqual([
      120,
      '加急',
      ['冲压', '折弯'],
      ['WorkOrderReleased', 'WorkOrderChanged', 'WorkOrderOperationsChanged'],
    ]);
  });

  it('a preview goes stale when an order changes before its confirmation', async () => {
    const pre = await upload(app, '/api/work-orders/import', office, workbook([HEADER, ['WO-1', 'P1', '支架', 130, '2026-03-10', '冲压→折弯', '加急']]));
    expect(pre.body.counts.update).toBe(1);
    expect((await call('PATCH', '/api/work-orders/WO-1', { dueDate: '2026-03-11' })).status).toBe(200);
    const c = await call('POST', `/api/work-orders/import/${pre.body.importId}/confirm`);
    expect([c.status, c.body.error.code]).toEqual([409, 'IMPORT_STALE']);
  });
});
