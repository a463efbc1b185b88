/**
 * From the rows of a work order sheet to checked orders (decisions.md "Work orders"): columns 工单号, 项目号,
 * 产品名称, 计划数量 (required), 交期, 工序路线 (required), 备注.
 *
 * - 工单号: 1–40 characters, no whitespace, `/`, `?`, `#`, `%`, `\` (domain/work-orders.ts ORDER_NO_RE): `bad_order_no`.
 * - 项目号, 产品名称: required (`no_project_no`, `no_product_name`); whether the catalog has the product is the
 *   classification's (src/work-orders/import.ts).
 * - 计划数量: an integer 1…10^9 (`bad_planned_qty`).
 * - 交期: a date (an Excel date cell, or text 2026-03-06, 2026/3/6, 2026年3月6日) or blank (`bad_due_date`).
 * - 工序路线: `冲压→折弯→焊接` or `冲压,折弯,焊接` (splitRoute), 1–30 operations, each once (`bad_operations`).
 * - 备注: at most 200 characters (`notes_too_long`).
 * - The same 工单号 on several rows: the first is imported, each later one is an error row (`duplicate_order_no`).
 */
import { readTable, type SheetRow } from '../spreadsheet/table.ts';
import { cellNumber, cellText, type CellValue } from '../spreadsheet/cells.ts';
import type { ColumnSpec } from '../spreadsheet/headers.ts';
import { cellProblem, rowError, type ErrorRow, type Problem } from '../imports/problems.ts';
import { dateOf } from '../products/rate-cells.ts';
import { NOTES_MAX, OPERATIONS_MAX, ORDER_NO_MAX, ORDER_NO_RE, PLANNED_QTY_MAX, splitRoute } from '../domain/work-orders.ts';

export type OrderSheetField = 'orderNo' | 'projectNo' | 'productName' | 'plannedQty' | 'dueDate' | 'operations' | 'notes';

export const ORDER_FIELD_LABELS: Readonly<Record<OrderSheetField, string>> = {
  orderNo: '工单号',
  projectNo: '项目号',
  productName: '产品名称',
  plannedQty: '计划数量',
  dueDate: '交期',
  operations: '工序路线',
  notes: '备注',
};

const REQUIRED: readonly OrderSheetField[] = ['orderNo', 'projectNo', 'productName', 'plannedQty', 'operations'];
export const ORDER_COLUMNS: readonly ColumnSpec<OrderSheetField>[] = (Object.keys(ORDER_FIELD_LABELS) as OrderSheetField[]).map((key) => ({
  key,
  header: ORDER_FIELD_LABELS[key],
  required: REQUIRED.includes(key),
}));

/** A checked row of the sheet: the order's fields and its sheet row. */
export interface SheetOrder {
  row: number;
  orderNo: string;
  projectNo: string;
  productName: string;
  plannedQty: number;
  dueDate: string | null;
  notes: string | null;
  operations: string[];
}

/** The values of a row by Chinese column name (for error rows). */
export const orderValues = (cells: Readonly<Partial<Record<OrderSheetField, CellValue>>>): Record<string, CellValue> =>
  Object.fromEntries((Object.keys(ORDER_FIELD_LABELS) as OrderSheetField[]).map((f) => [ORDER_FIELD_LABELS[f], cells[f] ?? null]));

/** One row checked (module docstring) → the order, or its problems. */
export function checkOrderRow(row: number, cells: Readonly<Partial<Record<OrderSheetField, CellValue>>>): { ok: true; order: SheetOrder } | { ok: false; problems: Problem[] } {
  const problems: Problem[] = [];
  for (const f of Object.keys(ORDER_FIELD_LABELS) as OrderSheetField[]) {
    const p = cellProblem(ORDER_FIELD_LABELS[f], f, cells[f] ?? null);
    if (p) problems.push(p);
  }
  if (problems.length) return { ok: false, problems };
  const orderNo = cellText(cells.orderNo ?? null) ?? '';
  if (!ORDER_NO_RE.test(orderNo)) problems.push({ code: 'bad_order_no', field: 'orderNo', reason: `工单号请填写 1–${ORDER_NO_MAX} 个字符，不能有空格和 / ? # % \\` });
  const projectNo = cellText(cells.projectNo ?? null);
  if (!projectNo) problems.push({ code: 'no_project_no', field: 'projectNo', reason: '请填写项目号' });
  const productName = cellText(cells.productName ?? null);
  if (!productName) problems.push({ code: 'no_product_name', field: 'productName', reason: '请填写产品名称' });
  const q = cellNumber(cells.plannedQty ?? null);
  const plannedQty = q.kind === 'number' ? q.value : NaN;
  if (!Number.isInteger(plannedQty) || plannedQty < 1 || plannedQty > PLANNED_QTY_MAX) {
    problems.push({ code: 'bad_planned_qty', field: 'plannedQty', reason: `计划数量必须是 1 到 ${PLANNED_QTY_MAX} 之间的整数（表中是「${cellText(cells.plannedQty ?? null) ?? '空'}」）` });
  }
  const dueCell = cells.dueDate ?? null;
  const dueDate = cellText(dueCell) === null ? null : (dateOf(dueCell) ?? undefined);
  if (dueDate === undefined) problems.push({ code: 'bad_due_date', field: 'dueDate', reason: `交期「${cellText(dueCell)}」不是有效日期，请填写如 2026-03-06 的日期，或留空` });
  const operations = splitRoute(cellText(cells.operations ?? null) ?? '');
  if (operations.length === 0 || operations.length > OPERATIONS_MAX || new Set(operations).size !== operations.length) {
    problems.push({ code: 'bad_operations', field: 'operations', reason: `工序路线请填写 1–${OPERATIONS_MAX} 道工序，如“冲压→折弯→焊接”或“冲压,折弯,焊接”，每道工序只出现一次` });
  }
  const notes = cellText(cells.notes ?? null);
  if (notes !== null && [...notes].length > NOTES_MAX) problems.push({ code: 'notes_too_long', field: 'notes', reason: `备注最多 ${NOTES_MAX} 个字` });
  if (problems.length) return { ok: false, problems };
  return { ok: true, order: { row, orderNo, projectNo: projectNo!, productName: productName!, plannedQty, dueDate: dueDate ?? null, notes, operations } };
}

/** Checks the sheet's rows → `{valid, errors}` (module docstring), errors by sheet row. */
export function ordersFromSheet(rows: readonly SheetRow<OrderSheetField>[]): { valid: SheetOrder[]; errors: ErrorRow[] } {
  const valid: SheetOrder[] = [];
  const errors: ErrorRow[] = [];
  const firstRowOf = new Map<string, number>();
  for (const r of rows) {
    const c = checkOrderRow(r.row, r.cells);
    if (!c.ok) {
      errors.push(rowError(r.row, c.problems, orderValues(r.cells)));
      continue;
    }
    const first = firstRowOf.get(c.order.orderNo);
    if (first !== undefined) {
      errors.push(rowError(r.row, [{ code: 'duplicate_order_no', reason: `与第 ${first} 行的工单号相同，只导入第 ${first} 行；请删除或改正本行` }], orderValues(r.cells)));
      continue;
    }
    firstRowOf.set(c.order.orderNo, r.row);
    valid.push(c.order);
  }
  errors.sort((a, b) => a.row - b.row);
  return { valid, errors };
}

/** Reads and checks a work order file (.xlsx, .xls) → `{valid, errors}`; run in the parse worker. Throws the reader's AppError 422s. */
export async function readWorkOrderSheet(buffer: Uint8Array, maxRows: number): Promise<{ valid: SheetOrder[]; errors: ErrorRow[] }> {
  const table = await readTable(buffer, ORDER_COLUMNS, { maxRows });
  return ordersFromSheet(table.rows);
}
