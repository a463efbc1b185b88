/**
 * Single-record product maintenance and the lists: POST create/update/unchanged with the import's rules,
 * DELETE by unique key, GET /api/products with keyword, deviceNo and pagination, GET /api/devices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { deviceKeyOf } from '../../src/devices/device.ts';

let app: TestApp;
let token: string;
const base = { projectNo: 'XM-1', productName: '支架', deviceNo: 'GS 02', processName: '冲孔', standardCycleSeconds: 30 };
const save = (body: unknown) => app.request('POST', '/api/products', { token, body });
const list = (q = '') => app.request('GET', `/api/products${q}`, { token });

beforeAll(async () => {
  app = await startTestApp();
  token = await app.login('13900000007', 'admin');
});
afterAll(() => app.close());

describe('POST /api/products', () => {
  it('creates with the computed workload, answers unchanged for the same values, updates by the unique key', async () => {
    const c = await save({ ...base, profileNo: 'XC-9', materialCode: '0012', operatorCount: 2 });
    expect(c.status).toBe(200);
    expect(c.body.result).toBe('created');
    expect(c.body.product).toMatchObject({ ...base, profileNo: 'XC-9', materialCode: '0012', operatorCount: 2, standardWorkload: 960, materialName: null });
    expect(typeof c.body.product.id).toBe('number');

    const same = await save({ ...base, profileNo: 'XC-9', materialCode: '0012', operatorCount: 2 });
    expect(same.body.result).toBe('unchanged');
    expect(same.body.product.id).toBe(c.body.product.id);

    const u = await save({ ...base, standardCycleSeconds: 22.5, standardWorkload: 1000 });
    expect(u.body.result).toBe('updated');
    expect(u.body.product).toMatchObject({ id: c.body.product.id, standardCycleSeconds: 22.5, standardWorkload: 1000, profileNo: null, operatorCount: null });
    expect((await list()).body.total).toBe(1);
  });

  it('refuses what the import refuses: 422 PRODUCT_INVALID with every problem', async () => {
    const r = await save({ ...base, productName: '  ', standardCycleSeconds: 0, operatorCount: -1 });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('PRODUCT_INVALID');
    expect(r.body.error.details.map((p: any) => p.code)).toEqual(['no_name', 'negative_people', 'zero_cycle']);
    expect(r.body.error.message).toContain('产品名称为空');
    const w = await save({ ...base, standardWorkload: 10.5 });
    expect(w.body.error.details.map((p: any) => p.code)).toEqual(['bad_workload']);
    const t = await save({ ...base, standardCycleSeconds: '30' });
    expect(t.status).toBe(422);
    expect(t.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('keeps cycle times to 3 decimals', async () => {
    const r = await save({ ...base, productName: '精度', standardCycleSeconds: 12.3456 });
    expect(r.body.product).toMatchObject({ standardCycleSeconds: 12.346, standardWorkload: 2332 });
  });
});

describe('lists and delete', () => {
  beforeAll(async () => {
    for (let i = 0; i < 25; i++) {
      await save({ projectNo: `P-${i % 3}`, productName: `件${i}`, deviceNo: i % 2 ? 'JC-01' : '冲床 3号', processName: i < 5 ? '落料' : '折弯', materialName: i === 7 ? '铝_型材' : '钢板', standardCycleSeconds: 10 + i });
    }
  });

  it('paginates with the envelope {items, page, pageSize, total}', async () => {
    const all = await list('?pageSize=100');
    const total = all.body.total;
    expect(total).toBe(27);
    const p2 = await list('?page=2&pageSize=10');
    expect(p2.body).toMatchObject({ page: 2, pageSize: 10, total });
    expect(p2.body.items.map((p: any) => p.id)).toEqual(all.body.items.slice(10, 20).map((p: any) => p.id));
    const d = await list();
    expect(d.body.pageSize).toBe(20);
    expect(d.body.items).toHaveLength(20);
    expect((await list('?pageSize=101')).status).toBe(422);
    expect((await list('?page=0')).status).toBe(422);
  });

  it('filters by keyword over number, name, material and process, and by exact device number', async () => {
    expect((await list('?keyword=落料&pageSize=100')).body.total).toBe(5);
    expect((await list('?keyword=P-1&pageSize=100')).body.items.every((p: any) => p.projectNo === 'P-1')).toBe(true);
    expect((await list('?keyword=xc-9')).body.total).toBe(0);
    expect((await list('?keyword=0012')).body.total).toBe(0);
    expect((await list('?keyword=%E6%94%AF%E6%9E%B6')).body.items.map((p: any) => p.productName).sort()).toEqual(['支架']);
    // LIKE wildcards are literal.
    expect((await list('?keyword=_')).body.items.map((p: any) => p.materialName)).toEqual(['铝_型材']);
    expect((await list('?keyword=%25')).body.total).toBe(0);
    const dev = await list(`?deviceNo=${encodeURIComponent('冲床 3号')}&pageSize=100`);
    expect(dev.body.total).toBe(13);
    expect(dev.body.items.every((p: any) => p.deviceNo === '冲床 3号')).toBe(true);
    expect((await list('?deviceNo=JC-01&keyword=折弯&pageSize=100')).body.total).toBe(10);
    expect((await list('?deviceNo=JC')).body.total).toBe(0);
  });

  it('GET /api/devices: distinct device numbers with product counts and device keys', async () => {
    const r = await app.request('GET', '/api/devices', { token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, total: 3 });
    expect(r.body.items).toEqual([
      // workshopCode / workshopName: the device's workshop (none set here)
      { deviceNo: 'GS 02', deviceKey: deviceKeyOf('GS 02'), productCount: 2, hasCode: false, workshopCode: null, workshopName: null },
      { deviceNo: 'JC-01', deviceKey: deviceKeyOf('JC-01'), productCount: 12, hasCode: false, workshopCode: null, workshopName: null },
      { deviceNo: '冲床 3号', deviceKey: deviceKeyOf('冲床 3号'), productCount: 13, hasCode: false, workshopCode: null, workshopName: null },
    ]);
    const worker = await app.login('13900000008', 'worker');
    expect((await app.request('GET', '/api/devices', { token: worker })).status).toBe(403);
  });

  it('DELETE by the unique key; 404 when absent; 422 without the whole key', async () => {
    const q = `?projectNo=XM-1&productName=${encodeURIComponent('精度')}&deviceNo=${encodeURIComponent('GS 02')}&processName=${encodeURIComponent('冲孔')}`;
    const d = await app.request('DELETE', `/api/products${q}`, { token });
    expect(d.status).toBe(200);
    expect(d.body.deleted).toMatchObject({ productName: '精度', standardCycleSeconds: 12.346 });
    const again = await app.request('DELETE', `/api/products${q}`, { token });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('PRODUCT_NOT_FOUND');
    expect(again.body.error.message).toContain('精度');
    expect((await app.request('DELETE', '/api/products?projectNo=XM-1', { token })).status).toBe(422);
    expect((await list('?pageSize=100')).body.total).toBe(26);
  });
});

describe('API document', () => {
  it('documents the import upload as multipart with field file, and every endpoint of this area', async () => {
    const doc = (await app.request('GET', '/api/openapi.json')).body;
    const upload = doc.paths['/api/products/import'].post;
    expect(upload.requestBody.content['multipart/form-data'].schema.required).toEqual(['file']);
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['200', '413', '422']));
    expect(doc.paths['/api/products/import/{importId}/confirm'].post.responses['409']).toBeDefined();
    expect(Object.keys(doc.paths['/api/products'])).toEqual(expect.arrayContaining(['get', 'post', 'delete']));
    expect(Object.keys(doc.paths['/api/people'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(doc.paths['/api/people/{phone}'].delete).toBeDefined();
    expect(doc.paths['/api/people/import'].post).toBeDefined();
    expect(doc.paths['/api/devices'].get).toBeDefined();
  });
});
