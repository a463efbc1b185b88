/**
 * Reads the data table of an uploaded spreadsheet (decisions.md "Spreadsheet import"; issue #3).
 *
 * `readTable(buffer, columns, {maxRows})` accepts `.xlsx` (and other zip workbooks SheetJS reads) and legacy
 * `.xls` (OLE2), recognised by their content, never by the file name. It takes the first sheet whose header row
 * — found by column names within the first 20 rows, so title rows above it are fine — has every required
 * column; columns may come in any order and unknown ones are ignored. Merged cells give every cell they cover
 * the value of their top-left cell. Formulas count with the value the file saved for them.
 *
 * Returns `{sheetName, headerRow, rows}`; each row carries its sheet row number as the spreadsheet program
 * shows it (1-based) and the cells of the specified columns (rows whose own cells are all blank are skipped).
 *
 * Throws AppError 422: NOT_A_SPREADSHEET, SPREADSHEET_TOO_LARGE (an .xlsx declaring more than 200 MB
 * unzipped), UNREADABLE_SPREADSHEET, EMPTY_SHEET, MISSING_HEADERS,
 * DUPLICATE_HEADER, NO_DATA_ROWS, TOO_MANY_ROWS (more than `maxRows` data rows).
 */
import * as XLSX from 'xlsx';
import { unprocessable } from '../errors.ts';
import { fromSheetCell, cellText, type CellValue, type RawCell } from './cells.ts';
import { matchHeaders, type ColumnSpec, type HeaderMatch } from './headers.ts';
import { zipDeclaredSize } from './zip.ts';

/** Rows searched for the header row. */
export const HEADER_SEARCH_ROWS = 20;
/**
 * Most an `.xlsx` may expand to. An honest 50,000-row product list is some 50 MB of XML; more means a file
 * built to exhaust memory.
 */
export const MAX_UNZIPPED_BYTES = 200 * 1024 * 1024;

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

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (buf: Uint8Array, sig: number[]) => buf.length >= sig.length && sig.every((b, i) => buf[i] === b);

/** 'xlsx' for zip workbooks, 'xls' for OLE2 compound files, undefined for anything else. */
export function spreadsheetFormat(buf: Uint8Array): 'xlsx' | 'xls' | undefined {
  if (startsWith(buf, ZIP)) return 'xlsx';
  if (startsWith(buf, OLE2)) return 'xls';
  return undefined;
}

type Grid = (RawCell | undefined)[][];

/**
 * Reads the `columns` table of an .xlsx or .xls `buffer` (module docstring) → `{sheetName, headerRow, rows}`, rows
 * numbered as the spreadsheet program shows them. Throws AppError 422 NOT_A_SPREADSHEET, SPREADSHEET_TOO_LARGE,
 * UNREADABLE_SPREADSHEET, EMPTY_SHEET, MISSING_HEADERS, DUPLICATE_HEADER, NO_DATA_ROWS,
 * TOO_MANY_ROWS (more than `opts.maxRows` data rows).
 */
export function readTable<K extends string>(
  buffer: Uint8Array,
  columns: readonly ColumnSpec<K>[],
  opts: { maxRows: number },
): SheetTable<K> {
  const format = spreadsheetFormat(buffer);
  if (!format) {
    throw unprocessable('NOT_A_SPREADSHEET', '上传的文件不是 Excel 表格，请上传 .xlsx 或 .xls 文件');
  }
  if (format === 'xlsx' && (zipDeclaredSize(buffer) ?? 0) > MAX_UNZIPPED_BYTES) {
    throw unprocessable('SPREADSHEET_TOO_LARGE', '这个 Excel 文件解压后过大，请删除多余的工作表、图片或空白格式后再导入');
  }
  // One more row than allowed tells "too many" apart from "exactly the limit".
  const sheetRows = HEADER_SEARCH_ROWS + opts.maxRows + 1;
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(buffer, { type: 'buffer', dense: true, sheetRows, cellFormula: false, cellHTML: false, cellText: false, cellStyles: false });
  } catch {
    throw unprocessable('UNREADABLE_SPREADSHEET', '无法读取这个 Excel 文件（文件损坏或已加密），请用 Excel 另存为 .xlsx 后再上传');
  }
  if (!wb.SheetNames?.length) {
    throw unprocessable('UNREADABLE_SPREADSHEET', '无法读取这个 Excel 文件（没有工作表），请用 Excel 另存为 .xlsx 后再上传');
  }

  let best: { sheet: string; row: number; match: HeaderMatch<K> } | undefined;
  let anyContent = false;
  for (const name of wb.SheetNames) {
    const ws = wb.Sheets[name];
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
  // Merged cells: every covered cell below the header shows the top-left value.
  const merged = new Map<string, CellValue>();
  for (const m of ws['!merges'] ?? []) {
    if (m.e.r <= headerIdx) continue;
    const value = fromSheetCell(grid[m.s.r]?.[m.s.c]);
    for (let r = Math.max(m.s.r, headerIdx + 1); r <= m.e.r; r++) {
      for (let c = m.s.c; c <= m.e.c; c++) merged.set(`${r}:${c}`, value);
    }
  }
  const rows: SheetRow<K>[] = [];
  let lastDataIdx = headerIdx;
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
      cells[col.key] = merged.get(`${r}:${c}`) ?? own;
    }
    if (blank) continue;
    lastDataIdx = r;
    rows.push({ row: r + 1, cells });
  }
  if (truncated || lastDataIdx - headerIdx > maxRows) {
    throw unprocessable('TOO_MANY_ROWS', `表格数据超过 ${maxRows} 行，请分成几个文件分别导入`, { maxRows });
  }
  if (rows.length === 0) throw unprocessable('NO_DATA_ROWS', `表头（第 ${headerIdx + 1} 行）下面没有数据行`);
  return rows;
}

/** True when SheetJS stopped at `sheetRows` while the sheet's declared range goes further. */
function isTruncated(ws: XLSX.WorkSheet): boolean {
  const full = ws['!fullref'];
  const ref = ws['!ref'];
  if (!full || !ref) return false;
  return XLSX.utils.decode_range(full).e.r > XLSX.utils.decode_range(ref).e.r;
}
