/**
 * Rates with the product list — `POST /api/products` with a rate, and the import's 计件单价, 不良单价, 料废单价,
 * 生效日期 columns: the preview shows each rate change beside the other changes (or an error row), the confirmation
 * writes the products and, in the same transaction, each rate as a rate event by the uploader; the default date
 * is the day of the confirmation; a rate set meanwhile makes the preview stale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PRODUCT_HEADER, productRow, upload, workbook } from '../products/support.ts';

let app: TestApp;
let manager: string;
const HEADER = [...PRODUCT_HEADER, '计件单价', '不良单价', '生效日期'];
const row = (name: string, cycle: number, piece: unknown, defect: unknown, from: unknown) => [...productRow('RT', name, 'D9', '冲压', cycle), piece, defect, from];
const rateEvents = async () =>
  (
    await app.service.ctx.db.pool.query(
      `SELECT data->>'effectiveFrom' AS "from", (data->>'pieceRate')::int AS piece, (data->>'defectRate')::int AS defect, metadata->>'actorName' AS who
         FROM events WHERE event_type = 'RateSet' ORDER BY global_position`,
    )
  ).rows;

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-20T10:00:00+08:00');
  manager = await app.login('13900000002', 'manager', '李经理');
});
afterAll(() => app?.close());

describe('POST /api/products with a rate', () => {
  const product = { projectNo: 'PX', productName: '横梁', deviceNo: 'D8', processName: '冲压', standardCycleSeconds: 20 };

  it('creates the product and its rate in one transaction; 不良单价 without 计件单价 is 422 PRODUCT_INVALID', async () => {
    const r = await app.request('POST', '/api/products', { token: manager, body: { ...product, pieceRate: '0.75', defectRate: -0.1, effectiveFrom: '2026-03-01' } });
    expect([r.status, r.body.result, r.body.rate]).toEqual([200, 'created', { productId: r.body.product.id, pieceRate: '0.7500', defectRate: '-0.1000', materialDefectRate: '-0.1000', effectiveFrom: '2026-03-01' }]);
    const again = await app.request('POST', '/api/products', { token: manager, body: { ...product, pieceRate: 0.8 } });
    expect([again.body.result, again.body.rate.effectiveFrom]).toEqual(['unchanged', '2026-03-20']); // today by default
    const refused = await app.request('POST', '/api/products', { token: manager, body: { ...product, defectRate: '0.1' } });
    expect([refused.status, refused.body.error.code, refused.body.error.details[0].code]).toEqual([422, 'PRODUCT_INVALID', 'no_piece_rate']);
    const materialOnly = await app.request('POST', '/api/products', { token: manager, body: { ...product, materialDefectRate: '0.75' } });
    expect([materialOnly.status, materialOnly.body.error.details[0].code]).toEqual([422, 'no_piece_rate']);
    const bad = await app.request('POST', '/api/products', { token: manager, body: { ...product, pieceRate: '0.12345' } });
    expect([bad.status, bad.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(bad.body.error.message).toContain('计件单价');
  });

  it('sets 料废单价 with the product; the list shows the rate in force with it (料废 at 不良单价 when none is set)', async () => {
    const cover = { ...product, productName: '盖板' };
    const r = await app.request('POST', '/api/products', { token: manager, body: { ...cover, pieceRate: '1.2', defectRate: '-0.5', materialDefectRate: '1.2', effectiveFrom: '2026-03-01' } });
    expect([r.status, r.body.rate.materialDefectRate]).toEqual([200, '1.2000']);
    const list = (await app.request('GET', '/api/products?keyword=PX&pageSize=50', { token: manager })).body.items;
    const rateOf = (name: string) => list.find((p: any) => p.productName === name).rate;
    expect(rateOf('盖板')).toEqual({ pieceRate: '1.2000', defectRate: '-0.5000', materialDefectRate: '1.2000', effectiveFrom: '2026-03-01' });
    expect(rateOf('横梁')).toEqual({ pieceRate: '0.8000', defectRate: '0.0000', materialDefectRate: '0.0000', effectiveFrom: '2026-03-20' });
  });
});

describe('the import’s 料废单价 column', () => {
  const WITH_MATERIAL = [...PRODUCT_HEADER, '计件单价', '不良单价', '料废单价', '生效日期'];
  const mrow = (name: string, piece: unknown, defect: unknown, material: unknown, from: unknown) => [...productRow('MT', name, 'D7', '冲压', 30), piece, defect, material, from];
  const materialOf = async () =>
    (await app.service.ctx.db.pool.query(`SELECT data->>'materialDefectRate' AS m FROM events WHERE event_type = 'RateSet' ORDER BY global_position DESC LIMIT 1`)).rows[0].m;

  it('previews and writes 料废单价; blank follows 不良单价 and shows no change of its own; a bad cell is an error row', async () => {
    const pre = await upload(app, '/api/products/import', manager, workbook([WITH_MATERIAL, mrow('M1', '1.2', '-0.5', '1.2', '2026-03-01'), mrow('M2', null, null, '1', null), mrow('M3', '1', null, 'x', null)]));
    expect(pre.body.counts).toMatchObject({ create: 1, errors: 2 });
    expect(pre.body.create[0].rate).toEqual({ pieceRate: '1.2000', defectRate: '-0.5000', materialDefectRate: '1.2000', effectiveFrom: '2026-03-01' });
    expect(pre.body.errors.map((e: any) => [e.row, e.code])).toEqual([
      [3, 'no_piece_rate'],
      [4, 'bad_material_defect_rate'],
    ]);
    expect(pre.body.errors[1].reason).toContain('料废单价');
    expect((await app.request('POST', `/api/products/import/${pre.body.importId}/confirm`, { token: manager })).status).toBe(200);
    expect(await materialOf()).toBe('12000');

    // The same row with 料废单价 blank: 料废 now follows 不良单价 again, a change of its own (1.2000 → -0.5000).
    const again = await upload(app, '/api/products/import', manager, workbook([WITH_MATERIAL, mrow('M1', '1.2', '-0.5', null, '2026-03-01')]));
    expect(again.body.update[0].changes.map((c: any) => [c.label, c.from, c.to])).toEqual([['料废单价', '1.2000', '-0.5000']]);
    expect((await app.request('POST', `/api/products/import/${again.body.importId}/confirm`, { token: manager })).status).toBe(200);
    expect(await materialOf()).toBeNull();
    // Blank again against a rate without its own: nothing changes.
    const same = await upload(app, '/api/products/import', manager, workbook([WITH_MATERIAL, mrow('M1', '1.2', '-0.5', null, '2026-03-01')]));
    expect(same.body.counts).toMatchObject({ unchanged: 1, update: 0 });
  });
});

describe('the import’s rate columns', () => {
  it('previews each rate change beside the other changes, refuses bad rate cells, and confirms them as rate events by the uploader', async () => {
    // Stored: A (cycle 30) with 1.0 from 03-01; B (cycle 30) with 0.5 from 03-01; C without a rate.
    await upload(app, '/api/products/import', manager, workbook([HEADER, row('A', 30, 1, null, '2026-03-01'), row('B', 30, '0.5', 0, '2026-03-01'), row('C', 30, null, null, null)])).then(
      async (pre) => {
        expect(pre.body.counts).toMatchObject({ create: 3, errors: 0 });
        expect(pre.body.create.map((r: any) => r.rate ?? null)).toEqual([
          { pieceRate: '1.0000', defectRate: '0.0000', effectiveFrom: '2026-03-01' },
          { pieceRate: '0.5000', defectRate: '0.0000', effectiveFrom: '2026-03-01' },
          null,
        ]);
        expect((await app.request('POST', `/api/products/import/${pre.body.importId}/confirm`, { token: manager })).status).toBe(200);
      },
    );
    const before = (await rateEvents()).length;

    const sheet = workbook([
      HEADER,
      row('A', 30, 1.2, '-0.05', '2026-03-15'), // rate only: an update with 计件单价 1.0000 → 1.2000 and 不良单价
      row('B', 25, '0.5', null, null), // cycle changes, rate the same as in force: only 标准节拍 (and the workload computed from it)
      row('C', 30, '2', null, { t: 'n', v: 46097, z: 'yyyy-mm-dd' }), // an Excel date cell: 2026-03-16
      row('D', 30, '0.12345', null, null),
      row('E', 30, '-1', '0.1', '2026-02-30'),
      row('F', 30, null, '0.1', null),
      row('G', 30, '1', null, null),
    ]);
    app.clock.set('2026-03-20T23:50:00+08:00');
    const pre = await upload(app, '/api/products/import', manager, sheet);
    expect(pre.body.counts).toEqual({ create: 1, update: 3, unchanged: 0, errors: 3 });
    const changes = Object.fromEntries(pre.body.update.map((r: any) => [r.productName, r.changes.map((c: any) => [c.label, c.from, c.to])]));
    expect(changes).toEqual({
      A: [
        ['计件单价', '1.0000', '1.2000'],
        ['不良单价', '0.0000', '-0.0500'],
      ],
      B: [
        ['标准节拍', 30, 25],
        ['标准工作量', 960, 1152],
      ],
      C: [
        ['计件单价', null, '2.0000'],
        ['不良单价', null, '0.0000'],
      ],
    });
    expect(pre.body.update.find((r: any) => r.productName === 'C').rate.effectiveFrom).toBe('2026-03-16');
    expect(pre.body.create[0]).toMatchObject({ productName: 'G', rate: { pieceRate: '1.0000', effectiveFrom: null } });
    expect(pre.body.errors.map((e: any) => [e.row, e.code])).toEqual([
      [5, 'bad_piece_rate'],
      [6, 'bad_piece_rate'],
      [7, 'no_piece_rate'],
    ]);
    expect(pre.body.errors[0].reason).toContain('计件单价最多 4 位小数');
    expect(pre.body.errors[1].reason).toContain('不能是负数');
    expect(pre.body.errors[1].reason).toContain('生效日期「2026-02-30」不是有效日期');

    app.clock.set('2026-03-21T00:10:00+08:00'); // the next day, within the preview's 30 minutes
    const confirmed = await app.request("POST", `/api/products/import/${pre.body.importId}/confirm`, { token: manager });
    expect(confirmed.body.counts, JSON.stringify(confirmed.body)).toMatchObject({ created: 1, updated: 3 });
    expect((await rateEvents()).slice(before)).toEqual([
      { from: '2026-03-21', piece: 10000, defect: 0, who: '李经理' }, // G (created first): the day of the confirmation
      { from: '2026-03-15', piece: 12000, defect: -500, who: '李经理' },
      { from: '2026-03-16', piece: 20000, defect: 0, who: '李经理' },
    ]);
  });

  it('a rate set between preview and confirmation makes the preview stale; a rate from a closed month is an error row', async () => {
    const pre = await upload(app, '/api/products/import', manager, workbook([HEADER, row('A', 30, '3', null, '2026-03-18')]));
    const a = (await app.request('GET', '/api/products?keyword=RT&pageSize=50', { token: manager })).body.items.find((p: any) => p.productName === 'A');
    expect((await app.request('POST', `/api/products/${a.id}/rates`, { token: manager, body: { pieceRate: '9', effectiveFrom: '2026-03-19' } })).status).toBe(201);
    expect((await app.request('POST', `/api/products/import/${pre.body.importId}/confirm`, { token: manager })).body.error.code).toBe('IMPORT_STALE');

    await app.service.ctx.db.pool.query(`INSERT INTO periods (month, status, version, amount_fen, workers, history) VALUES ('2026-02', 'closed', 1, 0, 0, '[]')`);
    const closed = await upload(app, '/api/products/import', manager, workbook([HEADER, row('A', 30, '3', null, '2026-02-10')]));
    expect(closed.body.errors.map((e: any) => [e.row, e.code, e.reason])).toEqual([[2, 'period_closed', '2026年2月已结账，不能设置从该月生效的单价；请把生效日期改到未结账的月份']]);
  });
});
