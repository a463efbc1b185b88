/**
 * From the rows of a product sheet to checked products (decisions.md "Spreadsheet import").
 *
 * - 项目号 blank (merged cells are already filled by the reader): the 项目号 of the row above is used.
 * - Each row is checked by `checkProduct` (src/products/rules.ts).
 * - The same unique key on several rows: the first of them is imported, every later one is an error row
 *   (`duplicate_key`) naming the first (the same rule as a phone repeated with another name, src/people/sheet.ts).
 * - The optional rate columns 计件单价, 不良单价, 生效日期 are checked by `checkRateCells`
 *   (src/products/rate-cells.ts); a row with rates carries them (`rate`).
 */
import { readTable, type SheetRow } from '../spreadsheet/table.ts';
import type { CellValue } from '../spreadsheet/cells.ts';
import type { ColumnSpec } from '../spreadsheet/headers.ts';
import { rowError, type ErrorRow } from '../imports/problems.ts';
import { PRODUCT_COLUMNS, PRODUCT_FIELDS, PRODUCT_FIELD_LABELS, productKeyString, type ProductData, type ProductField } from './model.ts';
import { checkRateCells, RATE_CELL_FIELDS, RATE_FIELD_LABELS, type RateCellField, type RowRate } from './rate-cells.ts';
import { checkProduct } from './rules.ts';

/** A column of the product sheet: a product field or a rate column. */
export type SheetField = ProductField | RateCellField;

/** The columns read: the product's (spec 2.1) and the optional rate columns. */
export const SHEET_COLUMNS: readonly ColumnSpec<SheetField>[] = [
  ...PRODUCT_COLUMNS,
  ...RATE_CELL_FIELDS.map((key) => ({ key, header: RATE_FIELD_LABELS[key], required: false })),
];

export interface SheetProduct {
  /** Sheet row number as shown by the spreadsheet program. */
  row: number;
  product: ProductData;
  /** True when 标准工作量 was blank and computed from 标准节拍. */
  workloadComputed: boolean;
  /** The rate the row sets, when its rate columns are filled. */
  rate?: RowRate;
}

/** The values of a row by Chinese column name (for error rows). */
export function productValues(cells: Readonly<Partial<Record<SheetField, CellValue>>>): Record<string, CellValue> {
  const out: Record<string, CellValue> = {};
  for (const f of PRODUCT_FIELDS) out[PRODUCT_FIELD_LABELS[f]] = cells[f] ?? null;
  for (const f of RATE_CELL_FIELDS) out[RATE_FIELD_LABELS[f]] = cells[f] ?? null;
  return out;
}

/**
 * Checks the product sheet's rows (module docstring) → `{valid, errors}`: a blank 项目号 takes the last one given
 * above, each row is checked by checkProduct, a repeated unique key is a `duplicate_key` error row. Errors are
 * sorted by sheet row.
 */
export function productsFromSheet(rows: readonly SheetRow<SheetField>[]): { valid: SheetProduct[]; errors: ErrorRow[] } {
  const checked: (SheetProduct & { cells: Record<SheetField, CellValue> })[] = [];
  const errors: ErrorRow[] = [];
  let previousProjectNo: CellValue = null;
  for (const r of rows) {
    const cells = { ...r.cells };
    if (cells.projectNo === null || (typeof cells.projectNo === 'string' && cells.projectNo.trim() === '')) {
      cells.projectNo = previousProjectNo;
    } else {
      previousProjectNo = cells.projectNo;
    }
    const c = checkProduct(cells);
    const rate = checkRateCells(cells);
    if (c.ok && rate.ok) checked.push({ row: r.row, product: c.product, workloadComputed: c.workloadComputed, ...(rate.rate ? { rate: rate.rate } : {}), cells });
    else errors.push(rowError(r.row, [...(c.ok ? [] : c.problems), ...(rate.ok ? [] : rate.problems)], productValues(cells)));
  }

  const firstRowOf = new Map<string, number>();
  const valid: SheetProduct[] = [];
  for (const p of checked) {
    const k = productKeyString(p.product);
    const first = firstRowOf.get(k);
    if (first === undefined) {
      firstRowOf.set(k, p.row);
      valid.push({ row: p.row, product: p.product, workloadComputed: p.workloadComputed, ...(p.rate ? { rate: p.rate } : {}) });
      continue;
    }
    errors.push(
      rowError(
        p.row,
        [{ code: 'duplicate_key', reason: `与第 ${first} 行重复：项目号、产品名称、使用设备、工序都相同，只导入第 ${first} 行；请删除或改正本行` }],
        productValues(p.cells),
      ),
    );
  }
  errors.sort((a, b) => a.row - b.row);
  return { valid, errors };
}

/**
 * Reads and checks a product list file (src/spreadsheet/table.ts, then productsFromSheet) → `{valid, errors}`,
 * each valid row as `{row, ...product, workloadComputed}` (the preview's row). Run in the parse worker
 * (src/imports/parse-worker.ts). Throws the reader's AppError 422s.
 */
export async function readProductSheet(
  buffer: Uint8Array,
  maxRows: number,
): Promise<{ valid: (ProductData & { row: number; workloadComputed: boolean; rate?: RowRate })[]; errors: ErrorRow[] }> {
  const table = await readTable(buffer, SHEET_COLUMNS, { maxRows });
  const { valid, errors } = productsFromSheet(table.rows);
  return { valid: valid.map((v) => ({ row: v.row, ...v.product, workloadComputed: v.workloadComputed, ...(v.rate ? { rate: v.rate } : {}) })), errors };
}
