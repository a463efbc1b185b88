/**
 * The product fixtures of ../shared/fixtures (written by openpyxl and LibreOffice) against EXPECTED.json:
 * valid counts, error rows and their codes, computed workloads; the legacy .xls copy; importing twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { EXPECTED, fixture, keyOf, upload } from './support.ts';

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  token = await app.login('13900000001', 'admin', '管理员甲');
});
afterAll(() => app.close());

const errorCodes = (errors: { row: number; code: string }[]) => errors.map((e) => ({ row: e.row, reason: e.code }));

describe('product fixtures', () => {
  it('products-merged.xlsx: title row, merged 项目号, the expected error rows and computed workloads; confirm writes the good rows', async () => {
    const exp = EXPECTED['products-merged.xlsx'];
    const pre = await upload(app, '/api/products/import', token, fixture('products-merged.xlsx'), 'products-merged.xlsx');
    expect(pre.status).toBe(200);
    expect(pre.body.counts).toEqual({ create: exp.valid, update: 0, unchanged: 0, errors: exp.errors.length });
    expect(errorCodes(pre.body.errors)).toEqual(exp.errors);
    for (const e of pre.body.errors) expect(e.reason).toMatch(/[\u4e00-\u9fff]/);
    expect(pre.body.errors.find((e: any) => e.row === 24).values['标准节拍']).toBe('约30秒');
    const byKey = new Map(pre.body.create.map((r: any) => [keyOf(r), r]));
    expect(byKey.size).toBe(exp.valid);
    for (const [key, workload] of Object.entries(exp.computed_workload)) {
      expect(byKey.get(key), key).toMatchObject({ standardWorkload: workload, workloadComputed: true });
    }
    // 项目号 of merged cells and the row numbers as Excel shows them.
    expect(pre.body.create[0]).toMatchObject({ row: 3, projectNo: 'XM-2026-179', standardCycleSeconds: 60, operatorCount: 2, materialCode: '9061236601' });
    expect(pre.body.create.find((r: any) => r.row === 42)).toMatchObject({ projectNo: 'XM-2026-962', productName: '地板纵梁' });

    // Nothing is written by the preview.
    expect((await app.request('GET', '/api/products', { token })).body.total).toBe(0);

    const conf = await app.request('POST', `/api/products/import/${pre.body.importId}/confirm`, { token });
    expect(conf.status).toBe(200);
    expect(conf.body.counts).toEqual({ created: exp.valid, updated: 0, unchanged: 0, errors: exp.errors.length });
    const list = await app.request('GET', '/api/products?pageSize=100', { token });
    expect(list.body.total).toBe(exp.valid);
    const stored = new Map(list.body.items.map((p: any) => [keyOf(p), p.standardWorkload]));
    for (const [key, workload] of Object.entries(exp.computed_workload)) expect(stored.get(key), key).toBe(workload);
    const a = list.body.items.find((p: any) => keyOf(p) === 'XM-2026-179|后纵梁加强板|JC-05|切断');
    expect(a.standardCycleSeconds).toBe(22.5);
  });

  it('the same file again, and its legacy .xls copy: everything unchanged, the same error rows', async () => {
    const exp = EXPECTED['products-merged.xlsx'];
    for (const name of ['products-merged.xlsx', 'products-merged.xls']) {
      const pre = await upload(app, '/api/products/import', token, fixture(name), name);
      expect(pre.status, name).toBe(200);
      expect(pre.body.counts, name).toEqual({ create: 0, update: 0, unchanged: exp.valid, errors: exp.errors.length });
      expect(errorCodes(pre.body.errors), name).toEqual(exp.errors);
    }
  });

  it('products-with-workload.xlsx: a given 标准工作量 is kept, a blank one is computed', async () => {
    const exp = EXPECTED['products-with-workload.xlsx'];
    const pre = await upload(app, '/api/products/import', token, fixture('products-with-workload.xlsx'));
    expect(pre.status).toBe(200);
    expect(pre.body.counts).toEqual({ create: exp.valid, update: 0, unchanged: 0, errors: 0 });
    expect(pre.body.errors).toEqual(exp.errors);
    const byKey = new Map(pre.body.create.map((r: any) => [keyOf(r), r]));
    for (const [key, workload] of Object.entries(exp.computed_workload)) expect((byKey.get(key) as any)?.standardWorkload, key).toBe(workload);
    // Row 2 gives 900 for a 24-second cycle (floor would be 1200): the given value wins.
    expect(byKey.get('XM-2026-179|顶盖横梁|QD-03|攻丝')).toMatchObject({ row: 2, standardWorkload: 900, workloadComputed: false });
    expect(byKey.get('XM-2026-179|B柱加强板|ZW-01|修边')).toMatchObject({ row: 3, standardWorkload: 822, workloadComputed: true });
    const conf = await app.request('POST', `/api/products/import/${pre.body.importId}/confirm`, { token });
    expect(conf.body.counts.created).toBe(exp.valid);
    expect((await app.request('GET', '/api/products', { token })).body.total).toBe(EXPECTED['products-merged.xlsx'].valid + exp.valid);
  });
});
