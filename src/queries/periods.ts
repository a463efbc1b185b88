/**
 * The months (`GET /api/periods`): every month with reports or a close, newest
 * first, with its status, the number of closes (`version`), who closed it last and when, the last close's figures,
 * the approved reports as the wage projection counts them, the pending reports as they are now (the `reports` read
 * model: what blocks a close), and the trail of its closes and reopens (who, when, amount, reason).
 * Months with reports are found by a loose scan of the index `reports_by_date` (one probe per month, however many
 * reports), so the list costs the number of months, not of reports.
 *
 * A reader with a scope (domain/scope.ts) gets the same months (a month's status is the whole
 * factory's: it decides what anyone may write into it), but its counts are of the reports in its scope only
 * (approved and pending, from the `reports` read model), and the figures of a close (amount, workers, the trail's
 * amounts) are null: they are the whole factory's, as on the wages page (queries/wages.ts).
 */
import type { Queryable } from '../db/transaction.ts';
import { fenOf } from '../domain/money.ts';
import { isWholeFactory, scopeAndFilter, type Scope } from '../domain/scope.ts';

export interface PeriodHistoryEntry {
  action: 'closed' | 'reopened';
  version: number;
  at: Date;
  by: { phone: string | null; name: string | null };
  /** The close's amount; null for a reader with a scope (module docstring). */
  amountFen: bigint | null;
  reason?: string;
}

export interface PeriodItem {
  month: string;
  status: 'open' | 'closed';
  version: number;
  closedAt: Date | null;
  closedBy: { phone: string | null; name: string | null } | null;
  /** The last close's amount and workers; null: never closed, or a reader with a scope (module docstring). */
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

/**
 * The approved and pending reports per month (`YYYY-MM`): for the whole factory the wage projection's approved
 * count and the pending reports; for a scope, both counted from `reports` within it (module docstring).
 */
function countsSql(scope: Scope, args: unknown[]): string {
  if (isWholeFactory(scope)) {
    return `SELECT ms.month, w.reports, (SELECT count(*) FROM reports r WHERE r.status = 'pending' AND r.report_date >= to_date(ms.month, 'YYYY-MM')
                                                 AND r.report_date < (to_date(ms.month, 'YYYY-MM') + interval '1 month')::date) AS pending_reports
              FROM months ms LEFT JOIN wage_months w ON w.month = ms.month`;
  }
  return `SELECT to_char(r.report_date, 'YYYY-MM') AS month, count(*) FILTER (WHERE r.status = 'approved') AS reports,
                 count(*) FILTER (WHERE r.status = 'pending') AS pending_reports
            FROM reports r WHERE r.status IN ('approved', 'pending') AND ${scopeAndFilter('r.workshop_code', 'r.team_code', scope, {}, args)} GROUP BY 1`;
}

/** GET /api/periods (module docstring): the months as `scope` sees them. */
export async function listPeriods(q: Queryable, scope: Scope): Promise<PeriodItem[]> {
  const args: unknown[] = [];
  const whole = isWholeFactory(scope);
  const r = await q.query(
    `WITH months AS (${MONTHS_WITH_REPORTS} UNION SELECT month FROM periods),
          counts AS (${countsSql(scope, args)})
     SELECT ms.month, p.status, p.version, p.closed_at, p.closed_by_phone, p.closed_by_name, p.amount_fen::text AS amount_fen, p.workers, p.history,
            c.reports, c.pending_reports
       FROM months ms
       LEFT JOIN periods p ON p.month = ms.month
       LEFT JOIN counts c ON c.month = ms.month
      ORDER BY ms.month DESC`,
    args,
  );
  return r.rows.map((row) => ({
    month: row.month,
    status: row.status ?? 'open',
    version: Number(row.version ?? 0),
    closedAt: row.closed_at ?? null,
    closedBy: row.closed_at ? { phone: row.closed_by_phone, name: row.closed_by_name } : null,
    amountFen: row.amount_fen === null || !whole ? null : fenOf(row.amount_fen),
    workers: whole ? (row.workers ?? null) : null,
    reports: Number(row.reports ?? 0),
    pendingReports: Number(row.pending_reports ?? 0),
    history: ((row.history ?? []) as any[]).map((h) => ({
      action: h.action,
      version: h.version,
      at: new Date(h.at),
      by: { phone: h.byPhone, name: h.byName },
      amountFen: whole ? fenOf(h.amountFen) : null,
      ...(h.reason ? { reason: h.reason } : {}),
    })),
  }));
}
