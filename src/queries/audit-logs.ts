/**
 * The audit trail of one report (decisions.md "Reports and review": who, role, when, before, after, reason),
 * from `report_audit_logs` in the order things happened. Plausibility flags the projection kept in `after`
 * (submitted, approved knowing them — 已知异常 —, break changed) are given as `flags` with their
 * sentences, and taken out of `after` (an approval's `after` is then null, as without flags). Unknown report: 404 REPORT_NOT_FOUND (the event store
 * is asked, so a report without rows yet is still found).
 */
import type { Queryable } from '../db/transaction.ts';
import { limitOffset, toPage, type Page, type PageQuery } from '../shared/page.ts';
import { streams } from '../events/catalog.ts';
import type { EventStore } from '../events/store.ts';
import { parseReportId, reportNotFound } from '../domain/report.ts';
import { toZonedIso } from '../time.ts';
import { withMessage, type PlausibilityFlag } from '../domain/plausibility.ts';
import { isWholeFactory, scopeAndFilter, WHOLE_FACTORY, type Scope } from '../domain/scope.ts';

export interface AuditLogItem {
  action: 'submitted' | 'corrected' | 'approved' | 'rejected' | 'break_changed';
  actorPhone: string | null;
  actorName: string | null;
  role: string | null;
  at: string;
  productId: number | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  /** The plausibility flags of the figures after the entry; [] when there are none. */
  flags: (PlausibilityFlag & { message: string })[];
}

/** A stored `after` split into the value the API shows and the flags kept in it. */
function splitFlags(after: unknown): { after: unknown; flags: PlausibilityFlag[] } {
  if (after === null || typeof after !== 'object' || !('flags' in after)) return { after, flags: [] };
  const { flags, ...rest } = after as { flags: PlausibilityFlag[] };
  return { after: Object.keys(rest).length ? rest : null, flags };
}

/**
 * GET /api/reports/:reportId/audit-logs: one page of the report's audit entries in event order, `at` ISO 8601 in
 * `timeZone` (APP_TIMEZONE). Throws 404 REPORT_NOT_FOUND for a malformed id, a report with no events, or one
 * outside `scope` (domain/scope.ts).
 */
export async function auditLogs(
  q: Queryable,
  store: EventStore,
  reportId: string,
  page: PageQuery,
  timeZone: string,
  scope: Scope = WHOLE_FACTORY,
): Promise<Page<AuditLogItem>> {
  const id = parseReportId(reportId);
  if ((await store.streamVersion(q, streams.report(id))) === 0) throw reportNotFound();
  if (!isWholeFactory(scope)) {
    // Out of the reader's scope: as unknown. The report's row commits with its first event.
    const args: unknown[] = [id];
    const r = await q.query(`SELECT 1 FROM reports r WHERE r.report_id = $1 AND ${scopeAndFilter('r.workshop_code', 'r.team_code', scope, {}, args)}`, args);
    if (r.rows.length === 0) throw reportNotFound();
  }
  const { limit, offset } = limitOffset(page);
  const [rows, total] = await Promise.all([
    q.query(
      `SELECT action, actor_phone, actor_name, actor_role, at, product_id, before, after, reason
         FROM report_audit_logs WHERE report_id = $1 ORDER BY stream_version, seq LIMIT $2 OFFSET $3`,
      [id, limit, offset],
    ),
    q.query(`SELECT count(*) AS total FROM report_audit_logs WHERE report_id = $1`, [id]),
  ]);
  const items = rows.rows.map((r): AuditLogItem => {
    const { after, flags } = splitFlags(r.after);
    return {
      action: r.action,
      actorPhone: r.actor_phone,
      actorName: r.actor_name,
      role: r.actor_role,
      at: toZonedIso(new Date(r.at), timeZone),
      productId: r.product_id === null ? null : Number(r.product_id),
      before: r.before,
      after,
      reason: r.reason,
      flags: flags.map(withMessage),
    };
  });
  return toPage(items, Number(total.rows[0].total), page);
}
