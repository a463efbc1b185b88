/**
 * Shifts and team calendars as the console reads them, from the read models of
 * migrations/014 (src/projections/shifts.ts):
 * - `listShifts(q)`: every shift, by name, with its break windows (local times `HH:mm`);
 * - `teamSchedule(q, teamCode)`: the team's assignments (by validFrom) and overrides as domain/shift-schedule.ts
 *   reads them;
 * - `teamScheduleAsItIs(q, teamCode, today)`: what the 排班 form shows before a change: every assignment, the one in
 *   force on `today` (local date) and the overrides from `today` on, each with its shift's name;
 * - `shiftCalendar(q, teamCode, month)`: each local date of the month `YYYY-MM` with the shift the team works and
 *   why (`override`, `assignment`, `none`; domain/shift-schedule.ts `scheduledOn`), a day off as `shift: null`.
 */
import type { Queryable } from '../db/transaction.ts';
import { domainError } from '../domain/errors.ts';
import type { BreakWindow } from '../domain/shift-breaks.ts';
import { assignmentOn, scheduledOn, type ScheduleSource, type ShiftAssignment, type TeamSchedule } from '../domain/shift-schedule.ts';
import { monthDates } from '../domain/period.ts';
import { addDays } from '../time.ts';

export interface ShiftItem {
  shiftId: string;
  name: string;
  start: string;
  end: string;
  breaks: BreakWindow[];
}

const itemOf = (r: any): ShiftItem => ({ shiftId: r.shift_id, name: r.name, start: r.start_time, end: r.end_time, breaks: r.breaks });

/** Every shift, by name then id. */
export async function listShifts(q: Queryable): Promise<ShiftItem[]> {
  const r = await q.query(`SELECT shift_id, name, start_time, end_time, breaks FROM shifts ORDER BY name, shift_id`);
  return r.rows.map(itemOf);
}

/** The team's schedule: assignments (validFrom ascending) and overrides (all dates). */
export async function teamSchedule(q: Queryable, teamCode: string): Promise<TeamSchedule & { assignments: ShiftAssignment[] }> {
  const r = await q.query(
    `SELECT (SELECT json_agg(json_build_object('validFrom', valid_from::text, 'rotation', rotation, 'daysEach', days_each) ORDER BY valid_from)
               FROM team_shift_assignments WHERE team_code = $1) AS assignments,
            (SELECT json_object_agg(date::text, shift_id) FROM team_shift_overrides WHERE team_code = $1) AS overrides`,
    [teamCode],
  );
  return { assignments: r.rows[0].assignments ?? [], overrides: r.rows[0].overrides ?? {} };
}

/** A team's schedule as the console shows it (`teamScheduleAsItIs`). */
export interface ScheduleAsItIs {
  /** The local date the answer was made for (the service clock in APP_TIMEZONE). */
  today: string;
  /** Every assignment, validFrom ascending. */
  assignments: ShiftAssignment[];
  /** The assignment in force on `today`, or null (none yet, or only later ones). */
  inForce: ShiftAssignment | null;
  /** Overrides on `today` and later, by date: the shift (null: a day off). */
  overrides: { date: string; shiftId: string | null }[];
}

/** The team's assignments and its overrides from `today` on (module docstring). Throws TEAM_NOT_FOUND. */
export async function teamScheduleAsItIs(q: Queryable, teamCode: string, today: string): Promise<ScheduleAsItIs> {
  if (!(await q.query(`SELECT 1 FROM teams WHERE code = $1`, [teamCode])).rows.length) throw domainError('TEAM_NOT_FOUND', { code: teamCode });
  const { assignments, overrides } = await teamSchedule(q, teamCode);
  return {
    today,
    assignments,
    inForce: assignmentOn(assignments, today) ?? null,
    overrides: Object.entries(overrides)
      .filter(([date]) => date >= today)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([date, shiftId]) => ({ date, shiftId })),
  };
}

export interface CalendarDay {
  date: string;
  shift: Omit<ShiftItem, 'breaks'> | null;
  source: ScheduleSource;
}

/** The team's month, day by day (module docstring). Throws TEAM_NOT_FOUND. */
export async function shiftCalendar(q: Queryable, teamCode: string, month: string): Promise<CalendarDay[]> {
  if (!(await q.query(`SELECT 1 FROM teams WHERE code = $1`, [teamCode])).rows.length) throw domainError('TEAM_NOT_FOUND', { code: teamCode });
  const [schedule, shifts] = await Promise.all([teamSchedule(q, teamCode), listShifts(q)]);
  const byId = new Map(shifts.map((s) => [s.shiftId, s]));
  const { first, last } = monthDates(month);
  const days: CalendarDay[] = [];
  for (let date = first; date <= last; date = addDays(date, 1)) {
    const { shiftId, source } = scheduledOn(schedule, date);
    const s = shiftId === null ? undefined : byId.get(shiftId);
    days.push({ date, shift: s ? { shiftId: s.shiftId, name: s.name, start: s.start, end: s.end } : null, source });
  }
  return days;
}
