/**
 * GET /api/reports/mine (spec 4.6; decisions.md "Reports and review", "HTTP conventions"): the worker's own
 * reports, newest report date first (then newest submission), with lines as they stand now (corrected lines
 * after an approval with correction), status and reject reason; paginated `{items, page, pageSize, total}`.
 * Filters: `startDate`/`endDate` (inclusive local dates `YYYY-MM-DD` of report_date), `status`, `reportId` (that
 * report only, when it is the worker's: the page a review-result message opens).
 * Served by the index reports_by_worker_date. Crew work (班组报工): another's report whose crew line counts the worker
 * (the worker among a line's `shares`) is the worker's too, with `submittedBy` (found through reports_by_crew,
 * migrations/021); its lines carry the shares, the crew total beside the worker's share.
 */
import type { Queryable } from '../db/transaction.ts';
import type { ReportLine } from '../domain/report-line.ts';
import { limitOffset, toPage, type Page, type PageQuery } from '../shared/page.ts';

export type ReportStatus = 'pending' | 'approved' | 'rejected';

export interface MyReportsFilter extends PageQuery {
  startDate?: string;
  endDate?: string;
  status?: ReportStatus;
  /** One report (a UUID): the page holds it when it is the worker's, else nothing. */
  reportId?: string;
}

export interface MyReport {
  reportId: string;
  sessionId: string;
  reportDate: string;
  status: ReportStatus;
  clockInAt: Date;
  clockOutAt: Date;
  breakMinutes: number;
  /** clock-out − clock-in − break, seconds (spec 2.5). */
  effectiveSeconds: number;
  devices: string[];
  lines: ReportLine[];
  submittedAt: Date;
  reviewedAt: Date | null;
  rejectReason: string | null;
  /** Where the break came from, and the shift's name when from a shift. */
  breakSource: 'shift' | 'default' | 'manager';
  shiftName: string | null;
  /** Crew work: another's report whose crew line counts the worker (班组报工), its submitter; absent: the worker's own. */
  submittedBy?: { phone: string; name: string | null };
}

/** The predicate of the partial index reports_by_crew (migrations/021): the report has a crew line. */
const HAS_CREW = `jsonb_path_exists(lines, '$[*].shares')`;

const WHERE = `(employee_phone = $1 OR (${HAS_CREW} AND lines @> jsonb_build_array(jsonb_build_object('shares', jsonb_build_array(jsonb_build_object('phone', $1::text))))))
        AND ($2::date IS NULL OR report_date >= $2::date)
        AND ($3::date IS NULL OR report_date <= $3::date)
        AND ($4::text IS NULL OR status = $4::text)
        AND ($5::uuid IS NULL OR report_id = $5::uuid)`;

/** The parameters $1–$5 of WHERE. */
const filterArgs = (phone: string, f: MyReportsFilter) => [phone, f.startDate ?? null, f.endDate ?? null, f.status ?? null, f.reportId ?? null];

/**
 * One page of worker `phone`'s reports (module docstring), filtered by inclusive local dates `YYYY-MM-DD`
 * (`startDate`, `endDate`), `status` and `reportId`; instants as Dates, `effectiveSeconds` in seconds.
 */
export async function myReports(q: Queryable, phone: string, f: MyReportsFilter): Promise<Page<MyReport>> {
  const { limit, offset } = limitOffset(f);
  const r = await q.query(
    `SELECT report_id, session_id, report_date, status, clock_in_at, clock_out_at, break_minutes, devices, lines,
            submitted_at, reviewed_at, reject_reason, break_source, shift_name, employee_phone,
            CASE WHEN employee_phone <> $1 THEN (SELECT min(p.name) FROM personnel p WHERE p.phone = reports.employee_phone) END AS submitter_name,
            count(*) OVER () AS total
       FROM reports
      WHERE ${WHERE}
      ORDER BY report_date DESC, submitted_at DESC, report_id
      LIMIT $6 OFFSET $7`,
    [...filterArgs(phone, f), limit, offset],
  );
  let total = r.rows.length ? Number(r.rows[0].total) : 0;
  if (r.rows.length === 0 && offset > 0) {
    const c = await q.query(
      `SELECT count(*) AS n FROM reports WHERE ${WHERE}`,
      filterArgs(phone, f),
    );
    total = Number(c.rows[0].n);
  }
  const items = r.rows.map((row): MyReport => ({
    reportId: row.report_id,
    sessionId: row.session_id,
    reportDate: row.report_date,
    status: row.status,
    clockInAt: row.clock_in_at,
    clockOutAt: row.clock_out_at,
    breakMinutes: row.break_minutes,
    effectiveSeconds: (row.clock_out_at.getTime() - row.clock_in_at.getTime()) / 1000 - row.break_minutes * 60,
    devices: row.devices,
    lines: row.lines,
    submittedAt: row.submitted_at,
    reviewedAt: row.reviewed_at,
    rejectReason: row.reject_reason,
    breakSource: row.break_source,
    shiftName: row.break_source === 'shift' ? (row.shift_name ?? null) : null,
    ...(row.employee_phone !== phone ? { submittedBy: { phone: row.employee_phone, name: row.submitter_name ?? null } } : {}),
  }));
  return toPage(items, total, f);
}
