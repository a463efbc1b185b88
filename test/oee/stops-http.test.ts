/**
 * Stops over HTTP (停机; src/http/routes/stops.ts) through the real service: a worker on the device stops it and
 * resumes (idempotent), the clock state says why it stands, a worker elsewhere is refused, a second stop at once is
 * refused naming the first, a stop left lasting at the last clock-out ends there by the system, a manager records a
 * past stop and corrects it (audited before → after), the list, a closed month, and replays of the stops and the
 * presence equal to the rows the commands wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayProjection } from '../../src/projections/replay.ts';
import { stopsProjection } from '../../src/projections/stops.ts';
import { sessionsProjection } from '../../src/projections/sessions.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { tablesOf } from '../helpers/test-projection.ts';
import { addProduct, MIN, workerClient } from '../clock/helpers.ts';

let app: TestApp;
let manager: string;
let a: ReturnType<typeof workerClient>;
let b: ReturnType<typeof workerClient>;
let aToken: string;
let bToken: string;
const call = (method: string, path: string, token: string, body?: unknown) => app.request(method, path, { token, body });

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-02T08:00:00.000+08:00');
  manager = await app.login('13800000002', 'manager', '李经理');
  aToken = await app.login('13800000011', 'worker', '张三');
  bToken = await app.login('13800000012', 'worker', '李四');
  a = workerClient(app, aToken);
  b = workerClient(app, bToken);
  await addProduct(app, 'D1', { cycle: 30 });
  await addProduct(app, 'D2', { cycle: 20 });
  for (const [code, name, category] of [['CHG', '换模', 'planned'], ['BRK', '设备故障', 'unplanned']]) {
    expect((await call('POST', '/api/stop-reasons', manager, { code, name, category })).status).toBe(201);
  }
});
afterAll(() => app?.close());

describe('stops from the phone', () => {
  let stopId: string;

  it('a worker on D1 stops it: 201 with the stop, lasting; the clock state shows it with its reason', async () => {
    expect((await a.start('D1')).status).toBe(200);
    app.clock.set('2026-03-02T09:00:00.000+08:00');
    const r = await call('POST', '/api/devices/D1/stops', aToken, { reasonCode: 'CHG' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ deviceNo: 'D1', reasonCode: 'CHG', startAt: '2026-03-02T09:00:00.000+08:00', endAt: null });
    stopId = r.body.stopId;
    const state = await a.state('D1');
    expect(state.body.stop).toEqual({ stopId, reasonCode: 'CHG', reasonName: '换模', category: 'planned', startAt: '2026-03-02T09:00:00.000+08:00' });
    expect((await a.state('D2')).body.stop).toBeUndefined();
  });

  it('a worker not on D1 is 409 NOT_ON_DEVICE; a second stop of D1 is 422 STOP_OVERLAPS naming the first', async () => {
    const off = await call('POST', '/api/devices/D1/stops', bToken, { reasonCode: 'BRK' });
    expect([off.status, off.body.error.code]).toEqual([409, 'NOT_ON_DEVICE']);
    expect((await b.start('D1')).status).toBe(200);
    const twice = await call('POST', '/api/devices/D1/stops', bToken, { reasonCode: 'BRK' });
    expect([twice.status, twice.body.error.code, twice.body.error.details.stopId]).toEqual([422, 'STOP_OVERLAPS', stopId]);
  });

  it('恢复生产 ends it at now; again gives the same answer', async () => {
    app.clock.set('2026-03-02T09:30:00.000+08:00');
    const end = await call('POST', `/api/stops/${stopId}/end`, bToken);
    expect([end.status, end.body.endAt, end.body.endedBySystem]).toEqual([200, '2026-03-02T09:30:00.000+08:00', false]);
    app.clock.advance(5 * MIN);
    expect((await call('POST', `/api/stops/${stopId}/end`, aToken)).body).toEqual(end.body);
    expect((await a.state('D1')).body.stop).toBeUndefined();
  });

  it('a stop still lasting when the last worker leaves ends there, by the system, in the list and the state', async () => {
    app.clock.set('2026-03-02T10:00:00.000+08:00');
    const r = await call('POST', '/api/devices/D1/stops', aToken, { reasonCode: 'BRK' });
    expect(r.status).toBe(201);
    app.clock.set('2026-03-02T12:00:00.000+08:00');
    expect((await a.finish('D1')).status).toBe(200);
    expect((await a.state('D1')).body.stop?.stopId).toBe(r.body.stopId); // B is still on D1
    app.clock.set('2026-03-02T13:00:00.000+08:00');
    expect((await b.finish('D1')).status).toBe(200);
    expect((await b.state('D1')).body.stop).toBeUndefined();
    const list = await call('GET', '/api/stops?device=D1&startDate=2026-03-02&endDate=2026-03-02', manager);
    expect(list.status).toBe(200);
    expect(list.body.items[0]).toMatchObject({ stopId: r.body.stopId, endAt: '2026-03-02T13:00:00.000+08:00', endedBy: 'system', durationSeconds: 3 * 3600, reasonName: '设备故障', category: 'unplanned' });
    // The next command on D1's stops records that end in the stream.
    app.clock.set('2026-03-02T14:00:00.000+08:00');
    const cToken = await app.login('13800000013', 'worker', '王五');
    expect((await workerClient(app, cToken).start('D1')).status).toBe(200);
    const next = await call('POST', '/api/devices/D1/stops', cToken, { reasonCode: 'CHG' });
    expect(next.status).toBe(201);
    const ev = await app.service.ctx.db.pool.query(`SELECT data FROM events WHERE stream_id = 'stops-D1' AND event_type = 'StopEnded' AND (data ->> 'bySystem')::boolean`);
    expect(ev.rows.map((e) => [e.data.stopId, e.data.endAt])).toEqual([[r.body.stopId, '2026-03-02T05:00:00.000Z']]);
    expect((await call('POST', `/api/stops/${next.body.stopId}/end`, cToken)).status).toBe(200);
  });
});

describe('stops in the console', () => {
  it('a manager records a past stop with a note and corrects it; the correction is in the event, before → after', async () => {
    const past = await call('POST', '/api/devices/D2/stops', manager, { reasonCode: 'BRK', startAt: '2026-03-02T08:10:00.000+08:00', endAt: '2026-03-02T08:40:00.000+08:00', note: '补录' });
    expect([past.status, past.body.endAt]).toEqual([201, '2026-03-02T08:40:00.000+08:00']);
    const noNote = await call('PUT', `/api/stops/${past.body.stopId}`, manager, { endAt: '2026-03-02T08:30:00.000+08:00', note: '' });
    expect([noNote.status, noNote.body.error.code]).toEqual([422, 'INVALID_STOP']);
    const fixed = await call('PUT', `/api/stops/${past.body.stopId}`, manager, { endAt: '2026-03-02T08:30:00.000+08:00', reasonCode: 'CHG', note: '按设备记录更正' });
    expect([fixed.status, fixed.body.endAt, fixed.body.reasonCode]).toEqual([200, '2026-03-02T08:30:00.000+08:00', 'CHG']);
    const ev = await app.service.ctx.db.pool.query(`SELECT data, metadata FROM events WHERE stream_id = 'stops-D2' AND event_type = 'StopCorrected'`);
    expect(ev.rows[0].data).toMatchObject({ before: { reasonCode: 'BRK', endAt: '2026-03-02T00:40:00.000Z' }, after: { reasonCode: 'CHG', endAt: '2026-03-02T00:30:00.000Z' }, note: '按设备记录更正' });
    expect(ev.rows[0].metadata.actorName).toBe('李经理');
    const overlap = await call('POST', '/api/devices/D2/stops', manager, { reasonCode: 'BRK', startAt: '2026-03-02T08:20:00.000+08:00', endAt: '2026-03-02T08:50:00.000+08:00', note: '补录' });
    expect([overlap.status, overlap.body.error.details.stopId]).toEqual([422, past.body.stopId]);
    const worker = await call('POST', '/api/devices/D1/stops', aToken, { reasonCode: 'BRK', startAt: '2026-03-02T08:20:00.000+08:00', endAt: '2026-03-02T08:50:00.000+08:00', note: 'x' });
    expect(worker.status).toBe(403);
  });

  it('the list pages the stops, latest first, filtered by reason', async () => {
    const all = await call('GET', '/api/stops?startDate=2026-03-02&endDate=2026-03-02&pageSize=2', manager);
    expect([all.status, all.body.total, all.body.items.length]).toEqual([200, 4, 2]);
    const chg = await call('GET', '/api/stops?reason=CHG', manager);
    expect(chg.body.items.map((s: any) => s.reasonCode)).toEqual(['CHG', 'CHG', 'CHG']);
  });

  it('in a closed month no stop is recorded (409 PERIOD_CLOSED)', async () => {
    const close = await call('POST', '/api/periods/2026-02/close', manager, {});
    expect(close.status).toBe(200);
    const r = await call('POST', '/api/devices/D2/stops', manager, { reasonCode: 'BRK', startAt: '2026-02-27T08:00:00.000+08:00', endAt: '2026-02-27T09:00:00.000+08:00', note: '补录' });
    expect([r.status, r.body.error.code]).toEqual([409, 'PERIOD_CLOSED']);
  });

  it('replays of the stops and of the presence write the same rows as the commands did', async () => {
    const pool = app.service.ctx.db.pool;
    for (const p of [stopsProjection, sessionsProjection]) {
      const incremental = await tablesOf(pool, p);
      await replayProjection(pool, app.service.ctx.store, p, 3);
      expect(await tablesOf(pool, p)).toEqual(incremental);
    }
  });
});
