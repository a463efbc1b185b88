/**
 * The worker's shift calendar around a local date, in SQL (issue #24 part B "Shifts and breaks"), shared by the
 * submission's facts (commands/facts.ts: read, cached and guarded) and the draft (queries/report-draft.ts), so that
 * both compute the same break.
 *
 * `shiftDaysSql(phone, date)`: a scalar subquery giving a JSON array of three ShiftDay objects
 * (domain/shift-breaks.ts) for the local dates date−1, date, date+1 in order: `{date, teamCode, shift}` where
 * `teamCode` is the worker's team on that date (the membership rule of part A, queries/organization.ts
 * `teamOnDateSql`: valid_from <= date and (valid_to IS NULL or valid_to >= date)) and `shift` that team's shift on
 * that date (migrations/014 `team_shift_on`: the override, else the rotation) with its times, windows and stream
 * version, or null. `phone` and `date` are SQL expressions (text, date).
 */
export const shiftDaysSql = (phone: string, date: string): string =>
  `(SELECT json_agg(json_build_object('date', x.day::text, 'teamCode', x.team, 'shift',
            (SELECT json_build_object('shiftId', sh.shift_id, 'name', sh.name, 'start', sh.start_time, 'end', sh.end_time,
                                      'breaks', sh.breaks, 'version', sh.version)
               FROM shifts sh WHERE sh.shift_id = team_shift_on(x.team, x.day))) ORDER BY x.day)
      FROM (SELECT d.day,
                   (SELECT m.team_code FROM team_memberships m
                     WHERE m.phone = ${phone} AND m.valid_from <= d.day AND (m.valid_to IS NULL OR m.valid_to >= d.day)
                     ORDER BY m.valid_from DESC LIMIT 1) AS team
              FROM (SELECT (${date} + k)::date AS day FROM generate_series(-1, 1) AS k) d) x)`;
