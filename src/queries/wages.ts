/**
 * Wage queries on the wage projection (projections/wages.ts: `wage_workers`, `wage_lines`,
 * `wage_months`) and the month's status as those figures are priced (the `periods` trail up to the close the projection
 * has taken in: `monthStatus`). Amounts are fen as BigInt (the routes
 * write them `"168.01"`), rates ten-thousandths of a yuan (`"1.2500"`), null when unpriced.
 * - `wageSummary(q, month, page)`: the month's status, a page of workers by phone, the totals;
 * - `wageStatement(q, month, phone)`: one worker's reports of the month, each with its priced lines;
 * - `wageExport(q, month)`: every worker and every line of the month (the payroll workbook).
 * The employee name is the current one in personnel. Only approved reports count (corrected lines as approved);
 * the projection follows the approvals within a moment. Which workers and lines a reader sees is decided in one
 * place, `scoped`: the lines of reports in the reader's scope and filters (domain/scope.ts, over
 * the report's placement in `reports`). A reader who sees everything gets the projection's per-worker sums; any
 * other gets the sums of the lines it sees (the same sums over fewer lines), the pending count of its scope, and
 * no amounts of earlier closes (those are the whole factory's). Each worker row names the team and workshop of the
 * worker's latest approved report of the month that the reader sees (null: none, or in no team).
 */
import { defectSplit } from '../domain/report-line.ts';
import type { DefectCategory } from '../domain/defect-reasons.ts';
import type { Queryable } from '../db/transaction.ts';
import { fenOf } from '../domain/money.ts';
import { monthDates } from '../domain/period.ts';
import { limitOffset, toPage, type Page, type PageQuery } from '../shared/page.ts';
import type { WageLineFields } from '../projections/wages.ts';
import { readsEverything, scopeAndFilter, WHOLE_READER, type Reader } from '../domain/scope.ts';

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
  /** The placement of the worker's latest approved report of the month seen; null: none. */
  workshopCode: string | null;
  workshopName: string | null;
  teamCode: string | null;
  teamName: string | null;
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
export interface WageLine extends Omit<WageLineFields, 'defects'> {
  /** Ten-thousandths of a yuan; null: unpriced. */
  pieceRate: number | null;
  defectRate: number | null;
  /** 料废单价 the line was priced at (the defect rate when its entry has none); null: unpriced. */
  materialDefectRate: number | null;
  /** The line's defect reasons as recorded (category of that moment), with each reason's name of now. */
  defects: { reasonCode: string; reasonName: string; category: DefectCategory; qty: number }[];
  /** The defective pieces by category: 工废, 料废, 其他 and 未注明 (without a reason). */
  operatorDefectQty: number;
  materialDefectQty: number;
  otherDefectQty: number;
  unexplainedDefectQty: number;
  /** Fen; null: unpriced. */
  amountFen: bigint | null;
  /**
   * Crew work: this row is the worker's share of a crew line (班组报工), and the line whole: its submitter,
   * quantities, amount (fen, null: unpriced) and every member's share with its amount. Absent on other lines.
   */
  crew?: {
    submitter: string;
    finishedQty: number;
    defectiveQty: number;
    amountFen: bigint | null;
    shares: { phone: string; name: string | null; weight: number; finishedQty: number; defectiveQty: number; amountFen: bigint | null }[];
  };
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
 * The reader's scope over `wage_lines l` rows (module docstring): the SQL condition (values pushed onto `args`);
 * true for a reader who sees everything.
 */
const scoped = (alias: string, reader: Reader, args: unknown[]): string =>
  readsEverything(reader)
    ? 'true'
    : `EXISTS (SELECT 1 FROM reports r WHERE r.report_id = ${alias}.report_id AND ${scopeAndFilter('r.workshop_code', 'r.team_code', reader.scope, reader.filter, args)})`;

/**
 * Columns workshop_code, workshop_name, team_code, team_name — the placement of worker `w.employee_phone`'s latest
 * approved report in [$first, $last] that `reader` sees — and the FROM clause over the rows `rows` (SQL, aliased
 * `w`) that gives them (values pushed onto `args`).
 */
function withPlacement(rows: string, reader: Reader, first: string, last: string, args: unknown[]): string {
  args.push(first, last);
  const [f, l] = [`$${args.length - 1}`, `$${args.length}`];
  const cond = scopeAndFilter('x.workshop_code', 'x.team_code', reader.scope, reader.filter, args);
  return `pl.workshop_code, pl.team_code,
    (SELECT ws.name FROM workshops ws WHERE ws.code = pl.workshop_code) AS workshop_name,
    (SELECT t.name FROM teams t WHERE t.code = pl.team_code) AS team_name
    FROM (${rows}) w LEFT JOIN LATERAL (
      SELECT x.workshop_code, x.team_code FROM reports x
       WHERE x.employee_phone = w.employee_phone AND x.status = 'approved' AND x.report_date BETWEEN ${f}::date AND ${l}::date AND ${cond}
       ORDER BY x.report_date DESC, x.submitted_at DESC LIMIT 1) pl ON true`;
}

/** The current name of the person `phoneSql` (an SQL expression). */
const nameOf = (phoneSql: string) => `(SELECT p.name FROM personnel p WHERE p.phone = ${phoneSql} LIMIT 1)`;

/**
 * The status of `month` under which its wage figures are priced: the `periods` read model's trail (who closed it and
 * when, the amounts of its closes) up to the close or reopen the wage projection has taken in (`wage_months`, read in
 * the same statement). The two differ only for a close or a reopen committed after the request's wait for the wage
 * model (projections/fresh-reads.ts): the answer is then the month as it was before it, so a month answered `closed`
 * always comes with the close's figures, never with figures from before it.
 */
export async function monthStatus(q: Queryable, month: string): Promise<MonthStatus> {
  const r = await q.query(
    `SELECT p.history, m.status AS priced_status, m.version AS priced_version
       FROM (SELECT $1::text AS month) k LEFT JOIN periods p ON p.month = k.month LEFT JOIN wage_months m ON m.month = k.month`,
    [month],
  );
  const row = r.rows[0];
  const version = Number(row.priced_version ?? 0);
  const closes = ((row.history ?? []) as { action: string; version: number; at: string; byPhone: string | null; byName: string | null; amountFen: string }[]).filter(
    (h) => h.action === 'closed' && h.version <= version,
  );
  const last = closes.at(-1);
  if (!last) return { status: 'open' };
  return {
    status: row.priced_status,
    version,
    closedAt: new Date(last.at),
    closedBy: { phone: last.byPhone, name: last.byName },
    ...(closes.length > 1 ? { previousAmountFen: fenOf(closes[closes.length - 2].amountFen) } : {}),
  };
}

const workerOf = (r: any): WorkerWage => ({
  employeePhone: r.employee_phone,
  employeeName: r.employee_name ?? null,
  workshopCode: r.workshop_code ?? null,
  workshopName: r.workshop_name ?? null,
  teamCode: r.team_code ?? null,
  teamName: r.team_name ?? null,
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
async function totalsOf(q: Queryable, month: string, reader: Reader): Promise<WageTotals & { workers: number }> {
  const { first, last } = monthDates(month);
  if (!readsEverything(reader)) return scopedTotalsOf(q, month, reader);
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

/** The totals of the lines `reader` sees (module docstring), and the pending reports of the month it sees. */
async function scopedTotalsOf(q: Queryable, month: string, reader: Reader): Promise<WageTotals & { workers: number }> {
  const { first, last } = monthDates(month);
  const args: unknown[] = [month, first, last];
  const seen = scoped('l', reader, args);
  const pending = scopeAndFilter('r.workshop_code', 'r.team_code', reader.scope, reader.filter, args);
  const r = await q.query(
    `SELECT count(DISTINCT l.report_id) AS reports, COALESCE(sum(l.finished_qty), 0) AS finished_qty, COALESCE(sum(l.defective_qty), 0) AS defective_qty,
            COALESCE(sum(l.amount_fen), 0)::text AS amount_fen, count(*) FILTER (WHERE l.amount_fen IS NULL) AS unpriced_lines,
            count(DISTINCT l.employee_phone) AS workers,
            (SELECT count(*) FROM reports r WHERE r.status = 'pending' AND r.report_date BETWEEN $2::date AND $3::date AND ${pending}) AS pending_reports
       FROM wage_lines l WHERE l.month = $1 AND ${seen}`,
    args,
  );
  const m = r.rows[0];
  return {
    reports: Number(m.reports),
    finishedQty: Number(m.finished_qty),
    defectiveQty: Number(m.defective_qty),
    amountFen: fenOf(m.amount_fen),
    unpricedLines: Number(m.unpriced_lines),
    pendingReports: Number(m.pending_reports),
    workers: Number(m.workers),
  };
}

/**
 * The workers' rows of `month` that `reader` sees (module docstring), by phone, `limit`/`offset` (null: all); the
 * per-worker sums of the projection when it sees everything, else the sums of its lines.
 */
function workersQuery(month: string, reader: Reader, limit: number | null, offset: number): { sql: string; args: unknown[] } {
  const { first, last } = monthDates(month);
  const args: unknown[] = [month, limit, offset];
  const rows = readsEverything(reader)
    ? `SELECT w.employee_phone, w.reports, w.finished_qty, w.defective_qty, w.amount_fen, w.unpriced_lines, w.previous_amount_fen
         FROM wage_workers w WHERE w.month = $1 ORDER BY w.employee_phone LIMIT $2 OFFSET $3`
    : `SELECT l.employee_phone, count(DISTINCT l.report_id) AS reports, sum(l.finished_qty) AS finished_qty, sum(l.defective_qty) AS defective_qty,
              COALESCE(sum(l.amount_fen), 0) AS amount_fen, count(*) FILTER (WHERE l.amount_fen IS NULL) AS unpriced_lines, NULL::bigint AS previous_amount_fen
         FROM wage_lines l WHERE l.month = $1 AND ${scoped('l', reader, args)}
        GROUP BY l.employee_phone ORDER BY l.employee_phone LIMIT $2 OFFSET $3`;
  const sql = `SELECT w.employee_phone, ${nameOf('w.employee_phone')} AS employee_name, w.reports, w.finished_qty, w.defective_qty,
         w.amount_fen::text AS amount_fen, w.unpriced_lines, w.previous_amount_fen::text AS previous_amount_fen,
         ${withPlacement(rows, reader, first, last, args)}
   ORDER BY w.employee_phone`;
  return { sql, args };
}

/** GET /api/wages (module docstring): `month`'s status, a page of its workers by phone, and its totals. */
export async function wageSummary(
  q: Queryable,
  month: string,
  page: PageQuery,
  reader: Reader = WHOLE_READER,
): Promise<MonthStatus & Page<WorkerWage> & { month: string; totals: WageTotals }> {
  const { limit, offset } = limitOffset(page);
  const workers = workersQuery(month, reader, limit, offset);
  const [status, totals, rows] = await Promise.all([monthStatus(q, month), totalsOf(q, month, reader), q.query(workers.sql, workers.args)]);
  const { workers: count, ...sums } = totals;
  const seenStatus = readsEverything(reader) ? status : (({ previousAmountFen: _, ...rest }) => rest)(status);
  return { month, ...seenStatus, ...toPage(rows.rows.map(workerOf), count, page), totals: sums };
}

const lineOf = (l: any): WageLine => {
  const defects: WageLine['defects'] = (l.defects ?? []).map((d: any) => ({ reasonCode: d.reasonCode, reasonName: d.reasonName, category: d.category, qty: Number(d.qty) }));
  const split = defectSplit(Number(l.defective_qty), defects);
  return {
  productId: Number(l.product_id),
  projectNo: l.project_no,
  productName: l.product_name,
  deviceNo: l.device_no,
  processName: l.process_name,
  finishedQty: Number(l.finished_qty),
  defectiveQty: Number(l.defective_qty),
  pieceRate: l.piece_rate === null ? null : Number(l.piece_rate),
  defectRate: l.defect_rate === null ? null : Number(l.defect_rate),
  materialDefectRate: l.defect_rate === null ? null : Number(l.material_defect_rate ?? l.defect_rate),
  defects,
  operatorDefectQty: split.operator,
  materialDefectQty: split.material,
  otherDefectQty: split.other,
  unexplainedDefectQty: split.unexplained,
  amountFen: l.amount_fen === null ? null : BigInt(l.amount_fen),
  ...(l.crew ? { crew: crewOf(l.crew) } : {}),
  };
};

/** The `crew` column of a member's row (projections/wages.ts CrewWhole) as a WageLine's `crew`. */
const crewOf = (c: any): NonNullable<WageLine['crew']> => ({
  submitter: c.submitter,
  finishedQty: Number(c.finishedQty),
  defectiveQty: Number(c.defectiveQty),
  amountFen: c.amountFen === null ? null : BigInt(c.amountFen),
  shares: (c.shares as any[]).map((x, k) => ({
    phone: x.phone,
    name: x.name ?? null,
    weight: Number(x.weight),
    finishedQty: Number(x.finishedQty),
    defectiveQty: Number(x.defectiveQty),
    amountFen: c.amounts ? BigInt(c.amounts[k]) : null,
  })),
});

const LINE_COLUMNS = `l.report_id, l.report_date, l.employee_phone, l.product_id, l.project_no, l.product_name, l.device_no, l.process_name,
  l.finished_qty, l.defective_qty, l.piece_rate, l.defect_rate, l.amount_fen::text AS amount_fen, l.material_defect_rate, l.crew,
  (SELECT json_agg(json_build_object('reasonCode', x.e ->> 'reasonCode', 'reasonName', coalesce(d.name, x.e ->> 'reasonCode'),
                                     'category', x.e ->> 'category', 'qty', (x.e ->> 'qty')::int) ORDER BY x.o)
     FROM jsonb_array_elements(l.defects) WITH ORDINALITY AS x(e, o) LEFT JOIN defect_reasons d ON d.code = x.e ->> 'reasonCode') AS defects`;

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
export async function wageStatement(q: Queryable, month: string, phone: string, reader: Reader = WHOLE_READER): Promise<WageStatement> {
  const lineArgs: unknown[] = [month, phone];
  const seen = scoped('l', reader, lineArgs);
  const [status, worker, lines, name] = await Promise.all([
    monthStatus(q, month),
    readsEverything(reader)
      ? q.query(`SELECT ${WORKER_COLUMNS}, w.previous_amount_fen::text AS previous_amount_fen FROM wage_workers w WHERE w.month = $1 AND w.employee_phone = $2`, [month, phone])
      : Promise.resolve(undefined),
    q.query(`SELECT ${LINE_COLUMNS} FROM wage_lines l WHERE l.month = $1 AND l.employee_phone = $2 AND ${seen} ORDER BY l.report_date, l.report_id, l.line_no, l.member_no`, lineArgs),
    q.query(`SELECT ${nameOf('$1')} AS name`, [phone]),
  ]);
  const reports = reportsOf(lines.rows);
  // A reader who does not see everything gets the sums of the lines it sees, and no earlier close's amount.
  const w = worker
    ? worker.rows[0]
    : {
        amount_fen: String(reports.reduce((a, r) => a + r.amountFen, 0n)),
        unpriced_lines: reports.reduce((a, r) => a + r.unpricedLines, 0),
        previous_amount_fen: null,
      };
  const { previousAmountFen: _monthPrevious, ...monthStatusOnly } = status;
  return {
    month,
    ...monthStatusOnly,
    employeePhone: phone,
    employeeName: name.rows[0].name ?? null,
    amountFen: fenOf(w?.amount_fen),
    unpricedLines: Number(w?.unpriced_lines ?? 0),
    ...(w?.previous_amount_fen !== null && w?.previous_amount_fen !== undefined ? { previousAmountFen: fenOf(w.previous_amount_fen) } : {}),
    reports,
  };
}

/** Every worker of `month` and every line, each with the worker's current name (the payroll workbook). */
export async function wageExport(
  q: Queryable,
  month: string,
  reader: Reader = WHOLE_READER,
): Promise<{ workers: WorkerWage[]; lines: (WageLine & { employeePhone: string; employeeName: string | null; reportId: string; reportDate: string })[] }> {
  const w = workersQuery(month, reader, null, 0);
  const lineArgs: unknown[] = [month];
  const seen = scoped('l', reader, lineArgs);
  const [workers, lines] = await Promise.all([
    q.query(w.sql, w.args),
    q.query(`SELECT ${LINE_COLUMNS} FROM wage_lines l WHERE l.month = $1 AND ${seen} ORDER BY l.employee_phone, l.report_date, l.report_id, l.line_no, l.member_no`, lineArgs),
  ]);
  const all = workers.rows.map(workerOf);
  const names = new Map(all.map((w) => [w.employeePhone, w.employeeName]));
  return {
    workers: all,
    lines: lines.rows.map((l) => ({ ...lineOf(l), employeePhone: l.employee_phone, employeeName: names.get(l.employee_phone) ?? null, reportId: l.report_id, reportDate: l.report_date })),
  };
}
