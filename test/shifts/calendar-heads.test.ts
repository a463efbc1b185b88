/**
 * The worker's calendar and placement are kept and guarded by the heads of the streams they were read from
 * (events/heads.ts, src/shifts/sql.ts `calendarSql`, src/shifts/calendar-cache.ts; what keeps
 * the clock cycle fast). What that rests on, tested from the outside:
 * - the heads read with a calendar are the versions of the worker's `member-`, the team's `team-shifts-` and the
 *   shift's `shift-` streams in the event store, and they stop holding when any of them moves;
 * - every event that writes a row the placement or the calendar is read from is appended to the stream its row's
 *   owner names (so a change the heads miss cannot exist);
 * - with PostgreSQL, a change made through a second API instance is seen by the first one's draft and submission,
 *   although the first keeps the calendar in its process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withSecondInstance, type TestApp } from '../helpers/app.ts';
import { addProduct, workerClient } from '../clock/helpers.ts';
import { readCalendar } from '../../src/shifts/sql.ts';
import { headsParameters, streamHeadsHoldSql } from '../../src/events/heads.ts';
import { streams } from '../../src/events/catalog.ts';
import { onPostgres } from '../helpers/db.ts';

let app: TestApp;
let manager: string;
let product: number;
let dayShift = '';
const WORKER = '13900000011';
const DEVICE = 'JC-H1';
const call = (method: string, path: string, body?: unknown) => app.request(method, path, { token: manager, body });
const pool = () => app.service.ctx.db.pool;

/** The version of each stream in the event store (0: none). */
async function versionsOf(ids: string[]): Promise<Record<string, number>> {
  const r = await pool().query(`SELECT id, COALESCE((SELECT max(stream_version) FROM events WHERE stream_id = id), 0)::int AS v FROM unnest($1::text[]) id`, [ids]);
  return Object.fromEntries(r.rows.map((x) => [x.id, x.v]));
}

const holds = async (heads: Record<string, number>) => {
  const [ids, versions] = headsParameters(heads);
  return (await pool().query(`SELECT ${streamHeadsHoldSql('$1::text[]', '$2::bigint[]')} AS ok`, [ids, versions])).rows[0].ok as boolean;
};

beforeAll(async () => {
  app = await startTestApp({ DEFAULT_BREAK_MINUTES: '45' });
  manager = await app.login('13800000002', 'manager', '李经理');
  product = await addProduct(app, DEVICE);
  expect((await call('POST', '/api/workshops', { code: 'H', name: '一车间' })).status).toBe(201);
  expect((await call('POST', '/api/teams', { code: 'H-A', name: '甲班', workshopCode: 'H', leaders: ['13800000002'] })).status).toBe(201);
  dayShift = (await call('POST', '/api/shifts', { name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '13:00' }] })).body.shiftId;
  expect((await call('POST', '/api/teams/H-A/shift-assignments', { validFrom: '2026-03-01', rotation: [dayShift] })).status).toBe(201);
  await app.login(WORKER, 'worker', '员工11');
  expect((await call('POST', '/api/memberships', { phone: WORKER, teamCode: 'H-A', validFrom: '2026-03-01' })).status).toBe(200);
});
afterAll(() => app.close());

describe('a calendar and the heads it was read with', () => {
  it('the heads are the event store’s versions of the worker’s member-, the team’s team-shifts- and the shift’s shift- streams', async () => {
    const c = await readCalendar(pool(), WORKER, '2026-03-02');
    expect(c.days.map((d) => [d.date, d.teamCode, d.shift?.name ?? null])).toEqual([
      ['2026-03-01', 'H-A', '白班'],
      ['2026-03-02', 'H-A', '白班'],
      ['2026-03-03', 'H-A', '白班'],
    ]);
    const ids = [streams.member(WORKER), streams.teamShifts('H-A'), streams.shift(dayShift)];
    expect(c.heads).toEqual(await versionsOf(ids));
    expect(Object.values(c.heads).every((v) => v >= 1)).toBe(true);
    expect(await holds(c.heads)).toBe(true);
  });

  it('a worker in no team: the heads of the member- stream alone (version 0 before any membership); they move when the worker joins', async () => {
    const c = await readCalendar(pool(), '13900000099', '2026-03-02');
    expect(c.days.map((d) => d.teamCode)).toEqual([null, null, null]);
    expect(c.heads).toEqual({ [streams.member('13900000099')]: 0 });
    await app.login('13900000099', 'worker');
    expect((await call('POST', '/api/memberships', { phone: '13900000099', teamCode: 'H-A', validFrom: '2026-03-01' })).status).toBe(200);
    expect(await holds(c.heads)).toBe(false);
  });

  it('each change the calendar depends on moves a head: an override, the shift’s windows, a move to another team', async () => {
    let c = await readCalendar(pool(), WORKER, '2026-03-02');
    expect((await call('PUT', '/api/teams/H-A/shift-overrides/2026-03-03', { shiftId: null })).status).toBe(204);
    expect(await holds(c.heads)).toBe(false);
    c = await readCalendar(pool(), WORKER, '2026-03-02');
    expect(c.days[2].shift).toBeNull();
    expect((await call('PUT', `/api/shifts/${dayShift}`, { name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '12:40' }] })).status).toBe(200);
    expect(await holds(c.heads)).toBe(false);
    c = await readCalendar(pool(), WORKER, '2026-03-02');
    expect(c.days[1].shift?.breaks).toEqual([{ start: '12:00', end: '12:40' }]);
    expect((await call('POST', '/api/teams', { code: 'H-B', name: '乙班', workshopCode: 'H', leaders: ['13800000002'] })).status).toBe(201);
    expect(await holds(c.heads)).toBe(true); // another team's stream is not one of the heads
    expect((await call('POST', '/api/memberships', { phone: WORKER, teamCode: 'H-B', validFrom: '2026-03-03' })).status).toBe(200);
    expect(await holds(c.heads)).toBe(false);
    c = await readCalendar(pool(), WORKER, '2026-03-02');
    expect(c.days.map((d) => d.teamCode)).toEqual(['H-A', 'H-A', 'H-B']);
    expect(Object.keys(c.heads).sort()).toEqual([streams.member(WORKER), streams.shift(dayShift), streams.teamShifts('H-A'), streams.teamShifts('H-B')].sort());
  });

  it('every event a placement or a calendar is read from is in the stream its row’s owner names', async () => {
    const owner: Record<string, (d: any) => string> = {
      TeamDefined: (d) => streams.team(d.code),
      TeamChanged: (d) => streams.team(d.code),
      MembershipStarted: (d) => streams.member(d.phone),
      MembershipEnded: (d) => streams.member(d.phone),
      ShiftDefined: (d) => streams.shift(d.shiftId),
      ShiftChanged: (d) => streams.shift(d.shiftId),
      ShiftAssigned: (d) => streams.teamShifts(d.teamCode),
      ShiftOverridden: (d) => streams.teamShifts(d.teamCode),
      ShiftOverrideRemoved: (d) => streams.teamShifts(d.teamCode),
    };
    const r = await pool().query(`SELECT stream_id, event_type, data FROM events WHERE event_type = ANY($1::text[])`, [Object.keys(owner)]);
    expect(new Set(r.rows.map((e) => e.event_type))).toEqual(new Set(['TeamDefined', 'MembershipStarted', 'MembershipEnded', 'ShiftDefined', 'ShiftChanged', 'ShiftAssigned', 'ShiftOverridden']));
    for (const e of r.rows) expect([e.event_type, e.stream_id]).toEqual([e.event_type, owner[e.event_type](e.data)]);
  });
});

// A second API instance needs PostgreSQL: PGlite in memory is private to the test's own instance.
describe('two API instances on one database', () => {
  it.runIf(onPostgres)('a shift changed through the second instance between the draft and the submission: the first one’s guard refuses the calendar it kept, the report has the new break', async () => {
    const phone = '13900000012';
    const w = workerClient(app, await app.login(phone, 'worker', '员工12'));
    expect((await call('POST', '/api/memberships', { phone, teamCode: 'H-B', validFrom: '2026-03-01' })).status).toBe(200);
    expect((await call('POST', '/api/teams/H-B/shift-assignments', { validFrom: '2026-03-01', rotation: [dayShift] })).status).toBe(201);
    const changeWindows = (breaks: { start: string; end: string }[]) =>
      withSecondInstance(app, async (second) => {
        const put = await second.request('PUT', `/api/shifts/${dayShift}`, { token: manager, body: { name: '白班', start: '08:00', end: '17:00', breaks } });
        expect(put.status).toBe(200);
      });
    const session = async (inAt: string, outAt: string, between: () => Promise<void>) => {
      app.clock.set(inAt);
      const started = await w.start(DEVICE);
      app.clock.set(outAt);
      expect((await w.finish(DEVICE)).status).toBe(200);
      const draft = (await w.draft(started.body.sessionId)).body;
      await between();
      const submitted = await w.submit(started.body.sessionId, [{ productId: product, finishedQty: 5, defectiveQty: 0 }]);
      expect(submitted.status).toBe(201);
      return { draft, report: (await call('GET', `/api/reports/${submitted.body.reportId}`)).body };
    };
    // The morning: the first instance keeps the worker's calendar and placement (by the draft, then the submission).
    const morning = await session('2026-03-09T08:00:00+08:00', '2026-03-09T12:30:00+08:00', async () => {});
    expect(morning.draft).toMatchObject({ breakMinutes: 30, breakSource: 'shift' });
    expect(morning.report).toMatchObject({ breakMinutes: 30, breakSource: 'shift' });
    expect(app.service.ctx.calendars?.get(phone, '2026-03-09')).toBeDefined();
    // The afternoon: the draft finds the kept calendar's heads unmoved (no lunch left: 0); then the windows change
    // through the second instance, and the submission decides on the calendar this instance kept: its guard refuses
    // (a head moved) and it decides again on the calendar as it now is.
    const afternoon = await session('2026-03-09T12:40:00+08:00', '2026-03-09T17:00:00+08:00', () => changeWindows([{ start: '12:45', end: '13:05' }]));
    expect(afternoon.draft).toMatchObject({ breakMinutes: 0, breakSource: 'shift' });
    expect(afternoon.report).toMatchObject({ breakMinutes: 20, breakSource: 'shift', shiftName: '白班' });
  });
});
