/**
 * Work orders (生产工单) on the phone (decisions.md "Work orders"; the service checks everything again,
 * src/commands/report-lines.ts). Plain TypeScript, no `wx`.
 *
 * - On the 报工单 each candidate offers its open orders (`GET /api/reports/draft` `candidates[].workOrders`, earliest
 *   due first, then number, as the service orders them) and 不指定工单 last; the first order is chosen by default
 *   (`orderChoices`). The line sent carries `workOrderNo` unless 不指定工单 is chosen.
 * - 扫工票: a ticket's scene is `o=<key>`, the key of the order number (core/sha256.ts `codeKeyOf`); it chooses that
 *   order on every line offering it (`ticketPick`); a ticket whose order no line offers is said in a sentence.
 * - 审核 shows beside a line its order and that operation's approved 成品 against the planned quantity
 *   (`orderProgressText`, from `GET /api/work-orders/{orderNo}`); 首页 of a manager lists late orders (`lateOrderText`).
 */
import { codeKeyOf } from './sha256';

/** An open order a candidate may count toward, as the draft gives it. */
export interface DraftOrder {
  orderNo: string;
  plannedQty: number;
  /** This operation's approved and pending 成品 (pieces). */
  reportedFinishedQty: number;
  dueDate: string | null;
}

/** The label of 不指定工单 in a picker. */
export const NO_ORDER = '不指定工单';

/** `2026-03-06` → `3月6日` ('' for none). */
export const dueText = (date: string | null | undefined): string => {
  const m = /^\d{4}-(\d{2})-(\d{2})$/.exec(date ?? '');
  return m ? `${Number(m[1])}月${Number(m[2])}日` : '';
};

/** A picker's label of an order: `WO-2611-07（交期 3月6日，本工序已报 1200 / 计划 5000）`. */
export function orderLabel(o: DraftOrder): string {
  const due = o.dueDate ? `交期 ${dueText(o.dueDate)}，` : '';
  return `${o.orderNo}（${due}本工序已报 ${o.reportedFinishedQty} / 计划 ${o.plannedQty}）`;
}

/** A candidate's picker: the labels (the orders, then 不指定工单) and the index chosen by default (0: the earliest due; none: 不指定工单). */
export function orderChoices(orders: readonly DraftOrder[]): { labels: string[]; chosen: number } {
  return { labels: [...orders.map(orderLabel), NO_ORDER], chosen: 0 };
}

/** The order number a picker index names on a candidate with `orders` (undefined: 不指定工单 or out of range). */
export const orderAt = (orders: readonly DraftOrder[], index: number): string | undefined => orders[index]?.orderNo;

/** The picker index of `orderNo` on a candidate with `orders` (不指定工单's index when it is not among them). */
export const indexOf = (orders: readonly DraftOrder[], orderNo: string | undefined): number => {
  const i = orders.findIndex((o) => o.orderNo === orderNo);
  return i < 0 ? orders.length : i;
};

/**
 * What a scanned ticket of key `key` chooses among `rows` (each with its name and offered orders): the rows offering
 * that order with its index there, and the sentence the worker reads. `blocked(i)`: a row that cannot be reported
 * (another's crew line counts the worker) is not chosen.
 */
export function ticketPick(
  key: string,
  rows: readonly { name: string; orders: readonly DraftOrder[] }[],
  blocked: (i: number) => boolean = () => false,
): { picks: { row: number; index: number }[]; orderNo?: string; text: string; ok: boolean } {
  const picks: { row: number; index: number }[] = [];
  let orderNo: string | undefined;
  rows.forEach((r, row) => {
    if (blocked(row)) return;
    const index = r.orders.findIndex((o) => codeKeyOf(o.orderNo) === key);
    if (index >= 0) {
      picks.push({ row, index });
      orderNo = r.orders[index].orderNo;
    }
  });
  if (!orderNo) {
    return {
      picks,
      ok: false,
      text: '这张工票的工单不在这张报工单上：它不是这次上班设备上的产品和工序的工单，或已完工、关闭、作废。请核对工票，或联系班组长',
    };
  }
  const names = picks.map((p) => `“${rows[p.row].name}”`).join('、');
  return { picks, orderNo, ok: true, text: `已选择工单 ${orderNo}：${names}` };
}

/** An order's operation as `GET /api/work-orders/{orderNo}` gives it (the fields the phone reads). */
export interface OrderOperation {
  processName: string;
  approvedFinishedQty: number;
}

/**
 * A line's order and progress as the reviewer reads it: `工单 WO-1 · 折弯 已通过 480 / 计划 500`; without the order's
 * figures (not readable) just `工单 WO-1`.
 */
export function orderProgressText(orderNo: string, processName: string, order?: { plannedQty: number; operations: readonly OrderOperation[] }): string {
  const op = order?.operations.find((o) => o.processName === processName);
  return order && op ? `工单 ${orderNo} · ${processName} 已通过 ${op.approvedFinishedQty} / 计划 ${order.plannedQty}` : `工单 ${orderNo}`;
}

/** A late order as 首页 lists it: `WO-1 · 前围横梁 · 交期 3月6日 · 完成 42.5%`. */
export function lateOrderText(o: { orderNo: string; productName: string; dueDate: string | null; completionPct: number }): string {
  return `${o.orderNo} · ${o.productName} · 交期 ${dueText(o.dueDate) || '无'} · 完成 ${o.completionPct}%`;
}

/** What a worker reads after scanning a ticket outside a 报工单 (the ticket is kept for the next one: platform/ticket-store.ts). */
export const TICKET_KEPT = '已记下这张工票。下班报工时，报工单会自动选择它的工单（也可以在报工单上点“扫工票”）。';

/** The codes of the flow flags (工单的数量不能流转), shown with the line they name. */
export const FLOW_FLAGS = ['EXCEEDS_PREVIOUS_OPERATION', 'OVER_PLANNED'] as const;
