/**
 * The spreadsheet reader without the service: number reading, header matching, the header search window,
 * the row limit at its exact boundary, several sheets, and the refusal of an .xlsx declaring a huge size (more
 * hostile files: test/imports/hostile-workbooks.test.ts).
 */
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { cellNumber, cellText } from '../../src/spreadsheet/cells.ts';
import { normalizeHeader } from '../../src/spreadsheet/headers.ts';
import { HEADER_SEARCH_ROWS, readTable } from '../../src/spreadsheet/table.ts';
import { spreadsheetFormat } from '../../src/spreadsheet/workbook.ts';
import { MAX_INFLATED_BYTES } from '../../src/spreadsheet/zip.ts';
import { PRODUCT_COLUMNS } from '../../src/products/model.ts';
import { workbook } from './support.ts';

const HEAD = ['项目号', '产品名称', '使用设备', '工序', '标准节拍'];
const row = (i: number) => ['P', `N${i}`, 'D', 'S', 30];
const codeOf = async (fn: () => Promise<unknown>): Promise<string | undefined> => {
  try {
    await fn();
    return undefined;
  } catch (e: any) {
    return e.code;
  }
};

describe('cells and headers', () => {
  it('reads numbers from cells and numeric text, refuses other text', () => {
    expect(cellNumber(12.5)).toEqual({ kind: 'number', value: 12.5 });
    expect(cellNumber(' 12.5 ')).toEqual({ kind: 'number', value: 12.5 });
    expect(cellNumber('1,200')).toEqual({ kind: 'number', value: 1200 });
    expect(cellNumber('１２．５')).toEqual({ kind: 'number', value: 12.5 });
    expect(cellNumber('-3')).toEqual({ kind: 'number', value: -3 });
    expect(cellNumber(null)).toEqual({ kind: 'blank' });
    expect(cellNumber('  ')).toEqual({ kind: 'blank' });
    for (const t of ['约30秒', '30s', '1,20', '3-4', 'NaN', 'Infinity']) expect(cellNumber(t).kind, t).toBe('invalid');
    expect(cellText(19.200000000000003)).toBe('19.2');
    expect(cellText(9061236601)).toBe('9061236601');
  });

  it('matches headers ignoring spaces, line breaks and a unit in brackets', () => {
    expect(normalizeHeader(' 标准\n节拍 ')).toBe('标准节拍');
    expect(normalizeHeader('标准节拍（秒）')).toBe('标准节拍');
    expect(normalizeHeader('标准节拍(s)')).toBe('标准节拍');
    expect(normalizeHeader('不包含物料转运节拍')).not.toBe(normalizeHeader('标准节拍'));
  });

  it('recognises .xlsx and .xls by content', () => {
    expect(spreadsheetFormat(workbook([HEAD]))).toBe('xlsx');
    expect(spreadsheetFormat(workbook([HEAD], { bookType: 'xls' }))).toBe('xls');
    expect(spreadsheetFormat(Buffer.from('项目号'))).toBeUndefined();
  });
});

describe('readTable', () => {
  it('takes exactly maxRows data rows and refuses one more', async () => {
    const three = workbook([['标题'], HEAD, row(1), row(2), row(3)]);
    const t = await readTable(three, PRODUCT_COLUMNS, { maxRows: 3 });
    expect(t.headerRow).toBe(2);
    expect(t.rows.map((r) => r.row)).toEqual([3, 4, 5]);
    expect(await codeOf(() => readTable(workbook([['标题'], HEAD, row(1), row(2), row(3), row(4)]), PRODUCT_COLUMNS, { maxRows: 3 }))).toBe('TOO_MANY_ROWS');
  });

  it(`finds the header row within the first ${HEADER_SEARCH_ROWS} rows only`, async () => {
    const titles = (n: number) => Array.from({ length: n }, (_, i) => [`说明 ${i + 1}`]);
    expect((await readTable(workbook([...titles(HEADER_SEARCH_ROWS - 1), HEAD, row(1)]), PRODUCT_COLUMNS, { maxRows: 10 })).headerRow).toBe(HEADER_SEARCH_ROWS);
    expect(await codeOf(() => readTable(workbook([...titles(HEADER_SEARCH_ROWS), HEAD, row(1)]), PRODUCT_COLUMNS, { maxRows: 10 }))).toBe('MISSING_HEADERS');
  });

  it('takes the first sheet that has the headers', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['填写说明'], ['节拍单位为秒']]), '说明');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([HEAD, row(1)]), '产品');
    const t = await readTable(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }), PRODUCT_COLUMNS, { maxRows: 10 });
    expect(t.sheetName).toBe('产品');
    expect(t.rows[0].cells.productName).toBe('N1');
  });

  it(`refuses an .xlsx whose entries declare more than ${MAX_INFLATED_BYTES / 1024 / 1024} MiB, before inflating it`, async () => {
    const ws = XLSX.utils.aoa_to_sheet([HEAD, row(1)]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'S');
    const buf = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }));
    expect(await codeOf(() => readTable(buf, PRODUCT_COLUMNS, { maxRows: 10 }))).toBeUndefined();
    // The directory entry and the local header of the first entry both declare 300 MB.
    const central = buf.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    buf.writeUInt32LE(300 * 1024 * 1024, central + 24);
    buf.writeUInt32LE(300 * 1024 * 1024, 22);
    expect(await codeOf(() => readTable(buf, PRODUCT_COLUMNS, { maxRows: 10 }))).toBe('SPREADSHEET_TOO_LARGE');
  });
});
