/**
 * Reports for the office (the console's 报工单 page), on the `reports` read model, for managers and
 * administrators (`access.insight`): the manager has no review queue, yet changes break intervals and reads audit
 * trails, so they find a report here.
 * - `browseReports(q, filter, page, timeZone)`: report dates from `startDate` to `endDate` inclusive (YYYY-MM-DD,
 *   either may be missing), `employee` (an exact phone, or part of the current name), `status`; newest report
 *   date first, then latest submission.
 * - `reportById(q, reportId, timeZone)`: one report; 404 REPORT_NOT_FOUND.
 * Items as the review queue gives them (queries/reviews.ts `toItem`). Only reports in the reader's scope
 * (domain/scope.ts): one outside it is REPORT_NOT_FOUND, as an unknown one (its existence is not leaked).
 */
import type { Queryable } from '../db/transaction.ts';
import { parseReportId, reportNotFound } from '../domain/report.ts';
import type { Page, PageQuery } from '../shared/page.ts';
import { likePattern } from '../products/store.ts';
import { COLUMNS, reportsPage, toItem, type ReportItem } from './reviews.ts';
import { withShareAmounts } from './crew-amounts.ts';
import { scopeAndFilter, WHOLE_FACTORY, type Scope } from '../domain/scope.ts';

export interface ReportFilter {
  startDate?: string;
  endDate?: string;
  employee?: string;
  status?: ReportItem['status'];
  /** Workshop and team codes, within the scope. */
  workshop?: string;
  team?: string;
}

/** A page of reports matching `filter` (module docstring). */
export async function browseReports(q: Queryable, filter: ReportFilter, page: PageQuery, timeZone: string, scope: Scope = WHOLE_FACTORY): Promise<Page<ReportItem>> {
  const where0 = `($1::date IS NULL OR r.report_date >= $1::date) AND ($2::date IS NULL OR r.report_date <= $2::date)
    AND ($3::text IS NULL OR r.employee_phone = $3
         OR EXISTS (SELECT 1 FROM personnel p WHERE p.phone = r.employee_phone AND p.name ILIKE $4))
    AND ($5::text IS NULL OR r.status = $5)`;
  const employee = filter.employee || null;
  const args: unknown[] = [filter.startDate ?? null, filter.endDate ?? null, employee, employee && likePattern(employee), filter.status ?? null];
  const where = `${where0} AND ${scopeAndFilter('r.workshop_code', 'r.team_code', scope, { workshop: filter.workshop, team: filter.team }, args)}`;
  return reportsPage(q, where, args, 'r.report_date DESC, r.submitted_at DESC, r.report_id', page, timeZone);
}

/** The report `reportId` if in `scope`. Throws 404 REPORT_NOT_FOUND (malformed or unknown id, or out of scope). */
export async function reportById(q: Queryable, reportId: string, timeZone: string, scope: Scope = WHOLE_FACTORY): Promise<ReportItem> {
  const args: unknown[] = [parseReportId(reportId)];
  const inScope = scopeAndFilter('r.workshop_code', 'r.team_code', scope, {}, args);
  const r = await q.query(`SELECT ${COLUMNS} FROM reports r WHERE r.report_id = $1 AND ${inScope}`, args);
  if (r.rows.length === 0) throw reportNotFound();
  return (await withShareAmounts(q, [toItem(r.rows[0], timeZone)]))[0];
}
