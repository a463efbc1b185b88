/**
 * Helpers for the import tests (products and people): multipart upload through the test app, spreadsheets
 * generated with SheetJS, and the fixtures of ../shared/fixtures (read by tests only, never by the service).
 */
import { readFileSync } from 'node:fs';
import * as XLSX from 'xlsx';
import type { TestApp, TestResponse } from '../helpers/app.ts';
import { FIXTURES } from '../helpers/fixtures.ts';

export { FIXTURES };
export const fixture = (name: string): Buffer => readFileSync(`${FIXTURES}/${name}`);
export const EXPECTED: Record<string, any> = JSON.parse(readFileSync(`${FIXTURES}/EXPECTED.json`, 'utf8'));

export const PRODUCT_HEADER = ['项目号', '型材号', '产品名称', '物料编码', '物料名称', '使用设备', '工序', '冲压方式', '操作人数', '不包含物料转运节拍', '标准节拍', '备注'];

/** Uploads `data` as field `file` to `path` (multipart/form-data). */
export async function upload(app: TestApp, path: string, token: string, data: Uint8Array, fileName = 'list.xlsx', field = 'file'): Promise<TestResponse> {
  const form = new FormData();
  form.append(field, new Blob([data]), fileName);
  const res = await fetch(app.url + path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** A workbook with one sheet of `rows` (cell objects allowed, e.g. `{t: 'n', f: 'A1*2', v: 4}`). */
export function workbook(rows: unknown[][], opts: { bookType?: 'xlsx' | 'xls'; merges?: XLSX.Range[]; sheetName?: string } = {}): Buffer {
  const ws = XLSX.utils.aoa_to_sheet(rows as any[][]);
  if (opts.merges) ws['!merges'] = opts.merges;
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, opts.sheetName ?? 'Sheet1');
  return XLSX.write(wb, { type: 'buffer', bookType: opts.bookType ?? 'xlsx' });
}

/** A product row in PRODUCT_HEADER order. */
export const productRow = (projectNo: string | null, productName: string, deviceNo: string, processName: string, cycle: unknown, extra: { operators?: unknown } = {}) => [
  projectNo,
  'XC-1',
  productName,
  '100200',
  '铝型材',
  deviceNo,
  processName,
  '单冲',
  extra.operators ?? 1,
  null,
  cycle,
  null,
];

/** `项目号|产品名称|使用设备|工序` of a preview row, the key form of EXPECTED.json. */
export const keyOf = (r: { projectNo: string; productName: string; deviceNo: string; processName: string }) =>
  `${r.projectNo}|${r.productName}|${r.deviceNo}|${r.processName}`;
