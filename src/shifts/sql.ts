/**
 * The worker's shift calendar around a local date, in SQL, shared by the
 * submission's facts (commands/facts.ts: read, cached and guarded) and the draft (queries/report-draft.ts), so that
 * both compute the same break.
 *
 * `shiftDaysSql(phone, date)`: a scalar subquery giving a JSON array of three ShiftDay objects
 * (domain/shift-breaks.ts) for the local dates date−1, date, date+1 in order: `{date, teamCode, shift}` where
 * `teamCode` is the worker's team on that date (the membership rule, domain/membership.ts
 * `membershipCoversSql`) and `shift` that team's shift on
 * that date (the rule of migrations/014 `team_shift_on` and domain/shift-schedule.ts, written out as joins so that
 * each day costs a few index look-ups: the override, else the rotation) with its times, windows and stream version,
 * or null. `phone` and `date` are SQL expressions (text, date). A test compares it with the domain rule.
 *
 * `calendarSql(phone, date)`: the same days with the heads of the streams they were read from (events/heads.ts):
 * the worker's `member-<phone>`, the `team-shifts-<team>` of each team of the days and the `shift-<id>` of each
 * shift, as one JSON object `{days, heads}`. What a decision or a cache keeps: the days hold exactly while those
 * heads do.
 */
import { membershipCoversSql } from '../domain/membership.ts';
import { streamPrefixes } from '../events/catalog.ts';
import { streamHeadsSql } from '../events/heads.ts';
import type { Queryable } from '../db/transaction.ts';
import type { KeptCalendar } from './calendar-cache.ts';

/** The worker `phone`'s three ShiftDays around `date` as one JSON array, in SQL (module docstring). */
export const shiftDaysSql = (phone: string, date: string): string =>
  `(SELECT json_agg(json_build_object('date', d.day::text, 'teamCode', m.team_code, 'shift',
            CASE WHEN sh.shift_id IS NULL THEN NULL
                 ELSE json_build_object('shiftId', sh.shift_id, 'name', sh.name, 'start', sh.start_time, 'end', sh.end_time,
                                        'breaks', sh.breaks, 'version', sh.version) END) ORDER BY d.day)
      FROM (SELECT (${date} + k)::date AS day FROM generate_series(-1, 1) AS k) d
      LEFT JOIN LATERAL (SELECT m.team_code FROM team_memberships m
                          WHERE m.phone = ${phone} AND ${membershipCoversSql('m', 'd.day')}
                          ORDER BY m.valid_from DESC LIMIT 1) m ON true
      LEFT JOIN team_shift_overrides o ON o.team_code = m.team_code AND o.date = d.day
      LEFT JOIN LATERAL (SELECT a.rotation ->> (((d.day - a.valid_from) / a.days_each) % jsonb_array_length(a.rotation))::int AS shift_id
                           FROM team_shift_assignments a WHERE a.team_code = m.team_code AND a.valid_from <= d.day
                          ORDER BY a.valid_from DESC LIMIT 1) a ON true
      LEFT JOIN shifts sh ON sh.shift_id = CASE WHEN o.team_code IS NOT NULL THEN o.shift_id ELSE a.shift_id END)`;

/** SQL: the ids of the streams the calendar `days` (a JSON expression of shiftDaysSql) of `phone` was read from. */
const calendarStreamsSql = (phone: string, days: string) =>
  `ARRAY['${streamPrefixes.member}' || ${phone}]
   || ARRAY(SELECT '${streamPrefixes.teamShifts}' || (x ->> 'teamCode') FROM json_array_elements(${days}) x)
   || ARRAY(SELECT '${streamPrefixes.shift}' || (x -> 'shift' ->> 'shiftId') FROM json_array_elements(${days}) x)`;

/** The worker `phone`'s three ShiftDays around `date` with their stream heads, `{days, heads}` (module docstring). */
export const calendarSql = (phone: string, date: string): string =>
  `(SELECT json_build_object('days', c.days, 'heads', ${streamHeadsSql(calendarStreamsSql(phone, 'c.days'))})
      FROM (SELECT ${shiftDaysSql(phone, date)} AS days OFFSET 0) c)`; // OFFSET 0: the days computed once, not once per use

/** Reads the worker `phone`'s calendar around local date `date` (`YYYY-MM-DD`) with its heads, in one statement. */
export async function readCalendar(q: Queryable, phone: string, date: string): Promise<KeptCalendar> {
  const c = (await q.query(`SELECT ${calendarSql('$1::text', '$2::date')} AS c`, [phone, date])).rows[0].c;
  return { date, days: c.days ?? [], heads: c.heads };
}
