/**
 * Reads the data table of an uploaded spreadsheet (decisions.md "Spreadsheet import").
 *
 * `readTable(buffer, columns, {maxRows})` accepts `.xlsx` (and other zip workbooks SheetJS reads) and legacy
 * `.xls` (OLE2), recognised by their content, never by the file name, and read with every size bounded
 * (workbook.ts). It takes the first sheet whose header row
 * — found by column names within the first 20 rows, so title rows above it are fine — has every required
 * column; columns may come in any order and unknown ones are ignored. Merged cells give every cell they cover
 * the value of their top-left cell. Formulas count with the value the file saved for them.
 *
 * Returns `{sheetName, headerRow, rows}`; each row carries its sheet row number as the spreadsheet program
 * shows it (1-based) and the cells of the specified columns (rows whose own cells are all blank are skipped).
 *
 * Merged ranges are clipped to the rows read and the columns of `columns`; ranges that overlap (more merged
 * cells than the clipped grid holds, which no spreadsheet program writes) are refused, so a hostile merge list
 * costs at most one pass over that grid.
 *
 * Throws AppError 422: NOT_A_SPREADSHEET, SPREADSHEET_TOO_LARGE (workbook.ts; also more than MAX_TABLE_TEXT
 * characters in the read columns), UNREADABLE_SPREADSHEET (workbook.ts; also
 * overlapping merges), EMPTY_SHEET, MISSING_HEADERS, DUPLICATE_HEADER, NO_DATA_ROWS, TOO_MANY_ROWS (more than
 * `maxRows` data rows).
 */
import * as XLSX from 'xlsx';
import { unprocessable } from '../errors.ts';
import { fromSheetCell, cellText, type CellValue, type RawCell } from './cells.ts';
import { matchHeaders, type ColumnSpec, type HeaderMatch } from './headers.ts';
import { readWorkbook } from './workbook.ts';
import { spreadsheetTooLarge } from './too-large.ts';

/** Rows searched for the header row. */
export const HEADER_SEARCH_ROWS = 20;
/**
 * Most characters the read columns of all data rows may hold together (10 million; an honest 50,000-row product
 * list has about 4.5 million): what a preview carries, stores and answers is bounded by it.
 */
export const MAX_TABLE_TEXT = 10_000_000;
export interface SheetRow<K extends string> {
  /** Row number as the spreadsheet program shows it (1-based). */
  readonly row: number;
  readonly cells: Readonly<Record<K, CellValue>>;
}

export interface SheetTable<K extends string> {
  readonly sheetName: string;
  /** Row number (1-based) of the header row. */
  readonly headerRow: number;
  readonly rows: readonly SheetRow<K>[];
}

type Grid = (RawCell | undefined)[][];

/**
 * Reads the `columns` table of an .xlsx or .xls `buffer` (module docstring) → `{sheetName, headerRow, rows}`, rows
 * numbered as the spreadsheet program shows them. Throws AppError 422 NOT_A_SPREADSHEET, SPREADSHEET_TOO_LARGE,
 * UNREADABLE_SPREADSHEET, EMPTY_SHEET, MISSING_HEADERS, DUPLICATE_HEADER, NO_DATA_ROWS,
 * TOO_MANY_ROWS (more than `opts.maxRows` data rows).
 */
export async function readTable<K extends string>(
  buffer: Uint8Array,
  columns: readonly ColumnSpec<K>[],
  opts: { maxRows: number },
): Promise<SheetTable<K>> {
  // One more row than allowed tells "too many" apart from "exactly the limit".
  const wb = await readWorkbook(buffer, { sheetRows: HEADER_SEARCH_ROWS + opts.maxRows + 1 });

  let best: { sheet: string; row: number; match: HeaderMatch<K> } | undefined;
  let anyContent = false;
  for (const name of wb.SheetNames) {
    // Own properties only: a sheet may be named `__proto__` or `constructor`, or be listed without its part.
    const ws = Object.hasOwn(wb.Sheets, name) ? wb.Sheets[name] : undefined;
    if (!ws) continue;
    const grid = ((ws as { '!data'?: Grid })['!data'] ?? []) as Grid;
    for (let r = 0; r < Math.min(grid.length, HEADER_SEARCH_ROWS); r++) {
      const texts = (grid[r] ?? []).map((c) => cellText(fromSheetCell(c)));
      if (texts.some((t) => t !== null)) anyContent = true;
      const match = matchHeaders(texts, columns);
      if (match.missing.length === 0) {
        if (match.duplicated.length) {
          const d = match.duplicated[0];
          throw unprocessable(
            'DUPLICATE_HEADER',
            `工作表「${name}」第 ${r + 1} 行的表头「${d.spec.header}」出现了不止一次（${d.indexes.map((i) => XLSX.utils.encode_col(i) + ' 列').join('、')}），请只保留一列`,
          );
        }
        return { sheetName: name, headerRow: r + 1, rows: dataRows(ws, grid, r, match.columns as Record<K, number>, columns, opts.maxRows) };
      }
      if (match.matched > 0 && (!best || match.matched > best.match.matched)) best = { sheet: name, row: r + 1, match };
    }
    if (grid.length > 0 && grid.some((row) => row?.some((c) => fromSheetCell(c) !== null))) anyContent = true;
  }
  if (!anyContent) throw unprocessable('EMPTY_SHEET', '表格是空的，没有任何内容');
  const required = columns.filter((c) => c.required).map((c) => c.header);
  if (best) {
    throw unprocessable(
      'MISSING_HEADERS',
      `表头不完整：工作表「${best.sheet}」第 ${best.row} 行缺少 ${best.match.missing.map((m) => m.header).join('、')}。必需的列：${required.join('、')}`,
      { sheet: best.sheet, row: best.row, missing: best.match.missing.map((m) => m.header) },
    );
  }
  throw unprocessable('MISSING_HEADERS', `没有找到表头行：表格前 ${HEADER_SEARCH_ROWS} 行中应有一行包含 ${required.join('、')}`, {
    missing: required,
  });
}

function dataRows<K extends string>(
  ws: XLSX.WorkSheet,
  grid: Grid,
  headerIdx: number,
  colOf: Record<K, number>,
  columns: readonly ColumnSpec<K>[],
  maxRows: number,
): SheetRow<K>[] {
  const truncated = isTruncated(ws);
  const merged = mergedValues(ws, grid, headerIdx, Object.values(colOf) as number[]);
  const rows: SheetRow<K>[] = [];
  let lastDataIdx = headerIdx;
  let text = 0;
  for (let r = headerIdx + 1; r < grid.length; r++) {
    const line = grid[r];
    const cells = {} as Record<K, CellValue>;
    // A row is blank by its own cells: values spread by a merge over a blank row do not make it a data row.
    let blank = true;
    for (const col of columns) {
      const c = colOf[col.key];
      if (c === undefined) {
        cells[col.key] = null;
        continue;
      }
      let own = fromSheetCell(line?.[c]);
      if (typeof own === 'string' && own.trim() === '') own = null;
      if (own !== null) blank = false;
      const value = merged.get(`${r}:${c}`) ?? own;
      if (typeof value === 'string') text += value.length;
      cells[col.key] = value;
    }
    if (blank) continue;
    if (text > MAX_TABLE_TEXT) {
      throw spreadsheetTooLarge(`表格中的文字超过 ${MAX_TABLE_TEXT / 10_000} 万字，请删除多余的内容或分成几个文件导入`, {
        maxTableText: MAX_TABLE_TEXT,
      });
    }
    lastDataIdx = r;
    rows.push({ row: r + 1, cells });
  }
  if (truncated || lastDataIdx - headerIdx > maxRows) {
    throw unprocessable('TOO_MANY_ROWS', `表格数据超过 ${maxRows} 行，请分成几个文件分别导入`, { maxRows });
  }
  if (rows.length === 0) throw unprocessable('NO_DATA_ROWS', `表头（第 ${headerIdx + 1} 行）下面没有数据行`);
  return rows;
}

/**
 * Merged cells (module docstring): the value of its range's top-left cell for every covered cell below the
 * header row, in the rows of `grid` and the `readColumns`, keyed `row:column`. Throws AppError 422
 * UNREADABLE_SPREADSHEET when the clipped ranges cover more cells than that grid has (they overlap).
 */
function mergedValues(ws: XLSX.WorkSheet, grid: Grid, headerIdx: number, readColumns: readonly number[]): Map<string, CellValue> {
  const merged = new Map<string, CellValue>();
  const lastRow = grid.length - 1;
  let budget = Math.max(0, lastRow - headerIdx) * readColumns.length;
  for (const m of ws['!merges'] ?? []) {
    const top = Math.max(m.s.r, headerIdx + 1);
    const bottom = Math.min(m.e.r, lastRow);
    if (bottom < top) continue;
    const cols = readColumns.filter((c) => c >= m.s.c && c <= m.e.c);
    budget -= (bottom - top + 1) * cols.length;
    if (budget < 0) {
      throw unprocessable('UNREADABLE_SPREADSHEET', '这个 Excel 文件的合并单元格互相重叠，请用 Excel 打开、另存为 .xlsx 后再上传');
    }
    const value = fromSheetCell(grid[m.s.r]?.[m.s.c]);
    for (let r = top; r <= bottom; r++) for (const c of cols) merged.set(`${r}:${c}`, value);
  }
  return merged;
}

/** True when SheetJS stopped at `sheetRows` while the sheet's declared range goes further. */
function isTruncated(ws: XLSX.WorkSheet): boolean {
  const full = ws['!fullref'];
  const ref = ws['!ref'];
  if (!full || !ref) return false;
  return XLSX.utils.decode_range(full).e.r > XLSX.utils.decode_range(ref).e.r;
}
