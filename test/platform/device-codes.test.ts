import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deviceKeyOf } from '../../src/devices/device.ts';
import { generateDeviceCode, sceneFor } from '../../src/platform/device-codes.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { decodePng } from './png.ts';

let app: TestApp;
let admin: string;
let manager: string;
const addProduct = (deviceNo: string, name = `产品-${deviceNo}`) =>
  app.service.ctx.db.pool.query(
    `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     VALUES ('P1', $1, $2, '冲压', 30, 960)`,
    [name, deviceNo],
  );
const generate = (deviceNo: string, token = admin) => app.request('POST', `/api/devices/${encodeURIComponent(deviceNo)}/qrcode`, { token });
const fetchImage = async (url: string) => {
  const res = await fetch(app.url + url);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
};
const storedCount = async () => Number((await app.service.ctx.db.pool.query(`SELECT count(*) AS n FROM device_codes`)).rows[0].n);

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login('13600000001', 'admin');
  manager = await app.login('13600000002', 'manager');
  for (const d of ['A-01', '冲床 1号', 'LINE-0000000000000000000001', 'B#2']) await addProduct(d);
});
afterAll(() => app.close());
beforeEach(() => app.simulator.clearFailures());

describe('scene rule (decisions.md "Device codes")', () => {
  it('uses deviceNo=<encoded> when it fits, d=<key> otherwise', () => {
    expect(sceneFor('A-01')).toBe('deviceNo=A-01');
    expect(sceneFor('冲床 1号')).toBe(`d=${deviceKeyOf('冲床 1号')}`);
    expect(sceneFor('设备 7')).toBe(`d=${deviceKeyOf('设备 7')}`);
    expect(sceneFor('B#2')).toBe(`d=${deviceKeyOf('B#2')}`);
    expect(sceneFor('x'.repeat(23))).toBe(`deviceNo=${'x'.repeat(23)}`);
    expect(sceneFor('x'.repeat(24))).toBe(`d=${deviceKeyOf('x'.repeat(24))}`);
  });
});

describe('POST /api/devices/:deviceNo/qrcode', () => {
  it('generates a code for the clock page, stores it and serves the PNG without a token', async () => {
    const r = await generate('A-01');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ deviceNo: 'A-01', deviceKey: deviceKeyOf('A-01'), scene: 'deviceNo=A-01', page: 'pages/clock/clock', envVersion: 'release' });
    expect(r.body.url).toBe(`/api/device-codes/${deviceKeyOf('A-01')}.png`);
    expect(app.simulator.generatedCodes.at(-1)).toMatchObject({ scene: 'deviceNo=A-01', page: 'pages/clock/clock', checkPath: true, envVersion: 'release' });
    const img = await fetchImage(r.body.url);
    expect(img.status).toBe(200);
    expect(img.type).toBe('image/png');
    const png = decodePng(img.bytes);
    expect(png.width).toBe(860);
    expect(png.width).toBe(png.height);
  });

  it('a Chinese device number with a space gets d=<key>, which the clock endpoints accept as deviceKey', async () => {
    const r = await generate('冲床 1号', manager);
    expect(r.status).toBe(200);
    expect(r.body.scene).toBe(`d=${deviceKeyOf('冲床 1号')}`);
    expect(app.simulator.generatedCodes.at(-1)!.scene).toBe(r.body.scene);
    expect((await fetchImage(r.body.url)).status).toBe(200);
    const worker = await app.login('13600000003', 'worker');
    const key = r.body.scene.slice('d='.length);
    const state = await app.request('GET', `/api/clock/state?deviceKey=${encodeURIComponent(key)}`, { token: worker });
    expect(state.status).toBe(200);
    expect(state.body.deviceNo).toBe('冲床 1号');
    const long = await generate('LINE-0000000000000000000001');
    expect(long.body.scene).toBe(`d=${deviceKeyOf('LINE-0000000000000000000001')}`);
  });

  it('an unknown device answers 404 DEVICE_NOT_FOUND and asks nothing of the platform', async () => {
    const before = app.simulator.callCount('getwxacodeunlimit');
    const r = await generate('NO-SUCH');
    expect([r.status, r.body.error.code]).toEqual([404, 'DEVICE_NOT_FOUND']);
    expect(app.simulator.callCount('getwxacodeunlimit')).toBe(before);
  });

  it('a JSON error instead of an image (HTTP 200) is never stored', async () => {
    await addProduct('C-03');
    const before = await storedCount();
    app.simulator.failNext('getwxacodeunlimit', 45009);
    const limited = await generate('C-03');
    expect([limited.status, limited.body.error.code]).toEqual([429, 'PLATFORM_RATE_LIMITED']);
    app.simulator.failNext('getwxacodeunlimit', 40097, { contentType: 'image/png' });
    const lying = await generate('C-03');
    expect([lying.status, lying.body.error.code]).toEqual([502, 'PLATFORM_ERROR']);
    app.simulator.failNext('getwxacodeunlimit', 41030);
    const page = await generate('C-03');
    expect([page.status, page.body.error.code]).toEqual([502, 'PLATFORM_PAGE_NOT_FOUND']);
    expect(await storedCount()).toBe(before);
    expect((await fetchImage(`/api/device-codes/${deviceKeyOf('C-03')}.png`)).status).toBe(404);
  });

  it('regenerating replaces the stored image', async () => {
    await generate('A-01');
    const r = await app.service.ctx.db.pool.query(`SELECT count(*) AS n FROM device_codes WHERE device_no = 'A-01'`);
    expect(Number(r.rows[0].n)).toBe(1);
  });

  it('an unknown image address answers 404 in JSON', async () => {
    const r = await app.request('GET', '/api/device-codes/nothing.png');
    expect([r.status, r.body.error.code]).toEqual([404, 'DEVICE_CODE_NOT_FOUND']);
  });
});

describe('POST /api/devices/qrcodes', () => {
  it('generates every device, listing failures with their reason', async () => {
    app.simulator.failNext('getwxacodeunlimit', 40097);
    const r = await app.request('POST', '/api/devices/qrcodes', { token: admin });
    expect(r.status).toBe(200);
    const all = (await app.service.ctx.db.pool.query(`SELECT DISTINCT device_no FROM products ORDER BY device_no`)).rows.map((x) => x.device_no);
    expect([...r.body.items.map((i: { deviceNo: string }) => i.deviceNo), ...r.body.failed.map((f: { deviceNo: string }) => f.deviceNo)].sort()).toEqual([...all].sort());
    expect(r.body.failed).toHaveLength(1);
    expect(r.body.failed[0]).toMatchObject({ deviceNo: all[0], code: 'PLATFORM_ERROR' });
    for (const item of r.body.items) expect((await fetchImage(item.url)).status).toBe(200);
  });
});

describe('WX_ENV_VERSION and PUBLIC_BASE_URL', () => {
  it('develop codes are generated for the develop version without the published-page check', async () => {
    const ctx = app.service.ctx;
    const devCtx = { ...ctx, config: { ...ctx.config, wxEnvVersion: 'develop' as const, publicBaseUrl: 'https://factory.example.com' } };
    const code = await generateDeviceCode(devCtx, 'A-01', '13600000001');
    expect(code).toMatchObject({ envVersion: 'develop', url: `https://factory.example.com/api/device-codes/${deviceKeyOf('A-01')}.png` });
    expect(app.simulator.generatedCodes.at(-1)).toMatchObject({ envVersion: 'develop', checkPath: false });
  });
});
