/**
 * From the bytes of an upload to a SheetJS workbook, with every size the file could use against the reader
 * bounded:
 * - the format is recognised by content: zip (`.xlsx` and other zip workbooks) or OLE2 (legacy `.xls`);
 *   anything else is 422 NOT_A_SPREADSHEET;
 * - a zip is inflated by `unzipWorkbook` (zip.ts: at most MAX_INFLATED_BYTES actually inflated, sizes checked
 *   against the directory) and SheetJS gets the verified entries (`XLSX.parse_zip` of a container built from
 *   them), so it never inflates anything itself;
 * - its XML parts may declare no DTD (`<!DOCTYPE`, `<!ENTITY`): SheetJS expands no entity and fetches nothing,
 *   and no spreadsheet program writes one, so such a file is refused (422 UNREADABLE_SPREADSHEET) rather than
 *   read; its shared-strings table may hold at most MAX_SHARED_STRINGS entries and its sheets at most MAX_CELLS
 *   cells (422 SPREADSHEET_TOO_LARGE): counted in the bytes before SheetJS builds anything, so that such a file
 *   is refused at once rather than by the parse thread's memory limit, seconds later;
 * - SheetJS reads at most `sheetRows` rows of a sheet and nothing of styles, formulas' text or HTML; the size a
 *   sheet declares (`<dimension>`) allocates nothing.
 * A legacy `.xls` holds no compression: it is at most the upload (10 MB), and the worker thread's memory and
 * time limits (src/imports/parse-pool.ts) bound what its records can make the reader do.
 *
 * `readWorkbook(buffer, {sheetRows})` → the workbook (dense sheets). Throws AppError 422 NOT_A_SPREADSHEET,
 * SPREADSHEET_TOO_LARGE, UNREADABLE_SPREADSHEET.
 */
import * as XLSX from 'xlsx';
import { unprocessable } from '../errors.ts';
import { spreadsheetTooLarge } from './too-large.ts';
import { unzipWorkbook } from './zip.ts';

/** Most entries a workbook's shared-strings table may hold (each costs the reader ~150 bytes of memory). */
export const MAX_SHARED_STRINGS = 300_000;
/**
 * Most cells all sheets of an `.xlsx` may hold (each costs the reader ~100 bytes of memory): 1,000,000; an honest
 * 50,000-row list of spec 2.1's 13 columns has 650,000.
 */
export const MAX_CELLS = 1_000_000;

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (buf: Uint8Array, sig: number[]) => buf.length >= sig.length && sig.every((b, i) => buf[i] === b);

/** 'xlsx' for zip workbooks, 'xls' for OLE2 compound files, undefined for anything else. */
export function spreadsheetFormat(buf: Uint8Array): 'xlsx' | 'xls' | undefined {
  if (startsWith(buf, ZIP)) return 'xlsx';
  if (startsWith(buf, OLE2)) return 'xls';
  return undefined;
}

// SheetJS's reader of an unzipped container: exported by the package (0.20) but not in its type declarations.
const sheetjs = XLSX as unknown as {
  parse_zip(zip: unknown, opts: XLSX.ParsingOptions): XLSX.WorkBook;
  CFB: { utils: { cfb_new(): unknown; cfb_add(cfb: unknown, name: string, content: Uint8Array, opts: { unsafe: boolean }): void } };
};

const unreadable = (message = '无法读取这个 Excel 文件（文件损坏或已加密），请用 Excel 另存为 .xlsx 后再上传') => unprocessable('UNREADABLE_SPREADSHEET', message);

/** The workbook in `buffer`, at most `sheetRows` rows of each sheet read (module docstring). */
export async function readWorkbook(buffer: Uint8Array, opts: { sheetRows: number }): Promise<XLSX.WorkBook> {
  const format = spreadsheetFormat(buffer);
  if (!format) throw unprocessable('NOT_A_SPREADSHEET', '上传的文件不是 Excel 表格，请上传 .xlsx 或 .xls 文件');
  const options: XLSX.ParsingOptions = {
    type: 'buffer',
    dense: true,
    sheetRows: opts.sheetRows,
    cellFormula: false,
    cellHTML: false,
    cellText: false,
    cellStyles: false,
    bookVBA: false,
  };
  let wb: XLSX.WorkBook;
  if (format === 'xls') {
    try {
      wb = XLSX.read(buffer, options);
    } catch {
      throw unreadable();
    }
  } else {
    const entries = await unzipWorkbook(Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength));
    checkXmlParts(entries);
    const container = sheetjs.CFB.utils.cfb_new();
    for (const [name, bytes] of entries) sheetjs.CFB.utils.cfb_add(container, name, bytes, { unsafe: true });
    try {
      wb = sheetjs.parse_zip(container, options);
    } catch {
      throw unreadable();
    }
  }
  if (!wb.SheetNames?.length) throw unreadable('无法读取这个 Excel 文件（没有工作表），请用 Excel 另存为 .xlsx 后再上传');
  return wb;
}

const DOCTYPE = Buffer.from('<!DOCTYPE');
const ENTITY = Buffer.from('<!ENTITY');

/** Refuses XML parts that declare a DTD, more than MAX_SHARED_STRINGS shared strings or MAX_CELLS cells (module docstring). */
function checkXmlParts(entries: ReadonlyMap<string, Buffer>): void {
  let cells = 0;
  for (const [name, bytes] of entries) {
    if (!/\.(xml|rels|vml)$/i.test(name)) continue;
    if (bytes.includes(DOCTYPE) || bytes.includes(ENTITY)) {
      throw unreadable('这个文件含有 XML 实体声明（DOCTYPE），不是 Excel 保存的表格，请用 Excel 另存为 .xlsx 后再上传');
    }
    if (/sharedStrings[^/]*\.xml$/i.test(name) && countElements(bytes, 'si') > MAX_SHARED_STRINGS) {
      throw spreadsheetTooLarge(`这个 Excel 文件的共享文本超过 ${MAX_SHARED_STRINGS} 条，请删除多余的工作表或内容后再导入`, {
        maxSharedStrings: MAX_SHARED_STRINGS,
      });
    }
    if (/^xl\/worksheets\/[^/]+\.xml$/i.test(name)) cells += countElements(bytes, 'c');
    if (cells > MAX_CELLS) {
      throw spreadsheetTooLarge(`这个 Excel 文件的单元格超过 ${MAX_CELLS / 10_000} 万个，请删除多余的工作表、行或列后再导入`, {
        maxCells: MAX_CELLS,
      });
    }
  }
}

/** How many start tags `<name…>` or `<prefix:name…>` the XML `bytes` hold (an upper bound is enough). */
function countElements(bytes: Buffer, name: string): number {
  let n = 0;
  // `<si>`, `<si ` or `<si/>`; and `:si` likewise, for `<x:si>` (also counting `</x:si>`: an upper bound).
  for (const needle of [Buffer.from(`<${name}`), Buffer.from(`:${name}`)]) {
    for (let i = bytes.indexOf(needle); i >= 0; i = bytes.indexOf(needle, i + needle.length)) {
      const after = bytes[i + needle.length];
      if (after === 0x3e || after === 0x20 || after === 0x2f) n++;
    }
  }
  return n;
}
