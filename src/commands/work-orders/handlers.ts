/**
 * The work order commands (生产工单): each one `runCommand` (command.ts) of ./decider.ts on the order's whole
 * stream `work-order-<orderNo>`; the actor goes into the events' metadata. Orders are the whole factory's: scope
 * (车间/班组) does not narrow them. Facts (commands/facts.ts): the product's 工序 in the catalog (release, operations
 * changed) and the 工序 reports name the order at (cancel, an operation removed), the latter guarded under the
 * order's exclusive lock. Run by src/http/routes/work-orders.ts and the import (src/work-orders/import.ts).
 */
import { streams } from '../../events/catalog.ts';
import type { WorkOrder } from '../../domain/work-orders.ts';
import { runCommand, type CommandActor, type CommandDeps } from '../command.ts';
import type { FactQuery, Facts } from '../facts.ts';
import { workOrderDecider, type OrderFields, type WorkOrderCommand, type WorkOrderState } from './decider.ts';

/** What a release gives. */
export interface ReleaseInput {
  orderNo: string;
  projectNo: string;
  productName: string;
  plannedQty: number;
  dueDate?: string | null;
  notes?: string | null;
  operations: string[];
}

function run(
  deps: CommandDeps,
  actor: CommandActor,
  orderNo: string,
  facts: ((state: WorkOrderState) => Omit<FactQuery, 'person'>) | undefined,
  make: (facts: Facts, at: string) => WorkOrderCommand,
): Promise<WorkOrder> {
  return runCommand(deps, actor, {
    decider: workOrderDecider,
    stream: { streamId: streams.workOrder(orderNo), fold: workOrderDecider },
    ...(facts ? { factsOf: (state: WorkOrderState) => facts(state) } : {}),
    command: (f: Facts, now: Date) => make(f, now.toISOString()),
    answer: (state: WorkOrderState) => {
      if (!state.order) throw new Error('no work order after a work order command');
      return state.order;
    },
  });
}

/** Releases a new order → the order. Throws WORK_ORDER_EXISTS, INVALID_WORK_ORDER, UNKNOWN_WORK_ORDER_PRODUCT, UNKNOWN_WORK_ORDER_OPERATION. */
export function releaseWorkOrder(deps: CommandDeps, actor: CommandActor, input: ReleaseInput): Promise<WorkOrder> {
  const orderNo = input.orderNo.trim();
  return run(
    deps,
    actor,
    orderNo,
    () => ({ workOrderProduct: { projectNo: input.projectNo.trim(), productName: input.productName.trim() } }),
    (f, at) => ({
      type: 'Release',
      orderNo,
      projectNo: input.projectNo,
      productName: input.productName,
      plannedQty: input.plannedQty,
      dueDate: input.dueDate ?? null,
      notes: input.notes ?? null,
      operations: input.operations,
      catalog: f.workOrderCatalog ?? null,
      at,
    }),
  );
}

/**
 * Changes the planned quantity, due date, notes and/or operations of `orderNo` → the order. Throws WORK_ORDER_NOT_FOUND,
 * WORK_ORDER_STATUS (cancelled), INVALID_WORK_ORDER, UNKNOWN_WORK_ORDER_OPERATION, WORK_ORDER_REPORTED (an operation
 * removed that reports name).
 */
export function changeWorkOrder(deps: CommandDeps, actor: CommandActor, orderNo: string, change: OrderFields): Promise<WorkOrder> {
  return run(
    deps,
    actor,
    orderNo,
    change.operations !== undefined
      ? (state) => (state.order ? { workOrderProduct: { projectNo: state.order.projectNo, productName: state.order.productName }, workOrderReported: orderNo } : {})
      : undefined,
    (f, at) => ({ type: 'Change', orderNo, ...change, catalog: f.workOrderCatalog ?? null, reported: f.workOrderReported ?? [], at }),
  );
}

/** Completes `orderNo` (完工). Throws WORK_ORDER_NOT_FOUND, WORK_ORDER_STATUS. */
export const completeWorkOrder = (deps: CommandDeps, actor: CommandActor, orderNo: string) =>
  run(deps, actor, orderNo, undefined, (_, at) => ({ type: 'Complete', orderNo, at }));

/** Closes `orderNo` with `reason` (关闭). Throws WORK_ORDER_NOT_FOUND, WORK_ORDER_STATUS, INVALID_WORK_ORDER (reason). */
export const closeWorkOrder = (deps: CommandDeps, actor: CommandActor, orderNo: string, reason: string) =>
  run(deps, actor, orderNo, undefined, (_, at) => ({ type: 'Close', orderNo, reason, at }));

/** Reopens a completed or closed `orderNo` with `reason`. Throws WORK_ORDER_NOT_FOUND, WORK_ORDER_STATUS, INVALID_WORK_ORDER (reason). */
export const reopenWorkOrder = (deps: CommandDeps, actor: CommandActor, orderNo: string, reason: string) =>
  run(deps, actor, orderNo, undefined, (_, at) => ({ type: 'Reopen', orderNo, reason, at }));

/** Cancels `orderNo` (作废) while no report names it. Throws WORK_ORDER_NOT_FOUND, WORK_ORDER_STATUS, WORK_ORDER_REPORTED. */
export const cancelWorkOrder = (deps: CommandDeps, actor: CommandActor, orderNo: string) =>
  run(
    deps,
    actor,
    orderNo,
    () => ({ workOrderReported: orderNo }),
    (f, at) => ({ type: 'Cancel', orderNo, reported: f.workOrderReported ?? [], at }),
  );
