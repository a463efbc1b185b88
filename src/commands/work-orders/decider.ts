/**
 * The work order decider (生产工单; domain/work-orders.ts), pure, on the stream `work-order-<orderNo>`.
 * State: the order, or none.
 *
 * - Release {orderNo, projectNo, productName, plannedQty, dueDate, notes, operations, catalog} on no order →
 *   WorkOrderReleased; WORK_ORDER_EXISTS (409) when the number is taken (also by a cancelled order). `catalog` (a
 *   fact): the 工序 the catalog has for the product (null: no such product, UNKNOWN_WORK_ORDER_PRODUCT); operations
 *   that are none of them: UNKNOWN_WORK_ORDER_OPERATION.
 * - Change {plannedQty?, dueDate?, notes?, operations?, catalog, reported} → WorkOrderChanged (planned quantity, due
 *   date, notes: always allowed but on a cancelled order) and/or WorkOrderOperationsChanged (operations: each a 工序
 *   of the product; one removed while `reported` (a fact: the 工序 some report names the order at) lists it:
 *   WORK_ORDER_REPORTED). Nothing changed decides nothing.
 * - Complete → WorkOrderCompleted; Close {reason} → WorkOrderClosed: only a released order (in progress included).
 * - Reopen {reason} → WorkOrderReopened: only a completed or closed order.
 * - Cancel {reported} → WorkOrderCancelled: only a released order that no report names (WORK_ORDER_REPORTED).
 * Otherwise WORK_ORDER_STATUS (409) naming the status; WORK_ORDER_NOT_FOUND (404) on no order; INVALID_WORK_ORDER
 * (422, details.field) for a field out of its rules (module docstring of domain/work-orders.ts). Reasons are trimmed.
 */
import type { Decider } from '../decider.ts';
import type { WorkOrderEvent } from '../../events/catalog.ts';
import { domainError } from '../../domain/errors.ts';
import { NOTES_MAX, OPERATIONS_MAX, ORDER_NO_MAX, ORDER_NO_RE, PLANNED_QTY_MAX, REASON_MAX, type WorkOrder } from '../../domain/work-orders.ts';

type Base = { readonly orderNo: string; readonly at: string };
export interface OrderFields {
  readonly plannedQty?: number;
  readonly dueDate?: string | null;
  readonly notes?: string | null;
  readonly operations?: readonly string[];
}
export type WorkOrderCommand =
  | (Base & {
      readonly type: 'Release';
      readonly projectNo: string;
      readonly productName: string;
      readonly plannedQty: number;
      readonly dueDate: string | null;
      readonly notes: string | null;
      readonly operations: readonly string[];
      /** The 工序 of the product in the catalog; null: no product with this 项目号 and 产品名称. */
      readonly catalog: readonly string[] | null;
    })
  | (Base & OrderFields & { readonly type: 'Change'; readonly catalog: readonly string[] | null; readonly reported: readonly string[] })
  | (Base & { readonly type: 'Complete' })
  | (Base & { readonly type: 'Close'; readonly reason: string })
  | (Base & { readonly type: 'Reopen'; readonly reason: string })
  | (Base & { readonly type: 'Cancel'; readonly reported: readonly string[] });

export interface WorkOrderState {
  readonly order: WorkOrder | undefined;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const invalid = (field: Parameters<typeof domainError<'INVALID_WORK_ORDER'>>[1]['field'], max = 0) => domainError('INVALID_WORK_ORDER', { field }, { max });

function checkedPlanned(q: number): number {
  if (!Number.isSafeInteger(q) || q < 1 || q > PLANNED_QTY_MAX) throw invalid('plannedQty', PLANNED_QTY_MAX);
  return q;
}
function checkedDue(d: string | null): string | null {
  if (d === null) return null;
  if (!DATE_RE.test(d) || Number.isNaN(Date.parse(`${d}T00:00:00Z`)) || new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) !== d) throw invalid('dueDate');
  return d;
}
function checkedNotes(n: string | null): string | null {
  const t = n?.trim() || null;
  if (t !== null && [...t].length > NOTES_MAX) throw invalid('notes', NOTES_MAX);
  return t;
}
function checkedReason(r: string): string {
  const t = r.trim();
  if (t.length === 0 || [...t].length > REASON_MAX) throw invalid('reason', REASON_MAX);
  return t;
}
/** The operations trimmed, 1–OPERATIONS_MAX, each once, each in `catalog` (UNKNOWN_WORK_ORDER_OPERATION lists the others). */
function checkedOperations(ops: readonly string[], catalog: readonly string[], productName: string): string[] {
  const names = ops.map((o) => o.trim());
  if (names.length === 0 || names.length > OPERATIONS_MAX || names.some((n) => n.length === 0) || new Set(names).size !== names.length) {
    throw invalid('operations', OPERATIONS_MAX);
  }
  const unknown = names.filter((n) => !catalog.includes(n));
  if (unknown.length) throw domainError('UNKNOWN_WORK_ORDER_OPERATION', { processNames: unknown }, { productName });
  return names;
}
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export const workOrderDecider: Decider<WorkOrderCommand, WorkOrderState, WorkOrderEvent> = {
  initialState: { order: undefined },

  decide(c, state) {
    const o = state.order;
    const at = c.at;
    if (c.type === 'Release') {
      const orderNo = c.orderNo.trim();
      if (!ORDER_NO_RE.test(orderNo)) throw invalid('orderNo', ORDER_NO_MAX);
      if (o) throw domainError('WORK_ORDER_EXISTS', { orderNo });
      const projectNo = c.projectNo.trim();
      const productName = c.productName.trim();
      if (!projectNo) throw invalid('projectNo');
      if (!productName) throw invalid('productName');
      const plannedQty = checkedPlanned(c.plannedQty);
      const dueDate = checkedDue(c.dueDate);
      const notes = checkedNotes(c.notes);
      if (c.catalog === null) throw domainError('UNKNOWN_WORK_ORDER_PRODUCT', { projectNo, productName });
      const operations = checkedOperations(c.operations, c.catalog, productName);
      return [{ type: 'WorkOrderReleased', data: { orderNo, projectNo, productName, plannedQty, dueDate, notes, operations, at } }];
    }
    if (!o) throw domainError('WORK_ORDER_NOT_FOUND', { orderNo: c.orderNo });
    const refuse = (action: 'complete' | 'close' | 'reopen' | 'cancel' | 'change') => domainError('WORK_ORDER_STATUS', { orderNo: o.orderNo, status: o.status }, { action });
    const orderNo = o.orderNo;
    switch (c.type) {
      case 'Change': {
        if (o.status === 'cancelled') throw refuse('change');
        const out: WorkOrderEvent[] = [];
        const next = {
          plannedQty: c.plannedQty === undefined ? o.plannedQty : checkedPlanned(c.plannedQty),
          dueDate: c.dueDate === undefined ? o.dueDate : checkedDue(c.dueDate),
          notes: c.notes === undefined ? o.notes : checkedNotes(c.notes),
        };
        if (next.plannedQty !== o.plannedQty || next.dueDate !== o.dueDate || next.notes !== o.notes) {
          out.push({ type: 'WorkOrderChanged', data: { orderNo, ...next, before: { plannedQty: o.plannedQty, dueDate: o.dueDate, notes: o.notes }, at } });
        }
        if (c.operations !== undefined) {
          const operations = checkedOperations(c.operations, c.catalog ?? [], o.productName);
          if (!sameList(operations, o.operations)) {
            const removed = o.operations.filter((p) => !operations.includes(p) && c.reported.includes(p));
            if (removed.length) throw domainError('WORK_ORDER_REPORTED', { orderNo, processNames: removed }, { action: 'removeOperation' });
            out.push({ type: 'WorkOrderOperationsChanged', data: { orderNo, operations, before: [...o.operations], at } });
          }
        }
        return out;
      }
      case 'Complete':
        if (o.status !== 'released') throw refuse('complete');
        return [{ type: 'WorkOrderCompleted', data: { orderNo, at } }];
      case 'Close': {
        if (o.status !== 'released') throw refuse('close');
        return [{ type: 'WorkOrderClosed', data: { orderNo, reason: checkedReason(c.reason), at } }];
      }
      case 'Reopen': {
        if (o.status !== 'completed' && o.status !== 'closed') throw refuse('reopen');
        return [{ type: 'WorkOrderReopened', data: { orderNo, reason: checkedReason(c.reason), before: o.status, at } }];
      }
      case 'Cancel':
        if (o.status !== 'released') throw refuse('cancel');
        if (c.reported.length) throw domainError('WORK_ORDER_REPORTED', { orderNo, processNames: [...c.reported] }, { action: 'cancel' });
        return [{ type: 'WorkOrderCancelled', data: { orderNo, at } }];
    }
  },

  evolve(state, e) {
    if (e.type === 'WorkOrderReleased') {
      const d = e.data;
      return { order: { orderNo: d.orderNo, projectNo: d.projectNo, productName: d.productName, plannedQty: d.plannedQty, dueDate: d.dueDate, notes: d.notes, operations: d.operations, status: 'released' } };
    }
    const o = state.order;
    if (!o) return state;
    switch (e.type) {
      case 'WorkOrderChanged':
        return { order: { ...o, plannedQty: e.data.plannedQty, dueDate: e.data.dueDate, notes: e.data.notes } };
      case 'WorkOrderOperationsChanged':
        return { order: { ...o, operations: e.data.operations } };
      case 'WorkOrderCompleted':
        return { order: { ...o, status: 'completed' } };
      case 'WorkOrderClosed':
        return { order: { ...o, status: 'closed' } };
      case 'WorkOrderReopened':
        return { order: { ...o, status: 'released' } };
      case 'WorkOrderCancelled':
        return { order: { ...o, status: 'cancelled' } };
    }
  },
};
