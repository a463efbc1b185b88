/**
 * Review queries (spec 4.7) on the `reports` read model (migrations/004, kept by the reports projection):
 * - `pendingReviews`: reports awaiting review, oldest submission first, with worker name, devices, times,
 *   lines, effective working time and plausibility flags; `flagged` true keeps only flagged reports,
 *   false only unflagged ones.
 * - `myReviews`: the reports an administrator approved or rejected, newest decision first, optionally only
 *   those decided between two local dates (inclusive, in APP_TIMEZONE).
 * A crew line's shares carry their amounts (queries/crew-amounts.ts).
 * Both see only the reports in the reader's scope (domain/scope.ts: the one rule).
 * Times ISO 8601 with the factory's offset; dates YYYY-MM-DD; effective working time in seconds
 * (clock-out − clock-in − breakMinutes × 60, decisions.md "Calculations").
 */
import type { Queryable } from '../db/transaction.ts';
import { withShareAmounts, type PricedLine } from './crew-amounts.ts';
import { withMessage, type PlausibilityFlag } from '../domain/plausibility.ts';
import { limitOffset, toPage, type Page, type PageQuery } from '../shared/page.ts';
import { toZonedIso } from '../time.ts';
import { scopeAndFilter, WHOLE_FACTORY, type Scope } from '../domain/scope.ts';

export interface ReportItem {
  reportId: string;
  employeePhone: string;
  employeeName: string | null;
  reportDate: string;
  status: 'pending' | 'approved' | 'rejected';
  devices: string[];
  clockInAt: string;
  clockOutAt: string;
  breakMinutes: number;
  effectiveSeconds: number;
  /** The lines; a crew line's shares with their amounts (queries/crew-amounts.ts). */
  lines: PricedLine[];
  /** The plausibility flags of the report's figures as they stand, each with its Chinese sentence. */
  flags: (PlausibilityFlag & { message: string })[];
  submittedAt: string;
  reviewedBy: string | null;
  reviewedAt: string | null;
  rejectReason: string | null;
  /** Where the break came from, and the shift's name when from a shift. */
  breakSource: 'shift' | 'default' | 'manager';
  shiftName: string | null;
  /** Where the report is counted: its workshop and team as of its date, with their current names. */
  workshopCode: string | null;
  workshopName: string | null;
  teamCode: string | null;
  teamName: string | null;
}

/** The columns `toItem` reads, from `reports r` (also used by report-browse.ts). */
export const COLUMNS = `r.report_id, r.employee_phone, r.report_date, r.status, r.devices, r.clock_in_at, r.clock_out_at,
  r.break_minutes, r.lines, r.flags, r.submitted_at, r.reviewed_by, r.reviewed_at, r.reject_reason, r.break_source, r.shift_name,
  (SELECT p.name FROM personnel p WHERE p.phone = r.employee_phone LIMIT 1) AS employee_name,
  r.workshop_code, r.team_code,
  (SELECT w.name FROM workshops w WHERE w.code = r.workshop_code) AS workshop_name,
  (SELECT t.name FROM teams t WHERE t.code = r.team_code) AS team_name`;

/** A `reports` row selected with COLUMNS as the answer's item, times in `timeZone`. */
export function toItem(r: any, timeZone: string): ReportItem {
  const clockIn = new Date(r.clock_in_at);
  const clockOut = new Date(r.clock_out_at);
  return {
    reportId: r.report_id,
    employeePhone: r.employee_phone,
    employeeName: r.employee_name ?? null,
    reportDate: r.report_date,
    status: r.status,
    devices: r.devices,
    clockInAt: toZonedIso(clockIn, timeZone),
    clockOutAt: toZonedIso(clockOut, timeZone),
    breakMinutes: Number(r.break_minutes),
    effectiveSeconds: (clockOut.getTime() - clockIn.getTime() - Number(r.break_minutes) * 60_000) / 1000,
    lines: r.lines,
    flags: (r.flags as PlausibilityFlag[]).map(withMessage),
    submittedAt: toZonedIso(new Date(r.submitted_at), timeZone),
    reviewedBy: r.reviewed_by ?? null,
    reviewedAt: r.reviewed_at ? toZonedIso(new Date(r.reviewed_at), timeZone) : null,
    rejectReason: r.reject_reason ?? null,
    breakSource: r.break_source,
    shiftName: r.break_source === 'shift' ? (r.shift_name ?? null) : null,
    workshopCode: r.workshop_code ?? null,
    workshopName: r.workshop_name ?? null,
    teamCode: r.team_code ?? null,
    teamName: r.team_name ?? null,
  };
}

/**
 * Pending reports in `scope`, oldest submission first; `flagged` true: only those with flags, false: only those
 * without.
 */
export function pendingReviews(q: Queryable, page: PageQuery, timeZone: string, flagged?: boolean, scope: Scope = WHOLE_FACTORY): Promise<Page<ReportItem>> {
  const args: unknown[] = [flagged ?? null];
  const where = `r.status = 'pending' AND ($1::boolean IS NULL OR (r.flags <> '[]'::jsonb) = $1) AND ${scopeAndFilter('r.workshop_code', 'r.team_code', scope, {}, args)}`;
  return reportsPage(q, where, args, 'r.submitted_at, r.report_id', page, timeZone);
}

/**
 * A page of `reports r` matching `where` (SQL over `args`, numbered from $1) in `order`, as items in `timeZone`
 * (also used by report-browse.ts).
 */
export async function reportsPage(q: Queryable, where: string, args: unknown[], order: string, page: PageQuery, timeZone: string): Promise<Page<ReportItem>> {
  const { limit, offset } = limitOffset(page);
  const n = args.length;
  const [rows, total] = await Promise.all([
    q.query(`SELECT ${COLUMNS} FROM reports r WHERE ${where} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`, [...args, limit, offset]),
    q.query(`SELECT count(*) AS total FROM reports r WHERE ${where}`, args),
  ]);
  return toPage(
    await withShareAmounts(
      q,
      rows.rows.map((r) => toItem(r, timeZone)),
    ),
    Number(total.rows[0].total),
    page,
  );
}

/**
 * Reports decided by `reviewerPhone` (and in `scope` now: a narrowed scope hides what was decided before),
 * newest decision first; with `range`, only those decided on a local date from startDate to endDate inclusive.
 */
export async function myReviews(
  q: Queryable,
  reviewerPhone: string,
  range: { startDate?: string; endDate?: string },
  page: PageQuery,
  timeZone: string,
  scope: Scope = WHOLE_FACTORY,
): Promise<Page<ReportItem>> {
  const where0 = `r.reviewed_by = $1 AND r.status IN ('approved', 'rejected')
    AND ($2::date IS NULL OR (r.reviewed_at AT TIME ZONE $4) >= $2::date)
    AND ($3::date IS NULL OR (r.reviewed_at AT TIME ZONE $4) < $3::date + 1)`;
  const args: unknown[] = [reviewerPhone, range.startDate ?? null, range.endDate ?? null, timeZone];
  const where = `${where0} AND ${scopeAndFilter('r.workshop_code', 'r.team_code', scope, {}, args)}`;
  return reportsPage(q, where, args, 'r.reviewed_at DESC, r.report_id', page, timeZone);
}
