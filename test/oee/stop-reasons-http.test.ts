/**
 * Stop reasons over HTTP (停机原因; src/http/routes/stop-reasons.ts) through the real service: a manager and
 * an administrator maintain them, a worker reads the active ones, the events and the read model, a refusal for a
 * taken code, a scoped manager refused, and a replay equal to the rows written as the events came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayProjection } from '../../src/projections/replay.ts';
import { stopReasonsProjection } from '../../src/projections/stop-reasons.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
let manager: string;
let admin: string;
let worker: string;
const call = (method: string, path: string, body?: unknown, token = manager) => app.request(method, path, { token, body });

beforeAll(async () => {
  app = await startTestApp();
  manager = await app.login('13800000002', 'manager', '李经理');
  admin = await app.login('13800000004', 'admin', '王管理');
  worker = await app.login('13800000011', 'worker', '张三');
});
afterAll(() => app.close());

describe('stop reasons', () => {
  it('a manager and an admin add reasons; everyone lists them by code', async () => {
    const scr = await call('POST', '/api/stop-reasons', { code: 'SCR', name: '划伤', category: 'planned' });
    expect([scr.status, scr.body]).toEqual([201, { code: 'SCR', name: '划伤', category: 'planned', active: true }]);
    expect((await call('POST', '/api/stop-reasons', { code: 'CRK', name: '材料裂纹', category: 'unplanned' }, admin)).status).toBe(201);
    expect((await call('POST', '/api/stop-reasons', { code: 'JAM', name: '卡模', category: 'unplanned' })).status).toBe(201);
    const list = await call('GET', '/api/stop-reasons', undefined, worker);
    expect(list.status).toBe(200);
    expect(list.body.items.map((r: any) => [r.code, r.name, r.category])).toEqual([
      ['CRK', '材料裂纹', 'unplanned'],
      ['JAM', '卡模', 'unplanned'],
      ['SCR', '划伤', 'planned'],
    ]);
    const ev = await app.service.ctx.db.pool.query(`SELECT event_type AS type, data FROM events WHERE stream_id = 'stop-reason-SCR'`);
    expect(ev.rows.map((e) => [e.type, e.data.name, e.data.category])).toEqual([['StopReasonDefined', '划伤', 'planned']]);
  });

  it('a taken code is 409 STOP_REASON_EXISTS; a worker may not add one', async () => {
    const again = await call('POST', '/api/stop-reasons', { code: 'SCR', name: '刮花', category: 'planned' });
    expect([again.status, again.body.error.code, again.body.error.message]).toEqual([409, 'STOP_REASON_EXISTS', '停机原因编码 SCR 已被「划伤」使用，请换一个编码']);
    expect((await call('POST', '/api/stop-reasons', { code: 'ZZZ', name: '其它', category: 'unplanned' }, worker)).status).toBe(403);
    expect((await call('GET', '/api/stop-reasons')).body.items).toHaveLength(3);
  });

  it('PUT renames, recategorises and deactivates; active=true lists only the active ones; unknown is 404', async () => {
    const renamed = await call('PUT', '/api/stop-reasons/SCR', { name: '表面划伤' });
    expect([renamed.status, renamed.body]).toEqual([200, { code: 'SCR', name: '表面划伤', category: 'planned', active: true }]);
    const recat = await call('PUT', '/api/stop-reasons/JAM', { category: 'planned', active: false }, admin);
    expect(recat.body).toEqual({ code: 'JAM', name: '卡模', category: 'planned', active: false });
    const active = await call('GET', '/api/stop-reasons?active=true', undefined, worker);
    expect(active.body.items.map((r: any) => r.code)).toEqual(['CRK', 'SCR']);
    const all = await call('GET', '/api/stop-reasons', undefined, worker);
    expect(all.body.items.map((r: any) => [r.code, r.active])).toEqual([['CRK', true], ['JAM', false], ['SCR', true]]);
    const missing = await call('PUT', '/api/stop-reasons/NOPE', { active: false });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'STOP_REASON_NOT_FOUND']);
    const bad = await call('PUT', '/api/stop-reasons/SCR', { name: '' });
    expect(bad.status).toBe(422);
    expect((await call('GET', '/api/stop-reasons')).body.items.find((r: any) => r.code === 'SCR').name).toBe('表面划伤');
  });

  it('a manager scoped to one workshop maintains no reason (403 WHOLE_FACTORY_ONLY) and nothing is written', async () => {
    expect((await call('POST', '/api/workshops', { code: 'W1', name: '一车间' })).status).toBe(201);
    const scoped = '13800000005';
    const token = await app.login(scoped, 'manager', '赵经理');
    const set = await call('PUT', `/api/people/${scoped}/scope`, { role: 'manager', workshops: ['W1'], teams: [] });
    expect(set.status).toBe(200);
    const r = await call('POST', '/api/stop-reasons', { code: 'DNT', name: '压痕', category: 'planned' }, token);
    expect([r.status, r.body.error.code]).toEqual([403, 'WHOLE_FACTORY_ONLY']);
    expect((await call('GET', '/api/stop-reasons')).body.items.map((x: any) => x.code)).not.toContain('DNT');
  });

  it('a replay of the stop reason projection writes the same rows as the commands did', async () => {
    const pool = app.service.ctx.db.pool;
    const rows = async () => (await pool.query(`SELECT * FROM stop_reasons ORDER BY code`)).rows;
    const incremental = await rows();
    expect(incremental).toHaveLength(3);
    await pool.query(`UPDATE stop_reasons SET name = 'x', active = true`);
    await replayProjection(pool, app.service.ctx.store, stopReasonsProjection, 2);
    expect(await rows()).toEqual(incremental);
  });
});
