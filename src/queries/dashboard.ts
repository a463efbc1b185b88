/**
 * Dashboard queries (spec 4.8; decisions.md "Calculations"): approved reports merged by report_date +
 * employee phone, read from the dashboard projection's `dashboard_daily` sums (an indexed range read on
 * (report_date DESC, employee_phone)); the figures come from `figuresOf` (exact, rounded on output).
 *
 * Rows are sorted by reportDate descending, then employee phone; startDate and endDate inclusive. The employee
 * name is the current one in personnel, else the one recorded at submission. The projection is asynchronous:
 * an approval shows up within a moment (the background consumer's tick).
 */
import type { Queryable } from '../db/transaction.ts';
import { unprocessable } from '../errors.ts';
import { limitOffset, toPage, type Page, type PageQuery } from '../http/pagination.ts';
import { daysBetween, isLocalDate } from '../time.ts';
import { figuresOf, type DashboardFigures } from './dashboard-figures.ts';

/** Longest dashboard range in days (inclusive count), decisions: "a range over 366 days: 422". */
export const MAX_RANGE_DAYS = 366;

export interface DateRange {
  startDate: string;
  endDate: string;
}

export interface DashboardRow extends DashboardFigures {
  reportDate: string;
  employeePhone: string;
  employeeName: string | null;
  reportCount: number;
  reportedQty: number;
  finishedQty: number;
  defectiveQty: number;
  standardWorkload: number;
}

/** Checks a dashboard range. Throws 422 INVALID_DATE_RANGE with a Chinese message. */
export function checkRange(startDate: unknown, endDate: unknown): DateRange {
  for (const [name, v] of [
    ['startDate', startDate],
    ['endDate', endDate],
  ] as const) {
    if (typeof v !== 'string' || v === '') throw unprocessable('INVALID_DATE_RANGE', `请提供${name === 'startDate' ? '开始' : '结束'}日期（${name}，格式 YYYY-MM-DD）`, { field: name });
    if (!isLocalDate(v)) throw unprocessable('INVALID_DATE_RANGE', `日期 ${name}=${v} 无效，格式应为 YYYY-MM-DD`, { field: name });
  }
  const s = startDate as string;
  const e = endDate as string;
  const days = daysBetween(s, e);
  if (days < 0) throw unprocessable('INVALID_DATE_RANGE', '结束日期不能早于开始日期');
  if (days + 1 > MAX_RANGE_DAYS) throw unprocessable('INVALID_DATE_RANGE', `日期范围最多 ${MAX_RANGE_DAYS} 天，请缩小范围`);
  return { startDate: s, endDate: e };
}

const SELECT = `
  SELECT d.report_date, d.employee_phone,
         COALESCE((SELECT p.name FROM personnel p WHERE p.phone = d.employee_phone LIMIT 1), d.employee_name) AS employee_name,
         d.report_count, d.effective_ms, d.finished_qty, d.defective_qty, d.output_qty, d.cycle_output_milli, d.standard_workload
    FROM dashboard_daily d
   WHERE d.report_date BETWEEN $1::date AND $2::date
   ORDER BY d.report_date DESC, d.employee_phone ASC`;

function toRow(r: any): DashboardRow {
  const sums = {
    effectiveMs: Number(r.effective_ms),
    finishedQty: Number(r.finished_qty),
    defectiveQty: Number(r.defective_qty),
    outputQty: Number(r.output_qty),
    cycleOutputMilli: Number(r.cycle_output_milli),
    standardWorkload: Number(r.standard_workload),
  };
  const f = figuresOf(sums);
  return {
    reportDate: r.report_date,
    employeePhone: r.employee_phone,
    employeeName: r.employee_name ?? null,
    reportCount: Number(r.report_count),
    actualCycleSeconds: f.actualCycleSeconds,
    standardCycleSeconds: f.standardCycleSeconds,
    cycleTimeDiffPct: f.cycleTimeDiffPct,
    reportedQty: sums.outputQty,
    finishedQty: sums.finishedQty,
    defectiveQty: sums.defectiveQty,
    standardWorkload: sums.standardWorkload,
    workloadDiffPct: f.workloadDiffPct,
  };
}

/** One page of dashboard rows in `range`. */
export async function dashboardPage(q: Queryable, range: DateRange, page: PageQuery): Promise<Page<DashboardRow>> {
  const { limit, offset } = limitOffset(page);
  const [rows, total] = await Promise.all([
    q.query(`${SELECT} LIMIT $3 OFFSET $4`, [range.startDate, range.endDate, limit, offset]),
    q.query(`SELECT COALESCE(sum(row_count), 0) AS total FROM dashboard_days WHERE report_date BETWEEN $1::date AND $2::date`, [
      range.startDate,
      range.endDate,
    ]),
  ]);
  return toPage(rows.rows.map(toRow), Number(total.rows[0].total), page);
}

/** Every dashboard row in `range`, up to `max` (+1 so the caller can tell there were more). */
export async function dashboardRows(q: Queryable, range: DateRange, max: number): Promise<DashboardRow[]> {
  const r = await q.query(`${SELECT} LIMIT $3`, [range.startDate, range.endDate, max + 1]);
  return r.rows.map(toRow);
}
