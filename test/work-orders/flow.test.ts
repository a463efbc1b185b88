/**
 * Quantities that cannot flow (domain/work-order-flow.ts) and an order's completion (domain/work-orders.ts), pure:
 * the flags from the figures, their sentences, the tolerance and the overrun ratio, and the percentage from integers.
 */
import { describe, expect, it } from 'vitest';
import { flowFlags, flowFlagMessage } from '../../src/domain/work-order-flow.ts';
import { completionPct, isLate, splitRoute } from '../../src/domain/work-orders.ts';

const order = { orderNo: 'WO-1', plannedQty: 500, operations: ['冲压', '折弯', '焊接'], reported: [{ processName: '冲压', finishedQty: 500, defectiveQty: 4 }] };
const bounds = { tolerance: 0, overrunRatio: 0.05 };

describe('flow flags', () => {
  it('折弯 600 after 冲压 500: EXCEEDS_PREVIOUS_OPERATION with the numbers in its sentence', () => {
    const flags = flowFlags([{ workOrderNo: 'WO-1', processName: '折弯', finishedQty: 590, defectiveQty: 10 }], [order], bounds);
    expect(flags.map(flowFlagMessage)).toEqual(['工单 WO-1：折弯已报 600 件，上道工序冲压只产出 500 件', '工单 WO-1：折弯成品已报 590 件，超过计划数量 500 件的 105%']);
  });

  it('exactly the previous output is no flag; one piece more is, unless within the tolerance', () => {
    expect(flowFlags([{ workOrderNo: 'WO-1', processName: '折弯', finishedQty: 495, defectiveQty: 5 }], [order], bounds)).toEqual([]);
    expect(flowFlags([{ workOrderNo: 'WO-1', processName: '折弯', finishedQty: 496, defectiveQty: 5 }], [order], bounds).map((f) => f.code)).toEqual(['EXCEEDS_PREVIOUS_OPERATION']);
    expect(flowFlags([{ workOrderNo: 'WO-1', processName: '折弯', finishedQty: 496, defectiveQty: 5 }], [order], { ...bounds, tolerance: 1 })).toEqual([]);
  });

  it('the first operation has no previous one; over planned × 1.05 exactly (525) is no flag, 526 is', () => {
    const first = (finishedQty: number) => flowFlags([{ workOrderNo: 'WO-1', processName: '冲压', finishedQty: finishedQty - 500, defectiveQty: 0 }], [order], bounds);
    expect(first(525)).toEqual([]);
    expect(first(526)).toEqual([{ code: 'OVER_PLANNED', workOrderNo: 'WO-1', processName: '冲压', finishedQty: 526, plannedQty: 500, overrunRatio: 0.05 }]);
  });

  it('lines without an order, or of an order not known, flag nothing', () => {
    expect(flowFlags([{ processName: '折弯', finishedQty: 9999, defectiveQty: 0 }], [order], bounds)).toEqual([]);
    expect(flowFlags([{ workOrderNo: 'WO-9', processName: '折弯', finishedQty: 9999, defectiveQty: 0 }], [order], bounds)).toEqual([]);
  });
});

describe('an order’s completion and lateness', () => {
  it.each([
    [0, 500, 0],
    [333, 1000, 33.3],
    [2, 3, 66.7],
    [1, 2000, 0.1], // 0.05 % rounds half away from zero to 0.1
    [515, 500, 103],
  ])('%i of %i is %d %', (good, planned, pct) => expect(completionPct(good, planned)).toBe(pct));

  it('late: after the due date and still open', () => {
    expect(isLate({ status: 'released', dueDate: '2026-03-05' }, '2026-03-06')).toBe(true);
    expect(isLate({ status: 'released', dueDate: '2026-03-05' }, '2026-03-05')).toBe(false);
    expect(isLate({ status: 'closed', dueDate: '2026-03-05' }, '2026-03-06')).toBe(false);
    expect(isLate({ status: 'released', dueDate: null }, '2026-03-06')).toBe(false);
  });

  it('a route cell splits on arrows and commas', () => {
    expect(splitRoute('冲压→折弯 → 焊接')).toEqual(['冲压', '折弯', '焊接']);
    expect(splitRoute('冲压,折弯，焊接')).toEqual(['冲压', '折弯', '焊接']);
  });
});
