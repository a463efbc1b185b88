/**
 * The dashboard's sums (spec 4.8; decisions.md "Calculations"): an ASYNC projection of the report stream.
 *
 * Tables (migrations/005), all sums exact integers — milliseconds, pieces, and standard cycle time in
 * thousandths of a second × pieces — so no float ever accumulates:
 * - `dashboard_report_contributions` (per PENDING report): clock span, break minutes and line sums, i.e. what
 *   the report will add to its day once approved.
 * - `dashboard_daily` (per report_date + employee_phone): the sums over approved reports, so a dashboard page is
 *   an indexed range read (queries/dashboard.ts turns sums into the figures).
 * - `dashboard_days` (per report_date): number of daily rows, for the page total and to jump to deep pages.
 *
 * ReportSubmitted records the contribution; ReportApproved adds it (with the corrected lines when there is a
 * correction) to the day and forgets it; ReportRejected forgets it; BreakChanged on a pending report changes
 * its recorded break, and on an approved one (no contribution left: the decider allows break changes only in
 * pending and approved) moves the day's effective time by (before − after) × 60000 ms, straight from the event.
 * Effective ms of a report = clock-out − clock-in − breakMinutes × 60000 (decisions.md "Calculations").
 *
 * Placement (migrations/015): a contribution keeps its report's workshop and team; the daily
 * sums are keyed by report_date + employee_phone + workshop_key + team_key (the codes, '' for none), and the day
 * counts by report_date + workshop_key + team_key, so the one scope rule and the workshop / team filters apply to
 * the sums (a scoped page counts its rows per day from the counts of its teams). The review events carry the
 * placement (catalog.ts), so each finds its rows from the event alone; events written before carry none: their
 * reports were in no team.
 *
 * Crew work (班组报工, migrations/021): a report's contribution counts a crew line's share of its submitter only,
 * and keeps its crew lines (`crew_lines`); the approval adds each other member's share (pieces, no report, no time:
 * their effective time is their own report's) to the member's day under the report's placement, so each person's
 * output is their share against their own effective time.
 *
 * Plausibility flags (migrations/010): `dashboard_daily.flagged` lists the day's approved reports that
 * carry flags, `[{reportId, flags}]`, from the approval's flags, replaced by a later BreakChanged's, so the dashboard
 * says 异常 where a figure cannot be true.
 */
import { cycleMilli, piecesOf, type ReportLine } from '../domain/report-line.ts';
import type { PlausibilityFlag } from '../domain/plausibility.ts';
import type { ProjectedEvent, Projection, Row, RowView, RowChange } from './projection.ts';

export const CONTRIBUTIONS = 'dashboard_report_contributions';
export const DAILY = 'dashboard_daily';
export const DAYS = 'dashboard_days';

/**
 * Integer sums of a report's lines, as `phone` counts them (default: the whole lines), by the one rule of who counts
 * what (domain/report-line.ts `piecesOf`): a crew line (班组报工) counts only `phone`'s share of its pieces, another
 * line counts only for its submitter `submitter`.
 */
export function lineSums(lines: readonly ReportLine[], submitter?: string, phone: string | undefined = submitter) {
  let finished = 0;
  let defective = 0;
  let output = 0;
  let cycleOutput = 0;
  let workload = 0;
  for (const l of lines) {
    const mine = submitter === undefined || phone === undefined ? l : piecesOf(l, submitter, phone);
    if (!mine) continue;
    const [f, d] = [mine.finishedQty, mine.defectiveQty];
    finished += f;
    defective += d;
    output += f + d;
    cycleOutput += cycleMilli(l.standardCycleSeconds) * (f + d);
    workload += l.standardWorkload;
  }
  return { finished_qty: finished, defective_qty: defective, output_qty: output, cycle_output_milli: cycleOutput, standard_workload: workload };
}

const SUM_COLUMNS = ['finished_qty', 'defective_qty', 'output_qty', 'cycle_output_milli', 'standard_workload'] as const;

const effectiveOf = (c: Row) => Number(c.span_ms) - Number(c.break_minutes) * 60_000;

/** A day's flagged reports (`dashboard_daily.flagged`). */
export interface FlaggedReport {
  reportId: string;
  flags: PlausibilityFlag[];
}

/** `flagged` with report `reportId`'s entry replaced by `flags` (removed when there are none); order kept. */
function withFlags(flagged: unknown, reportId: string, flags: readonly PlausibilityFlag[]): FlaggedReport[] {
  const list = ((flagged ?? []) as FlaggedReport[]).filter((f) => f.reportId !== reportId);
  return flags.length ? [...list, { reportId, flags: [...flags] }] : list;
}

/** The placement keys of a report event ('' for none; events written before teams existed carry none). */
const placementKeys = (d: { workshopCode?: string | null; teamCode?: string | null }) => [d.workshopCode ?? '', d.teamCode ?? ''] as const;
/** The key of a report event's daily row, and of its day count. */
const dayKey = (d: { reportDate: string; employeePhone: string; workshopCode?: string | null; teamCode?: string | null }) => [d.reportDate, d.employeePhone, ...placementKeys(d)];
const daysKey = (d: { reportDate: string; workshopCode?: string | null; teamCode?: string | null }) => [d.reportDate, ...placementKeys(d)];

/** The crew members of `lines` other than `submitter` (班组报工), each once. */
const membersOf = (lines: readonly ReportLine[], submitter: string): string[] => [
  ...new Set(lines.flatMap((l) => (l.shares ?? []).map((x) => x.phone)).filter((p) => p !== submitter)),
];

/** The lines an approval approves: the corrected ones, else those its contribution kept. */
const approvedLines = (e: ProjectedEvent, c: Row | undefined): ReportLine[] =>
  (e.data.correction?.after as ReportLine[] | undefined) ?? ((c?.crew_lines as ReportLine[] | null) ?? []);

/**
 * Crew work: a member's share of an approved crew report added to the member's day (same placement as the report):
 * their pieces, no report and no time (their effective time is their own report's).
 */
function addShareToDay(e: ProjectedEvent, view: RowView, phone: string, lines: readonly ReportLine[]): RowChange[] {
  const share: Row = { employee_name: null, span_ms: 0, break_minutes: 0, ...lineSums(lines, e.data.employeePhone, phone) };
  return addToDay({ ...e, data: { ...e.data, employeePhone: phone } } as ProjectedEvent, view, share, [], 0);
}

function addToDay(e: ProjectedEvent, view: RowView, c: Row, flags: readonly PlausibilityFlag[], reports = 1): RowChange[] {
  const { reportDate, employeePhone } = e.data;
  const key = dayKey(e.data);
  const [workshopKey, teamKey] = placementKeys(e.data);
  const old = view.get(DAILY, key);
  const day: Row = old
    ? { ...old }
    : {
        report_date: reportDate,
        employee_phone: employeePhone,
        workshop_key: workshopKey,
        team_key: teamKey,
        employee_name: null,
        report_count: 0,
        effective_ms: 0,
        finished_qty: 0,
        defective_qty: 0,
        output_qty: 0,
        cycle_output_milli: 0,
        standard_workload: 0,
        flagged: [],
      };
  day.employee_name = c.employee_name ?? day.employee_name;
  day.report_count = Number(day.report_count) + reports;
  day.effective_ms = Number(day.effective_ms) + effectiveOf(c);
  for (const col of SUM_COLUMNS) day[col] = Number(day[col]) + Number(c[col]);
  if (reports) day.flagged = withFlags(day.flagged, e.data.reportId, flags);
  const writes: RowChange[] = [{ table: DAILY, key, row: day }];
  if (!old) {
    const d = view.get(DAYS, daysKey(e.data));
    writes.push({ table: DAYS, key: daysKey(e.data), row: { report_date: reportDate, workshop_key: workshopKey, team_key: teamKey, row_count: Number(d?.row_count ?? 0) + 1 } });
  }
  return writes;
}

/** `view` as it stands after `writes` (rows written replace those read). */
const overlay = (view: RowView, writes: readonly RowChange[]): RowView =>
  ({
    ...view,
    get: (table: string, key: readonly unknown[]) => {
      const w = [...writes].reverse().find((x) => x.table === table && JSON.stringify(x.key) === JSON.stringify(key));
      return w ? (w.row ?? undefined) : view.get(table, key);
    },
  }) as RowView;

/** `writes` with later writes of a row replacing earlier ones (a day count written for the report and a member). */
function mergeWrites(writes: RowChange[]): RowChange[] {
  const by = new Map<string, RowChange>();
  for (const w of writes) by.set(`${w.table} ${JSON.stringify(w.key)}`, w);
  return [...by.values()];
}

export const dashboardProjection: Projection = {
  name: 'dashboard',
  mode: 'async',
  tables: [
    {
      name: CONTRIBUTIONS,
      key: ['report_id'],
      columns: ['report_id', 'report_date', 'employee_phone', 'employee_name', 'span_ms', 'break_minutes', ...SUM_COLUMNS, 'workshop_code', 'team_code', 'crew_lines'],
      internal: true,
    },
    {
      name: DAILY,
      key: ['report_date', 'employee_phone', 'workshop_key', 'team_key'],
      columns: ['report_date', 'employee_phone', 'employee_name', 'report_count', 'effective_ms', ...SUM_COLUMNS, 'flagged', 'workshop_key', 'team_key'],
    },
    { name: DAYS, key: ['report_date', 'workshop_key', 'team_key'], columns: ['report_date', 'row_count', 'workshop_key', 'team_key'] },
  ],
  eventTypes: ['ReportSubmitted', 'ReportApproved', 'ReportRejected', 'BreakChanged'],
  // A submission's and a rejection's rows are the pending report's contribution only: no reader sees it.
  shownBy: ['ReportApproved', 'BreakChanged'],
  touches(e) {
    const c = { table: CONTRIBUTIONS, key: [e.data.reportId] };
    if (e.type === 'ReportSubmitted' || e.type === 'ReportRejected') return [c];
    // BreakChanged after approval and ReportApproved touch the day (and its count).
    return [c, { table: DAILY, key: dayKey(e.data) }, { table: DAYS, key: daysKey(e.data) }];
  },
  // Crew work: an approval adds each member's share to the member's day (its rows found through the contribution).
  needs(e, view) {
    if (e.type !== 'ReportApproved') return [];
    const c = view.get(CONTRIBUTIONS, [e.data.reportId]);
    if (!c) return [];
    return membersOf(approvedLines(e, c), e.data.employeePhone).map((phone) => ({ table: DAILY, key: dayKey({ ...e.data, employeePhone: phone }) }));
  },
  apply(e, view) {
    const key = [e.data.reportId];
    const c = view.get(CONTRIBUTIONS, key);
    switch (e.type) {
      case 'ReportSubmitted': {
        const d = e.data;
        const row: Row = {
          report_id: d.reportId,
          report_date: d.reportDate,
          employee_phone: d.employeePhone,
          employee_name: e.metadata.actorPhone === d.employeePhone ? (e.metadata.actorName ?? null) : null,
          span_ms: Date.parse(d.clockOutAt) - Date.parse(d.clockInAt),
          break_minutes: d.breakMinutes,
          ...lineSums(d.lines, d.employeePhone),
          workshop_code: d.workshopCode,
          team_code: d.teamCode,
          // Crew work: the crew lines, whose members' shares the approval adds to their days.
          crew_lines: (d.lines as ReportLine[]).some((l) => l.shares) ? (d.lines as ReportLine[]).filter((l) => l.shares) : null,
        };
        return [{ table: CONTRIBUTIONS, key, row }];
      }
      case 'ReportApproved': {
        if (!c) return [];
        const approved: Row = { ...c, ...(e.data.correction ? lineSums(e.data.correction.after, e.data.employeePhone) : {}) };
        const lines = approvedLines(e, c);
        const writes: RowChange[] = [{ table: CONTRIBUTIONS, key, row: null }, ...addToDay(e, view, approved, e.data.flags ?? [])];
        // Each member's day read through the writes so far (the day count may be written again).
        for (const phone of membersOf(lines, e.data.employeePhone)) writes.push(...addShareToDay(e, overlay(view, writes), phone, lines));
        return mergeWrites(writes);
      }
      case 'ReportRejected':
        return c ? [{ table: CONTRIBUTIONS, key, row: null }] : [];
      case 'BreakChanged': {
        if (c) return [{ table: CONTRIBUTIONS, key, row: { ...c, break_minutes: e.data.after } }];
        const dk = dayKey(e.data);
        const day = view.get(DAILY, dk);
        if (!day) return [];
        const delta = (e.data.before - e.data.after) * 60_000;
        const flagged = e.data.flags ? withFlags(day.flagged, e.data.reportId, e.data.flags) : day.flagged;
        return [{ table: DAILY, key: dk, row: { ...day, effective_ms: Number(day.effective_ms) + delta, flagged } }];
      }
      default:
        return [];
    }
  },
};
