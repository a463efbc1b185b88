/**
 * The audit trail of reports (spec 3.2 "an entry is written to report_audit_logs"; decisions.md "Reports and
 * review": submitted, corrected, approved, rejected, break changed — who, role, when, before, after, reason).
 *
 * Inline projection of the report stream into `report_audit_logs` (migrations/005, 006). Rows are keyed by the
 * report, the event's version in the report stream and a sequence within the event (never the global position,
 * which the append assigns after the projection has computed its rows), and carry only what the event and its
 * metadata say, so rebuilding from the events gives the same rows:
 * - ReportSubmitted → `submitted` (after: break minutes and lines).
 * - ReportApproved with a correction → one `corrected` row per changed line (quantities, defect reasons, work order or
 *   crew; before/after: the line with its reasons and crew shares where it has them, null when added/removed; in the
 *   order of the corrected lines, removed lines last), then `approved`.
 * - ReportRejected → `rejected` with the reason. BreakChanged → `break_changed`, before/after `{breakMinutes}`.
 * - Plausibility flags, where the event carries any: `flags` beside the submitted lines, `{flags}` as
 *   the approval's `after` (approved knowing them: 已知异常), and beside the new break minutes.
 * Actor phone, name and role come from the event metadata; the time is the event's `at`.
 */
import { lineContentKey, type ReportLine } from '../domain/report-line.ts';
import type { PlausibilityFlag } from '../domain/plausibility.ts';
import type { ProjectedEvent, Projection, Row, RowChange } from './projection.ts';

export const AUDIT_TABLE = 'report_audit_logs';

/** What the audit log keeps of a line. */
const lineView = (l: ReportLine) => ({
  productId: l.productId,
  projectNo: l.projectNo,
  productName: l.productName,
  deviceNo: l.deviceNo,
  processName: l.processName,
  finishedQty: l.finishedQty,
  defectiveQty: l.defectiveQty,
  outputQty: l.outputQty,
  // the work order, the defect reasons and the crew's shares, when the line has them (rows of lines without stay as they always were)
  ...(l.workOrderNo ? { workOrderNo: l.workOrderNo } : {}),
  ...(l.defects?.length ? { defects: l.defects.map((d) => ({ reasonCode: d.reasonCode, category: d.category, qty: d.qty })) } : {}),
  ...(l.shares?.length ? { shares: l.shares } : {}),
});

/** Same quantities, defect reasons, work order and crew shares: no correction of the line. */
const sameQty = (a: ReportLine, b: ReportLine) => lineContentKey(a) === lineContentKey(b);

/** The changed lines of a correction as [productId, before, after] (null: absent on that side). */
export function changedLines(before: readonly ReportLine[], after: readonly ReportLine[]) {
  const old = new Map(before.map((l) => [l.productId, l]));
  const kept = new Set(after.map((l) => l.productId));
  const out: [number, ReportLine | null, ReportLine | null][] = [];
  for (const l of after) {
    const b = old.get(l.productId);
    if (!b || !sameQty(b, l)) out.push([l.productId, b ?? null, l]);
  }
  for (const b of before) if (!kept.has(b.productId)) out.push([b.productId, b, null]);
  return out;
}

/** `{flags}` when there are any, else nothing (rows of reports without flags stay as they always were). */
const flagsOf = (flags: readonly PlausibilityFlag[] | undefined) => (flags?.length ? { flags } : {});

function row(e: ProjectedEvent, seq: number, action: string, extra: Partial<Row>): RowChange {
  const r: Row = {
    report_id: e.data.reportId,
    stream_version: e.streamVersion,
    seq,
    action,
    actor_phone: e.metadata.actorPhone ?? null,
    actor_name: e.metadata.actorName ?? null,
    actor_role: e.metadata.role ?? null,
    at: e.data.at,
    product_id: null,
    before: null,
    after: null,
    reason: null,
    ...extra,
  };
  return { table: AUDIT_TABLE, key: [e.data.reportId, e.streamVersion, seq], row: r };
}

export const auditLogProjection: Projection = {
  name: 'audit-log',
  mode: 'inline',
  tables: [
    {
      name: AUDIT_TABLE,
      key: ['report_id', 'stream_version', 'seq'],
      columns: ['report_id', 'stream_version', 'seq', 'action', 'actor_phone', 'actor_name', 'actor_role', 'at', 'product_id', 'before', 'after', 'reason'],
    },
  ],
  eventTypes: ['ReportSubmitted', 'ReportApproved', 'ReportRejected', 'BreakChanged'],
  touches: () => [],
  apply(e) {
    switch (e.type) {
      case 'ReportSubmitted':
        return [row(e, 0, 'submitted', { after: { breakMinutes: e.data.breakMinutes, lines: e.data.lines.map(lineView), ...flagsOf(e.data.flags) } })];
      case 'ReportApproved': {
        const c = e.data.correction as { before: ReportLine[]; after: ReportLine[] } | undefined;
        const changes = c ? changedLines(c.before, c.after) : [];
        return [
          ...changes.map(([productId, b, a], i) =>
            row(e, i, 'corrected', { product_id: productId, before: b && lineView(b), after: a && lineView(a) }),
          ),
          row(e, changes.length, 'approved', e.data.flags?.length ? { after: flagsOf(e.data.flags) } : {}),
        ];
      }
      case 'ReportRejected':
        return [row(e, 0, 'rejected', { reason: e.data.reason })];
      case 'BreakChanged':
        return [
          row(e, 0, 'break_changed', {
            before: { breakMinutes: e.data.before },
            after: { breakMinutes: e.data.after, ...flagsOf(e.data.flags) },
            reason: e.data.reason ?? null,
          }),
        ];
      default:
        return [];
    }
  },
};
