/**
 * The work order list as an import kind (src/imports/kind.ts; columns in src/work-orders/sheet.ts), keyed by 工单号.
 *
 * Classification against the stored orders and the product catalog (both read by `loadStored`, so both are in the
 * preview's fingerprint: an order or a product changed between preview and confirmation makes it stale):
 * - a new 工单号 → `create`, when the catalog has the product (else `unknown_product`) and every 工序 of the route
 *   is one of the product's (else `unknown_operation`);
 * - a stored order with the same product, planned quantity, due date, notes and operations → `unchanged`;
 * - a stored order with another planned quantity, due date, notes or operations → `update` with the changes
 *   (`changes: [{field, label, from, to}]`); another product → `product_changed`; a cancelled order → `order_cancelled`.
 * Confirming releases the new orders and changes the others through the order commands (commands/work-orders/), in
 * the import's transaction: events as for any order (an operation removed that reports name refuses the whole
 * confirmation, 409 WORK_ORDER_REPORTED).
 */
import { commandsIn } from '../commands/command.ts';
import { changeWorkOrder, releaseWorkOrder } from '../commands/work-orders/handlers.ts';
import type { ImportKind } from '../imports/kind.ts';
import { parseInWorker } from '../imports/parse-pool.ts';
import { rowError, type ErrorRow } from '../imports/problems.ts';
import { ORDER_FIELD_LABELS, orderValues, type SheetOrder } from './sheet.ts';

/** A field an update changes. */
export interface OrderFieldChange {
  field: 'plannedQty' | 'dueDate' | 'notes' | 'operations';
  label: string;
  from: string | number | null;
  to: string | number | null;
}

export interface OrderPreviewRow extends SheetOrder {
  /** The fields that change (update rows). */
  changes?: OrderFieldChange[];
}

/** A stored order, or the 工序 the catalog has for a product (key `product:<项目号>\u0000<产品名称>`). */
export type StoredOrderOrProduct =
  | { kind: 'order'; orderNo: string; projectNo: string; productName: string; plannedQty: number; dueDate: string | null; notes: string | null; operations: string[]; status: string }
  | { kind: 'product'; processes: string[] };

const productKey = (projectNo: string, productName: string) => `product:${projectNo}\u0000${productName}`;
const orderKey = (orderNo: string) => `order:${orderNo}`;
const route = (ops: readonly string[]) => ops.join('→');

function changesOf(s: Extract<StoredOrderOrProduct, { kind: 'order' }>, r: SheetOrder): OrderFieldChange[] {
  const out: OrderFieldChange[] = [];
  const push = (field: OrderFieldChange['field'], from: string | number | null, to: string | number | null) => {
    if (from !== to) out.push({ field, label: ORDER_FIELD_LABELS[field], from, to });
  };
  push('plannedQty', s.plannedQty, r.plannedQty);
  push('dueDate', s.dueDate, r.dueDate);
  push('notes', s.notes, r.notes);
  push('operations', route(s.operations), route(r.operations));
  return out;
}

const error = (r: SheetOrder, code: string, reason: string): ErrorRow =>
  rowError(r.row, [{ code, reason }], orderValues({ ...r, operations: route(r.operations) }));

export const workOrderImport: ImportKind<OrderPreviewRow, StoredOrderOrProduct> = {
  name: 'work-orders',
  parse: (buffer, maxRows) => parseInWorker('work-orders', buffer, maxRows) as Promise<{ valid: OrderPreviewRow[]; errors: ErrorRow[] }>,
  async loadStored(q, rows) {
    const out = new Map<string, StoredOrderOrProduct>();
    const orders = await q.query(
      `SELECT order_no, project_no, product_name, planned_qty, to_char(due_date, 'YYYY-MM-DD') AS due_date, notes, operations, status
         FROM work_orders WHERE order_no = ANY($1::text[])`,
      [rows.map((r) => r.orderNo)],
    );
    for (const o of orders.rows) {
      out.set(orderKey(o.order_no), {
        kind: 'order',
        orderNo: o.order_no,
        projectNo: o.project_no,
        productName: o.product_name,
        plannedQty: Number(o.planned_qty),
        dueDate: o.due_date,
        notes: o.notes,
        operations: o.operations,
        status: o.status,
      });
    }
    const products = await q.query(
      `SELECT p.project_no, p.product_name, array_agg(DISTINCT p.process_name ORDER BY p.process_name) AS processes
         FROM products p JOIN unnest($1::text[], $2::text[]) AS k(project_no, product_name) ON p.project_no = k.project_no AND p.product_name = k.product_name
        GROUP BY 1, 2`,
      [rows.map((r) => r.projectNo), rows.map((r) => r.productName)],
    );
    for (const p of products.rows) out.set(productKey(p.project_no, p.product_name), { kind: 'product', processes: p.processes });
    return out;
  },
  canonical: (s) => s,
  classify(rows, stored) {
    const out = { create: [] as OrderPreviewRow[], update: [] as OrderPreviewRow[], unchanged: [] as OrderPreviewRow[], errors: [] as ErrorRow[] };
    for (const r of rows) {
      const s = stored.get(orderKey(r.orderNo));
      const product = stored.get(productKey(r.projectNo, r.productName));
      if (s?.kind === 'order') {
        if (s.status === 'cancelled') out.errors.push(error(r, 'order_cancelled', `工单 ${r.orderNo} 已作废，不能再导入；请换一个工单号`));
        else if (s.projectNo !== r.projectNo || s.productName !== r.productName) {
          out.errors.push(error(r, 'product_changed', `工单 ${r.orderNo} 已存在，生产的是项目号 ${s.projectNo}「${s.productName}」，工单的产品不能修改`));
        } else {
          const changes = changesOf(s, r);
          if (changes.length === 0) out.unchanged.push(r);
          else if (changes.some((c) => c.field === 'operations') && product?.kind === 'product' && r.operations.some((o) => !product.processes.includes(o))) {
            out.errors.push(error(r, 'unknown_operation', `产品「${r.productName}」在产品清单中没有工序：${r.operations.filter((o) => !product.processes.includes(o)).join('、')}`));
          } else out.update.push({ ...r, changes });
        }
        continue;
      }
      if (product?.kind !== 'product') {
        out.errors.push(error(r, 'unknown_product', `产品清单中没有项目号 ${r.projectNo}、产品名称「${r.productName}」的产品，请先导入产品清单`));
        continue;
      }
      const unknown = r.operations.filter((o) => !product.processes.includes(o));
      if (unknown.length) out.errors.push(error(r, 'unknown_operation', `产品「${r.productName}」在产品清单中没有工序：${unknown.join('、')}，请检查工序路线`));
      else out.create.push(r);
    }
    return out;
  },
  async lock(tx) {
    await tx.query('LOCK TABLE work_orders IN SHARE ROW EXCLUSIVE MODE');
  },
  async write(tx, create, update, _now, by) {
    const commands = commandsIn(by.commands, tx);
    for (const r of create) {
      await releaseWorkOrder(commands, by.actor, { orderNo: r.orderNo, projectNo: r.projectNo, productName: r.productName, plannedQty: r.plannedQty, dueDate: r.dueDate, notes: r.notes, operations: r.operations });
    }
    for (const r of update) {
      await changeWorkOrder(commands, by.actor, r.orderNo, { plannedQty: r.plannedQty, dueDate: r.dueDate, notes: r.notes, operations: r.operations });
    }
  },
};
