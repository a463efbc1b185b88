/**
 * Defect reasons priced by their category, worked out by hand through HTTP (never by the code under test):
 *
 *   reasons   划伤 SCR 工废 (operator), 材料裂纹 CRK 料废 (material)
 *   rate      from 03-01: pieceRate 1.20, defectRate (工废, 其他, 未注明) −0.50, materialDefectRate (料废) 1.20
 *   report    03-02: 100 成品, 6 不良 = 2 划伤 + 3 材料裂纹 + 1 without a reason (DEFECT_REASONS_REQUIRED off)
 *   line      100 × 1.20 + (2 + 1) × (−0.50) + 3 × 1.20 = 120 − 1.50 + 3.60 = 122.10
 *   a second product without a material rate: 10 成品, 2 不良 (both 料废) at 1.00 / −0.10 → 10 − 0.20 = 9.80
 *             (料废 falls back to the defect rate, as every rate set before the material's own existed)
 *
 * Then renaming and recategorising 划伤 changes no amount, the month closes with the split kept on the closed
 * statement, and the wage projection rebuilt from the events equals the one built as they came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { replayProjection } from '../../src/projections/replay.ts';
import { wagesProjection } from '../../src/projections/wages.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, MIN, workerClient } from '../clock/helpers.ts';
import { tablesOf } from '../helpers/test-projection.ts';

const WORKER = '13800000011';
let app: TestApp;
let manager: string;
let admin: string;
let reportId: string;
const P = { A: 0, B: 0 };
const call = (method: string, path: string, token: string, body?: unknown) => app.request(method, path, { token, body });
const statement = async () => {
  await app.catchUpAll();
  const r = await call('GET', `/api/wages/${WORKER}?month=2026-03`, manager);
  expect(r.status).toBe(200);
  return r.body;
};

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-01T08:00:00+08:00');
  manager = await app.login('13800000002', 'manager', '李经理');
  admin = await app.login('13800000004', 'admin', '王管理');
  const worker = workerClient(app, await app.login(WORKER, 'worker', '张三'));
  P.A = await addProduct(app, 'D1', { name: '前围横梁' });
  P.B = await addProduct(app, 'D1', { name: '后围板' });
  expect((await call('POST', '/api/defect-reasons', manager, { code: 'SCR', name: '划伤', category: 'operator' })).status).toBe(201);
  expect((await call('POST', '/api/defect-reasons', manager, { code: 'CRK', name: '材料裂纹', category: 'material' })).status).toBe(201);
  const rate = await call('POST', `/api/products/${P.A}/rates`, manager, { pieceRate: '1.20', defectRate: '-0.50', materialDefectRate: '1.20', effectiveFrom: '2026-03-01' });
  expect([rate.status, rate.body.materialDefectRate, rate.body.defectRate]).toEqual([201, '1.2000', '-0.5000']);
  expect((await call('POST', `/api/products/${P.B}/rates`, manager, { pieceRate: '1', defectRate: '-0.1', effectiveFrom: '2026-03-01' })).body.materialDefectRate).toBe('-0.1000');

  app.clock.set('2026-03-02T08:00:00+08:00');
  const started = await worker.start('D1');
  app.clock.advance(8 * 60 * MIN);
  expect((await worker.finish('D1')).status).toBe(200);
  const submitted = await worker.submit(started.body.sessionId, [
    { productId: P.A, finishedQty: 100, defectiveQty: 6, defects: [{ reasonCode: 'SCR', qty: 2 }, { reasonCode: 'CRK', qty: 3 }] },
  ]);
  expect(submitted.status).toBe(201);
  reportId = submitted.body.reportId;
  expect((await call('POST', `/api/reviews/${reportId}/approve`, admin, {})).status).toBe(200);
  // 03-03: product B, its 2 不良 both 料废.
  app.clock.set('2026-03-03T08:00:00+08:00');
  const second = await worker.start('D1');
  app.clock.advance(8 * 60 * MIN);
  expect((await worker.finish('D1')).status).toBe(200);
  const b = await worker.submit(second.body.sessionId, [{ productId: P.B, finishedQty: 10, defectiveQty: 2, defects: [{ reasonCode: 'CRK', qty: 2 }] }]);
  expect((await call('POST', `/api/reviews/${b.body.reportId}/approve`, admin, {})).status).toBe(200);
});
afterAll(() => app?.close());

const A_LINE = {
  finishedQty: 100,
  defectiveQty: 6,
  pieceRate: '1.2000',
  defectRate: '-0.5000',
  materialDefectRate: '1.2000',
  defects: [
    { reasonCode: 'SCR', reasonName: '划伤', category: 'operator', qty: 2 },
    { reasonCode: 'CRK', reasonName: '材料裂纹', category: 'material', qty: 3 },
  ],
  operatorDefectQty: 2,
  materialDefectQty: 3,
  otherDefectQty: 0,
  unexplainedDefectQty: 1,
  amount: '122.10',
};

describe('a line priced by its defects’ categories', () => {
  it('the statement line is 100 × 1.20 + 3 × (−0.50) + 3 × 1.20 = 122.10, the split given', async () => {
    const s = await statement();
    expect(s.reports[0].lines[0]).toMatchObject(A_LINE);
    expect(s.reports[1].lines[0]).toMatchObject({ materialDefectRate: '-0.1000', materialDefectQty: 2, unexplainedDefectQty: 0, amount: '9.80' });
    expect(s.amount).toBe('131.90');
  });

  it('the Pareto by reason of 03-02 lists 材料裂纹 3 (50.0 %), 划伤 2 (33.3 %), 未注明 1 (16.7 %), cumulative 100.0', async () => {
    const r = await call('GET', '/api/quality/defects?startDate=2026-03-02&endDate=2026-03-02&groupBy=reason', manager);
    // 3 / 6 = 50.0 %; 2 / 6 = 33.33 → 33.3 %, cumulative 5 / 6 = 83.33 → 83.3 %; 1 / 6 = 16.67 → 16.7 %; 6 / 106 = 5.66 → 5.7 %
    expect([r.status, r.body]).toEqual([
      200,
      {
        items: [
          { key: 'CRK', label: '材料裂纹', defectiveQty: 3, sharePct: 50, cumulativePct: 50 },
          { key: 'SCR', label: '划伤', defectiveQty: 2, sharePct: 33.3, cumulativePct: 83.3 },
          { key: null, label: '未注明', defectiveQty: 1, sharePct: 16.7, cumulativePct: 100 },
        ],
        totalDefectiveQty: 6,
        totalOutputQty: 106,
        defectRatePct: 5.7,
      },
    ]);
  });

  it('renaming and recategorising 划伤 later changes no amount (the category is the one recorded)', async () => {
    expect((await call('PUT', '/api/defect-reasons/SCR', manager, { name: '表面划伤', category: 'material' })).status).toBe(200);
    const s = await statement();
    expect(s.reports[0].lines[0]).toMatchObject({ ...A_LINE, defects: [{ ...A_LINE.defects[0], reasonName: '表面划伤' }, A_LINE.defects[1]] });
    expect(s.amount).toBe('131.90');
  });

  it('the Pareto by reason lists 材料裂纹 5 (the report’s 3 and 2), 划伤 2, 未注明 1: shares from the integer sums, cumulative 100', async () => {
    const r = await call('GET', '/api/quality/defects?startDate=2026-03-01&endDate=2026-03-31&groupBy=reason', manager);
    expect(r.status).toBe(200);
    // 8 defective pieces: 5 / 8 = 62.5 %, 2 / 8 = 25.0 %, 1 / 8 = 12.5 %; output 106 + 12 = 118: 8 / 118 = 6.78 → 6.8 %
    expect(r.body).toEqual({
      items: [
        { key: 'CRK', label: '材料裂纹', defectiveQty: 5, sharePct: 62.5, cumulativePct: 62.5 },
        { key: 'SCR', label: '表面划伤', defectiveQty: 2, sharePct: 25, cumulativePct: 87.5 },
        { key: null, label: '未注明', defectiveQty: 1, sharePct: 12.5, cumulativePct: 100 },
      ],
      totalDefectiveQty: 8,
      totalOutputQty: 118,
      defectRatePct: 6.8,
    });
    const byCategory = await call('GET', '/api/quality/defects?startDate=2026-03-01&endDate=2026-03-31&groupBy=category', admin);
    expect(byCategory.body.items.map((i: any) => [i.key, i.label, i.defectiveQty])).toEqual([
      ['material', '料废', 5],
      ['operator', '工废', 2],
      [null, '未注明', 1],
    ]);
    const byProduct = await call('GET', '/api/quality/defects?startDate=2026-03-01&endDate=2026-03-31&groupBy=product', manager);
    expect(byProduct.body.items.map((i: any) => [i.defectiveQty, i.sharePct, i.cumulativePct])).toEqual([
      [6, 75, 75],
      [2, 25, 100],
    ]);
    const worker = await call('GET', '/api/quality/defects?startDate=2026-03-01&endDate=2026-03-31', await app.login(WORKER, 'worker', '张三'));
    expect(worker.status).toBe(403);
    const xlsx = await call('GET', '/api/quality/defects.xlsx?startDate=2026-03-01&endDate=2026-03-31', manager);
    expect(xlsx.status).toBe(200);
  });

  it('a reader scoped to another workshop sees none of these defects', async () => {
    expect((await call('POST', '/api/workshops', manager, { code: 'W9', name: '九车间' })).status).toBe(201);
    const scoped = await app.login('13800000006', 'admin', '周管理');
    expect((await call('PUT', '/api/people/13800000006/scope', manager, { role: 'admin', workshops: ['W9'] })).status).toBe(200);
    const r = await call('GET', '/api/quality/defects?startDate=2026-03-01&endDate=2026-03-31', scoped);
    expect([r.status, r.body.items, r.body.totalDefectiveQty]).toEqual([200, [], 0]);
  });

  it('the month closes at the amounts by hand, and the closed statement keeps the split', async () => {
    app.clock.set('2026-04-01T09:00:00+08:00');
    const closed = await call('POST', '/api/periods/2026-03/close', manager, {});
    expect([closed.status, closed.body.amount]).toEqual([200, '131.90']);
    const s = await statement();
    expect(s.status).toBe('closed');
    expect(s.reports[0].lines[0]).toMatchObject({ operatorDefectQty: 2, materialDefectQty: 3, unexplainedDefectQty: 1, materialDefectRate: '1.2000', amount: '122.10' });
  });

  it('the payroll workbook gives each line its 工废, 料废, 其他 and 未注明 and the 料废单价 it was priced at', async () => {
    const res = await fetch(`${app.url}/api/wages.xlsx?month=2026-03`, { headers: { authorization: `Bearer ${manager}` } });
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(XLSX.read(Buffer.from(await res.arrayBuffer())).Sheets['明细']);
    const shown = (r: Record<string, unknown>) => [r.产品名称, r.不良数量, r.工废数量, r.料废数量, r.其他不良数量, r.未注明原因数量, r.不良单价, r.料废单价, r.金额];
    expect(rows.map(shown)).toEqual([
      ['前围横梁', 6, 2, 3, 0, 1, -0.5, 1.2, 122.1],
      ['后围板', 2, 0, 2, 0, 0, -0.1, -0.1, 9.8],
      [undefined, 8, 2, 5, 0, 1, undefined, undefined, 131.9],
    ]);
  });

  it('rebuilds the wage projection from the events to exactly the tables built as they came', async () => {
    await app.catchUpAll();
    const pool = app.service.ctx.db.pool;
    const tables = () => tablesOf(pool, wagesProjection);
    const incremental = await tables();
    expect(incremental.wage_lines).toHaveLength(2);
    await pool.query(`UPDATE wage_lines SET amount_fen = 0, defects = NULL`);
    await replayProjection(pool, app.service.ctx.store, wagesProjection, 3);
    expect(await tables()).toEqual(incremental);
  });
});
