/**
 * Workshops, teams, memberships and devices' workshops over HTTP, through the real service on a
 * fresh database with a ManualClock: what each route answers, the events appended, the read model's rows (and
 * that a replay rebuilds them equal), and the placement a submission records: a worker in team T of workshop W
 * submits → the event and the reports row carry W/T; moved afterwards → the old report keeps W/T, a new one gets the
 * new team.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayProjection } from '../../src/projections/replay.ts';
import type { CachingRepository } from '../../src/commands/repository.ts';
import { organizationProjection } from '../../src/projections/organization.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, MIN, workerClient } from '../clock/helpers.ts';

let app: TestApp;
let manager: string;
let admin: string;
const WORKER = '13900000001';
const LEADER = '13800000011';

beforeAll(async () => {
  app = await startTestApp();
  manager = await app.login('13800000002', 'manager', '李经理');
  admin = await app.login('13800000003', 'admin', '王审核');
  await app.login(LEADER, 'worker', '赵班长');
});
afterAll(() => app.close());

const events = async (streamId: string) => (await app.service.ctx.store.readStream(app.service.ctx.db.pool, streamId, 1)).map((e) => ({ type: e.type, data: e.data }));
const rows = async (sql: string, params: unknown[] = []) => (await app.service.ctx.db.pool.query(sql, params)).rows;

describe('workshops and teams', () => {
  it('a manager creates two workshops and a team in each; the list shows them with leaders and member counts', async () => {
    expect(await app.request('POST', '/api/workshops', { token: manager, body: { code: 'C1', name: '冲压车间' } })).toMatchObject({ status: 201, body: { code: 'C1', name: '冲压车间' } });
    expect((await app.request('POST', '/api/workshops', { token: admin, body: { code: 'Z2', name: '装配车间' } })).status).toBe(201);
    const team = await app.request('POST', '/api/teams', { token: manager, body: { code: 'C1-A', name: '冲压一班', workshopCode: 'C1', leaders: [LEADER] } });
    expect(team).toMatchObject({ status: 201, body: { code: 'C1-A', name: '冲压一班', workshopCode: 'C1', leaders: [LEADER] } });
    expect((await app.request('POST', '/api/teams', { token: manager, body: { code: 'Z2-A', name: '装配一班', workshopCode: 'Z2', leaders: [LEADER] } })).status).toBe(201);
    expect(await events('team-C1-A')).toEqual([{ type: 'TeamDefined', data: { code: 'C1-A', name: '冲压一班', workshopCode: 'C1', leaders: [LEADER], at: expect.any(String) } }]);

    const list = await app.request('GET', '/api/workshops', { token: manager });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      date: '2026-03-02',
      items: [
        { code: 'C1', name: '冲压车间', teams: [{ code: 'C1-A', name: '冲压一班', workshopCode: 'C1', leaders: [{ phone: LEADER, name: '赵班长' }], memberCount: 0 }] },
        { code: 'Z2', name: '装配车间', teams: [{ code: 'Z2-A', name: '装配一班', workshopCode: 'Z2', leaders: [{ phone: LEADER, name: '赵班长' }], memberCount: 0 }] },
      ],
    });
  });

  it('codes are unique; a team needs an existing workshop and leaders in personnel; answers name the cause in Chinese', async () => {
    const dup = await app.request('POST', '/api/workshops', { token: manager, body: { code: 'C1', name: '又一个' } });
    expect(dup).toMatchObject({ status: 409, body: { error: { code: 'WORKSHOP_EXISTS', details: { code: 'C1' } } } });
    expect(dup.body.error.message).toContain('C1');
    expect((await app.request('POST', '/api/teams', { token: manager, body: { code: 'C1-A', name: 'x', workshopCode: 'C1', leaders: [LEADER] } })).body.error.code).toBe('TEAM_EXISTS');
    expect(await app.request('POST', '/api/teams', { token: manager, body: { code: 'Q-1', name: 'x', workshopCode: 'NOPE', leaders: [LEADER] } })).toMatchObject({
      status: 404,
      body: { error: { code: 'WORKSHOP_NOT_FOUND', details: { code: 'NOPE' } } },
    });
    expect(await app.request('POST', '/api/teams', { token: manager, body: { code: 'Q-1', name: 'x', workshopCode: 'C1', leaders: ['13999999999'] } })).toMatchObject({
      status: 422,
      body: { error: { code: 'LEADER_NOT_FOUND', details: { phone: '13999999999' } } },
    });
    const badCode = await app.request('POST', '/api/workshops', { token: manager, body: { code: '车间 1', name: 'x' } });
    expect(badCode.status).toBe(422);
    expect(badCode.body.error.message).toContain('车间编号');
    expect(await events('team-Q-1')).toEqual([]);
  });

  it('rename a workshop, change a team; unknown codes → 404', async () => {
    expect(await app.request('PUT', '/api/workshops/C1', { token: manager, body: { name: '冲压一车间' } })).toMatchObject({ status: 200, body: { code: 'C1', name: '冲压一车间' } });
    expect((await app.request('PUT', '/api/workshops/NONE', { token: manager, body: { name: 'x' } })).status).toBe(404);
    const changed = await app.request('PUT', '/api/teams/C1-A', { token: manager, body: { name: '冲压甲班', workshopCode: 'C1', leaders: [LEADER] } });
    expect(changed).toMatchObject({ status: 200, body: { code: 'C1-A', name: '冲压甲班' } });
    expect((await app.request('PUT', '/api/teams/NONE', { token: manager, body: { name: 'x', workshopCode: 'C1', leaders: [LEADER] } })).status).toBe(404);
    expect(await rows(`SELECT name FROM workshops WHERE code = 'C1'`)).toEqual([{ name: '冲压一车间' }]);
  });

  it('a worker may not maintain the organization (403)', async () => {
    const worker = await app.login(WORKER, 'worker', '张三');
    expect((await app.request('POST', '/api/workshops', { token: worker, body: { code: 'X', name: 'x' } })).status).toBe(403);
    expect((await app.request('GET', '/api/workshops', { token: worker })).status).toBe(403);
  });
});

describe('memberships', () => {
  it('join, move, end: history kept with dates; members on a date; at most one team at any date', async () => {
    const join = await app.request('POST', '/api/memberships', { token: manager, body: { phone: WORKER, teamCode: 'C1-A' } });
    expect(join.status).toBe(200);
    expect(join.body).toEqual({
      phone: WORKER,
      items: [{ teamCode: 'C1-A', teamName: '冲压甲班', workshopCode: 'C1', workshopName: '冲压一车间', validFrom: '2026-03-02', validTo: null, coefficient: 1 }],
    });
    // Move from 03-16: the open membership ends on 03-15.
    const move = await app.request('POST', '/api/memberships', { token: manager, body: { phone: WORKER, teamCode: 'Z2-A', validFrom: '2026-03-16' } });
    expect(move.body.items).toEqual([
      { teamCode: 'Z2-A', teamName: '装配一班', workshopCode: 'Z2', workshopName: '装配车间', validFrom: '2026-03-16', validTo: null, coefficient: 1 },
      { teamCode: 'C1-A', teamName: '冲压甲班', workshopCode: 'C1', workshopName: '冲压一车间', validFrom: '2026-03-02', validTo: '2026-03-15', coefficient: 1 },
    ]);
    expect(await events(`member-${WORKER}`)).toEqual([
      { type: 'MembershipStarted', data: { phone: WORKER, teamCode: 'C1-A', validFrom: '2026-03-02', at: expect.any(String) } },
      { type: 'MembershipEnded', data: { phone: WORKER, teamCode: 'C1-A', validFrom: '2026-03-02', validTo: '2026-03-15', at: expect.any(String) } },
      { type: 'MembershipStarted', data: { phone: WORKER, teamCode: 'Z2-A', validFrom: '2026-03-16', at: expect.any(String) } },
    ]);
    // History is never rewritten.
    const early = await app.request('POST', '/api/memberships', { token: manager, body: { phone: WORKER, teamCode: 'C1-A', validFrom: '2026-03-10' } });
    expect(early).toMatchObject({ status: 409, body: { error: { code: 'MEMBERSHIP_DATE_TOO_EARLY', details: { earliest: '2026-03-17' } } } });
    expect(early.body.error.message).toContain('2026-03-17');
    // Members on a date.
    const on10 = await app.request('GET', '/api/teams/C1-A/members?date=2026-03-10', { token: manager });
    expect(on10.body).toEqual({
      team: { code: 'C1-A', name: '冲压甲班', workshopCode: 'C1' },
      date: '2026-03-10',
      items: [{ phone: WORKER, name: '张三', validFrom: '2026-03-02', validTo: '2026-03-15', coefficient: 1 }],
    });
    expect((await app.request('GET', '/api/teams/C1-A/members?date=2026-03-16', { token: manager })).body.items).toEqual([]);
    expect((await app.request('GET', '/api/teams/Z2-A/members?date=2026-03-16', { token: manager })).body.items).toHaveLength(1);
    expect((await app.request('GET', '/api/teams/NONE/members', { token: manager })).status).toBe(404);
    // End, then the history route.
    const ended = await app.request('POST', '/api/memberships/end', { token: manager, body: { phone: WORKER, validTo: '2026-03-31' } });
    expect(ended.body.items[0]).toMatchObject({ teamCode: 'Z2-A', validFrom: '2026-03-16', validTo: '2026-03-31' });
    expect((await app.request('POST', '/api/memberships/end', { token: manager, body: { phone: WORKER } })).body.error.code).toBe('NO_OPEN_MEMBERSHIP');
    expect((await app.request('GET', `/api/people/${WORKER}/memberships`, { token: admin })).body).toEqual(ended.body);
  });

  it('only workers join teams; an unknown team → 404', async () => {
    expect(await app.request('POST', '/api/memberships', { token: manager, body: { phone: '13800000002', teamCode: 'C1-A' } })).toMatchObject({
      status: 422,
      body: { error: { code: 'NOT_A_WORKER' } },
    });
    expect((await app.request('POST', '/api/memberships', { token: manager, body: { phone: LEADER, teamCode: 'NONE' } })).status).toBe(404);
  });
});

describe('racing membership commands on one worker', () => {
  it('eight moves at once: each is decided on the history before it (lost races decide again), and the history never overlaps', async () => {
    const W3 = '13900000003';
    await app.login(W3, 'worker', '孙三');
    const moves = Array.from({ length: 8 }, (_, i) => ({ teamCode: i % 2 ? 'C1-A' : 'Z2-A', validFrom: `2026-04-${String(10 + i).padStart(2, '0')}` }));
    const answers = await Promise.all(moves.map((m) => app.request('POST', '/api/memberships', { token: manager, body: { phone: W3, ...m } })));
    // A move dated before one that won the race is refused (history is never rewritten); the rest are applied (a
    // request that lost every one of its attempts is 409 CONCURRENT_MODIFICATION and wrote nothing).
    for (const a of answers) expect([200, 409]).toContain(a.status);
    for (const a of answers.filter((x) => x.status === 409)) expect(['MEMBERSHIP_DATE_TOO_EARLY', 'CONCURRENT_MODIFICATION']).toContain(a.body.error.code);
    const history = [...(await app.request('GET', `/api/people/${W3}/memberships`, { token: manager })).body.items].reverse();
    expect(history.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < history.length; i++) {
      expect(history[i - 1].validTo, 'each membership but the last ends the day before the next').toBe(
        new Date(Date.parse(`${history[i].validFrom}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10),
      );
      expect(history[i].teamCode).not.toBe(history[i - 1].teamCode);
    }
    expect(history[history.length - 1].validTo).toBeNull();
    const open = await rows(`SELECT count(*)::int AS n FROM team_memberships WHERE phone = $1 AND valid_to IS NULL`, [W3]);
    expect(open).toEqual([{ n: 1 }]);
  });
});

describe('devices belong to a workshop', () => {
  it('PUT sets it, the device list shows it; null clears; an unknown device or workshop → 404', async () => {
    await addProduct(app, '冲床 01');
    await addProduct(app, '装配台 2');
    const set = await app.request('PUT', `/api/devices/${encodeURIComponent('冲床 01')}/workshop`, { token: manager, body: { workshopCode: 'C1' } });
    expect(set).toMatchObject({ status: 200, body: { deviceNo: '冲床 01', workshopCode: 'C1', workshopName: '冲压一车间' } });
    const list = await app.request('GET', '/api/devices', { token: manager });
    expect(list.body.items.map((d: any) => [d.deviceNo, d.workshopCode, d.workshopName])).toEqual([
      ['冲床 01', 'C1', '冲压一车间'],
      ['装配台 2', null, null],
    ]);
    expect((await app.request('PUT', `/api/devices/${encodeURIComponent('冲床 01')}/workshop`, { token: manager, body: { workshopCode: 'NONE' } })).status).toBe(404);
    expect((await app.request('PUT', '/api/devices/NODEVICE/workshop', { token: manager, body: { workshopCode: 'C1' } })).body.error.code).toBe('DEVICE_NOT_FOUND');
    await app.request('PUT', `/api/devices/${encodeURIComponent('装配台 2')}/workshop`, { token: manager, body: { workshopCode: 'Z2' } });
    await app.request('PUT', `/api/devices/${encodeURIComponent('装配台 2')}/workshop`, { token: manager, body: { workshopCode: null } });
    expect(await rows(`SELECT device_no, workshop_code FROM device_workshops ORDER BY device_no`)).toEqual([{ device_no: '冲床 01', workshop_code: 'C1' }]);
  });
});

describe('placement on submit (the report records the team and workshop of its report date)', () => {
  const W2 = '13900000002';
  let w2: ReturnType<typeof workerClient>;
  let productId: number;

  /** One clock-in at `from` and out at `to` (local hours) on `day`, then the submission; returns the report id. */
  async function workDay(day: string, from = '08', to = '17'): Promise<string> {
    app.clock.set(`${day}T${from}:00:00+08:00`);
    const started = await w2.start('冲床 01');
    expect(started.status).toBe(200);
    app.clock.set(`${day}T${to}:00:00+08:00`);
    expect((await w2.finish('冲床 01')).status).toBe(200);
    const submitted = await w2.submit(started.body.sessionId, [{ productId, finishedQty: 10, defectiveQty: 0 }]);
    expect(submitted.status).toBe(201);
    return submitted.body.reportId;
  }

  it('in C1-A on 03-03 → C1/C1-A; moved to Z2-A from 03-04 → the old report keeps C1/C1-A, the new one Z2/Z2-A', async () => {
    w2 = workerClient(app, await app.login(W2, 'worker', '钱二'));
    productId = (await rows(`SELECT id FROM products WHERE device_no = '冲床 01'`))[0].id;
    app.clock.set('2026-03-03T07:00:00+08:00');
    await app.request('POST', '/api/memberships', { token: manager, body: { phone: W2, teamCode: 'C1-A', validFrom: '2026-03-01' } });

    const first = await workDay('2026-03-03');
    const submitted = (await events(`report-${first}`))[0];
    expect(submitted.data).toMatchObject({ reportDate: '2026-03-03', workshopCode: 'C1', teamCode: 'C1-A' });
    // The process keeps the placement with the dates it holds for (the open membership from 03-01): a submission on
    // a later day decides without reading it again (the append's guard checks it).
    const cache = app.service.ctx.commands.repository as CachingRepository;
    const later = { person: { phone: W2, role: 'worker' }, placementOf: { phone: W2, date: '2026-03-20' } };
    expect(cache.cachedFacts(later)?.placement).toEqual({ workshopCode: 'C1', teamCode: 'C1-A' });
    expect(cache.cachedFacts({ ...later, placementOf: { phone: W2, date: '2026-02-28' } })).toBeUndefined();

    await app.request('POST', '/api/memberships', { token: manager, body: { phone: W2, teamCode: 'Z2-A', validFrom: '2026-03-04' } });
    const second = await workDay('2026-03-04');
    expect(await rows(`SELECT report_id, report_date::text AS d, workshop_code, team_code FROM reports WHERE employee_phone = $1 ORDER BY report_date`, [W2])).toEqual([
      { report_id: first, d: '2026-03-03', workshop_code: 'C1', team_code: 'C1-A' },
      { report_id: second, d: '2026-03-04', workshop_code: 'Z2', team_code: 'Z2-A' },
    ]);
  });

  it('a placement changed after it was cached: the append’s guard refuses the stale one and the report gets the team of its date', async () => {
    // 03-05 in Z2-A: the first report of the day caches the placement (W2, 03-05) in this process.
    const morning = await workDay('2026-03-05', '06', '10');
    expect((await rows(`SELECT team_code FROM reports WHERE report_id = $1`, [morning]))[0].team_code).toBe('Z2-A');
    // The membership is ended on 03-04 (a correction within the open membership): on 03-05 W2 is in no team.
    expect((await app.request('POST', '/api/memberships/end', { token: manager, body: { phone: W2, validTo: '2026-03-04' } })).status).toBe(200);
    // The second report of 03-05 decides on the cached placement first; the guard refuses it, the fresh read wins.
    const evening = await workDay('2026-03-05', '11', '19');
    expect(await rows(`SELECT workshop_code, team_code FROM reports WHERE report_id = $1`, [evening])).toEqual([{ workshop_code: null, team_code: null }]);
    expect((await rows(`SELECT team_code FROM reports WHERE report_id = $1`, [morning]))[0].team_code).toBe('Z2-A');
    // Joins C1-A from 03-06: the report of 03-06 is in C1-A.
    await app.request('POST', '/api/memberships', { token: manager, body: { phone: W2, teamCode: 'C1-A', validFrom: '2026-03-06' } });
    const r = await workDay('2026-03-06');
    expect(await rows(`SELECT workshop_code, team_code FROM reports WHERE report_id = $1`, [r])).toEqual([{ workshop_code: 'C1', team_code: 'C1-A' }]);
  });

  it('a worker in no team that day → null workshop and team', async () => {
    await app.request('POST', '/api/memberships/end', { token: manager, body: { phone: W2, validTo: '2026-03-06' } });
    const r = await workDay('2026-03-07');
    expect(await rows(`SELECT workshop_code, team_code FROM reports WHERE report_id = $1`, [r])).toEqual([{ workshop_code: null, team_code: null }]);
  });
});

describe('the read model', () => {
  it('a replay of the organization projection gives the same rows as the inline writes', async () => {
    const dump = async () => ({
      workshops: await rows(`SELECT * FROM workshops ORDER BY code`),
      teams: await rows(`SELECT * FROM teams ORDER BY code`),
      memberships: await rows(`SELECT phone, valid_from::text, team_code, valid_to::text FROM team_memberships ORDER BY phone, valid_from`),
      devices: await rows(`SELECT * FROM device_workshops ORDER BY device_no`),
    });
    const before = await dump();
    expect(before.memberships.length).toBeGreaterThanOrEqual(5);
    const applied = await replayProjection(app.service.ctx.db.pool, app.service.ctx.store, organizationProjection);
    expect(applied).toBeGreaterThan(10);
    expect(await dump()).toEqual(before);
  });
});
