/**
 * Downtime (停机) on the phone: the rules of miniprogram/core/stops.ts, then the pages against the real service
 * (startTestApp; each person's `wx.request` goes to it over HTTP; the phones' `Date` follows the service's clock):
 *
 * - 扫码报工: a worker scans D1 — no 停机 before 开始上班; clocked in, 停机 offers the active reasons (待料, deactivated,
 *   is not), 换模 is picked at 09:00: the page shows 停机中：换模（计划停机） and its minutes (30 when the page shows
 *   again at 09:30), 恢复生产 ends it (the service has 09:00–09:30). A stop started meanwhile from another phone: the
 *   page's 停机 is refused in the service's words and the page then shows that stop (设备故障), which 恢复生产 ends at 10:20.
 * - 看板 of a manager: today's OEE of D1 and the total, worked out by hand:
 *     A on D1 08:00–12:00: attended 14,400 s; 换模 1,800 s planned → planned 12,600 s; 设备故障 1,200 s → run 11,400 s;
 *     the approved line 成品 300, 不良 20 at 30 s: ideal 9,600 s, fully productive 9,000 s;
 *     可用率 11,400 / 12,600 = 90.48 → 90.5 %; 性能 9,600 / 11,400 = 84.21 → 84.2 %; 质量 9,000 / 9,600 = 93.75 → 93.8 %;
 *     OEE 9,000 / 12,600 = 71.43 → 71.4 %.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, workerClient } from '../clock/helpers.ts';
import { PageDriver, ScriptedWx, forwardTo, openPage } from './harness.ts';
import { fail, ok, script, session } from './script.ts';
import { oeeLine, stopView } from '../../miniprogram/core/stops.ts';

describe('the rules', () => {
  it('a running stop: its reason and category, whole minutes from its start, the start as the service wrote it', () => {
    const stop = { stopId: 's', reasonCode: 'BRK', reasonName: '设备故障', category: 'unplanned' as const, startAt: '2026-03-02T10:00:00+08:00' };
    expect(stopView(stop, Date.parse('2026-03-02T10:12:59+08:00'))).toEqual({ title: '停机中：设备故障（非计划停机）', minutes: '已停机 12 分钟（10:00 开始）' });
    expect(stopView({ ...stop, category: null }, Date.parse('2026-03-02T09:59:00+08:00'))).toEqual({ title: '停机中：设备故障', minutes: '已停机 0 分钟（10:00 开始）' });
  });

  it('one line of OEE figures with the service’s decimal; — where there is no denominator', () => {
    expect(oeeLine({ oeePct: 55.6, availabilityPct: 92.6, performancePct: 64, qualityPct: 93.8 })).toBe('OEE 55.6 %（可用率 92.6 %，性能 64.0 %，质量 93.8 %）');
    expect(oeeLine({ oeePct: 0, availabilityPct: 100, performancePct: 0, qualityPct: null })).toBe('OEE 0.0 %（可用率 100.0 %，性能 0.0 %，质量 —）');
  });
});

describe('看板 when the OEE read fails', () => {
  const summary = ok({ byEmployee: [], byDate: [] });
  const rows = ok({ items: [], page: 1, pageSize: 20, total: 0 });
  const dashboard = async (oee: ReturnType<typeof ok>) => {
    const wx = new ScriptedWx(script({ 'GET /api/dashboard/summary': summary, 'GET /api/dashboard/reports': rows, 'GET /api/oee': oee }));
    wx.storage.set('session', session('manager'));
    const p = await openPage('/pages/dashboard/dashboard', wx);
    open.push(p);
    return p;
  };

  it('a service older than downtime (404 NOT_FOUND): no card, nothing said; another failure: its sentence in the card', { timeout: 20_000 }, async () => {
    const older = await dashboard(fail(404, 'NOT_FOUND', '没有这个接口'));
    expect([older.texts('#oee'), older.texts('#error')]).toEqual([[], []]);
    const down = await dashboard(fail(503, 'SERVICE_UNAVAILABLE', '服务暂时不可用，请稍后再试'));
    await down.waitFor('今天的设备效率没有读取到', 10_000); // after the read's retries
    expect(down.texts('#oee-error')).toEqual(['今天的设备效率没有读取到：服务器暂时不可用，请稍后再试']);
    expect(down.texts('#empty')).toHaveLength(1);
  });
});

const WORKER = '13700000001';
const ADMIN = '13800000001';
const MANAGER = '13900000001';
const DAY = '2026-03-02';

let app: TestApp;
const tokens: Record<string, string> = {};
const phones: Record<string, ScriptedWx> = {};
const open: PageDriver[] = [];
let product = 0;

/** Moves the service's clock and the phones' `Date` to `hh:mm` of the day. */
function at(hhmm: string) {
  const iso = `${DAY}T${hhmm}:00+08:00`;
  app.clock.set(iso);
  vi.setSystemTime(new Date(iso));
}
const call = async (who: string, method: string, path: string, body?: unknown) => {
  const r = await app.request(method, path, { token: tokens[who], body });
  expect([200, 201], `${method} ${path}: ${JSON.stringify(r.body)}`).toContain(r.status);
  return r.body;
};
async function page(wx: ScriptedWx, url: string): Promise<PageDriver> {
  const p = await openPage(url, wx);
  open.push(p);
  return p;
}

describe('against the service', () => {
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    app = await startTestApp({}, `${DAY}T07:30:00+08:00`);
    vi.setSystemTime(new Date(`${DAY}T07:30:00+08:00`));
    for (const [phone, role, name] of [[WORKER, 'worker', '张三'], [ADMIN, 'admin', '王管理'], [MANAGER, 'manager', '李经理']] as const) {
      tokens[phone] = await app.login(phone, role, name);
      const wx = new ScriptedWx(forwardTo(app.url));
      wx.storage.set('session', { token: tokens[phone], expiresAt: '2099-01-01T00:00:00+08:00', person: { phone, name }, role, roles: [role] });
      phones[phone] = wx;
    }
    product = await addProduct(app, 'D1', { cycle: 30 });
    for (const [code, name, category] of [['CHG', '换模', 'planned'], ['BRK', '设备故障', 'unplanned'], ['WAIT', '待料', 'unplanned']]) {
      await call(MANAGER, 'POST', '/api/stop-reasons', { code, name, category });
    }
    await call(MANAGER, 'PUT', '/api/stop-reasons/WAIT', { active: false });
  }, 60_000);
  afterAll(async () => {
    while (open.length) open.pop()!.close();
    vi.useRealTimers();
    await app?.close();
  });

  it('扫码报工: 停机 with a reason, its minutes, 恢复生产; a stop from another phone refuses a second and is shown', async () => {
    at('08:00');
    const wx = phones[WORKER];
    const p = await page(wx, '/pages/clock/clock?scene=deviceNo%3DD1');
    expect(p.texts('#action')).toEqual(['开始上班']);
    expect(p.texts('#stop-button')).toEqual([]);
    p.tap('#action');
    await p.waitFor('已开始上班');
    expect(p.texts('#stop-button')).toEqual(['停机']);

    // 停机 at 09:00: the active reasons; 换模 picked.
    at('09:00');
    p.tap('#stop-button');
    await p.settle();
    expect(p.texts('.stop-reason')).toEqual(['设备故障（非计划停机）', '换模（计划停机）']);
    p.tap('.stop-reason', 1);
    await p.waitFor('已停机：换模');
    expect([p.texts('#stop-title'), p.texts('#stop-minutes')]).toEqual([['停机中：换模（计划停机）'], ['已停机 0 分钟（09:00 开始）']]);
    expect([p.texts('#resume'), p.texts('#stop-button'), p.texts('.stop-reason')]).toEqual([['恢复生产'], [], []]);
    const lasting = (await call(MANAGER, 'GET', `/api/stops?startDate=${DAY}&endDate=${DAY}`)).items;
    expect(lasting.map((s: any) => [s.reasonCode, s.startAt.slice(11, 16), s.endAt])).toEqual([['CHG', '09:00', null]]);

    // Back to the page at 09:30: the state says why D1 stands, 30 minutes so far; 恢复生产.
    at('09:30');
    await p.show();
    expect(p.texts('#stop-minutes')).toEqual(['已停机 30 分钟（09:00 开始）']);
    p.tap('#resume');
    await p.waitFor('已恢复生产');
    expect(p.texts('#done')).toEqual(['已恢复生产（停机 30 分钟，09:00–09:30）']);
    expect([p.texts('#stop'), p.texts('#stop-button')]).toEqual([[], ['停机']]);

    // 10:00: 设备故障 from another phone of the worker; this page still offers 停机: refused in words, then shown.
    at('10:00');
    await call(WORKER, 'POST', '/api/devices/D1/stops', { reasonCode: 'BRK' });
    p.tap('#stop-button');
    await p.settle();
    p.tap('.stop-reason', 1);
    await p.waitFor('设备故障（非计划停机）');
    await p.settle();
    expect(p.texts('#error')[0]).toMatch(/停机/);
    expect(p.texts('#stop-title')).toEqual(['停机中：设备故障（非计划停机）']);
    at('10:20');
    p.tap('#resume');
    await p.waitFor('已恢复生产（停机 20 分钟，10:00–10:20）');

    const stops = (await call(MANAGER, 'GET', `/api/stops?startDate=${DAY}&endDate=${DAY}`)).items;
    expect(stops.map((s: any) => [s.reasonCode, s.startAt.slice(11, 16), s.endAt.slice(11, 16), s.endedBy])).toEqual([
      ['BRK', '10:00', '10:20', 'person'],
      ['CHG', '09:00', '09:30', 'person'],
    ]);
  });

  it('看板 of a manager: today’s OEE of D1 and the total (71.4 %, 90.5 %, 84.2 %, 93.8 %)', async () => {
    at('12:00');
    const w = workerClient(app, tokens[WORKER]);
    const finished = await w.finish('D1');
    expect(finished.status).toBe(200);
    const report = await w.submit(finished.body.sessionId, [{ productId: product, finishedQty: 300, defectiveQty: 20 }]);
    expect(report.status).toBe(201);
    await call(ADMIN, 'POST', `/api/reviews/${report.body.reportId}/approve`, {});
    at('18:00');
    await app.catchUpAll();

    const p = await page(phones[MANAGER], '/pages/dashboard/dashboard');
    await p.waitFor('今天设备效率');
    const line = 'OEE 71.4 %（可用率 90.5 %，性能 84.2 %，质量 93.8 %）';
    expect(p.texts('#oee-total')).toEqual([`全部设备 ${line}`]);
    expect(p.texts('.oee-device')).toEqual([`D1：${line}`]);
    const asked = phones[MANAGER].requests.find((r) => r.url.includes('/api/oee'))!;
    expect(new URL(asked.url).search).toBe(`?startDate=${DAY}&endDate=${DAY}&groupBy=device`);
  });
});
