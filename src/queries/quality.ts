/**
 * The quality read (GET /api/quality/defects): the defective pieces of the approved reports dated in a range,
 * grouped by reason, category, product, device, team or worker, as a Pareto (domain/pareto.ts), with the range's
 * total defective and output pieces. Reads the `reports` read model (its lines as recorded: each line's defect
 * reasons with the category of when it was recorded). Scoped readers see the reports of their scope and filters
 * (domain/scope.ts). Grouping by work order is not offered: the service has no work orders.
 *
 * - `reason`: each recorded reason (labelled with its name of now), the pieces without a reason as 未注明 (key null);
 * - `category`: 工废 / 料废 / 其他 as recorded, 未注明 apart (key null);
 * - `product` (product id, labelled 产品名称（工序）), `device` (device no), `team` (team code, labelled with its
 *   name; reports in no team: key null, 未分班组), `worker` (phone, labelled with the name in personnel).
 */
import type { Queryable } from '../db/transaction.ts';
import { DEFECT_CATEGORY_LABELS, UNEXPLAINED_LABEL, type DefectCategory } from '../domain/defect-reasons.ts';
import { pareto, percent1, type ParetoItem } from '../domain/pareto.ts';
import { scopeAndFilter, type Reader } from '../domain/scope.ts';
import type { DateRange } from './dashboard.ts';

export const QUALITY_GROUPS = ['reason', 'category', 'product', 'device', 'team', 'worker'] as const;
export type QualityGroup = (typeof QUALITY_GROUPS)[number];

export interface DefectPareto {
  items: ParetoItem[];
  totalDefectiveQty: number;
  totalOutputQty: number;
  /** Defective pieces in percent of the output, 1 decimal. */
  defectRatePct: number;
}

const LINES = (where: string) => `lines AS (
  SELECT r.employee_phone, r.team_code, x.line
    FROM reports r CROSS JOIN LATERAL jsonb_array_elements(r.lines) AS x(line)
   WHERE r.status = 'approved' AND r.report_date BETWEEN $1::date AND $2::date AND ${where})`;

/** Per group: key, label and pieces (SQL over `lines`). */
const GROUPS: Record<QualityGroup, string> = {
  reason: `SELECT g.key, coalesce(d.name, g.key) AS label, g.qty FROM (
             SELECT e ->> 'reasonCode' AS key, sum((e ->> 'qty')::bigint) AS qty FROM lines, jsonb_array_elements(coalesce(line -> 'defects', '[]')) e GROUP BY 1
           ) g LEFT JOIN defect_reasons d ON d.code = g.key`,
  category: `SELECT e ->> 'category' AS key, e ->> 'category' AS label, sum((e ->> 'qty')::bigint) AS qty
               FROM lines, jsonb_array_elements(coalesce(line -> 'defects', '[]')) e GROUP BY 1`,
  product: `SELECT line ->> 'productId' AS key, min((line ->> 'productName') || '（' || (line ->> 'processName') || '）') AS label,
                   sum((line ->> 'defectiveQty')::bigint) AS qty FROM lines GROUP BY 1`,
  device: `SELECT line ->> 'deviceNo' AS key, line ->> 'deviceNo' AS label, sum((line ->> 'defectiveQty')::bigint) AS qty FROM lines GROUP BY 1`,
  team: `SELECT g.team_code AS key, coalesce(t.name, g.team_code, '未分班组') AS label, g.qty FROM (
           SELECT team_code, sum((line ->> 'defectiveQty')::bigint) AS qty FROM lines GROUP BY 1
         ) g LEFT JOIN teams t ON t.code = g.team_code`,
  worker: `SELECT g.employee_phone AS key,
                  coalesce((SELECT p.name FROM personnel p WHERE p.phone = g.employee_phone ORDER BY p.role <> 'worker', p.role LIMIT 1), g.employee_phone) AS label, g.qty
             FROM (SELECT employee_phone, sum((line ->> 'defectiveQty')::bigint) AS qty FROM lines GROUP BY 1) g`,
};

/**
 * The range's totals over `lines`, in one pass: defective and output pieces, and the defective pieces without a
 * reason (未注明, for `reason` and `category`).
 */
const TOTALS = `SELECT coalesce(sum((line ->> 'defectiveQty')::bigint), 0) AS defective,
                       coalesce(sum((line ->> 'outputQty')::bigint), 0) AS output,
                       coalesce(sum((line ->> 'defectiveQty')::bigint
                         - coalesce((SELECT sum((e ->> 'qty')::bigint) FROM jsonb_array_elements(coalesce(line -> 'defects', '[]')) e), 0)), 0) AS unexplained
                  FROM lines`;

/** The Pareto of `range` by `groupBy` for `reader` (module docstring). */
export async function defectPareto(q: Queryable, range: DateRange, groupBy: QualityGroup, reader: Reader): Promise<DefectPareto> {
  const args: unknown[] = [range.startDate, range.endDate];
  const where = scopeAndFilter('r.workshop_code', 'r.team_code', reader.scope, reader.filter, args);
  const withLines = `WITH ${LINES(where)}`;
  const [groups, totals] = await Promise.all([q.query(`${withLines} ${GROUPS[groupBy]}`, args), q.query(`${withLines} ${TOTALS}`, args)]);
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
