/**
 * Confirming a product import: update classification, one transaction, and the refusals — stale preview
 * (data changed meanwhile), expired, unknown, confirmed twice, another uploader, another kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { CLI_ACTOR } from '../../src/cli/import.ts';
import { confirmImport, previewImport } from '../../src/imports/service.ts';
import { productImport } from '../../src/products/import.ts';
import { upsertProducts } from '../../src/products/store.ts';
import { PRODUCT_HEADER, productRow, upload, workbook } from './support.ts';

let app: TestApp;
let token: string;
const sheet = (cycleOfB = 24) =>
  workbook([PRODUCT_HEADER, productRow('C1', 'A', 'D1', 'S', 30), productRow('C1', 'B', 'D1', 'S', cycleOfB), productRow('C1', 'C', 'D2', 'S', 60)]);
const preview = (data: Uint8Array, t = token) => upload(app, '/api/products/import', t, data);
const confirm = (id: string, t = token) => app.request('POST', `/api/products/import/${id}/confirm`, { token: t });
const saveB = (standardCycleSeconds: number) =>
  app.request('POST', '/api/products', { token, body: { projectNo: 'C1', productName: 'B', deviceNo: 'D1', processName: 'S', standardCycleSeconds } });

beforeAll(async () => {
  app = await startTestApp();
  token = await app.login('13900000005', 'manager');
  const first = await preview(sheet());
  expect((await confirm(first.body.importId)).status).toBe(200);
});
afterAll(() => app.close());

describe('confirming an import', () => {
  it('a changed value is an update listing the changed fields; confirming writes it', async () => {
    const pre = await preview(sheet(20));
    expect(pre.body.counts).toEqual({ create: 0, update: 1, unchanged: 2, errors: 0 });
    expect(pre.body.update[0]).toMatchObject({ row: 3, productName: 'B', standardCycleSeconds: 20, standardWorkload: 1440 });
    expect(pre.body.update[0].changes).toEqual([
      { field: 'standardCycleSeconds', label: '标准节拍', from: 24, to: 20 },
      { field: 'standardWorkload', label: '标准工作量', from: 1200, to: 1440 },
    ]);
    const c = await confirm(pre.body.importId);
    expect(c.body.counts).toEqual({ created: 0, updated: 1, unchanged: 2, errors: 0 });
    const list = await app.request('GET', '/api/products?keyword=C1', { token });
    expect(list.body.items.find((p: any) => p.productName === 'B')).toMatchObject({ standardCycleSeconds: 20, standardWorkload: 1440 });
  });

  it('twice: 409 IMPORT_ALREADY_CONFIRMED', async () => {
    const pre = await preview(sheet(21));
    expect((await confirm(pre.body.importId)).status).toBe(200);
    const again = await confirm(pre.body.importId);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('IMPORT_ALREADY_CONFIRMED');
  });

  it('a stale preview (a row it touches changed meanwhile): 409 IMPORT_STALE, nothing written', async () => {
    const pre = await preview(sheet(18));
    expect((await saveB(19)).body.result).toBe('updated');
    const c = await confirm(pre.body.importId);
    expect(c.status).toBe(409);
    expect(c.body.error.code).toBe('IMPORT_STALE');
    const list = await app.request('GET', '/api/products?keyword=C1', { token });
    expect(list.body.items.find((p: any) => p.productName === 'B').standardCycleSeconds).toBe(19);
  });

  it('a change to a product the sheet does not touch leaves the preview valid', async () => {
    const pre = await preview(sheet(17));
    const other = await app.request('POST', '/api/products', {
      token,
      body: { projectNo: 'OTHER', productName: 'X', deviceNo: 'D9', processName: 'S', standardCycleSeconds: 10 },
    });
    expect(other.body.result).toBe('created');
    expect((await confirm(pre.body.importId)).status).toBe(200);
  });

  it('a product created meanwhile under a key the preview would create: stale', async () => {
    const pre = await preview(workbook([PRODUCT_HEADER, productRow('NEW', 'N', 'D1', 'S', 30)]));
    expect(pre.body.counts.create).toBe(1);
    await app.request('POST', '/api/products', { token, body: { projectNo: 'NEW', productName: 'N', deviceNo: 'D1', processName: 'S', standardCycleSeconds: 31 } });
    expect((await confirm(pre.body.importId)).body.error.code).toBe('IMPORT_STALE');
  });

  it('two confirmations at once: one writes, the other is refused with 409', async () => {
    const pre = await preview(sheet(14));
    const results = await Promise.all([confirm(pre.body.importId), confirm(pre.body.importId)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.error.code).toBe('IMPORT_ALREADY_CONFIRMED');
  });

  it('expired after 30 minutes: 404 IMPORT_EXPIRED', async () => {
    const pre = await preview(sheet(16));
    expect(Date.parse(pre.body.expiresAt) - app.clock.now().getTime()).toBe(30 * 60_000);
    expect(pre.body.expiresAt).toMatch(/\+08:00$/);
    app.clock.advance(30 * 60_000);
    const c = await confirm(pre.body.importId);
    expect(c.status).toBe(404);
    expect(c.body.error.code).toBe('IMPORT_EXPIRED');
  });

  it('unknown, malformed, another uploader, another kind: 404 IMPORT_NOT_FOUND', async () => {
    const pre = await preview(sheet(15));
    const other = await app.login('13900000006', 'admin');
    for (const [id, t, path] of [
      ['00000000-0000-4000-8000-000000000000', token, 'products'],
      ['not-a-uuid', token, 'products'],
      [pre.body.importId, other, 'products'],
      [pre.body.importId, token, 'people'],
    ]) {
      const c = await app.request('POST', `/api/${path}/import/${id}/confirm`, { token: t });
      expect(c.status, `${id} ${path}`).toBe(404);
      expect(c.body.error.code).toBe('IMPORT_NOT_FOUND');
    }
    expect((await confirm(pre.body.importId)).status).toBe(200);
  });

  it('writes everything in one transaction: a failure during the write leaves no row and the preview open', async () => {
    const ctx = app.service.ctx;
    const data = workbook([PRODUCT_HEADER, productRow('TX', 'A', 'D1', 'S', 30), productRow('TX', 'B', 'D1', 'S', 30)]);
    const failing = {
      ...productImport,
      async write(tx: any, create: any[], update: any[], now: Date) {
        await upsertProducts(tx, [create[0]], now);
        throw new Error('disk full');
      },
    };
    const pre = await previewImport(ctx, failing, { buffer: data }, null);
    await expect(confirmImport(ctx, failing, pre.importId, null, CLI_ACTOR)).rejects.toThrow('disk full');
    expect((await app.request('GET', '/api/products?keyword=TX', { token })).body.total).toBe(0);
    const ok = await confirmImport(ctx, productImport, pre.importId, null, CLI_ACTOR);
    expect(ok.counts.created).toBe(2);
    expect((await app.request('GET', '/api/products?keyword=TX', { token })).body.total).toBe(2);
  });
});
