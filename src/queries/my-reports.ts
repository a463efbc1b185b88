/**
 * GET /api/reports/mine (spec 4.6; decisions.md "Reports and review", "HTTP conventions"): the worker's own
 * reports, newest report date first (then newest submission), with lines as they stand now (corrected lines
 * after an approval with correction), status and reject reason; paginated `{items, page, pageSize, total}`.
 * Filters: `startDate`/`endDate` (inclusive local dates `YYYY-MM-DD` of report_date), `status`.
 * Served by the index reports_by_worker_date. `myReport` answers one of them by id (the page a review-result message
 * opens), 404 REPORT_NOT_FOUND for another worker's report, as for an unknown one.
 */
import type { Queryable } from '../db/transaction.ts';
import { parseReportId, reportNotFound } from '../domain/report.ts';
import type { ReportLine } from '../domain/report-line.ts';
import { limitOffset, toPage, type Page, type PageQuery } from '../shared/page.ts';

export type ReportStatus = 'pending' | 'approved' | 'rejected';

export interface MyReportsFilter extends PageQuery {
  startDate?: string;
  endDate?: string;
  status?: ReportStatus;
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
  /** Issue #24 part B: where the break came from, and the shift's name when from a shift. */
  breakSource: 'shift' | 'default' | 'manager';
  shiftName: string | null;
}

/** A `reports` row (the columns of COLUMNS) as a MyReport. */
const toMyReport = (row: any): MyReport => ({
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
});

const COLUMNS = `report_id, session_id, report_date, status, clock_in_at, clock_out_at, break_minutes, devices, lines,
            submitted_at, reviewed_at, reject_reason, break_source, shift_name`;

const WHERE = `employee_phone = $1
        AND ($2::date IS NULL OR report_date >= $2::date)
        AND ($3::date IS NULL OR report_date <= $3::date)
        AND ($4::text IS NULL OR status = $4::text)`;

/**
 * One page of worker `phone`'s reports (module docstring), filtered by inclusive local dates `YYYY-MM-DD`
 * (`startDate`, `endDate`) and `status`; instants as Dates, `effectiveSeconds` in seconds.
 */
export async function myReports(q: Queryable, phone: string, f: MyReportsFilter): Promise<Page<MyReport>> {
  const { limit, offset } = limitOffset(f);
  const r = await q.query(
    `SELECT ${COLUMNS}, count(*) OVER () AS total
       FROM reports
      WHERE ${WHERE}
      ORDER BY report_date DESC, submitted_at DESC, report_id
      LIMIT $5 OFFSET $6`,
    [phone, f.startDate ?? null, f.endDate ?? null, f.status ?? null, limit, offset],
  );
  let total = r.rows.length ? Number(r.rows[0].total) : 0;
  if (r.rows.length === 0 && offset > 0) {
    const c = await q.query(
      `SELECT count(*) AS n FROM reports WHERE ${WHERE}`,
      [phone, f.startDate ?? null, f.endDate ?? null, f.status ?? null],
    );
    total = Number(c.rows[0].n);
  }
  return toPage(r.rows.map(toMyReport), total, f);
}

/**
 * Worker `phone`'s report `reportId` as the list gives it. Throws 404 REPORT_NOT_FOUND for a malformed or unknown
 * id and for another worker's report (a worker reads only their own: decisions.md "Roles").
 */
export async function myReport(q: Queryable, phone: string, reportId: string): Promise<MyReport> {
  const r = await q.query(`SELECT ${COLUMNS} FROM reports WHERE report_id = $1 AND employee_phone = $2`, [parseReportId(reportId), phone]);
  if (r.rows.length === 0) throw reportNotFound();
  return toMyReport(r.rows[0]);
}
