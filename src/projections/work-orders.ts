/**
 * The `work_orders` read model (migrations/019), inline: written by the order commands' own statements, so that a
 * submission's facts and the next read see a new, changed, closed or cancelled order at once.
 *
 * WorkOrderReleased writes the row (status `released`); WorkOrderChanged the planned quantity, due date and notes;
 * WorkOrderOperationsChanged the operations; WorkOrderCompleted, WorkOrderClosed (with its reason), WorkOrderReopened
 * (status `released`, its reason) and WorkOrderCancelled the status. `version` is the stream version of the event,
 * `changed_at` its `at`. The progress (the pieces per operation) is read from the reports (queries/work-orders.ts).
 */
import type { EventData, WorkOrderEvent } from '../events/catalog.ts';
import type { ProjectedEvent, Projection, Row } from './projection.ts';
import { utcIso } from '../time.ts';

const TABLE = 'work_orders';
const dateText = (d: unknown) => (d === null || d === undefined ? null : d instanceof Date ? d.toISOString().slice(0, 10) : String(d).slice(0, 10));

/** The row with its time columns as text (what the view of a loaded row may hold as Date). */
const normal = (row: Row): Row => ({ ...row, due_date: dateText(row.due_date), released_at: utcIso(row.released_at), changed_at: utcIso(row.changed_at) });

export const workOrdersProjection: Projection = {
  name: 'work-orders',
  mode: 'inline',
  tables: [
    {
      name: TABLE,
      key: ['order_no'],
      columns: ['order_no', 'project_no', 'product_name', 'planned_qty', 'due_date', 'notes', 'operations', 'status', 'status_reason', 'released_at', 'changed_at', 'version'],
    },
  ],
  eventTypes: ['WorkOrderReleased', 'WorkOrderChanged', 'WorkOrderOperationsChanged', 'WorkOrderCompleted', 'WorkOrderClosed', 'WorkOrderReopened', 'WorkOrderCancelled'],
  touches(event: ProjectedEvent) {
    return event.type === 'WorkOrderReleased' ? [] : [{ table: TABLE, key: [(event.data as { orderNo: string }).orderNo] }];
  },
  apply(event: ProjectedEvent, view) {
    const e = { type: event.type, data: event.data } as WorkOrderEvent;
    const key = [e.data.orderNo];
    const version = event.streamVersion;
    if (e.type === 'WorkOrderReleased') {
      const d: EventData<'WorkOrderReleased'> = e.data;
      const at = utcIso(d.at);
      const row = {
        order_no: d.orderNo,
        project_no: d.projectNo,
        product_name: d.productName,
        planned_qty: d.plannedQty,
        due_date: d.dueDate,
        notes: d.notes,
        operations: d.operations,
        status: 'released',
        status_reason: null,
        released_at: at,
        changed_at: at,
        version,
      };
      return [{ table: TABLE, key, row }];
    }
    const before = view.get(TABLE, key);
    if (!before) return [];
    const base = { ...normal(before), changed_at: utcIso(e.data.at), version };
    switch (e.type) {
      case 'WorkOrderChanged':
        return [{ table: TABLE, key, row: { ...base, planned_qty: e.data.plannedQty, due_date: e.data.dueDate, notes: e.data.notes } }];
      case 'WorkOrderOperationsChanged':
        return [{ table: TABLE, key, row: { ...base, operations: e.data.operations } }];
      case 'WorkOrderCompleted':
        return [{ table: TABLE, key, row: { ...base, status: 'completed' } }];
      case 'WorkOrderClosed':
        return [{ table: TABLE, key, row: { ...base, status: 'closed', status_reason: e.data.reason } }];
      case 'WorkOrderReopened':
        return [{ table: TABLE, key, row: { ...base, status: 'released', status_reason: e.data.reason } }];
      case 'WorkOrderCancelled':
        return [{ table: TABLE, key, row: { ...base, status: 'cancelled' } }];
    }
  },
};
