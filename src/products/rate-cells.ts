/**
 * The rate columns of the product list (计件单价, 不良单价, 料废单价, 生效日期), each optional, and the rates of
 * `POST /api/products`: the one place that turns them into a rate to set (domain/money.ts for the amounts).
 *
 * - 计件单价: yuan per finished piece, at most 4 decimals, not negative. Blank: the row sets no rate; then 不良单价
 *   料废单价 and 生效日期 must be blank too (`no_piece_rate`).
 * - 不良单价: yuan per defective piece, at most 4 decimals, negative allowed (a deduction); blank: 0.
 * - 料废单价: yuan per piece lost to the material (料废), as 不良单价; blank: 料废 is priced at 不良单价 (the rate
 *   sets none of its own, as before the column existed).
 * - 生效日期: a date (an Excel date cell, or text 2026-03-01, 2026/3/1, 2026年3月1日); blank: the day the import
 *   is confirmed (APP_TIMEZONE).
 * A numeric cell is a double: it is read through its shortest decimal form, never multiplied (so 1.25 is 12500
 * ten-thousandths, and a cell computed as 0.1 + 0.2 = 0.30000000000000004 has too many decimals).
 * Problem codes: no_piece_rate, bad_piece_rate, bad_defect_rate, bad_material_defect_rate,
 * bad_effective_date, invalid_characters,
 * error_cell, uncomputed_formula.
 */
import { formatRate, parseRate, rateProblemText } from '../domain/money.ts';
import { cellProblem, type Problem } from '../imports/problems.ts';
import { CellError, type CellValue } from '../spreadsheet/cells.ts';
import { isLocalDate } from '../time.ts';

export const RATE_FIELD_LABELS = { pieceRate: '计件单价', defectRate: '不良单价', materialDefectRate: '料废单价', effectiveFrom: '生效日期' } as const;
export type RateCellField = keyof typeof RATE_FIELD_LABELS;
export const RATE_CELL_FIELDS = Object.keys(RATE_FIELD_LABELS) as RateCellField[];

/** A rate of a sheet row or a request: rates as text with 4 decimals; `effectiveFrom` null: the day of confirmation. */
export interface RowRate {
  pieceRate: string;
  defectRate: string;
  /** Absent: 料废 is priced at `defectRate`. */
  materialDefectRate?: string;
  effectiveFrom: string | null;
}

/** Days between Excel's day 0 (1899-12-30, counting its 1900 leap-year bug) and 1970-01-01. */
const EXCEL_EPOCH_DAYS = 25_569;

/** A date cell as `YYYY-MM-DD`, or undefined when it is not a date. */
export function dateOf(v: CellValue): string | undefined {
  if (typeof v === 'number') {
    // An Excel date cell: whole days since 1899-12-30 (1900–2099).
    if (!Number.isInteger(v) || v < 1 || v > 73_050) return undefined;
    return new Date((v - EXCEL_EPOCH_DAYS) * 86_400_000).toISOString().slice(0, 10);
  }
  if (typeof v !== 'string') return undefined;
  const m = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$/.exec(v.trim());
  if (!m) return undefined;
  const date = `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}`;
  return isLocalDate(date) ? date : undefined;
}

const shown = (v: CellValue) => (v instanceof CellError ? v.text : String(v));

/**
 * The rate of a row's cells (module docstring) → `{rate}` (undefined: the row sets none) or every problem of the
 * rate columns. Never throws.
 */
export function checkRateCells(cells: Readonly<Partial<Record<RateCellField, CellValue>>>): { ok: true; rate?: RowRate } | { ok: false; problems: Problem[] } {
  const problems: Problem[] = [];
  const blank = (v: CellValue | undefined) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
  for (const f of RATE_CELL_FIELDS) {
    const bad = cellProblem(RATE_FIELD_LABELS[f], f, cells[f] ?? null);
    if (bad) problems.push(bad);
  }
  if (problems.length) return { ok: false, problems };
  if (blank(cells.pieceRate)) {
    if (blank(cells.defectRate) && blank(cells.materialDefectRate) && blank(cells.effectiveFrom)) return { ok: true };
    return { ok: false, problems: [{ code: 'no_piece_rate', field: 'pieceRate', reason: '填写了不良单价、料废单价或生效日期，但计件单价为空，请填写计件单价' }] };
  }
  const piece = parseRate(cells.pieceRate, false);
  if (!piece.ok) problems.push({ code: 'bad_piece_rate', field: 'pieceRate', reason: `${rateProblemText('计件单价', piece.problem)}（表中是 ${shown(cells.pieceRate!)}）` });
  const defect = blank(cells.defectRate) ? ({ ok: true, value: 0 } as const) : parseRate(cells.defectRate, true);
  if (!defect.ok) problems.push({ code: 'bad_defect_rate', field: 'defectRate', reason: `${rateProblemText('不良单价', defect.problem)}（表中是 ${shown(cells.defectRate!)}）` });
  const material = blank(cells.materialDefectRate) ? undefined : parseRate(cells.materialDefectRate, true);
  if (material && !material.ok) {
    const reason = `${rateProblemText('料废单价', material.problem)}（表中是 ${shown(cells.materialDefectRate!)}）`;
    problems.push({ code: 'bad_material_defect_rate', field: 'materialDefectRate', reason });
  }
  const from = blank(cells.effectiveFrom) ? null : dateOf(cells.effectiveFrom!);
  if (from === undefined) {
    problems.push({ code: 'bad_effective_date', field: 'effectiveFrom', reason: `生效日期「${shown(cells.effectiveFrom!)}」不是有效日期，请填写如 2026-03-01 的日期，或留空（从确认导入当天起）` });
  }
  if (problems.length || !piece.ok || !defect.ok || (material && !material.ok) || from === undefined) return { ok: false, problems };
  const materialRate = material ? { materialDefectRate: formatRate(material.value) } : {};
  return { ok: true, rate: { pieceRate: formatRate(piece.value), defectRate: formatRate(defect.value), ...materialRate, effectiveFrom: from } };
}
