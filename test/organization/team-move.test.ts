/**
 * A team's workshop is dated like a membership (migrations/017): a team moved to another workshop from a day keeps
 * its past under the old one. Through HTTP on the real service: the members' history shows an ended membership under
 * the workshop of its last day and the open one under the new workshop; a move dated before the last one or after
 * today is refused (409 TEAM_MOVE_DATE); the dated rows rebuilt from the events equal the ones written as they came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayProjection } from '../../src/projections/replay.ts';
import { organizationProjection } from '../../src/projections/organization.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
let manager: string;
const LEADER = '13800000011';
const [OLD, STAYS] = ['13900000001', '13900000002'];

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-20T09:00:00+08:00');
  manager = await app.login('13800000002', 'manager', '李经理');
  await app.login(LEADER, 'worker', '赵班长');
  await app.login(OLD, 'worker', '张三');
  await app.login(STAYS, 'worker', '李四');
  const post = async (path: string, body: unknown, status = 201) => expect((await app.request('POST', path, { token: manager, body })).status).toBe(status);
  await post('/api/workshops', { code: 'C1', name: '冲压车间' });
  await post('/api/workshops', { code: 'W2', name: '焊装车间' });
  await post('/api/teams', { code: 'A', name: '甲班', workshopCode: 'C1', leaders: [LEADER] });
  await post('/api/memberships', { phone: OLD, teamCode: 'A', validFrom: '2026-03-01' }, 200);
  await post('/api/memberships', { phone: STAYS, teamCode: 'A', validFrom: '2026-03-01' }, 200);
  await post('/api/memberships/end', { phone: OLD, validTo: '2026-03-09' }, 200);
});
afterAll(() => app?.close());

const team = (body: object) => app.request('PUT', '/api/teams/A', { token: manager, body: { name: '甲班', leaders: [LEADER], ...body } });
const history = async (phone: string) =>
  (await app.request('GET', `/api/people/${phone}/memberships`, { token: manager })).body.items.map((i: any) => [i.teamCode, i.workshopName, i.validFrom, i.validTo]);

describe('a team moved to another workshop from a day', () => {
  it('refuses a day after today, then moves from the 15th; the past stays under the old workshop', async () => {
    expect(await team({ workshopCode: 'W2', workshopFrom: '2026-03-21' })).toMatchObject({
      status: 409,
      body: { error: { code: 'TEAM_MOVE_DATE', details: { earliest: null, latest: '2026-03-20' } } },
    });
    expect((await team({ workshopCode: 'W2', workshopFrom: '2026-03-15' })).body).toMatchObject({ workshopCode: 'W2' });
    // 张三 left on the 9th, before the move: his membership stays under 冲压车间; 李四's open one is under 焊装车间.
    expect(await history(OLD)).toEqual([['A', '冲压车间', '2026-03-01', '2026-03-09']]);
    expect(await history(STAYS)).toEqual([['A', '焊装车间', '2026-03-01', null]]);
    const rows = await app.service.ctx.db.pool.query(`SELECT valid_from::text, workshop_code FROM team_workshops WHERE team_code = 'A' ORDER BY valid_from`);
    expect(rows.rows).toEqual([
      { valid_from: '-infinity', workshop_code: 'C1' },
      { valid_from: '2026-03-15', workshop_code: 'W2' },
    ]);
  });

  it('a move back may not be dated on or before the last move: the sentence names the days allowed', async () => {
    const r = await team({ workshopCode: 'C1', workshopFrom: '2026-03-15' });
    expect(r).toMatchObject({ status: 409, body: { error: { code: 'TEAM_MOVE_DATE', details: { earliest: '2026-03-16', latest: '2026-03-20' } } } });
    expect(r.body.error.message).toBe('班组记录不能改写过去：调到其他车间的生效日期应在 2026-03-16 到 2026-03-20 之间');
    // A change of the name alone is no move: no dated row.
    expect((await team({ workshopCode: 'W2', name: '甲一班' })).status).toBe(200);
    const rows = await app.service.ctx.db.pool.query(`SELECT count(*)::int AS n FROM team_workshops WHERE team_code = 'A'`);
    expect(rows.rows[0].n).toBe(2);
  });

  it('rebuilds the dated rows from the events to exactly the rows written as they came', async () => {
    const pool = app.service.ctx.db.pool;
    const rows = async () => (await pool.query(`SELECT team_code, valid_from::text, workshop_code FROM team_workshops ORDER BY team_code, valid_from`)).rows;
    const incremental = await rows();
    await pool.query(`DELETE FROM team_workshops`);
    await replayProjection(pool, app.service.ctx.store, organizationProjection, 2);
    expect(await rows()).toEqual(incremental);
  });
});
