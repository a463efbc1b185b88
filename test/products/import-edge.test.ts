/**
 * Product import edge cases with generated spreadsheets: file-level refusals (not a spreadsheet, empty sheet,
 * missing headers, too many rows, too large), row rules (duplicate keys, formulas, numeric text, blank first
 * 项目号), header matching (other order, line breaks, title rows), and the legacy .xls format.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PRODUCT_HEADER, productRow, upload, workbook } from './support.ts';

let app: TestApp;
let token: string;
const preview = (data: Uint8Array, name?: string) => upload(app, '/api/products/import', token, data, name);

// Built before any request: generating it takes seconds of CPU, long enough for the server to close an idle
// keep-alive connection under the client's feet.
let tooManyRows: Buffer;

beforeAll(async () => {
  const rows: unknown[][] = [['项目号', '产品名称', '使用设备', '工序', '标准节拍']];
  for (let i = 0; i < 50_001; i++) rows.push(['P', `N${i}`, 'D', 'S', 30]);
  tooManyRows = workbook(rows);
  app = await startTestApp();
  token = await app.login('13900000003', 'admin');
});
afterAll(() => app.close());

describe('file-level refusals', () => {
  it('a file that is not a spreadsheet: 422 NOT_A_SPREADSHEET, in Chinese', async () => {
    const r = await preview(Buffer.from('项目号,产品名称\nA,B\n'), 'list.xlsx');
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('NOT_A_SPREADSHEET');
    expect(r.body.error.message).toContain('Excel');
  });

  it('a zip that is not a workbook, and an empty upload: 422', async () => {
    const zipLike = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);
    const r = await preview(zipLike);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('UNREADABLE_SPREADSHEET');
    const empty = await preview(Buffer.alloc(0));
    expect(empty.status).toBe(422);
    expect(empty.body.error.code).toBe('EMPTY_FILE');
  });

  it('an empty sheet: 422 EMPTY_SHEET; headers without data: 422 NO_DATA_ROWS', async () => {
    const r = await preview(workbook([]));
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('EMPTY_SHEET');
    const h = await preview(workbook([PRODUCT_HEADER]));
    expect(h.status).toBe(422);
    expect(h.body.error.code).toBe('NO_DATA_ROWS');
  });

  it('missing required headers: 422 MISSING_HEADERS naming the missing columns and the row', async () => {
    const r = await preview(workbook([['标题'], ['项目号', '产品名称', '工序', '备注'], ['A', 'B', 'C', 'D']]));
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('MISSING_HEADERS');
    expect(r.body.error.details.missing).toEqual(['使用设备', '标准节拍']);
    expect(r.body.error.message).toContain('第 2 行');
    const none = await preview(workbook([['a', 'b'], [1, 2]]));
    expect(none.body.error.code).toBe('MISSING_HEADERS');
  });

  it('a header twice: 422 DUPLICATE_HEADER', async () => {
    const r = await preview(workbook([[...PRODUCT_HEADER, '标准节拍'], productRow('P', 'N', 'D', 'S', 30)]));
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('DUPLICATE_HEADER');
  });

  it('50,001 data rows: 422 TOO_MANY_ROWS', async () => {
    const r = await preview(tooManyRows);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('TOO_MANY_ROWS');
    expect(r.body.error.message).toContain('50000');
    expect((await app.request('GET', '/api/products', { token })).body.total).toBe(0);
  });

  it('a 20 MB upload: 413 FILE_TOO_LARGE, with the announced length and when streamed without one', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024, 1);
    const r = await preview(big);
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('FILE_TOO_LARGE');

    // Chunked upload (no Content-Length): busboy stops at 10 MB.
    const boundary = 'xBOUNDARYx';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunk = Buffer.alloc(1024 * 1024, 2);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (sent === 0) ctrl.enqueue(head);
        if (sent < 12) ctrl.enqueue(chunk);
        else {
          ctrl.enqueue(tail);
          ctrl.close();
        }
        sent++;
      },
    });
    const res = await fetch(`${app.url}/api/products/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error.code).toBe('FILE_TOO_LARGE');
  });

  it('no file part: 400 FILE_REQUIRED; a JSON body: 400 NOT_MULTIPART', async () => {
    const r = await upload(app, '/api/products/import', token, workbook([PRODUCT_HEADER]), 'a.xlsx', 'other');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('FILE_REQUIRED');
    const j = await app.request('POST', '/api/products/import', { token, body: { file: 'x' } });
    expect(j.status).toBe(400);
    expect(j.body.error.code).toBe('NOT_MULTIPART');
  });

  it('only admin and manager may import: worker 403, no token 401', async () => {
    const worker = await app.login('13900000004', 'worker');
    expect((await upload(app, '/api/products/import', worker, workbook([PRODUCT_HEADER]))).status).toBe(403);
    expect((await app.request('POST', '/api/products/import')).status).toBe(401);
    expect((await app.request('GET', '/api/products', { token: worker })).status).toBe(403);
  });
});

describe('rows', () => {
  it('the same key twice: the later row is an error naming the first; the first is kept', async () => {
    const r = await preview(
      workbook([PRODUCT_HEADER, productRow('P1', '支架', 'JC-01', '冲孔', 30), productRow('P1', '支架', 'JC-02', '冲孔', 30), productRow(null, '支架', 'JC-01', '冲孔', 40)]),
    );
    expect(r.status).toBe(200);
    expect(r.body.create.map((x: any) => x.row)).toEqual([2, 3]);
    expect(r.body.errors).toHaveLength(1);
    expect(r.body.errors[0]).toMatchObject({ row: 4, code: 'duplicate_key' });
    expect(r.body.errors[0].reason).toContain('第 2 行');
    expect(r.body.errors[0].values['项目号']).toBe('P1');
  });

  it('formulas count with their saved result; a formula without a result is an error row', async () => {
    const r = await preview(
      workbook([
        PRODUCT_HEADER,
        productRow('P1', '支架', 'JC-01', '冲孔', { t: 'n', f: '10*3', v: 30 }),
        productRow('P1', '横梁', 'JC-01', '冲孔', { t: 'n', f: '10*3' }),
        productRow('P1', '底板', 'JC-01', '冲孔', { t: 'e', v: 7 }),
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.create).toHaveLength(1);
    expect(r.body.create[0]).toMatchObject({ row: 2, standardCycleSeconds: 30, standardWorkload: 960 });
    expect(r.body.errors.map((e: any) => [e.row, e.code])).toEqual([
      [3, 'uncomputed_formula'],
      [4, 'error_cell'],
    ]);
    expect(r.body.errors[1].reason).toContain('#DIV/0!');
  });

  it('numeric text, decimals, thousands separators, full-width digits; workload from milliseconds', async () => {
    const header = [...PRODUCT_HEADER.slice(0, 11), '标准工作量'];
    const r = await preview(
      workbook([
        header,
        [...productRow('P1', 'A', 'D1', 'S', ' 22.5 ').slice(0, 11), null],
        [...productRow('P1', 'B', 'D1', 'S', '０.３').slice(0, 11), ''],
        [...productRow('P1', 'C', 'D1', 'S', 7.0004).slice(0, 11), '1,200'],
        [...productRow('P1', 'D', 'D1', 'S', -3).slice(0, 11), null],
        [...productRow('P1', 'E', 'D1', 'S', 28801).slice(0, 11), null],
        [...productRow('P1', 'F', 'D1', 'S', 30, { operators: 1.5 }).slice(0, 11), 12.5],
        [...productRow('P1', 'G', 'D1', 'S', null, { operators: '两人' }).slice(0, 11), null],
      ]),
    );
    expect(r.status).toBe(200);
    const rows = new Map(r.body.create.map((x: any) => [x.productName, x]));
    expect(rows.get('A')).toMatchObject({ standardCycleSeconds: 22.5, standardWorkload: 1280, workloadComputed: true });
    expect(rows.get('B')).toMatchObject({ standardCycleSeconds: 0.3, standardWorkload: 96000 });
    expect(rows.get('C')).toMatchObject({ standardCycleSeconds: 7, standardWorkload: 1200, workloadComputed: false });
    expect(r.body.errors.map((e: any) => [e.row, e.code])).toEqual([
      [5, 'negative_cycle'],
      [6, 'cycle_too_large'],
      [7, 'bad_people'],
      [8, 'bad_people'],
    ]);
    // Every problem of a row is named.
    expect(r.body.errors[2].reason).toContain('标准工作量');
    expect(r.body.errors[3].reason).toContain('标准节拍为空');
  });

  it('a blank 项目号 on the first data row has nothing to reuse: no_project_no', async () => {
    const r = await preview(workbook([PRODUCT_HEADER, productRow(null, 'A', 'D', 'S', 30), productRow('P2', 'B', 'D', 'S', 30), productRow('', 'C', 'D', 'S', 30)]));
    expect(r.body.errors.map((e: any) => [e.row, e.code])).toEqual([[2, 'no_project_no']]);
    expect(r.body.create.map((x: any) => [x.row, x.projectNo])).toEqual([
      [3, 'P2'],
      [4, 'P2'],
    ]);
  });
});

describe('layout', () => {
  it('columns in another order, headers with spaces, line breaks and a unit, two title rows, blank rows, merged cells', async () => {
    const r = await preview(
      workbook(
        [
          ['二车间 标准节拍'],
          ['2026 年 3 月'],
          ['标准\n节拍（秒）', '工序', ' 使用 设备 ', '产品名称', '备注', '项目号', '操作\r\n人数'],
          [12, '落料', 'GS 02', '支架', '注', 'XM-1', 2],
          [null, null, null, null, null, null, null],
          [24, '冲孔', 'GS 02', '横梁', null, null, 1],
          [15, '折弯', 'GS 02', '底板', null, 'XM-2', '3'],
        ],
        { merges: [{ s: { r: 3, c: 2 }, e: { r: 6, c: 2 } }] },
      ),
    );
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([]);
    expect(r.body.create.map((x: any) => [x.row, x.projectNo, x.productName, x.deviceNo, x.processName, x.standardCycleSeconds, x.operatorCount])).toEqual([
      [4, 'XM-1', '支架', 'GS 02', '落料', 12, 2],
      [6, 'XM-1', '横梁', 'GS 02', '冲孔', 24, 1],
      [7, 'XM-2', '底板', 'GS 02', '折弯', 15, 3],
    ]);
    expect(r.body.create[0].profileNo).toBeNull();
  });

  it('a generated legacy .xls is read like .xlsx', async () => {
    const r = await preview(workbook([PRODUCT_HEADER, productRow('P9', '支架', 'JC-09', '冲孔', 45)], { bookType: 'xls' }), 'old.xls');
    expect(r.status).toBe(200);
    expect(r.body.create).toHaveLength(1);
    expect(r.body.create[0]).toMatchObject({ projectNo: 'P9', deviceNo: 'JC-09', standardWorkload: 640, materialCode: '100200' });
  });
});
