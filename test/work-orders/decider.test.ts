/**
 * The work order decider (生产工单; commands/work-orders/decider.ts), given-when-then: given the order's stream, when
 * a command, then the events or the refusal as the client gets it (status, code, sentence).
 */
import { describe, expect, it } from 'vitest';
import { workOrderDecider } from '../../src/commands/work-orders/decider.ts';
import { scenario } from '../helpers/gwt.ts';

const AT = '2026-03-01T02:00:00.000Z';
const s = scenario(workOrderDecider);
const CATALOG = ['冲压', '折弯', '焊接', '喷涂'];
const released = {
  type: 'WorkOrderReleased' as const,
  data: { orderNo: 'WO-1', projectNo: 'P1', productName: '支架', plannedQty: 500, dueDate: '2026-03-06', notes: null, operations: ['冲压', '折弯'], at: AT },
};
const closed = { type: 'WorkOrderClosed' as const, data: { orderNo: 'WO-1', reason: '短缺关闭', at: AT } };
const release = { type: 'Release' as const, orderNo: 'WO-1', projectNo: 'P1', productName: '支架', plannedQty: 500, dueDate: '2026-03-06', notes: null, operations: ['冲压', '折弯'], catalog: CATALOG, at: AT };

describe('work order decider', () => {
  it('given nothing, when Release, then WorkOrderReleased', () => {
    expect(s.given([]).when(release).events).toEqual([released]);
  });

  it('given an order, when Release with its number, then 409 WORK_ORDER_EXISTS', () => {
    const r = s.given([released]).when(release).error;
    expect([r.status, r.code, r.message]).toEqual([409, 'WORK_ORDER_EXISTS', '工单号 WO-1 已存在，请换一个工单号，或修改已有的工单']);
  });

  it('when Release of a product the catalog lacks, then 422 UNKNOWN_WORK_ORDER_PRODUCT naming it', () => {
    const r = s.given([]).when({ ...release, catalog: null }).error;
    expect([r.status, r.code, r.message]).toEqual([422, 'UNKNOWN_WORK_ORDER_PRODUCT', '产品清单中没有项目号 P1、产品名称「支架」的产品，请先在“产品”中添加']);
  });

  it('when Release with an operation the product lacks, then 422 UNKNOWN_WORK_ORDER_OPERATION naming it', () => {
    const r = s.given([]).when({ ...release, operations: ['冲压', '电镀'] }).error;
    expect([r.status, r.code, r.details, r.message]).toEqual([422, 'UNKNOWN_WORK_ORDER_OPERATION', { processNames: ['电镀'] }, '产品「支架」在产品清单中没有工序：电镀，请检查工序路线或先在“产品”中添加']);
  });

  it.each([
    ['a planned quantity of 0', { plannedQty: 0 }, 'plannedQty'],
    ['a planned quantity over 10^9', { plannedQty: 1_000_000_001 }, 'plannedQty'],
    ['a number with a space', { orderNo: 'WO 1' }, 'orderNo'],
    ['a number of 41 characters', { orderNo: 'W'.repeat(41) }, 'orderNo'],
    ['a due date that is no date', { dueDate: '2026-02-30' }, 'dueDate'],
    ['an operation twice', { operations: ['冲压', '冲压'] }, 'operations'],
    ['no operation', { operations: [] }, 'operations'],
  ])('when Release with %s, then 422 INVALID_WORK_ORDER', (_, input, field) => {
    const r = s.given([]).when({ ...release, ...input }).error;
    expect([r.status, r.code, r.details]).toEqual([422, 'INVALID_WORK_ORDER', { field }]);
  });

  it('given an order, when Change of the planned quantity and due date, then WorkOrderChanged with before and after', () => {
    expect(s.given([released]).when({ type: 'Change', orderNo: 'WO-1', plannedQty: 600, dueDate: null, catalog: null, reported: [], at: AT }).events).toEqual([
      { type: 'WorkOrderChanged', data: { orderNo: 'WO-1', plannedQty: 600, dueDate: null, notes: null, before: { plannedQty: 500, dueDate: '2026-03-06', notes: null }, at: AT } },
    ]);
  });

  it('given an order reported at 冲压, when Change appends 焊接 mid-order, then WorkOrderOperationsChanged', () => {
    const r = s.given([released]).when({ type: 'Change', orderNo: 'WO-1', operations: ['冲压', '折弯', '焊接'], catalog: CATALOG, reported: ['冲压'], at: AT });
    expect(r.events).toEqual([{ type: 'WorkOrderOperationsChanged', data: { orderNo: 'WO-1', operations: ['冲压', '折弯', '焊接'], before: ['冲压', '折弯'], at: AT } }]);
  });

  it('given an order reported at 折弯, when Change removes 折弯, then 409 WORK_ORDER_REPORTED; removing 冲压 (unreported) is allowed', () => {
    const r = s.given([released]).when({ type: 'Change', orderNo: 'WO-1', operations: ['冲压'], catalog: CATALOG, reported: ['折弯'], at: AT }).error;
    expect([r.status, r.code, r.message]).toEqual([409, 'WORK_ORDER_REPORTED', '工单 WO-1 的工序 折弯 已有报工，不能从工序路线中删除']);
    expect(s.given([released]).when({ type: 'Change', orderNo: 'WO-1', operations: ['折弯'], catalog: CATALOG, reported: ['折弯'], at: AT }).events?.[0].type).toBe('WorkOrderOperationsChanged');
  });

  it('given an order, when Change changes nothing, then nothing', () => {
    expect(s.given([released]).when({ type: 'Change', orderNo: 'WO-1', plannedQty: 500, operations: ['冲压', '折弯'], catalog: CATALOG, reported: [], at: AT }).events).toEqual([]);
  });

  it('given an order, when Complete, Close or Cancel, then the event; a closed order reopens with the reason', () => {
    expect(s.given([released]).when({ type: 'Complete', orderNo: 'WO-1', at: AT }).events).toEqual([{ type: 'WorkOrderCompleted', data: { orderNo: 'WO-1', at: AT } }]);
    expect(s.given([released]).when({ type: 'Close', orderNo: 'WO-1', reason: ' 短缺关闭 ', at: AT }).events).toEqual([closed]);
    expect(s.given([released]).when({ type: 'Cancel', orderNo: 'WO-1', reported: [], at: AT }).events).toEqual([{ type: 'WorkOrderCancelled', data: { orderNo: 'WO-1', at: AT } }]);
    expect(s.given([released, closed]).when({ type: 'Reopen', orderNo: 'WO-1', reason: '客户追加', at: AT }).events).toEqual([
      { type: 'WorkOrderReopened', data: { orderNo: 'WO-1', reason: '客户追加', before: 'closed', at: AT } },
    ]);
  });

  it('given a closed order, when Complete or Close, then 409 WORK_ORDER_STATUS naming its status', () => {
    const r = s.given([released, closed]).when({ type: 'Complete', orderNo: 'WO-1', at: AT }).error;
    expect([r.status, r.code, r.message]).toEqual([409, 'WORK_ORDER_STATUS', '工单 WO-1 已关闭，不能完工；只有已下达或生产中的工单可以完工']);
    expect(s.given([released]).when({ type: 'Reopen', orderNo: 'WO-1', reason: 'x', at: AT }).error.code).toBe('WORK_ORDER_STATUS');
  });

  it('given an order some report names, when Cancel, then 409 WORK_ORDER_REPORTED saying to close it', () => {
    const r = s.given([released]).when({ type: 'Cancel', orderNo: 'WO-1', reported: ['冲压'], at: AT }).error;
    expect([r.status, r.code, r.message]).toEqual([409, 'WORK_ORDER_REPORTED', '工单 WO-1 已有报工，不能作废；如不再生产，请关闭工单']);
  });

  it('when Close without a reason, then 422 INVALID_WORK_ORDER (reason)', () => {
    const r = s.given([released]).when({ type: 'Close', orderNo: 'WO-1', reason: '  ', at: AT }).error;
    expect([r.status, r.code, r.message]).toEqual([422, 'INVALID_WORK_ORDER', '请填写原因（1–200 个字）']);
  });

  it('given nothing, when Complete, then 404 WORK_ORDER_NOT_FOUND', () => {
    const r = s.given([]).when({ type: 'Complete', orderNo: 'WO-9', at: AT }).error;
    expect([r.status, r.code, r.message]).toEqual([404, 'WORK_ORDER_NOT_FOUND', '没有找到工单 WO-9，请刷新工单列表']);
  });
});
