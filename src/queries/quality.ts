/**
 * The quality read (GET /api/quality/defects): the defective pieces of the approved reports dated in a range,
 * grouped by reason, category, product, device, team or worker, as a Pareto (domain/pareto.ts), with the range's
 * total defective and output pieces. Reads the daily sums of the async `quality` projection (projections/quality.ts,
 * the lines as approved: each line's defect reasons with the category of when it was recorded), an indexed range
 * read; its routes wait for it (`readModels`). Scoped readers see the reports of their scope and filters
 * (domain/scope.ts) through the sums' placement keys.
 *
 * - `reason`: each recorded reason (labelled with its name of now), the pieces without a reason as 未注明 (key null);
 * - `category`: 工废 / 料废 / 其他 as recorded, 未注明 apart (key null);
 * - `product` (product id, labelled 产品名称（工序）), `device` (device no), `team` (team code, labelled with its
 *   name; reports in no team: key null, 未分班组), `worker` (phone, labelled with the name in personnel), `workOrder`
 *   (the order's number; lines naming none: key null, 未指定工单).
 */
import type { Queryable } from '../db/transaction.ts';
import { DEFECT_CATEGORY_LABELS, UNEXPLAINED_LABEL, type DefectCategory } from '../domain/defect-reasons.ts';
import { pareto, percent1, type ParetoItem } from '../domain/pareto.ts';
import type { Reader } from '../domain/scope.ts';
import { readerSql, type DateRange } from './dashboard.ts';
import { DIMS, MONTHLY_WORKERS, REASONS, type QualityDimension } from '../projections/quality.ts';

export const QUALITY_GROUPS = ['reason', 'category', 'product', 'device', 'team', 'worker', 'workOrder'] as const;
export type QualityGroup = (typeof QUALITY_GROUPS)[number];

export interface DefectPareto {
  items: ParetoItem[];
  totalDefectiveQty: number;
  totalOutputQty: number;
  /** Defective pieces in percent of the output, 1 decimal. */
  defectRatePct: number;
}

/** Rows of `table` (alias `a`) in the range ($1, $2) within the reader's scope and filters (`where`). */
const inRange = (table: string, where: string, dimension?: QualityDimension) =>
  `${table} a WHERE ${dimension ? `a.dimension = '${dimension}' AND ` : ''}a.report_date BETWEEN $1::date AND $2::date AND ${where}`;

/**
 * The whole calendar months of `range` as [from, to) of first days (from ≥ to: none): a worker's sums of those
 * months are read from the monthly rows, the other days of the range from the daily rows.
 */
function wholeMonths(range: DateRange): { from: string; to: string } {
  const first = (y: number, m: number) => new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
  const [sy, sm, sd] = range.startDate.split('-').map(Number);
  const [ey, em, ed] = range.endDate.split('-').map(Number);
  const from = sd === 1 ? range.startDate : first(sy, sm); // months are 0-based in Date.UTC: sm is the next month
  const lastDay = new Date(Date.UTC(ey, em, 0)).getUTCDate();
  const to = ed === lastDay ? first(ey, em) : first(ey, em - 1);
  return { from, to };
}

/**
 * How a worker's pieces of `range` are read, as half-open [from, to) date ranges: `months` of the monthly rows
 * (whole months), `head` and `tail` of the daily rows (the days before and after them; the whole range when it holds
 * no whole month), each one index range.
 */
export function workerRanges(range: DateRange): Record<'months' | 'head' | 'tail', [string, string]> {
  const [y, m, d] = range.endDate.split('-').map(Number);
  const afterEnd = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  const whole = wholeMonths(range);
  if (whole.from >= whole.to) return { months: [afterEnd, afterEnd], head: [range.startDate, afterEnd], tail: [afterEnd, afterEnd] };
  return { months: [whole.from, whole.to], head: [range.startDate, whole.from], tail: [whole.to, afterEnd] };
}
/**
 * The pieces by worker phone (`k`, `q`) in the range (workerRanges, bound as `m`: months, head, tail, each from
 * and to): whole months from the monthly rows, the days before and after them from the daily rows.
 */
const WORKER_PIECES = (w: string, m: string[]) => {
  const daily = (from: string, to: string) =>
    `SELECT a.key, a.defective_qty FROM ${inRange(DIMS, w, 'worker')} AND a.report_date >= ${from}::date AND a.report_date < ${to}::date`;
  return `
  SELECT a.employee_phone AS k, a.defective_qty AS q FROM ${MONTHLY_WORKERS} a WHERE a.month >= ${m[0]}::date AND a.month < ${m[1]}::date AND ${w}
  UNION ALL ${daily(m[2], m[3])}
  UNION ALL ${daily(m[4], m[5])}`;
};

/** The group of the lines that name no work order. */
export const NO_WORK_ORDER_LABEL = '未指定工单';

/** A person's name by phone: the worker's, else the first of the other roles (as the review pages name people). */
const NAMES = `(SELECT DISTINCT ON (phone) phone, name FROM personnel ORDER BY phone, role <> 'worker', role)`;

/**
 * Per group: key, label and pieces (SQL over the sums of migrations/022; `w` the reader's condition, `m` the
 * placeholders of workerRanges).
 */
const GROUPS: Record<QualityGroup, (w: string, m: string[]) => string> = {
  reason: (w) => `SELECT g.key, coalesce(d.name, g.key) AS label, g.qty FROM (
             SELECT a.reason_key AS key, sum(a.qty) AS qty FROM ${inRange(REASONS, w)} AND a.reason_key <> '' GROUP BY 1
           ) g LEFT JOIN defect_reasons d ON d.code = g.key`,
  category: (w) => `SELECT a.category AS key, a.category AS label, sum(a.qty) AS qty FROM ${inRange(REASONS, w)} AND a.reason_key <> '' GROUP BY 1`,
  product: (w) => `SELECT a.key, min(a.label) AS label, sum(a.defective_qty) AS qty FROM ${inRange(DIMS, w, 'product')} GROUP BY 1`,
  device: (w) => `SELECT a.key, a.key AS label, sum(a.defective_qty) AS qty FROM ${inRange(DIMS, w, 'device')} GROUP BY 1`,
  team: (w) => `SELECT g.team_code AS key, coalesce(t.name, g.team_code, '未分班组') AS label, g.qty FROM (
           SELECT NULLIF(a.team_key, '') AS team_code, sum(a.defective_qty) AS qty FROM ${inRange(DIMS, w, 'product')} GROUP BY 1
         ) g LEFT JOIN teams t ON t.code = g.team_code`,
  workOrder: (w) => `SELECT NULLIF(a.key, '') AS key, coalesce(NULLIF(a.key, ''), '${NO_WORK_ORDER_LABEL}') AS label, sum(a.defective_qty) AS qty
               FROM ${inRange(DIMS, w, 'workOrder')} GROUP BY 1`,
  worker: (w, m) => `SELECT g.key, coalesce(p.name, g.key) AS label, g.qty
             FROM (SELECT x.k AS key, sum(x.q) AS qty FROM (${WORKER_PIECES(w, m)}) x GROUP BY 1) g LEFT JOIN ${NAMES} p ON p.phone = g.key`,
};

/**
 * The range's totals, in one statement: defective and output pieces (the product rows), and the defective pieces
 * without a reason (未注明, for `reason` and `category`).
 */
const TOTALS = (w: string) => `SELECT
  (SELECT coalesce(sum(a.defective_qty), 0) FROM ${inRange(DIMS, w, 'product')}) AS defective,
  (SELECT coalesce(sum(a.output_qty), 0) FROM ${inRange(DIMS, w, 'product')}) AS output,
  (SELECT coalesce(sum(a.qty), 0) FROM ${inRange(REASONS, w)} AND a.reason_key = '') AS unexplained`;

/** The Pareto of `range` by `groupBy` for `reader` (module docstring). */
export async function defectPareto(q: Queryable, range: DateRange, groupBy: QualityGroup, reader: Reader): Promise<DefectPareto> {
  const args: unknown[] = [range.startDate, range.endDate];
  const where = readerSql('a', reader, args);
  const r = workerRanges(range);
  const bounds = [...r.months, ...r.head, ...r.tail];
  const groupArgs = groupBy === 'worker' ? [...args, ...bounds] : args;
  const m = bounds.map((_, i) => `$${args.length + 1 + i}`);
  const [groups, totals] = await Promise.all([q.query(GROUPS[groupBy](where, m), groupArgs), q.query(TOTALS(where), args)]);
  const counted = groups.rows.map((g: any) => ({
    key: g.key as string | null,
    label: groupBy === 'category' ? DEFECT_CATEGORY_LABELS[g.key as DefectCategory] ?? String(g.key) : String(g.label),
    defectiveQty: Number(g.qty),
  }));
  if (groupBy === 'reason' || groupBy === 'category') counted.push({ key: null, label: UNEXPLAINED_LABEL, defectiveQty: Number(totals.rows[0].unexplained) });
  const { items, totalDefectiveQty } = pareto(counted);
  const output = Number(totals.rows[0].output);
  return { items, totalDefectiveQty, totalOutputQty: output, defectRatePct: percent1(Number(totals.rows[0].defective), output) };
}
