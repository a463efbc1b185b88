/**
 * Crew work in SQL (班组报工; domain/crew-split.ts, decisions.md "Crew work"), shared by the submission's facts
 * (commands/facts.ts: read, and the coverage guarded in the append) and the draft (queries/report-draft.ts), so that
 * both see the same crew.
 *
 * - `crewPresenceSql(from, to, devices, date)`: a JSON array of the sessions of any worker that overlap the window
 *   [from, to) and used one of `devices` (not abandoned: their end is unknown), each `{phone, name, coefficient,
 *   steps}`: the worker's name, their coefficient (系数, hundredths) on local date `date` (the membership rule,
 *   domain/membership.ts; 100 in no team) and the session's clocking steps (ClockedIn, DeviceSwitched, ClockedOut)
 *   in stream order, from which domain/crew-presence.ts computes the seconds on each device. Sessions are looked up
 *   by clock-in from `from` − `lookBackHours` (sessions never last longer: SESSION_MAX_HOURS) through the sessions'
 *   index by clock-in (`sessions_by_clock_in`, migrations/030). Presence inside a past window never changes, so it needs no guard.
 * - `crewCoverageSql(from, to, productIds, phones)`: the rows (report_id, submitter, submitter_name, product_id,
 *   phone, crew) of the reports not rejected whose window overlaps [from, to) and whose line of one of `productIds`
 *   counts one of `phones`: a crew line counts each member of its shares, any other line its submitter. Whatever
 *   counts a person for a product on that device then is what a new line must not count again. Reports are looked
 *   up as those the phones submitted (`reports_by_worker_date`, migrations/004) and the crew lines naming one of them
 *   (`reports_by_crew`, migrations/021), dated within a day or two of the window (a report is dated the day it is
 *   submitted, on or after the day its window ends), rather than every report of those dates.
 *
 * Arguments are SQL expressions (timestamptz, text[], bigint[], date).
 */

/** Sessions overlapping a window with their steps, as one JSON array (module docstring). */
export const crewPresenceSql = (from: string, to: string, devices: string, date: string, lookBackHours: string): string =>
  `(SELECT COALESCE(json_agg(json_build_object(
            'phone', s.employee_phone,
            'name', (SELECT min(p.name) FROM personnel p WHERE p.phone = s.employee_phone),
            'coefficient', COALESCE((SELECT m.coefficient FROM team_memberships m
                                      WHERE m.phone = s.employee_phone AND m.valid_from <= ${date} AND (m.valid_to IS NULL OR m.valid_to >= ${date})
                                      ORDER BY m.valid_from DESC LIMIT 1), 100),
            'steps', (SELECT json_agg(json_build_object('type', e.event_type, 'deviceNo', e.data ->> 'deviceNo', 'at', e.data ->> 'at') ORDER BY e.stream_version)
                        FROM events e
                       WHERE e.stream_id = 'worker-' || s.employee_phone AND e.stream_version >= s.opened_version
                         AND e.event_type IN ('ClockedIn', 'DeviceSwitched', 'ClockedOut') AND e.data ->> 'sessionId' = s.session_id::text))
            ORDER BY s.clock_in_at, s.employee_phone), '[]'::json)
      FROM sessions s
     WHERE s.clock_in_at >= ${from} - make_interval(hours => ${lookBackHours}) AND s.clock_in_at < ${to}
       AND (s.clock_out_at IS NULL OR s.clock_out_at > ${from}) AND s.status <> 'abandoned' AND s.devices && ${devices})`;

/** The lines that already count some of `phones` for some of `productIds` in the window (module docstring). */
export const crewCoverageSql = (from: string, to: string, productIds: string, phones: string): string =>
  `SELECT r.report_id::text AS report_id, r.employee_phone AS submitter,
          (SELECT min(p.name) FROM personnel p WHERE p.phone = r.employee_phone) AS submitter_name,
          (l ->> 'productId')::bigint AS product_id, m.phone, (l -> 'shares') IS NOT NULL AS crew
     FROM reports r
     CROSS JOIN LATERAL jsonb_array_elements(r.lines) l
     CROSS JOIN LATERAL (SELECT x ->> 'phone' AS phone
                           FROM jsonb_array_elements(COALESCE(l -> 'shares', jsonb_build_array(jsonb_build_object('phone', r.employee_phone)))) x) m
    WHERE r.report_id IN (
            SELECT o.report_id FROM reports o
             WHERE o.employee_phone = ANY(${phones}) AND o.report_date BETWEEN (${from})::date - 1 AND (${to})::date + 2
            UNION
            SELECT c.report_id FROM unnest(${phones}) AS q(phone)
              JOIN reports c ON jsonb_path_exists(c.lines, '$[*].shares')
                            AND c.lines @> jsonb_build_array(jsonb_build_object('shares', jsonb_build_array(jsonb_build_object('phone', q.phone))))
             WHERE c.report_date BETWEEN (${from})::date - 1 AND (${to})::date + 2)
      AND r.status <> 'rejected' AND r.clock_in_at < ${to} AND r.clock_out_at > ${from}
      AND (l ->> 'productId')::bigint = ANY(${productIds}) AND m.phone = ANY(${phones})`;

/**
 * The crew lines of others that count `person` for some of `productIds` in the window: crewCoverageSql's rows of
 * crew lines only, for one person (migrations/025 `crew_lines_naming`, on the index of the reports with crew lines).
 * The ids are taken from a FROM item, never passed as the argument itself: an argument holding a sub-select keeps
 * PostgreSQL from inlining the function, which then runs as a separate plan on every call (twice the draft's cost).
 */
export const crewLinesNamingSql = (person: string, from: string, to: string, productIds: string): string =>
  `SELECT n.report_id, n.submitter, n.submitter_name, n.product_id, n.phone, n.crew
     FROM (SELECT ${productIds} AS ids) x CROSS JOIN LATERAL crew_lines_naming(${person}, ${from}, ${to}, x.ids) n`;

/** One session's presence as `crewPresenceSql` gives it. */
export interface CrewSessionRow {
  readonly phone: string;
  readonly name: string | null;
  /** Hundredths. */
  readonly coefficient: number;
  readonly steps: readonly { type: 'ClockedIn' | 'DeviceSwitched' | 'ClockedOut'; deviceNo: string; at: string }[];
}

/** One row of `crewCoverageSql`. */
export interface CoverageRow {
  readonly reportId: string;
  readonly submitter: string;
  readonly submitterName: string | null;
  readonly productId: number;
  readonly phone: string;
  /** True when the covering line is a crew line. */
  readonly crew: boolean;
}

/** A coverage row from its SQL row. */
export const coverageRow = (r: Record<string, any>): CoverageRow => ({
  reportId: r.report_id,
  submitter: r.submitter,
  submitterName: r.submitter_name ?? null,
  productId: Number(r.product_id),
  phone: r.phone,
  crew: r.crew === true,
});
