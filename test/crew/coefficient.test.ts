/**
 * A team member's coefficient (系数, crew work): the member decider given-when-then (a coefficient dated like a
 * membership: a new one in the same team starts a new membership of that team, recorded only when not 1.00 and
 * repeated by MembershipEnded), and over HTTP: POST /api/memberships sets it (0.1–9.99, 422 naming 系数 otherwise),
 * the team's members list and the person's history show it, and a replay rebuilds the rows equal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberDecider, type MemberCommand } from '../../src/commands/organization/decider.ts';
import type { MemberEvent } from '../../src/events/catalog.ts';
import { organizationProjection } from '../../src/projections/organization.ts';
import { replayProjection } from '../../src/projections/replay.ts';
import { scenario } from '../helpers/gwt.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const AT = '2026-03-02T02:00:00.000Z';
const W = '13900000001';
const s = scenario(memberDecider);
const join = (teamCode: string, validFrom: string, coefficient?: number): MemberCommand => ({
  type: 'StartMembership',
  phone: W,
  teamCode,
  validFrom,
  at: AT,
  teamExists: true,
  isWorker: true,
  ...(coefficient !== undefined ? { coefficient } : {}),
});
const started = (teamCode: string, validFrom: string, coefficient?: number): MemberEvent => ({
  type: 'MembershipStarted',
  data: { phone: W, teamCode, validFrom, at: AT, ...(coefficient !== undefined ? { coefficient } : {}) },
});

describe('member decider: coefficients', () => {
  it('given nothing, when joining with 1.20, then MembershipStarted records 120; with 1.00 nothing is recorded', () => {
    expect(s.given([]).when(join('A', '2026-03-01', 120)).events).toEqual([started('A', '2026-03-01', 120)]);
    expect(s.given([]).when(join('A', '2026-03-01', 100)).events).toEqual([started('A', '2026-03-01')]);
  });

  it('given a membership at 1.20, when the same team at 1.50 from a later date, then it ends the day before and starts again at 1.50', () => {
    expect(s.given([started('A', '2026-03-01', 120)]).when(join('A', '2026-03-10', 150)).events).toEqual([
      { type: 'MembershipEnded', data: { phone: W, teamCode: 'A', validFrom: '2026-03-01', validTo: '2026-03-09', at: AT, coefficient: 120 } },
      started('A', '2026-03-10', 150),
    ]);
  });

  it('given a membership at 1.20, when the same team without a coefficient or with 1.20, then nothing', () => {
    expect(s.given([started('A', '2026-03-01', 120)]).when(join('A', '2026-03-10')).events).toEqual([]);
    expect(s.given([started('A', '2026-03-01', 120)]).when(join('A', '2026-03-10', 120)).events).toEqual([]);
  });

  it('given a membership, when another coefficient from its own first day, then MEMBERSHIP_DATE_TOO_EARLY (history is not rewritten)', () => {
    const r = s.given([started('A', '2026-03-01')]).when(join('A', '2026-03-01', 120)).error;
    expect([r.status, r.code, r.details]).toEqual([409, 'MEMBERSHIP_DATE_TOO_EARLY', { earliest: '2026-03-02' }]);
  });

  it('given a membership at 1.20, when it ends, then MembershipEnded repeats 1.20', () => {
    expect(s.given([started('A', '2026-03-01', 120)]).when({ type: 'EndMembership', phone: W, validTo: '2026-03-05', at: AT }).events).toEqual([
      { type: 'MembershipEnded', data: { phone: W, teamCode: 'A', validFrom: '2026-03-01', validTo: '2026-03-05', at: AT, coefficient: 120 } },
    ]);
  });
});

describe('coefficients over HTTP', () => {
  let app: TestApp;
  let manager: string;
  const LEADER = '13800000011';
  beforeAll(async () => {
    app = await startTestApp();
    manager = await app.login('13800000002', 'manager', '李经理');
    await app.login(LEADER, 'worker', '赵班长');
    await app.login(W, 'worker', '张三');
    await app.login('13900000002', 'worker', '李四');
    expect((await app.request('POST', '/api/workshops', { token: manager, body: { code: 'H1', name: '焊接车间' } })).status).toBe(201);
    expect((await app.request('POST', '/api/teams', { token: manager, body: { code: 'H1-A', name: '焊接一班', workshopCode: 'H1', leaders: [LEADER] } })).status).toBe(201);
  });
  afterAll(() => app.close());

  it('POST /api/memberships with a coefficient; the members list and the history show it; none given: 1', async () => {
    const r = await app.request('POST', '/api/memberships', { token: manager, body: { phone: W, teamCode: 'H1-A', validFrom: '2026-03-01', coefficient: 1.2 } });
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([{ teamCode: 'H1-A', teamName: '焊接一班', workshopCode: 'H1', workshopName: '焊接车间', validFrom: '2026-03-01', validTo: null, coefficient: 1.2 }]);
    expect((await app.request('POST', '/api/memberships', { token: manager, body: { phone: '13900000002', teamCode: 'H1-A', validFrom: '2026-03-01' } })).status).toBe(200);
    const members = await app.request('GET', '/api/teams/H1-A/members?date=2026-03-02', { token: manager });
    expect(members.body.items.map((m: any) => [m.phone, m.coefficient])).toEqual([
      [W, 1.2],
      ['13900000002', 1],
    ]);
  });

  it('a new coefficient from a date: the history keeps the old one up to the day before', async () => {
    const r = await app.request('POST', '/api/memberships', { token: manager, body: { phone: W, teamCode: 'H1-A', validFrom: '2026-03-02', coefficient: '1.50' } });
    expect(r.body.items.map((m: any) => [m.validFrom, m.validTo, m.coefficient])).toEqual([
      ['2026-03-02', null, 1.5],
      ['2026-03-01', '2026-03-01', 1.2],
    ]);
    const before = await app.request('GET', '/api/teams/H1-A/members?date=2026-03-01', { token: manager });
    expect(before.body.items.find((m: any) => m.phone === W).coefficient).toBe(1.2);
  });

  it.each([0.05, 10, 1.234, '两倍'])('coefficient %s → 422 naming 系数, nothing recorded', async (coefficient) => {
    const r = await app.request('POST', '/api/memberships', { token: manager, body: { phone: '13900000002', teamCode: 'H1-A', validFrom: '2026-03-02', coefficient } });
    expect(r.status).toBe(422);
    expect(r.body.error.message).toContain('系数');
    const history = await app.request('GET', '/api/people/13900000002/memberships', { token: manager });
    expect(history.body.items).toHaveLength(1);
  });

  it('a replay rebuilds the memberships with their coefficients equal', async () => {
    const read = async () => (await app.service.ctx.db.pool.query(`SELECT phone, valid_from::text, valid_to::text, team_code, coefficient FROM team_memberships ORDER BY phone, valid_from`)).rows;
    const before = await read();
    expect(before.map((r: any) => r.coefficient)).toEqual([120, 150, 100]);
    await replayProjection(app.service.ctx.db.pool, app.service.ctx.store, organizationProjection);
    expect(await read()).toEqual(before);
  });
});
