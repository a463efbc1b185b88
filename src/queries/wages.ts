/**
 * Wage queries (issue #22 "Wages") on the wage projection (projections/wages.ts: `wage_workers`, `wage_lines`,
 * `wage_months`) and the month's status from the `periods` read model. Amounts are fen as BigInt (the routes
 * write them `"168.01"`), rates ten-thousandths of a yuan (`"1.2500"`), null when unpriced.
 * - `wageSummary(q, month, page)`: the month's status, a page of workers by phone, the totals;
 * - `wageStatement(q, month, phone)`: one worker's reports of the month, each with its priced lines;
 * - `wageExport(q, month)`: every worker and every line of the month (the payroll workbook).
 * The employee name is the current one in personnel. Only approved reports count (corrected lines as approved);
 * the projection follows the approvals within a moment. Which workers and lines a reader sees is decided in one
 * place, `scoped` (a reviewer's scope, issue #24, adds its condition there).
 */
import type { Queryable } from '../db/transaction.ts';
import { fenOf } from '../domain/money.ts';
import { monthDates } from '../domain/period.ts';
import { limitOffset, toPage, type Page, type PageQuery } from '../shared/page.ts';
import type { WageLineFields } from '../projections/wages.ts';

/** The month's status as the close left it. */
export interface MonthStatus {
  status: 'open' | 'closed';
  /** Closes so far (absent: never closed). */
  version?: number;
  closedAt?: Date;
  closedBy?: { phone: string | null; name: string | null };
  /** The amount of the close before the last, when closed more than once. */
  previousAmountFen?: bigint;
}

export interface WorkerWage {
  employeePhone: string;
  employeeName: string | null;
  reports: number;
  finishedQty: number;
  defectiveQty: number;
  amountFen: bigint;
  unpricedLines: number;
}

export interface WageTotals {
  reports: number;
  finishedQty: number;
  defectiveQty: number;
  amountFen: bigint;
  unpricedLines: number;
  pendingReports: number;
}

/** A line of a statement: the product and quantities (projections/wages.ts), the rates and the amount. */
export interface WageLine extends WageLineFields {
  /** Ten-thousandths of a yuan; null: unpriced. */
  pieceRate: number | null;
  defectRate: number | null;
  /** Fen; null: unpriced. */
  amountFen: bigint | null;
}

export interface WageStatement extends MonthStatus {
  month: string;
  employeePhone: string;
  employeeName: string | null;
  amountFen: bigint;
  unpricedLines: number;
  /** The worker's amount at the close before the last (closed more than once). */
  previousAmountFen?: bigint;
  reports: { reportId: string; reportDate: string; amountFen: bigint; unpricedLines: number; lines: WageLine[] }[];
}

/**
 * The readers' scope over `wage_workers w` / `wage_lines l` rows (module docstring): the SQL condition, true for
 * everyone today.
 */
const scoped = (_alias: string): string => 'true';

/** The current name of the person `phoneSql` (an SQL expression). */
const nameOf = (phoneSql: string) => `(SELECT p.name FROM personnel p WHERE p.phone = ${phoneSql} LIMIT 1)`;

/** The status of `month` from `periods` (module docstring). */
export async function monthStatus(q: Queryable, month: string): Promise<MonthStatus> {
  const r = await q.query(`SELECT status, version, closed_at, closed_by_phone, closed_by_name, history FROM periods WHERE month = $1`, [month]);
  const p = r.rows[0];
  if (!p) return { status: 'open' };
  const closes = (p.history as { action: string; amountFen: string }[]).filter((h) => h.action === 'closed');
  return {
    status: p.status,
    version: Number(p.version),
    ...(p.closed_at ? { closedAt: p.closed_at, closedBy: { phone: p.closed_by_phone, name: p.closed_by_name } } : {}),
    ...(closes.length > 1 ? { previousAmountFen: fenOf(closes[closes.length - 2].amountFen) } : {}),
  };
}

const workerOf = (r: any): WorkerWage => ({
  employeePhone: r.employee_phone,
  employeeName: r.employee_name ?? null,
  reports: Number(r.reports),
  finishedQty: Number(r.finished_qty),
  defectiveQty: Number(r.defective_qty),
  amountFen: fenOf(r.amount_fen),
  unpricedLines: Number(r.unpriced_lines),
});

const WORKER_COLUMNS = `w.employee_phone, ${nameOf('w.employee_phone')} AS employee_name, w.reports, w.finished_qty, w.defective_qty,
  w.amount_fen::text AS amount_fen, w.unpriced_lines`;

/**
 * The month's totals (zeros for a month without reports); the pending reports as they are now (the `reports` read
 * model, through its index of pending reports by date: what blocks a close).
 */
async function totalsOf(q: Queryable, month: string): Promise<WageTotals & { workers: number }> {
  const { first, last } = monthDates(month);
  const r = await q.query(
    `SELECT m.reports, m.finished_qty, m.defective_qty, m.amount_fen::text AS amount_fen, m.unpriced_lines, m.workers,
            (SELECT count(*) FROM reports r WHERE r.status = 'pending' AND r.report_date BETWEEN $2::date AND $3::date) AS pending_reports
       FROM (SELECT $1::text AS month) k LEFT JOIN wage_months m ON m.month = k.month`,
    [month, first, last],
  );
  const m = r.rows[0];
  return {
    reports: Number(m?.reports ?? 0),
    finishedQty: Number(m?.finished_qty ?? 0),
    defectiveQty: Number(m?.defective_qty ?? 0),
    amountFen: fenOf(m?.amount_fen),
    unpricedLines: Number(m?.unpriced_lines ?? 0),
    pendingReports: Number(m?.pending_reports ?? 0),
    workers: Number(m?.workers ?? 0),
  };
}

/** GET /api/wages (module docstring): `month`'s status, a page of its workers by phone, and its totals. */
export async function wageSummary(q: Queryable, month: string, page: PageQuery): Promise<MonthStatus & Page<WorkerWage> & { month: string; totals: WageTotals }> {
  const { limit, offset } = limitOffset(page);
  const [status, totals, rows] = await Promise.all([
    monthStatus(q, month),
    totalsOf(q, month),
    q.query(`SELECT ${WORKER_COLUMNS} FROM wage_workers w WHERE w.month = $1 AND ${scoped('w')} ORDER BY w.employee_phone LIMIT $2 OFFSET $3`, [month, limit, offset]),
  ]);
  const { workers, ...sums } = totals;
  return { month, ...status, ...toPage(rows.rows.map(workerOf), workers, page), totals: sums };
}

const lineOf = (l: any): WageLine => ({
  productId: Number(l.product_id),
  projectNo: l.project_no,
  productName: l.product_name,
  deviceNo: l.device_no,
  processName: l.process_name,
  finishedQty: Number(l.finished_qty),
  defectiveQty: Number(l.defective_qty),
  pieceRate: l.piece_rate === null ? null : Number(l.piece_rate),
  defectRate: l.defect_rate === null ? null : Number(l.defect_rate),
  amountFen: l.amount_fen === null ? null : BigInt(l.amount_fen),
});

const LINE_COLUMNS = `l.report_id, l.report_date, l.employee_phone, l.product_id, l.project_no, l.product_name, l.device_no, l.process_name,
  l.finished_qty, l.defective_qty, l.piece_rate, l.defect_rate, l.amount_fen::text AS amount_fen`;

/** Lines of one worker (rows ordered by report date, report, line) as reports with their amounts. */
function reportsOf(rows: readonly any[]): WageStatement['reports'] {
  const out: WageStatement['reports'] = [];
  for (const row of rows) {
    let report = out[out.length - 1];
    if (report?.reportId !== row.report_id) out.push((report = { reportId: row.report_id, reportDate: row.report_date, amountFen: 0n, unpricedLines: 0, lines: [] }));
    const line = lineOf(row);
    report.lines.push(line);
    if (line.amountFen === null) report.unpricedLines++;
    else report.amountFen += line.amountFen;
  }
  return out;
}

/** GET /api/wages/:phone and /mine (module docstring): worker `phone`'s statement of `month` (empty when none). */
export async function wageStatement(q: Queryable, month: string, phone: string): Promise<WageStatement> {
  const [status, worker, lines, name] = await Promise.all([
    monthStatus(q, month),
    q.query(`SELECT ${WORKER_COLUMNS}, w.previous_amount_fen::text AS previous_amount_fen FROM wage_workers w WHERE w.month = $1 AND w.employee_phone = $2 AND ${scoped('w')}`, [month, phone]),
    q.query(
      `SELECT ${LINE_COLUMNS} FROM wage_lines l WHERE l.month = $1 AND l.employee_phone = $2 AND ${scoped('l')} ORDER BY l.report_date, l.report_id, l.line_no`,
      [month, phone],
    ),
    q.query(`SELECT ${nameOf('$1')} AS name`, [phone]),
  ]);
  const w = worker.rows[0];
  const { previousAmountFen: _monthPrevious, ...monthStatusOnly } = status;
  return {
    month,
    ...monthStatusOnly,
    employeePhone: phone,
    employeeName: name.rows[0].name ?? null,
    amountFen: fenOf(w?.amount_fen),
    unpricedLines: Number(w?.unpriced_lines ?? 0),
    ...(w?.previous_amount_fen !== null && w?.previous_amount_fen !== undefined ? { previousAmountFen: fenOf(w.previous_amount_fen) } : {}),
    reports: reportsOf(lines.rows),
  };
}

/** Every worker of `month` and every line, each with the worker's current name (the payroll workbook). */
export async function wageExport(q: Queryable, month: string): Promise<{ workers: WorkerWage[]; lines: (WageLine & { employeePhone: string; employeeName: string | null; reportId: string; reportDate: string })[] }> {
  const [workers, lines] = await Promise.all([
    q.query(`SELECT ${WORKER_COLUMNS} FROM wage_workers w WHERE w.month = $1 AND ${scoped('w')} ORDER BY w.employee_phone`, [month]),
    q.query(`SELECT ${LINE_COLUMNS} FROM wage_lines l WHERE l.month = $1 AND ${scoped('l')} ORDER BY l.employee_phone, l.report_date, l.report_id, l.line_no`, [month]),
  ]);
  const all = workers.rows.map(workerOf);
  const names = new Map(all.map((w) => [w.employeePhone, w.employeeName]));
  return {
    workers: all,
    lines: lines.rows.map((l) => ({ ...lineOf(l), employeePhone: l.employee_phone, employeeName: names.get(l.employee_phone) ?? null, reportId: l.report_id, reportDate: l.report_date })),
  };
}
