/**
 * Shifts and team calendars over HTTP (src/http/routes/shifts.ts): a manager
 * defines shifts, assigns a three-shift rotation, overrides days; the calendar, the events appended, the
 * read models (and their SQL rule `team_shift_on` equal to domain/shift-schedule.ts), a replay equal to the rows
 * written as the events came, and the refusals with their Chinese sentences.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayProjection } from '../../src/projections/replay.ts';
import { shiftsProjection } from '../../src/projections/shifts.ts';
import { scheduledOn } from '../../src/domain/shift-schedule.ts';
import { teamSchedule } from '../../src/queries/shifts.ts';
import { addDays } from '../../src/time.ts';
import { shiftDaysSql } from '../../src/shifts/sql.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
let manager: string;
let admin: string;
const ids: Record<string, string> = {};
const call = (method: string, path: string, body?: unknown, token = manager) => app.request(method, path, { token, body });

beforeAll(async () => {
  app = await startTestApp();
  manager = await app.login('13800000002', 'manager', '李经理');
  admin = await app.login('13800000004', 'admin', '王管理');
  // Part A's workshop and team the calendar belongs to.
  expect((await call('POST', '/api/workshops', { code: 'W1', name: '一车间' })).status).toBe(201);
  expect((await call('POST', '/api/teams', { code: 'A1', name: '甲班', workshopCode: 'W1', leaders: ['13800000002'] })).status).toBe(201);
});
afterAll(() => app.close());

describe('shifts', () => {
  it('a manager creates 早班, 中班, 夜班; an admin lists them with their windows', async () => {
    for (const [key, name, start, end, breaks] of [
      ['early', '早班', '06:00', '14:00', [{ start: '10:00', end: '10:30' }]],
      ['mid', '中班', '14:00', '22:00', [{ start: '18:00', end: '18:30' }, { start: '20:00', end: '20:10', paid: true }]],
      ['night', '夜班', '22:00', '06:00', [{ start: '00:00', end: '00:30' }]],
    ] as const) {
      const r = await call('POST', '/api/shifts', { name, start, end, breaks });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ name, start, end });
      ids[key] = r.body.shiftId;
    }
    const list = await call('GET', '/api/shifts', undefined, admin);
    expect(list.status).toBe(200);
    expect(list.body.items.map((s: any) => s.name)).toEqual(['中班', '夜班', '早班'].sort());
    expect(list.body.items.find((s: any) => s.name === '中班').breaks).toEqual([
      { start: '18:00', end: '18:30', paid: false },
      { start: '20:00', end: '20:10', paid: true },
    ]);
    const ev = await app.service.ctx.db.pool.query(`SELECT event_type AS type, data FROM events WHERE stream_id = $1`, [`shift-${ids.night}`]);
    expect(ev.rows.map((e) => e.type)).toEqual(['ShiftDefined']);
    expect(ev.rows[0].data).toMatchObject({ shiftId: ids.night, name: '夜班', start: '22:00', end: '06:00', breaks: [{ start: '00:00', end: '00:30' }] });
  });

  it('PUT changes a shift; an unknown one is 404, bad windows 422 with a sentence naming the window', async () => {
    const r = await call('PUT', `/api/shifts/${ids.early}`, { name: '早班', start: '06:00', end: '14:00', breaks: [{ start: '10:00', end: '10:20' }] });
    expect([r.status, r.body.breaks]).toEqual([200, [{ start: '10:00', end: '10:20', paid: false }]]);
    const missing = await call('PUT', '/api/shifts/nope', { name: 'x', start: '06:00', end: '14:00', breaks: [] });
    expect([missing.status, missing.body.error.code, missing.body.error.message]).toEqual([404, 'SHIFT_NOT_FOUND', '没有找到这个班次，请刷新班次列表']);
    const outside = await call('POST', '/api/shifts', { name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '13:00' }, { start: '17:30', end: '18:00' }] });
    expect([outside.status, outside.body.error.code, outside.body.error.message]).toEqual([422, 'INVALID_SHIFT', '第 2 个休息时段不在班次的上班时间内，请修改']);
    const badTime = await call('POST', '/api/shifts', { name: '白班', start: '8:00', end: '17:00', breaks: [] });
    expect([badTime.status, badTime.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(badTime.body.error.message).toContain('上班时间');
  });

  it('a worker may not read shifts (403)', async () => {
    const worker = await app.login('13800000001', 'worker', '张三');
    expect((await call('GET', '/api/shifts', undefined, worker)).status).toBe(403);
  });
});

describe('a team’s calendar', () => {
  it('a three-shift rotation weekly from Monday 2026-03-02, a day off and another shift by override, one removed', async () => {
    const a = await call('POST', '/api/teams/A1/shift-assignments', { validFrom: '2026-03-02', rotation: [ids.early, ids.mid, ids.night], daysEach: 7 });
    expect([a.status, a.body]).toEqual([201, { validFrom: '2026-03-02', rotation: [ids.early, ids.mid, ids.night], daysEach: 7 }]);
    expect((await call('PUT', '/api/teams/A1/shift-overrides/2026-03-08', { shiftId: null })).status).toBe(204);
    expect((await call('PUT', '/api/teams/A1/shift-overrides/2026-03-10', { shiftId: ids.night })).status).toBe(204);
    expect((await call('PUT', '/api/teams/A1/shift-overrides/2026-03-11', { shiftId: ids.night })).status).toBe(204);
    expect((await call('DELETE', '/api/teams/A1/shift-overrides/2026-03-11')).status).toBe(204);
    expect((await call('DELETE', '/api/teams/A1/shift-overrides/2026-03-12')).status).toBe(204); // none: nothing to do

    const cal = await call('GET', '/api/teams/A1/shift-calendar?month=2026-03', undefined, admin);
    expect(cal.status).toBe(200);
    const byDate = Object.fromEntries(cal.body.items.map((d: any) => [d.date, [d.shift?.name ?? null, d.source]]));
    expect(cal.body.items).toHaveLength(31);
    expect(byDate['2026-03-01']).toEqual([null, 'none']);
    expect(byDate['2026-03-02']).toEqual(['早班', 'assignment']);
    expect(byDate['2026-03-08']).toEqual([null, 'override']);
    expect(byDate['2026-03-09']).toEqual(['中班', 'assignment']);
    expect(byDate['2026-03-10']).toEqual(['夜班', 'override']);
    expect(byDate['2026-03-11']).toEqual(['中班', 'assignment']);
    expect(byDate['2026-03-16']).toEqual(['夜班', 'assignment']);
    expect(byDate['2026-03-23']).toEqual(['早班', 'assignment']);
    const types = await app.service.ctx.db.pool.query(`SELECT event_type AS type FROM events WHERE stream_id = 'team-shifts-A1' ORDER BY stream_version`);
    expect(types.rows.map((r) => r.type)).toEqual(['ShiftAssigned', 'ShiftOverridden', 'ShiftOverridden', 'ShiftOverridden', 'ShiftOverrideRemoved']);
  });

  it('GET shift-schedule: the assignments, the one in force today (the service clock) and the overrides from today on', async () => {
    app.clock.set('2026-03-10T09:00:00+08:00');
    const later = await call('POST', '/api/teams/A1/shift-assignments', { validFrom: '2026-04-01', rotation: [ids.night], daysEach: 1 });
    expect(later.status).toBe(201);
    const r = await call('GET', '/api/teams/A1/shift-schedule', undefined, admin);
    expect(r.status).toBe(200);
    const weekly = { validFrom: '2026-03-02', rotation: [ids.early, ids.mid, ids.night], daysEach: 7 };
    expect(r.body).toEqual({
      today: '2026-03-10',
      assignments: [weekly, { validFrom: '2026-04-01', rotation: [ids.night], daysEach: 1 }],
      inForce: weekly,
      // 2026-03-08 (a day off) is past; 2026-03-10 (夜班) is today.
      overrides: [{ date: '2026-03-10', shiftId: ids.night }],
    });
    app.clock.set('2026-04-02T09:00:00+08:00');
    const april = await call('GET', '/api/teams/A1/shift-schedule');
    expect([april.body.inForce, april.body.overrides]).toEqual([{ validFrom: '2026-04-01', rotation: [ids.night], daysEach: 1 }, []]);
    expect((await call('GET', '/api/teams/ZZ/shift-schedule')).body.error.code).toBe('TEAM_NOT_FOUND');
    // A team with no 排班 yet: nothing in force.
    expect((await call('POST', '/api/teams', { code: 'B1', name: '乙班', workshopCode: 'W1', leaders: ['13800000002'] })).status).toBe(201);
    expect((await call('GET', '/api/teams/B1/shift-schedule')).body).toEqual({ today: '2026-04-02', assignments: [], inForce: null, overrides: [] });
  });

  it('the SQL rule team_shift_on gives what domain/shift-schedule.ts gives, every day of 6 weeks', async () => {
    const pool = app.service.ctx.db.pool;
    const schedule = await teamSchedule(pool, 'A1');
    const dates = Array.from({ length: 42 }, (_, i) => addDays('2026-02-28', i));
    const r = await pool.query(`SELECT d::text AS date, team_shift_on('A1', d::date) AS shift_id FROM unnest($1::text[]) d`, [dates]);
    expect(r.rows.map((x) => [x.date, x.shift_id])).toEqual(dates.map((d) => [d, scheduledOn(schedule, d).shiftId]));
  });

  it('the worker calendar SQL (src/shifts/sql.ts) names the same shifts, every day of 6 weeks, for a member of the team', async () => {
    const pool = app.service.ctx.db.pool;
    await app.login('13900000077', 'worker', '赵六');
    expect((await call('POST', '/api/memberships', { phone: '13900000077', teamCode: 'A1', validFrom: '2026-02-01' })).status).toBe(200);
    const schedule = await teamSchedule(pool, 'A1');
    const dates = Array.from({ length: 42 }, (_, i) => addDays('2026-02-28', i));
    const got: [string, string | null][] = [];
    for (const d of dates) {
      const days = (await pool.query(`SELECT ${shiftDaysSql('$1::text', '$2::date')} AS days`, ['13900000077', d])).rows[0].days;
      expect(days.map((x: any) => x.date)).toEqual([addDays(d, -1), d, addDays(d, 1)]);
      got.push([d, days[1].shift?.shiftId ?? null]);
    }
    expect(got).toEqual(dates.map((d) => [d, scheduledOn(schedule, d).shiftId]));
  });

  it('refusals: an unknown team, an unknown shift, an empty rotation, a bad month, a bad date', async () => {
    const noTeam = await call('POST', '/api/teams/ZZ/shift-assignments', { validFrom: '2026-04-01', rotation: [ids.early] });
    expect([noTeam.status, noTeam.body.error.code, noTeam.body.error.details]).toEqual([404, 'TEAM_NOT_FOUND', { code: 'ZZ' }]);
    expect((await call('GET', '/api/teams/ZZ/shift-calendar?month=2026-03')).status).toBe(404);
    const unknown = await call('POST', '/api/teams/A1/shift-assignments', { validFrom: '2026-04-01', rotation: ['ghost'] });
    expect([unknown.status, unknown.body.error.code, unknown.body.error.message]).toEqual([422, 'UNKNOWN_SHIFT', '所选班次不存在，请刷新班次列表后重新选择']);
    const allOff = await call('POST', '/api/teams/A1/shift-assignments', { validFrom: '2026-04-01', rotation: [null, null] });
    expect([allOff.status, allOff.body.error.code]).toEqual([422, 'INVALID_ROTATION']);
    const empty = await call('POST', '/api/teams/A1/shift-assignments', { validFrom: '2026-04-01', rotation: [] });
    expect([empty.status, empty.body.error.message]).toEqual([422, expect.stringContaining('轮班顺序')]);
    expect((await call('GET', '/api/teams/A1/shift-calendar?month=2026-13')).status).toBe(422);
    expect((await call('PUT', '/api/teams/A1/shift-overrides/2026-02-30', { shiftId: null })).status).toBe(422);
    expect((await call('PUT', '/api/teams/A1/shift-overrides/2026-03-20', { shiftId: 'ghost' })).status).toBe(422);
  });

  it('a replay of the shift projection writes the same rows as the commands did', async () => {
    const pool = app.service.ctx.db.pool;
    const tables = async () => ({
      shifts: (await pool.query(`SELECT * FROM shifts ORDER BY shift_id`)).rows,
      assignments: (await pool.query(`SELECT * FROM team_shift_assignments ORDER BY team_code, valid_from`)).rows,
      overrides: (await pool.query(`SELECT * FROM team_shift_overrides ORDER BY team_code, date`)).rows,
    });
    const incremental = await tables();
    expect(incremental.overrides).toHaveLength(2);
    await pool.query(`DELETE FROM team_shift_overrides`);
    await pool.query(`UPDATE shifts SET name = 'x'`);
    await replayProjection(pool, app.service.ctx.store, shiftsProjection, 2);
    expect(await tables()).toEqual(incremental);
  });
});
