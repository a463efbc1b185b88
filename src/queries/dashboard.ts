/**
 * Dashboard queries (spec 4.8; decisions.md "Calculations"): approved reports merged by report_date +
 * employee phone, read from the dashboard projection's `dashboard_daily` sums (an indexed range read on
 * (report_date DESC, employee_phone)); the figures come from `figuresOf` (exact, rounded on output).
 *
 * Rows are sorted by reportDate descending, then employee phone; startDate and endDate inclusive. The employee
 * name is the current one in personnel, else the one recorded at submission. `flags` lists the plausibility flags
 * of the row's approved reports, each with its report id and sentence: a row with flags has figures
 * that cannot be true, and the console shows 异常 instead of them. Rows are per placement too:
 * a row names its team and workshop (codes and current names, null for none), and only rows in the reader's scope
 * and the `workshop` / `team` filters are read (domain/scope.ts, over the rows' placement keys). The projection is asynchronous:
 * an approval shows up within a moment (the background consumer's tick).
 */
import type { Queryable } from '../db/transaction.ts';
import { unprocessable } from '../errors.ts';
import { limitOffset, toPage, type Page, type PageQuery } from '../shared/page.ts';
import { daysBetween, isLocalDate } from '../time.ts';
import { figuresOf, type DailySums, type DashboardFigures } from './dashboard-figures.ts';
import { untrustedFigures, withMessage, type PlausibilityFlag } from '../domain/plausibility.ts';
import type { FlaggedReport } from '../projections/dashboard.ts';
import { scopeAndFilter, WHOLE_READER, type Reader } from '../domain/scope.ts';

/** Whose dashboard: the reader's scope and the filters. */
export type DashboardReader = Reader;
export const WHOLE_DASHBOARD: DashboardReader = WHOLE_READER;

/** The reader's condition over a table with `workshop_key`, `team_key` (alias `a`), its values pushed onto `args`. */
export const readerSql = (a: string, reader: DashboardReader, args: unknown[]): string =>
  scopeAndFilter(`NULLIF(${a}.workshop_key, '')`, `NULLIF(${a}.team_key, '')`, reader.scope, reader.filter, args);

/** The current names of the placement keys of rows `a` (workshops, teams: the organization's tables). */
export const placementNames = (a: string) => `(SELECT w.name FROM workshops w WHERE w.code = ${a}.workshop_key) AS workshop_name,
         (SELECT t.name FROM teams t WHERE t.code = ${a}.team_key) AS team_name`;

/** The placement of a row selected with `placementNames`, as the API names it. */
export const placementOf = (r: any) => ({
  workshopCode: (r.workshop_key || null) as string | null,
  workshopName: (r.workshop_name ?? null) as string | null,
  teamCode: (r.team_key || null) as string | null,
  teamName: (r.team_name ?? null) as string | null,
});

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
  /** The plausibility flags of the row's approved reports, with their report ids and sentences. */
  flags: (PlausibilityFlag & { reportId: string; message: string })[];
  /** Which of the row's figures cannot be trusted (domain/plausibility.ts `untrustedFigures`). */
  untrusted: { cycleTime: boolean; workload: boolean };
  /** Where the row's reports are counted: codes and current names, null for none. */
  workshopCode: string | null;
  workshopName: string | null;
  teamCode: string | null;
  teamName: string | null;
}

/** The flags of a `dashboard_daily.flagged` list, one item per flag, as the API gives them. */
export const rowFlags = (flagged: unknown): DashboardRow['flags'] =>
  ((flagged ?? []) as FlaggedReport[]).flatMap((f) => f.flags.map((flag) => ({ reportId: f.reportId, ...withMessage(flag) })));

/** Checks a dashboard range. Throws 422 INVALID_DATE_RANGE with a Chinese message. */
export function checkRange(startDate: unknown, endDate: unknown): DateRange {
  for (const [name, v] of [
    ['startDate', startDate],
    ['endDate', endDate],
  ] as const) {
    const label = name === 'startDate' ? '开始日期' : '结束日期';
    if (typeof v !== 'string' || v === '') throw unprocessable('INVALID_DATE_RANGE', `请提供${label}，例如 2026-03-02`, { field: name });
    if (!isLocalDate(v)) throw unprocessable('INVALID_DATE_RANGE', `${label}“${v}”不是有效日期，例如 2026-03-02`, { field: name });
  }
  const s = startDate as string;
  const e = endDate as string;
  const days = daysBetween(s, e);
  if (days < 0) throw unprocessable('INVALID_DATE_RANGE', '结束日期不能早于开始日期');
  if (days + 1 > MAX_RANGE_DAYS) throw unprocessable('INVALID_DATE_RANGE', `日期范围最多 ${MAX_RANGE_DAYS} 天，请缩小范围`);
  return { startDate: s, endDate: e };
}

/**
 * Rows of dashboard_daily from `$2` down to `$1` for `reader` (its values from $5 on), in page order; names are
 * looked up for the page's rows only.
 */
function selectRows(reader: DashboardReader, args: unknown[]): string {
  return `
  SELECT d.*,
         COALESCE((SELECT p.name FROM personnel p WHERE p.phone = d.employee_phone LIMIT 1), d.employee_name) AS current_name,
         ${placementNames('d')}
    FROM (SELECT * FROM dashboard_daily x
           WHERE x.report_date BETWEEN $1::date AND $2::date AND ${readerSql('x', reader, args)}
           ORDER BY x.report_date DESC, x.employee_phone ASC, x.workshop_key, x.team_key
           LIMIT $3 OFFSET $4) d
   ORDER BY d.report_date DESC, d.employee_phone ASC, d.workshop_key, d.team_key`;
}

/** The exact sums of a `dashboard_daily` row (or of a sum of rows with the same column names). */
export const sumsOf = (r: any): DailySums => ({
  effectiveMs: Number(r.effective_ms),
  finishedQty: Number(r.finished_qty),
  defectiveQty: Number(r.defective_qty),
  outputQty: Number(r.output_qty),
  cycleOutputMilli: Number(r.cycle_output_milli),
  standardWorkload: Number(r.standard_workload),
});

function toRow(r: any): DashboardRow {
  const sums = sumsOf(r);
  const f = figuresOf(sums);
  const flags = rowFlags(r.flagged);
  return {
    reportDate: r.report_date,
    employeePhone: r.employee_phone,
    employeeName: r.current_name ?? null,
    reportCount: Number(r.report_count),
    actualCycleSeconds: f.actualCycleSeconds,
    standardCycleSeconds: f.standardCycleSeconds,
    cycleTimeDiffPct: f.cycleTimeDiffPct,
    reportedQty: sums.outputQty,
    finishedQty: sums.finishedQty,
    defectiveQty: sums.defectiveQty,
    standardWorkload: sums.standardWorkload,
    workloadDiffPct: f.workloadDiffPct,
    flags,
    untrusted: untrustedFigures(flags, f.actualCycleSeconds),
    ...placementOf(r),
  };
}

/**
 * One page of dashboard rows in `range`. The per-day row counts (`dashboard_days`, at most 366 rows) give the
 * total and the day the page starts on, so a deep page skips whole days by the index instead of OFFSET-ing
 * over every row before it: the OFFSET left is within one day (at most the number of employees).
 */
export async function dashboardPage(q: Queryable, range: DateRange, page: PageQuery, reader: DashboardReader = WHOLE_DASHBOARD): Promise<Page<DashboardRow>> {
  const { limit, offset } = limitOffset(page);
  const dayArgs: unknown[] = [range.startDate, range.endDate];
  const days = await q.query(
    `SELECT report_date, sum(row_count) AS row_count FROM dashboard_days d
      WHERE report_date BETWEEN $1::date AND $2::date AND ${readerSql('d', reader, dayArgs)}
      GROUP BY report_date ORDER BY report_date DESC`,
    dayArgs,
  );
  let total = 0;
  let from = range.endDate;
  let within = offset;
  for (const d of days.rows) {
    const n = Number(d.row_count);
    if (total + n <= offset) {
      total += n;
      continue;
    }
    if (total <= offset) {
      from = d.report_date;
      within = offset - total;
    }
    total += n;
  }
  if (offset >= total) return toPage([], total, page);
  const args: unknown[] = [range.startDate, from, limit, within];
  const rows = await q.query(selectRows(reader, args), args);
  return toPage(rows.rows.map(toRow), total, page);
}

/** Every dashboard row in `range` for `reader`, up to `max` (+1 so the caller can tell there were more). */
export async function dashboardRows(q: Queryable, range: DateRange, max: number, reader: DashboardReader = WHOLE_DASHBOARD): Promise<DashboardRow[]> {
  const args: unknown[] = [range.startDate, range.endDate, max + 1, 0];
  const r = await q.query(selectRows(reader, args), args);
  return r.rows.map(toRow);
}
