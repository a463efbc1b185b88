/**
 * The worker's shift calendar around a local date, in SQL (issue #24 part B "Shifts and breaks"), shared by the
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
 */
import { membershipCoversSql } from '../domain/membership.ts';

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
