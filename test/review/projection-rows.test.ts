/**
 * The report stream's projections as pure mappings (no database): events in, rows out. The audit log (inline) and
 * the dashboard's sums (async) are fed a report's life — submitted, approved with a correction, break changed —
 * and their rows are checked field by field (decisions.md "Reports and review", "Calculations").
 */
import { describe, expect, it } from 'vitest';
import type { ReportEvent } from '../../src/events/catalog.ts';
import type { ProjectedEvent, Projection } from '../../src/projections/projection.ts';
import { rowsOf } from '../../src/projections/inline.ts';
import { auditLogProjection } from '../../src/projections/audit-log.ts';
import { dashboardProjection, CONTRIBUTIONS, DAILY, DAYS } from '../../src/projections/dashboard.ts';
import { line, submitted, WORKER } from './fixtures.ts';
import type { PlausibilityFlag } from '../../src/domain/plausibility.ts';

const data = submitted({ reportDate: '2026-03-02', lines: [line(1, 10, 2880, 100, 5), line(2, 12.5, 2304, 40, 0)] });
const sub: ReportEvent = { type: 'ReportSubmitted', data };
const ref = { reportId: data.reportId, employeePhone: data.employeePhone, reportDate: data.reportDate };
const worker = { actorPhone: WORKER, actorName: '张三', role: 'worker' };
const admin = { actorPhone: '13900000001', actorName: '审核员甲', role: 'admin' };
const manager = { actorPhone: '13900000002', actorName: '经理乙', role: 'manager' };

/** The report's events as projections see them, at stream versions 1, 2, … with `who` as metadata. */
const history = (...events: [ReportEvent, Record<string, string>][]): ProjectedEvent[] =>
  events.map(([e, who], i) => ({ streamId: `report-${ref.reportId}`, streamVersion: i + 1, type: e.type, data: e.data, metadata: who, recordedAt: new Date(e.data.at) }));

/** Every row `p` holds after `events` (a replay from nothing), by table, null rows (deleted) left out. */
const rows = (p: Projection, events: ProjectedEvent[]) =>
  Object.fromEntries([...rowsOf([p], events)].map(([table, t]) => [table, [...t.changes.values()].flatMap((c) => (c.row ? [c.row] : []))]));

const approvedWithCorrection: ReportEvent = {
  type: 'ReportApproved',
  data: { ...ref, correction: { before: data.lines, after: [line(1, 10, 2880, 98, 7)] }, flags: [], at: '2026-03-02T11:00:00.000Z' },
};
const breakChanged: ReportEvent = { type: 'BreakChanged', data: { ...ref, before: 60, after: 30, reason: '考勤更正', at: '2026-03-03T01:30:00.000Z' } };

describe('audit log', () => {
  it('one row per fact: submitted, each corrected line (removed last), approved, break changed, with who and when', () => {
    const r = rows(auditLogProjection, history([sub, worker], [approvedWithCorrection, admin], [breakChanged, manager]));
    expect(r.report_audit_logs.map((x) => [x.stream_version, x.seq, x.action, x.product_id, x.actor_name, x.actor_role])).toEqual([
      [1, 0, 'submitted', null, '张三', 'worker'],
      [2, 0, 'corrected', 1, '审核员甲', 'admin'],
      [2, 1, 'corrected', 2, '审核员甲', 'admin'],
      [2, 2, 'approved', null, '审核员甲', 'admin'],
      [3, 0, 'break_changed', null, '经理乙', 'manager'],
    ]);
    const [, changed, removed, , breaks] = r.report_audit_logs;
    expect(changed).toMatchObject({ before: { finishedQty: 100, defectiveQty: 5, outputQty: 105 }, after: { finishedQty: 98, defectiveQty: 7, outputQty: 105 } });
    expect(removed).toMatchObject({ before: { productId: 2, outputQty: 40 }, after: null });
    expect(breaks).toMatchObject({ before: { breakMinutes: 60 }, after: { breakMinutes: 30 }, reason: '考勤更正', at: '2026-03-03T01:30:00.000Z' });
  });
});

describe('dashboard sums', () => {
  it('a pending report is a contribution only; approval adds it (corrected lines) to its day; a later break change moves the effective time', () => {
    const pending = rows(dashboardProjection, history([sub, worker]));
    expect(pending[CONTRIBUTIONS]).toEqual([
      {
        report_id: ref.reportId,
        report_date: '2026-03-02',
        employee_phone: WORKER,
        employee_name: '张三',
        span_ms: 9 * 3_600_000,
        break_minutes: 60,
        finished_qty: 140,
        defective_qty: 5,
        output_qty: 145,
        cycle_output_milli: 10_000 * 105 + 12_500 * 40,
        standard_workload: 2880 + 2304,
        workshop_code: null,
        team_code: null,
        crew_lines: null,
      },
    ]);
    expect(pending[DAILY]).toBeUndefined();

    const all = rows(dashboardProjection, history([sub, worker], [approvedWithCorrection, admin], [breakChanged, manager]));
    expect(all[CONTRIBUTIONS]).toEqual([]);
    expect(all[DAILY]).toEqual([
      {
        report_date: '2026-03-02',
        employee_phone: WORKER,
        employee_name: '张三',
        report_count: 1,
        effective_ms: (9 * 60 - 30) * 60_000,
        finished_qty: 98,
        defective_qty: 7,
        output_qty: 105,
        cycle_output_milli: 10_000 * 105,
        standard_workload: 2880,
        flagged: [],
        workshop_key: '',
        team_key: '',
      },
    ]);
    expect(all[DAYS]).toEqual([{ report_date: '2026-03-02', row_count: 1, workshop_key: '', team_key: '' }]);
  });

  it('a rejected report leaves nothing', () => {
    const rejected: ReportEvent = { type: 'ReportRejected', data: { ...ref, reason: '数量不对', at: '2026-03-02T11:00:00.000Z' } };
    const r = rows(dashboardProjection, history([sub, worker], [rejected, admin]));
    expect(r[CONTRIBUTIONS]).toEqual([]);
    expect(r[DAILY]).toBeUndefined();
  });
});

describe('plausibility flags', () => {
  const flags: PlausibilityFlag[] = [{ code: 'NO_WORKING_TIME', effectiveSeconds: 0, outputQty: 205, standardSeconds: 6150 }];
  const flaggedSub: ReportEvent = { type: 'ReportSubmitted', data: { ...data, flags } };
  const approvedKnowing: ReportEvent = { type: 'ReportApproved', data: { ...ref, flags, at: '2026-03-02T11:00:00.000Z' } };
  const cleared: ReportEvent = { type: 'BreakChanged', data: { ...ref, before: 60, after: 30, flags: [], at: '2026-03-03T01:30:00.000Z' } };

  it('the audit log keeps them beside the submitted lines and as what the approval knew (已知异常)', () => {
    const r = rows(auditLogProjection, history([flaggedSub, worker], [approvedKnowing, admin], [cleared, manager]));
    const [submittedRow, approvedRow, breakRow] = r.report_audit_logs;
    expect(submittedRow.after).toMatchObject({ breakMinutes: 60, flags });
    expect(approvedRow).toMatchObject({ action: 'approved', after: { flags } });
    expect(breakRow.after).toEqual({ breakMinutes: 30 });
    // Without flags, the rows are as they always were.
    const plain = rows(auditLogProjection, history([sub, worker], [{ type: 'ReportApproved', data: { ...ref, flags: [], at: '2026-03-02T11:00:00.000Z' } }, admin]));
    expect(plain.report_audit_logs.map((x) => x.after === null || 'flags' in (x.after as object))).toEqual([false, true]);
  });

  it('the dashboard day lists the approved flagged report; a break change that clears its flags removes it', () => {
    const approved = rows(dashboardProjection, history([flaggedSub, worker], [approvedKnowing, admin]));
    expect(approved[DAILY][0].flagged).toEqual([{ reportId: ref.reportId, flags }]);
    const after = rows(dashboardProjection, history([flaggedSub, worker], [approvedKnowing, admin], [cleared, manager]));
    expect(after[DAILY][0].flagged).toEqual([]);
    // A break change of an older event (no flags) leaves the list as it was.
    const { flags: _none, ...older } = (cleared as Extract<ReportEvent, { type: 'BreakChanged' }>).data;
    const kept = rows(dashboardProjection, history([flaggedSub, worker], [approvedKnowing, admin], [{ type: 'BreakChanged', data: older }, manager]));
    expect(kept[DAILY][0].flagged).toEqual([{ reportId: ref.reportId, flags }]);
  });
});
