/**
 * Problems found in one row (or one request body) by the import rules: a stable snake_case `code` (the
 * fixtures' EXPECTED.json names them) and a Chinese sentence a worker can act on. `field` names the column.
 *
 * `rowError(row, problems, values)` builds the preview's error row `{row, code, reason, values}`: `code` is the
 * first problem's code, `reason` every problem's sentence.
 */
import { CellError, UNCOMPUTED_FORMULA, type CellValue } from '../spreadsheet/cells.ts';
import { isValidText } from '../text.ts';

export interface Problem {
  readonly code: string;
  readonly reason: string;
  readonly field?: string;
}

/** An error row of a preview. `row` is the sheet row number as the spreadsheet program shows it. */
export interface ErrorRow {
  row: number;
  code: string;
  reason: string;
  /** The row's cells by Chinese column name, as read (as rowError shows them). */
  values: Record<string, CellValue>;
}

/** Longest text of a cell an error row shows (the longest text any import rule accepts); longer is cut with …. */
export const SHOWN_TEXT_LENGTH = 200;

/**
 * The preview's error row for sheet row `row`: `code` of the first problem, `reason` every problem's sentence
 * joined by `；`, and the row's `values` as shown: error cells as their text, texts cut to SHOWN_TEXT_LENGTH
 * (a file repeating one huge shared text in every cell must not make a preview of gigabytes).
 */
export function rowError(row: number, problems: readonly Problem[], values: Record<string, CellValue>): ErrorRow {
  const shown: Record<string, CellValue> = {};
  for (const [k, v] of Object.entries(values)) {
    shown[k] = v instanceof CellError ? v.text : typeof v === 'string' && v.length > SHOWN_TEXT_LENGTH ? v.slice(0, SHOWN_TEXT_LENGTH) + '…' : v;
  }
  return { row, code: problems[0].code, reason: problems.map((p) => p.reason).join('；'), values: shown };
}

/**
 * The problem of a cell in column `label` that no rule can read, or undefined: an error cell (`error_cell`,
 * `uncomputed_formula`), or text that is not valid Unicode (`invalid_characters`: NUL or a lone surrogate,
 * src/text.ts; ), so that such a cell is an error row, never a failure in the database.
 */
export function cellProblem(label: string, field: string, v: CellValue): Problem | undefined {
  if (typeof v === 'string' && !isValidText(v)) {
    return { code: 'invalid_characters', field, reason: `${label}含有无法识别的字符（空字符或残缺的表情等），请在表格中删除后重新导入` };
  }
  if (!(v instanceof CellError)) return undefined;
  if (v.text === UNCOMPUTED_FORMULA) {
    return { code: 'uncomputed_formula', field, reason: `${label}是公式，但文件里没有保存计算结果，请用 Excel 打开、保存后再导入` };
  }
  return { code: 'error_cell', field, reason: `${label}是错误值 ${v.text}，请改正公式或填写数值` };
}
