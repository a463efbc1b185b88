/**
 * OEE worked out by hand through HTTP (never by the code under test):
 *
 *   device D1, a product with a 30 s standard cycle; no shifts
 *   worker A clocked on D1 08:00–12:00, worker B 11:00–13:00      attended = union 08:00–13:00 = 18,000 s (not 21,600)
 *   stop 09:00–09:30 换模 (planned)                               planned  = 18,000 − 1,800 = 16,200 s
 *   stop 10:00–10:20 设备故障 (unplanned)                          run      = 16,200 − 1,200 = 15,000 s
 *   A's approved line: 成品 300, 不良 20                           ideal    = 30 × 320 = 9,600 s; fully productive 30 × 300 = 9,000 s
 *   availability 15,000 / 16,200 = 92.59 → 92.6 %   performance 9,600 / 15,000 = 64.0 %
 *   quality 9,000 / 9,600 = 93.75 → 93.8 %           OEE 9,000 / 16,200 = 55.56 → 55.6 %  (= A × P × Q)
 *   losses: 换模 30 min (60.0 %), 设备故障 20 min (40.0 %, cumulative 100.0)
 *
 * The same figures grouped by day and by workshop, in the workbook, and after a replay of the read models the read
 * takes them from.
 */
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayProjection } from '../../src/projections/replay.ts';
import { stopsProjection } from '../../src/projections/stops.ts';
import { sessionsProjection } from '../../src/projections/sessions.ts';
import { reportsProjection } from '../../src/projections/reports.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, workerClient } from '../clock/helpers.ts';

let app: TestApp;
let manager: string;
const call = (method: string, path: string, token: string, body?: unknown) => app.request(method, path, { token, body });
const at = (hhmm: string) => app.clock.set(`2026-03-02T${hhmm}:00+08:00`);

const D1 = {
  attendedSeconds: 18000,
  plannedSeconds: 16200,
  plannedStopSeconds: 1800,
  unplannedStopSeconds: 1200,
  runSeconds: 15000,
  idealSeconds: 9600,
  goodQty: 300,
  totalQty: 320,
  fullyProductiveSeconds: 9000,
  availabilityPct: 92.6,
  performancePct: 64,
  qualityPct: 93.8,
  goodRatePct: 93.8,
  oeePct: 55.6,
};

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-02T07:00:00+08:00');
  manager = await app.login('13800000002', 'manager', '李经理');
  const admin = await app.login('13800000004', 'admin', '王管理');
  const aToken = await app.login('13800000011', 'worker', '张三');
  const a = workerClient(app, aToken);
  const b = workerClient(app, await app.login('13800000012', 'worker', '李四'));
  const product = await addProduct(app, 'D1', { cycle: 30 });
  expect((await call('POST', '/api/workshops', manager, { code: 'W1', name: '冲压车间' })).status).toBe(201);
  expect((await call('PUT', '/api/devices/D1/workshop', manager, { workshopCode: 'W1' })).status).toBe(200);
  expect((await call('POST', '/api/stop-reasons', manager, { code: 'CHG', name: '换模', category: 'planned' })).status).toBe(201);
  expect((await call('POST', '/api/stop-reasons', manager, { code: 'BRK', name: '设备故障', category: 'unplanned' })).status).toBe(201);

  at('08:00');
  const session = (await a.start('D1')).body.sessionId;
  at('09:00');
  const chg = await call('POST', '/api/devices/D1/stops', aToken, { reasonCode: 'CHG' });
  at('09:30');
  expect((await call('POST', `/api/stops/${chg.body.stopId}/end`, aToken)).status).toBe(200);
  at('10:00');
  const brk = await call('POST', '/api/devices/D1/stops', aToken, { reasonCode: 'BRK' });
  at('10:20');
  expect((await call('POST', `/api/stops/${brk.body.stopId}/end`, aToken)).status).toBe(200);
  at('11:00');
  expect((await b.start('D1')).status).toBe(200);
  at('12:00');
  expect((await a.finish('D1')).status).toBe(200);
  const report = await a.submit(session, [{ productId: product, finishedQty: 300, defectiveQty: 20 }]);
  expect(report.status).toBe(201);
  at('13:00');
  expect((await b.finish('D1')).status).toBe(200);
  expect((await call('POST', `/api/reviews/${report.body.reportId}/approve`, admin, {})).status).toBe(200);
  at('18:00');
});
afterAll(() => app?.close());

const oee = (groupBy: string) => call('GET', `/api/oee?startDate=2026-03-02&endDate=2026-03-02&groupBy=${groupBy}`, manager);

describe('OEE of the day, worked out by hand', () => {
  it('by device: attended 18,000 (the union), planned 16,200, run 15,000, ideal 9,600; A 92.6, P 64.0, Q 93.8, OEE 55.6', async () => {
    const r = await oee('device');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [{ key: 'D1', label: 'D1', ...D1 }], totals: D1 });
  });

  it('by day and by workshop: the same figures', async () => {
    expect((await oee('day')).body).toEqual({ items: [{ key: '2026-03-02', label: '2026-03-02', ...D1 }], totals: D1 });
    expect((await oee('workshop')).body).toEqual({ items: [{ key: 'W1', label: '冲压车间', ...D1 }], totals: D1 });
  });

  it('the day before and after: nothing; a range of three days: the same totals', async () => {
    const r = await call('GET', '/api/oee?startDate=2026-03-01&endDate=2026-03-03&groupBy=day', manager);
    expect(r.body.items.map((i: any) => i.key)).toEqual(['2026-03-02']);
    expect(r.body.totals).toEqual(D1);
  });

  it('the losses: 换模 30 min 60.0 %, 设备故障 20 min 40.0 %, cumulative 100.0', async () => {
    const r = await call('GET', '/api/oee/losses?startDate=2026-03-02&endDate=2026-03-02', manager);
    expect([r.status, r.body]).toEqual([
      200,
      {
        items: [
          { reasonCode: 'CHG', reasonName: '换模', category: 'planned', categoryLabel: '计划停机', stopSeconds: 1800, stopMinutes: 30, sharePct: 60, cumulativePct: 60 },
          { reasonCode: 'BRK', reasonName: '设备故障', category: 'unplanned', categoryLabel: '非计划停机', stopSeconds: 1200, stopMinutes: 20, sharePct: 40, cumulativePct: 100 },
        ],
        totalStopSeconds: 3000,
      },
    ]);
  });

  it('the workbook holds the same numbers', async () => {
    const r = await fetch(`${app.url}/api/oee.xlsx?startDate=2026-03-02&endDate=2026-03-02`, { headers: { authorization: `Bearer ${manager}` } });
    expect(r.status).toBe(200);
    const sheet = XLSX.read(Buffer.from(await r.arrayBuffer())).Sheets['设备效率'];
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1 });
    expect(rows[1]).toEqual(['D1', 18000, 16200, 1800, 1200, 15000, 9600, 300, 320, 9000, 92.6, 64, 93.8, 93.8, 55.6]);
    const losses = await fetch(`${app.url}/api/oee/losses.xlsx?startDate=2026-03-02&endDate=2026-03-02`, { headers: { authorization: `Bearer ${manager}` } });
    const lrows = XLSX.utils.sheet_to_json<unknown[]>(XLSX.read(Buffer.from(await losses.arrayBuffer())).Sheets['停机损失'], { header: 1 });
    expect(lrows.slice(1, 3)).toEqual([
      ['换模', '计划停机', 30, 60, 60],
      ['设备故障', '非计划停机', 20, 40, 100],
    ]);
  });

  it('a manager scoped to another workshop sees no device', async () => {
    expect((await call('POST', '/api/workshops', manager, { code: 'W2', name: '焊接车间' })).status).toBe(201);
    const scoped = '13800000005';
    const token = await app.login(scoped, 'manager', '赵经理');
    expect((await call('PUT', `/api/people/${scoped}/scope`, manager, { role: 'manager', workshops: ['W2'], teams: [] })).status).toBe(200);
    const r = await call('GET', '/api/oee?startDate=2026-03-02&endDate=2026-03-02', token);
    expect([r.status, r.body.items, r.body.totals.attendedSeconds, r.body.totals.oeePct]).toEqual([200, [], 0, null]);
  });

  it('a replay of the presence, the stops and the reports gives the same figures', async () => {
    const pool = app.service.ctx.db.pool;
    await pool.query(`UPDATE sessions SET segments = '[]'::jsonb`);
    await pool.query(`UPDATE stops SET end_at = NULL`);
    for (const p of [sessionsProjection, stopsProjection, reportsProjection]) await replayProjection(pool, app.service.ctx.store, p, 4);
    expect((await oee('device')).body).toEqual({ items: [{ key: 'D1', label: 'D1', ...D1 }], totals: D1 });
  });
});
