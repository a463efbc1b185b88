/**
 * Quantities that cannot flow (工单流转异常): plausibility flags of a report's lines that name work orders
 * (domain/work-orders.ts), judged against the order's other reports, pure. Like the other plausibility flags
 * (domain/plausibility.ts) they never refuse anything: the reviewer sees them and may approve knowingly (已知异常).
 *
 * For each order and operation a report's lines name (all figures in whole pieces, approved and pending reports of the
 * order, this report's lines included, rejected reports left out):
 * - `EXCEEDS_PREVIOUS_OPERATION`: the operation is not the first, and its 成品 + 不良 exceed the previous operation's
 *   成品 by more than `tolerance` pieces (WORK_ORDER_FLOW_TOLERANCE, default 0).
 * - `OVER_PLANNED`: the operation's 成品 exceed plannedQty × (1 + overrunRatio) (WORK_ORDER_OVERRUN_RATIO, default
 *   0.05; at most 3 decimals, compared exactly in thousandths: 成品 × 1000 > plannedQty × (1000 + ratio‰)).
 * The flags are computed by the deciders and carried in the events (ReportSubmitted, ReportApproved), so a replay
 * gives the same flags whatever the other reports or the configuration say later.
 */
import { z } from 'zod';

/** WORK_ORDER_FLOW_TOLERANCE and WORK_ORDER_OVERRUN_RATIO (src/config.ts). */
export interface FlowBounds {
  readonly tolerance: number;
  readonly overrunRatio: number;
}

export const DEFAULT_FLOW_BOUNDS: FlowBounds = { tolerance: 0, overrunRatio: 0.05 };

const pieces = z.number().int().min(0);

export const exceedsPreviousSchema = z.object({
  code: z.literal('EXCEEDS_PREVIOUS_OPERATION'),
  workOrderNo: z.string().describe('工单号'),
  processName: z.string().describe('本道工序'),
  reportedQty: pieces.describe('本道工序已报的成品 + 不良（已通过与待审核，含本单）'),
  previousProcessName: z.string().describe('上道工序'),
  previousFinishedQty: pieces.describe('上道工序已报的成品（已通过与待审核）'),
  tolerance: pieces.describe('允许多出的件数（WORK_ORDER_FLOW_TOLERANCE）'),
});
export const overPlannedSchema = z.object({
  code: z.literal('OVER_PLANNED'),
  workOrderNo: z.string().describe('工单号'),
  processName: z.string().describe('工序'),
  finishedQty: pieces.describe('该工序已报的成品（已通过与待审核，含本单）'),
  plannedQty: pieces.describe('工单计划数量'),
  overrunRatio: z.number().describe('允许超出计划的比例（WORK_ORDER_OVERRUN_RATIO）'),
});
export type FlowFlag = z.infer<typeof exceedsPreviousSchema> | z.infer<typeof overPlannedSchema>;
export const FLOW_FLAG_CODES = ['EXCEEDS_PREVIOUS_OPERATION', 'OVER_PLANNED'] as const;

/** What the rules read of an order: its planned quantity, operations in sequence, and the other reports' pieces. */
export interface OrderFlow {
  readonly orderNo: string;
  readonly plannedQty: number;
  readonly operations: readonly string[];
  /** Per operation: 成品 and 不良 of the order's approved and pending reports other than the one judged. */
  readonly reported: readonly { readonly processName: string; readonly finishedQty: number; readonly defectiveQty: number }[];
}

/** The lines judged: the order and operation each counts toward, and its pieces. */
export interface FlowLine {
  readonly workOrderNo?: string;
  readonly processName: string;
  readonly finishedQty: number;
  readonly defectiveQty: number;
}

/** The flags of `lines` against `orders` (module docstring), by order, then operation sequence; [] when none. Pure. */
export function flowFlags(lines: readonly FlowLine[], orders: readonly OrderFlow[], bounds: FlowBounds): FlowFlag[] {
  const flags: FlowFlag[] = [];
  const ratio = BigInt(Math.round(bounds.overrunRatio * 1000));
  const named = [...new Set(lines.filter((l) => l.workOrderNo).map((l) => l.workOrderNo as string))].sort();
  for (const orderNo of named) {
    const order = orders.find((o) => o.orderNo === orderNo);
    if (!order) continue;
    const totals = (processName: string) => {
      let finished = 0;
      let defective = 0;
      for (const r of order.reported) if (r.processName === processName) (finished += r.finishedQty), (defective += r.defectiveQty);
      for (const l of lines) if (l.workOrderNo === orderNo && l.processName === processName) (finished += l.finishedQty), (defective += l.defectiveQty);
      return { finished, defective };
    };
    const here = new Set(lines.filter((l) => l.workOrderNo === orderNo).map((l) => l.processName));
    order.operations.forEach((processName, i) => {
      if (!here.has(processName)) return;
      const t = totals(processName);
      if (i > 0) {
        const previousProcessName = order.operations[i - 1];
        const previousFinishedQty = totals(previousProcessName).finished;
        if (t.finished + t.defective > previousFinishedQty + bounds.tolerance) {
          flags.push({
            code: 'EXCEEDS_PREVIOUS_OPERATION',
            workOrderNo: orderNo,
            processName,
            reportedQty: t.finished + t.defective,
            previousProcessName,
            previousFinishedQty,
            tolerance: bounds.tolerance,
          });
        }
      }
      if (BigInt(t.finished) * 1000n > BigInt(order.plannedQty) * (1000n + ratio)) {
        flags.push({ code: 'OVER_PLANNED', workOrderNo: orderNo, processName, finishedQty: t.finished, plannedQty: order.plannedQty, overrunRatio: bounds.overrunRatio });
      }
    });
  }
  return flags;
}

/**
 * The Chinese sentence of a flow flag with its numbers: `工单 WO-1：折弯已报 600 件，上道工序冲压只产出 500 件`;
 * `工单 WO-1：冲压成品已报 5300 件，超过计划数量 5000 件的 105%`.
 */
export function flowFlagMessage(flag: FlowFlag): string {
  if (flag.code === 'EXCEEDS_PREVIOUS_OPERATION') {
    const allowed = flag.tolerance > 0 ? `（允许多出 ${flag.tolerance} 件）` : '';
    return `工单 ${flag.workOrderNo}：${flag.processName}已报 ${flag.reportedQty} 件，上道工序${flag.previousProcessName}只产出 ${flag.previousFinishedQty} 件${allowed}`;
  }
  const pct = Math.round((1 + flag.overrunRatio) * 1000) / 10;
  return `工单 ${flag.workOrderNo}：${flag.processName}成品已报 ${flag.finishedQty} 件，超过计划数量 ${flag.plannedQty} 件的 ${pct}%`;
}

/** True for the flags of this module (a break change recomputes the others and keeps these). */
export const isFlowFlag = (flag: { code: string }): boolean => (FLOW_FLAG_CODES as readonly string[]).includes(flag.code);
