/**
 * The reason lists over HTTP (不良原因 and 停机原因: src/http/routes/reason-list.ts, one set of routes for both kinds)
 * through the real service, for each kind: a manager and an administrator maintain them, a worker reads the active
 * ones, the events and the read model, a refusal for a taken code, a scoped manager refused, and a replay equal to
 * the rows written as the events came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defectReasonsProjection } from '../../src/projections/defect-reasons.ts';
import { replayProjection } from '../../src/projections/replay.ts';
import { stopReasonsProjection } from '../../src/projections/stop-reasons.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const kinds = [
  { kind: 'defect', label: '不良原因', path: '/api/defect-reasons', table: 'defect_reasons', projection: defectReasonsProjection, event: 'DefectReasonDefined', error: 'DEFECT_REASON', cats: ['operator', 'material', 'other'] },
  { kind: 'stop', label: '停机原因', path: '/api/stop-reasons', table: 'stop_reasons', projection: stopReasonsProjection, event: 'StopReasonDefined', error: 'STOP_REASON', cats: ['planned', 'unplanned', 'unplanned'] },
] as const;

describe.each(kinds)('$kind reasons', ({ kind, label, path, table, projection, event, error, cats: [first, second, third] }) => {
  let app: TestApp;
  let manager: string;
  let admin: string;
  let worker: string;
  const call = (method: string, url: string, body?: unknown, token = manager) => app.request(method, url, { token, body });

  beforeAll(async () => {
    app = await startTestApp();
    manager = await app.login('13800000002', 'manager', '李经理');
    admin = await app.login('13800000004', 'admin', '王管理');
    worker = await app.login('13800000011', 'worker', '张三');
  });
  afterAll(() => app.close());

  it('a manager and an admin add reasons; everyone lists them by code', async () => {
    const scr = await call('POST', path, { code: 'SCR', name: '划伤', category: first });
    expect([scr.status, scr.body]).toEqual([201, { code: 'SCR', name: '划伤', category: first, active: true }]);
    expect((await call('POST', path, { code: 'CRK', name: '材料裂纹', category: second }, admin)).status).toBe(201);
    expect((await call('POST', path, { code: 'JAM', name: '卡模', category: third })).status).toBe(201);
    const list = await call('GET', path, undefined, worker);
    expect(list.status).toBe(200);
    expect(list.body.items.map((r: any) => [r.code, r.name, r.category])).toEqual([
      ['CRK', '材料裂纹', second],
      ['JAM', '卡模', third],
      ['SCR', '划伤', first],
    ]);
    const ev = await app.service.ctx.db.pool.query(`SELECT event_type AS type, data FROM events WHERE stream_id = '${kind}-reason-SCR'`);
    expect(ev.rows.map((e) => [e.type, e.data.name, e.data.category])).toEqual([[event, '划伤', first]]);
  });

  it('a taken code is 409 <KIND>_REASON_EXISTS; a worker may not add one', async () => {
    const again = await call('POST', path, { code: 'SCR', name: '刮花', category: first });
    expect([again.status, again.body.error.code, again.body.error.message]).toEqual([409, `${error}_EXISTS`, `${label}编码 SCR 已被「划伤」使用，请换一个编码`]);
    expect((await call('POST', path, { code: 'ZZZ', name: '其它', category: third }, worker)).status).toBe(403);
    expect((await call('GET', path)).body.items).toHaveLength(3);
  });

  it('PUT renames, recategorises and deactivates; active=true lists only the active ones; unknown is 404', async () => {
    const renamed = await call('PUT', `${path}/SCR`, { name: '表面划伤' });
    expect([renamed.status, renamed.body]).toEqual([200, { code: 'SCR', name: '表面划伤', category: first, active: true }]);
    const recat = await call('PUT', `${path}/JAM`, { category: first, active: false }, admin);
    expect(recat.body).toEqual({ code: 'JAM', name: '卡模', category: first, active: false });
    const active = await call('GET', `${path}?active=true`, undefined, worker);
    expect(active.body.items.map((r: any) => r.code)).toEqual(['CRK', 'SCR']);
    const all = await call('GET', path, undefined, worker);
    expect(all.body.items.map((r: any) => [r.code, r.active])).toEqual([['CRK', true], ['JAM', false], ['SCR', true]]);
    const missing = await call('PUT', `${path}/NOPE`, { active: false });
    expect([missing.status, missing.body.error.code]).toEqual([404, `${error}_NOT_FOUND`]);
    const bad = await call('PUT', `${path}/SCR`, { name: '' });
    expect(bad.status).toBe(422);
    expect((await call('GET', path)).body.items.find((r: any) => r.code === 'SCR').name).toBe('表面划伤');
  });

  it('a manager scoped to one workshop maintains no reason (403 WHOLE_FACTORY_ONLY) and nothing is written', async () => {
    expect((await call('POST', '/api/workshops', { code: 'W1', name: '一车间' })).status).toBe(201);
    const scoped = '13800000005';
    const token = await app.login(scoped, 'manager', '赵经理');
    const set = await call('PUT', `/api/people/${scoped}/scope`, { role: 'manager', workshops: ['W1'], teams: [] });
    expect(set.status).toBe(200);
    const r = await call('POST', path, { code: 'DNT', name: '压痕', category: first }, token);
    expect([r.status, r.body.error.code]).toEqual([403, 'WHOLE_FACTORY_ONLY']);
    expect((await call('GET', path)).body.items.map((x: any) => x.code)).not.toContain('DNT');
  });

  it('a replay of the projection writes the same rows as the commands did', async () => {
    const pool = app.service.ctx.db.pool;
    const rows = async () => (await pool.query(`SELECT * FROM ${table} ORDER BY code`)).rows;
    const incremental = await rows();
    expect(incremental).toHaveLength(3);
    await pool.query(`UPDATE ${table} SET name = 'x', active = true`);
    await replayProjection(pool, app.service.ctx.store, projection, 2);
    expect(await rows()).toEqual(incremental);
  });
});
