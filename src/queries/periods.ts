/**
 * The months (issue #22 "The monthly close", `GET /api/periods`): every month with reports or a close, newest
 * first, with its status, the number of closes (`version`), who closed it last and when, the last close's figures,
 * the approved reports as the wage projection counts them, the pending reports as they are now (the `reports` read
 * model: what blocks a close), and the trail of its closes and reopens (who, when, amount, reason).
 * Months with reports are found by a loose scan of the index `reports_by_date` (one probe per month, however many
 * reports), so the list costs the number of months, not of reports.
 */
import type { Queryable } from '../db/transaction.ts';
import { fenOf } from '../domain/money.ts';

export interface PeriodHistoryEntry {
  action: 'closed' | 'reopened';
  version: number;
  at: Date;
  by: { phone: string | null; name: string | null };
  amountFen: bigint;
  reason?: string;
}

export interface PeriodItem {
  month: string;
  status: 'open' | 'closed';
  version: number;
  closedAt: Date | null;
  closedBy: { phone: string | null; name: string | null } | null;
  /** The last close's amount and workers; null: never closed. */
  amountFen: bigint | null;
  workers: number | null;
  reports: number;
  pendingReports: number;
  history: PeriodHistoryEntry[];
}

/** The months with reports (loose index scan, module docstring). */
const MONTHS_WITH_REPORTS = `
  WITH RECURSIVE m AS (
    SELECT min(report_date) AS d FROM reports
    UNION ALL
    SELECT (SELECT min(r.report_date) FROM reports r WHERE r.report_date >= (date_trunc('month', m.d) + interval '1 month')::date)
      FROM m WHERE m.d IS NOT NULL
  )
  SELECT to_char(d, 'YYYY-MM') AS month FROM m WHERE d IS NOT NULL`;

/** GET /api/periods (module docstring). */
export async function listPeriods(q: Queryable): Promise<PeriodItem[]> {
  const r = await q.query(
    `WITH months AS (${MONTHS_WITH_REPORTS} UNION SELECT month FROM periods),
          pending AS (SELECT to_char(report_date, 'YYYY-MM') AS month, count(*) AS n FROM reports WHERE status = 'pending' GROUP BY 1)
     SELECT ms.month, p.status, p.version, p.closed_at, p.closed_by_phone, p.closed_by_name, p.amount_fen::text AS amount_fen, p.workers, p.history,
            w.reports, pe.n AS pending_reports
       FROM months ms
       LEFT JOIN periods p ON p.month = ms.month
       LEFT JOIN wage_months w ON w.month = ms.month
       LEFT JOIN pending pe ON pe.month = ms.month
      ORDER BY ms.month DESC`,
  );
  return r.rows.map((row) => ({
    month: row.month,
    status: row.status ?? 'open',
    version: Number(row.version ?? 0),
    closedAt: row.closed_at ?? null,
    closedBy: row.closed_at ? { phone: row.closed_by_phone, name: row.closed_by_name } : null,
    amountFen: row.amount_fen === null ? null : fenOf(row.amount_fen),
    workers: row.workers ?? null,
    reports: Number(row.reports ?? 0),
    pendingReports: Number(row.pending_reports ?? 0),
    history: ((row.history ?? []) as any[]).map((h) => ({
      action: h.action,
      version: h.version,
      at: new Date(h.at),
      by: { phone: h.byPhone, name: h.byName },
      amountFen: fenOf(h.amountFen),
      ...(h.reason ? { reason: h.reason } : {}),
    })),
  }));
}
