/**
 * The dashboard's charts, from the same exact sums as its rows
 * (`dashboard_daily`, queries/dashboard.ts) summed over the whole date range, so a chart never adds up rounded
 * figures:
 * - `byEmployee`: per employee over the range, actual and standard cycle time (seconds, `figuresOf`), reported,
 *   finished quantity and standard workload, and how many of the employee's approved reports carry plausibility
 *   flags (`flaggedReports`, their cycle time cannot be trusted); ordered by employee phone;
 * - `byDate`: per report date, reported and finished quantity and standard workload; oldest first.
 * Only the sums in the reader's scope and filters (queries/dashboard.ts `readerSql`).
 * Figures follow decisions.md "Calculations" (rounded to 2 decimals on output, null when a divisor is 0).
 */
import type { Queryable } from '../db/transaction.ts';
import { readerSql, sumsOf, WHOLE_DASHBOARD, type DashboardReader, type DateRange } from './dashboard.ts';
import { figuresOf } from './dashboard-figures.ts';

const SUMS = `sum(jsonb_array_length(flagged)) AS flagged_reports, sum(effective_ms) AS effective_ms, sum(finished_qty) AS finished_qty, sum(defective_qty) AS defective_qty,
  sum(output_qty) AS output_qty, sum(cycle_output_milli) AS cycle_output_milli, sum(standard_workload) AS standard_workload`;

/** GET /api/dashboard/summary (module docstring) for `range` (checked by the caller). */
export async function dashboardSummary(q: Queryable, range: DateRange, reader: DashboardReader = WHOLE_DASHBOARD) {
  const args: unknown[] = [range.startDate, range.endDate];
  const mine = readerSql('d', reader, args);
  const [employees, days] = await Promise.all([
    q.query(
      `SELECT d.employee_phone,
              COALESCE((SELECT p.name FROM personnel p WHERE p.phone = d.employee_phone LIMIT 1), max(d.employee_name)) AS name, ${SUMS}
         FROM dashboard_daily d WHERE d.report_date BETWEEN $1::date AND $2::date AND ${mine}
        GROUP BY d.employee_phone ORDER BY d.employee_phone`,
      args,
    ),
    q.query(
      `SELECT d.report_date, ${SUMS} FROM dashboard_daily d WHERE d.report_date BETWEEN $1::date AND $2::date AND ${mine} GROUP BY d.report_date ORDER BY d.report_date`,
      args,
    ),
  ]);
  return {
    byEmployee: employees.rows.map((r) => {
      const s = sumsOf(r);
      const f = figuresOf(s);
      return {
        employeePhone: r.employee_phone as string,
        employeeName: (r.name ?? null) as string | null,
        actualCycleSeconds: f.actualCycleSeconds,
        standardCycleSeconds: f.standardCycleSeconds,
        reportedQty: s.outputQty,
        finishedQty: s.finishedQty,
        standardWorkload: s.standardWorkload,
        flaggedReports: Number(r.flagged_reports),
      };
    }),
    byDate: days.rows.map((r) => {
      const s = sumsOf(r);
      return { reportDate: r.report_date as string, reportedQty: s.outputQty, finishedQty: s.finishedQty, standardWorkload: s.standardWorkload };
    }),
  };
}
