/**
 * The shift deciders and the team calendar rule (commands/shifts/decider.ts,
 * domain/shift-schedule.ts), given-when-then: given the stream's events, when a command, then events or the
 * refusal as the client gets it.
 */
import { describe, expect, it } from 'vitest';
import { shiftDecider, teamShiftsDecider, type TeamShiftCommand } from '../../src/commands/shifts/decider.ts';
import { scheduledOn, type TeamSchedule } from '../../src/domain/shift-schedule.ts';
import { addDays } from '../../src/time.ts';
import { scenario } from '../helpers/gwt.ts';

const AT = '2026-03-01T02:00:00.000Z';
const day = { shiftId: 'day', name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '13:00' }] };
const defined = { type: 'ShiftDefined' as const, data: { ...day, at: AT } };

describe('shift decider', () => {
  const s = scenario(shiftDecider);
  it('given nothing, when DefineShift, then ShiftDefined (name trimmed)', () => {
    expect(s.given([]).when({ type: 'DefineShift', ...day, name: ' 白班 ', at: AT }).events).toEqual([defined]);
  });
  it('given a shift, when ChangeShift with new windows, then ShiftChanged with the whole definition', () => {
    const change = { ...day, end: '17:30', breaks: [{ start: '12:00', end: '12:30' }, { start: '15:00', end: '15:10', paid: true }] };
    expect(s.given([defined]).when({ type: 'ChangeShift', ...change, at: AT }).events).toEqual([{ type: 'ShiftChanged', data: { ...change, at: AT } }]);
  });
  it('given a shift, when ChangeShift to the same definition, then nothing', () => {
    expect(s.given([defined]).when({ type: 'ChangeShift', ...day, at: AT }).events).toEqual([]);
  });
  it('given nothing, when ChangeShift, then 404 SHIFT_NOT_FOUND', () => {
    const r = s.given([]).when({ type: 'ChangeShift', ...day, at: AT }).error;
    expect([r.status, r.code, r.message]).toEqual([404, 'SHIFT_NOT_FOUND', '没有找到这个班次，请刷新班次列表']);
  });
  it.each([
    ['an empty name', { name: '  ' }, { problem: 'name', max: 30 }, '请填写班次名称（1–30 个字）'],
    ['a window outside the shift', { breaks: [{ start: '18:00', end: '18:30' }] }, { problem: 'windowOutside', window: 0 }, '第 1 个休息时段不在班次的上班时间内，请修改'],
    [
      'overlapping windows',
      { breaks: [{ start: '12:00', end: '13:00' }, { start: '12:30', end: '12:45' }] },
      { problem: 'windowsOverlap', window: 1 },
      '第 2 个休息时段与其他休息时段重叠，请修改',
    ],
  ])('when DefineShift with %s, then 422 INVALID_SHIFT', (_, change, details, message) => {
    const r = s.given([]).when({ type: 'DefineShift', ...day, ...change, at: AT }).error;
    expect([r.status, r.code, r.details, r.message]).toEqual([422, 'INVALID_SHIFT', details, message]);
  });
});

describe('team shifts decider', () => {
  const t = scenario(teamShiftsDecider);
  const base = { teamCode: 'A1', at: AT };
  const known = { teamExists: true };
  const assign = (validFrom: string, rotation: (string | null)[], daysEach = 1): TeamShiftCommand => ({ type: 'AssignShifts', ...base, ...known, validFrom, rotation, daysEach, knownShiftIds: ['day', 'mid', 'night'] });
  const assigned = (validFrom: string, rotation: (string | null)[], daysEach = 1, replaced = false) => ({ type: 'ShiftAssigned' as const, data: { ...base, validFrom, rotation, daysEach, replaced } });

  it('given nothing, when AssignShifts one shift, then ShiftAssigned', () => {
    expect(t.given([]).when(assign('2026-03-02', ['day'])).events).toEqual([assigned('2026-03-02', ['day'])]);
  });
  it('given an assignment, when the same again, then nothing; when another rotation on the same date, then replaced', () => {
    expect(t.given([assigned('2026-03-02', ['day'])]).when(assign('2026-03-02', ['day'])).events).toEqual([]);
    expect(t.given([assigned('2026-03-02', ['day'])]).when(assign('2026-03-02', ['day', 'night'], 7)).events).toEqual([assigned('2026-03-02', ['day', 'night'], 7, true)]);
  });
  it('when the team does not exist, then 404 TEAM_NOT_FOUND', () => {
    const r = t.given([]).when({ ...assign('2026-03-02', ['day']), teamExists: false } as TeamShiftCommand).error;
    expect([r.status, r.code, r.details]).toEqual([404, 'TEAM_NOT_FOUND', { code: 'A1' }]);
  });
  it('when a rotation names an unknown shift, then 422 UNKNOWN_SHIFT', () => {
    const r = t.given([]).when(assign('2026-03-02', ['day', 'ghost'])).error;
    expect([r.status, r.code, r.details]).toEqual([422, 'UNKNOWN_SHIFT', { shiftId: 'ghost' }]);
  });
  it.each([
    ['only days off', ['day'].map(() => null), 1, 'rotation'],
    ['daysEach 0', ['day'], 0, 'daysEach'],
    ['daysEach 32', ['day'], 32, 'daysEach'],
  ])('when a rotation of %s, then 422 INVALID_ROTATION', (_, rotation, daysEach, field) => {
    const r = t.given([]).when(assign('2026-03-02', rotation as (string | null)[], daysEach)).error;
    expect([r.status, r.code, r.details.field]).toEqual([422, 'INVALID_ROTATION', field]);
  });
  it('overrides: set, the same again is nothing, a day off, removed; removing none is nothing', () => {
    const over = (date: string, shiftId: string | null): TeamShiftCommand => ({ type: 'OverrideShift', ...base, ...known, date, shiftId, knownShiftIds: ['day', 'night'] });
    const overridden = { type: 'ShiftOverridden' as const, data: { ...base, date: '2026-03-07', shiftId: 'night' } };
    expect(t.given([]).when(over('2026-03-07', 'night')).events).toEqual([overridden]);
    expect(t.given([overridden]).when(over('2026-03-07', 'night')).events).toEqual([]);
    expect(t.given([overridden]).when(over('2026-03-07', null)).events).toEqual([{ ...overridden, data: { ...overridden.data, shiftId: null } }]);
    expect(t.given([overridden]).when({ type: 'RemoveOverride', ...base, ...known, date: '2026-03-07' }).events).toEqual([{ type: 'ShiftOverrideRemoved', data: { ...base, date: '2026-03-07' } }]);
    expect(t.given([]).when({ type: 'RemoveOverride', ...base, ...known, date: '2026-03-07' }).events).toEqual([]);
  });
});

describe('the shift of a team on a date', () => {
  it('a three-shift rotation [早, 中, 夜] with daysEach 7 rotates weekly over 3 weeks, and back to 早 in week 4', () => {
    const schedule: TeamSchedule = { assignments: [{ validFrom: '2026-03-02', rotation: ['early', 'mid', 'night'], daysEach: 7 }], overrides: {} };
    const weeks = [0, 1, 2, 3].map((w) => [0, 1, 2, 3, 4, 5, 6].map((d) => scheduledOn(schedule, addDays('2026-03-02', w * 7 + d)).shiftId));
    expect(weeks).toEqual([Array(7).fill('early'), Array(7).fill('mid'), Array(7).fill('night'), Array(7).fill('early')]);
    expect(scheduledOn(schedule, '2026-03-01')).toEqual({ shiftId: null, source: 'none' });
  });
  it('an override wins on its date only; a later assignment takes over from its validFrom; a rotation’s day off is null', () => {
    const schedule: TeamSchedule = {
      assignments: [
        { validFrom: '2026-03-02', rotation: ['day', 'day', 'day', 'day', 'day', null, null], daysEach: 1 },
        { validFrom: '2026-03-16', rotation: ['night'], daysEach: 1 },
      ],
      overrides: { '2026-03-04': 'night', '2026-03-05': null },
    };
    const table: [string, { shiftId: string | null; source: string }][] = [
      ['2026-03-02', { shiftId: 'day', source: 'assignment' }],
      ['2026-03-04', { shiftId: 'night', source: 'override' }],
      ['2026-03-05', { shiftId: null, source: 'override' }],
      ['2026-03-07', { shiftId: null, source: 'assignment' }],
      ['2026-03-09', { shiftId: 'day', source: 'assignment' }],
      ['2026-03-15', { shiftId: null, source: 'assignment' }],
      ['2026-03-16', { shiftId: 'night', source: 'assignment' }],
    ];
    for (const [date, expected] of table) expect([date, scheduledOn(schedule, date)]).toEqual([date, expected]);
  });
});
