/**
 * A cell holding text that is not valid Unicode (NUL, which PostgreSQL text
 * cannot store, or a lone UTF-16 surrogate) is an error row `invalid_characters` of the preview, and the
 * confirmation writes the good rows; an upload whose file name holds such text is 422 INVALID_CHARACTERS.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import { productRow, PRODUCT_HEADER, upload, workbook } from '../products/support.ts';

let app: TestApp;
let token: string;
beforeAll(async () => {
  app = await startTestApp();
  token = await app.login('13900000016', 'admin');
});
afterAll(() => app.close());

it('NUL in a product cell (.xlsx): an error row invalid_characters; the other rows are written', async () => {
  const file = workbook([PRODUCT_HEADER, productRow('P1', '好\u0000产品', 'D1', '落料', 30), productRow('P1', '好产品', 'D1', '落料', 30)]);
  const p = await upload(app, '/api/products/import', token, file);
  expect(p.status).toBe(200);
  expect(p.body.counts).toEqual({ create: 1, update: 0, unchanged: 0, errors: 1 });
  expect(p.body.errors[0]).toMatchObject({ row: 2, code: 'invalid_characters' });
  const c = await app.request('POST', `/api/products/import/${p.body.importId}/confirm`, { token });
  expect(c.status).toBe(200);
  expect(c.body.counts).toMatchObject({ created: 1, errors: 1 });
});

it('lone surrogates in a personnel sheet (.xls keeps UTF-16 as is): error rows invalid_characters', async () => {
  const file = workbook(
    [
      ['手机号', '姓名', '角色'],
      ['13700000001', '张\ud800', '员工'],
      ['13700000002', '李四', '员工\udc00'],
      ['13700000003', '王😀', '员工'],
    ],
    { bookType: 'xls' },
  );
  const p = await upload(app, '/api/people/import', token, file, 'people.xls');
  expect(p.status).toBe(200);
  expect(p.body.errors.map((e: { row: number; code: string }) => [e.row, e.code])).toEqual([
    [2, 'invalid_characters'],
    [3, 'invalid_characters'],
  ]);
  expect(p.body.create).toEqual([expect.objectContaining({ phone: '13700000003', name: '王😀' })]);
  const c = await app.request('POST', `/api/people/import/${p.body.importId}/confirm`, { token });
  expect(c.status).toBe(200);
});

it('a file name with NUL (RFC 5987 filename*): 422 INVALID_CHARACTERS', async () => {
  const boundary = 'b0undary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=utf-8''a%00b.xlsx\r\n\r\n`),
    workbook([PRODUCT_HEADER, productRow('P1', 'N', 'D1', '落料', 30)]),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const r = await rawRequest(
    app.service.port,
    `POST /api/products/import HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}`,
    body,
  );
  expect(r.status).toBe(422);
  expect(r.json.error.code).toBe('INVALID_CHARACTERS');
});
