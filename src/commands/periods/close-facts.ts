/**
 * What a month's close decides on, read by the close's handler inside its
 * transaction, AFTER it holds the month's exclusive lock and in statements of their own (each with a snapshot taken
 * after the lock was granted): so every write into the month that got in first has committed and is counted, and
 * none can come after.
 *
 * From the inline read models (`reports`, `product_rates`), which commit with their events:
 * - the pending reports dated in the month (at most CLOSE_LIST_MAX listed, and their number);
 * - the approved lines, each priced at the rates in force on its report date (domain/money.ts, domain/rates.ts:
 *   the very rules of the wage projection): the month's amount (fen), reports, quantities and workers (a crew
 *   line priced once, whole, as the wages price it before splitting it; its members counted among the workers);
 * - the lines with no rate in force on their date (unpriced, at most CLOSE_LIST_MAX listed, and their number);
 * - per priced product, the entries that price dates of the month: the rates the closed month keeps.
 */
import type { Queryable } from '../../db/transaction.ts';
import type { CloseBlockers } from '../../domain/errors.ts';
import { lineAmountFen } from '../../domain/money.ts';
import { defectSplit } from '../../domain/report-line.ts';
import { monthDates } from '../../domain/period.ts';
import { rateOn, segmentsIn, type RateEntry } from '../../domain/rates.ts';
import { rateEntriesOf } from '../../products/store.ts';
import type { CloseFigures } from './decider.ts';

/** The worker's name in personnel (null when no longer there), for the refusal to name people, not phones. */
const NAME_SQL = (reports: string) => `(SELECT p.name FROM personnel p WHERE p.phone = ${reports}.employee_phone ORDER BY p.role <> 'worker', p.role LIMIT 1)`;

/** Most pending reports and most unpriced lines a refused close lists (their numbers are given whole). */
export const CLOSE_LIST_MAX = 200;

export interface CloseFacts {
  pending: Pick<CloseBlockers, 'pending' | 'pendingTotal'>;
  unpriced: Pick<CloseBlockers, 'unpriced' | 'unpricedTotal'>;
  figures: CloseFigures;
  rates: { productId: number; segments: RateEntry[] }[];
}

/** Reads and computes the close's facts of `month` through `q` (module docstring). */
export async function closeFacts(q: Queryable, month: string): Promise<CloseFacts> {
  const { first, last } = monthDates(month);
  const pending = await q.query(
    `SELECT report_id, report_date, employee_phone, ${NAME_SQL('reports')} AS employee_name, count(*) OVER () AS total
       FROM reports WHERE status = 'pending' AND report_date BETWEEN $1::date AND $2::date
      ORDER BY report_date, submitted_at, report_id LIMIT $3`,
    [first, last, CLOSE_LIST_MAX],
  );
  const lines = await q.query(
    `SELECT r.report_id, r.report_date, r.employee_phone, ${NAME_SQL('r')} AS employee_name, l."productId" AS product_id, l."finishedQty" AS finished, l."defectiveQty" AS defective,
            l.defects, l.shares, l."projectNo" AS project_no, l."productName" AS product_name, l."deviceNo" AS device_no, l."processName" AS process_name
       FROM reports r
      CROSS JOIN LATERAL jsonb_to_recordset(r.lines) AS l("productId" bigint, "finishedQty" bigint, "defectiveQty" bigint, defects jsonb, shares jsonb,
                                                          "projectNo" text, "productName" text, "deviceNo" text, "processName" text)
      WHERE r.status = 'approved' AND r.report_date BETWEEN $1::date AND $2::date
      ORDER BY r.report_date, r.report_id`,
    [first, last],
  );
  const histories = await rateEntriesOf(q, [...new Set(lines.rows.map((l) => Number(l.product_id)))]);

  let amount = 0n;
  let finishedQty = 0;
  let defectiveQty = 0;
  const reports = new Set<string>();
  const workers = new Set<string>();
  const unpriced: CloseBlockers['unpriced'] = [];
  let unpricedTotal = 0;
  for (const l of lines.rows) {
    reports.add(l.report_id);
    workers.add(l.employee_phone);
    // Crew work: each member of a crew line is a worker of the month (their share is on their statement).
    for (const m of (l.shares as { phone: string }[] | null) ?? []) workers.add(m.phone);
    finishedQty += Number(l.finished);
    defectiveQty += Number(l.defective);
    const rate = rateOn(histories.get(Number(l.product_id)) ?? [], l.report_date);
    if (rate) {
      amount += lineAmountFen(Number(l.finished), Number(l.defective), rate, defectSplit(Number(l.defective), l.defects ?? undefined).material);
      continue;
    }
    if (unpricedTotal++ < CLOSE_LIST_MAX) {
      unpriced.push({
        reportId: l.report_id,
        reportDate: l.report_date,
        employeePhone: l.employee_phone,
        employeeName: l.employee_name ?? null,
        productId: Number(l.product_id),
        projectNo: l.project_no,
        productName: l.product_name,
        deviceNo: l.device_no,
        processName: l.process_name,
      });
    }
  }
  return {
    pending: {
      pending: pending.rows.map((r) => ({ reportId: r.report_id, reportDate: r.report_date, employeePhone: r.employee_phone, employeeName: r.employee_name ?? null })),
      pendingTotal: Number(pending.rows[0]?.total ?? 0),
    },
    unpriced: { unpriced, unpricedTotal },
    figures: { amountFen: String(amount), reports: reports.size, finishedQty, defectiveQty, workers: workers.size },
    rates: [...histories].map(([productId, h]) => ({ productId, segments: segmentsIn(h, month) })),
  };
}
