/**
 * The progress of the work orders per order and operation (工序), kept as sums (migrations/023): an INLINE projection
 * of the report streams, so that the order list, one order and the draft read a handful of rows instead of summing
 * the reports' lines, and see a submission or a review at once (written by the command's own append statement).
 *
 * Tables (all sums; projection.ts TableSpec.sums: the rows are increments, added to the stored ones):
 * - `work_order_progress` (order_no + process_name): approved 成品 / 不良 (approved reports), pending 成品 / 不良
 *   (pending reports), `reports` (distinct reports naming the pair, approved and pending) and `named_reports` (the
 *   same, rejected ones included: an order named by any report is shown in progress, queries/work-orders.ts).
 * - `work_order_progress_workers` (order_no + process_name + employee_phone): the worker's reports naming the pair
 *   (approved and pending): the distinct workers are those with a count above 0.
 * - `work_order_progress_days` (order_no + process_name + report_date): the reports of the day naming the pair: the
 *   first and last report date are the least and greatest date with a count above 0.
 * - `work_order_report_lines` (internal, per PENDING report naming an order): the report's lines naming an order as
 *   submitted, what its approval moves from pending to approved and its rejection takes away (the worker and the
 *   date come with every review event).
 *
 * ReportSubmitted adds the lines as pending; ReportApproved moves them to approved, with the corrected lines when the
 * approval carries a correction (its `before` taken away, its `after` added: a correction may change a line's
 * order); ReportRejected takes them away (the pair stays named). No other event changes a report's lines or status
 * (events/catalog.ts; a report is reviewed once, from pending: commands/review/decider.ts), so the sums are those of
 * the reports as they stand (`reports` read model): the same figures the progress was summed from before.
 *
 * The pending report's lines: inline, from the report stream's section the review command loaded; on replay, loaded
 * through `needs` (absent when the submission named no order).
 */
import type { ReportLine } from '../domain/report-line.ts';
import type { ProjectedEvent, Projection, Row, RowChange } from './projection.ts';

export const PROGRESS = 'work_order_progress';
export const PROGRESS_WORKERS = 'work_order_progress_workers';
export const PROGRESS_DAYS = 'work_order_progress_days';
export const REPORT_LINES = 'work_order_report_lines';

/** What the progress keeps of a line naming an order. */
type OrderLine = { workOrderNo: string; processName: string; finishedQty: number; defectiveQty: number };

/** The lines of `lines` naming an order, with what the progress keeps of them. */
const orderLines = (lines: readonly Pick<ReportLine, 'processName' | 'finishedQty' | 'defectiveQty' | 'workOrderNo'>[]): OrderLine[] =>
  lines.flatMap((l) => (l.workOrderNo ? [{ workOrderNo: l.workOrderNo, processName: l.processName, finishedQty: l.finishedQty, defectiveQty: l.defectiveQty }] : []));

/** The increments of one event, by table and key (module docstring). */
class Increments {
  private readonly rows = new Map<string, RowChange>();

  private add(table: string, key: readonly unknown[], keyCols: readonly string[], values: Record<string, number>): void {
    const id = JSON.stringify([table, key]);
    const before = this.rows.get(id)?.row as Row | undefined;
    // Every column present (a write gives the full row): the sums not named add 0.
    const row: Row = before ? { ...before } : { ...Object.fromEntries(keyCols.map((c, i) => [c, key[i]])), ...ZERO[table] };
    for (const [c, v] of Object.entries(values)) row[c] = Number(row[c] ?? 0) + v;
    this.rows.set(id, { table, key, row });
  }

  /**
   * `lines` of the report of `phone` on `date` counted with `sign` (+1 or −1) as `status`; `named` whether they also
   * count toward the pairs named (every status, rejected included).
   */
  lines(lines: readonly OrderLine[], phone: string, date: string, status: 'pending' | 'approved', sign: 1 | -1, named: boolean): void {
    const state = status === 'approved' ? 'approved' : 'pending';
    for (const l of lines) {
      this.add(PROGRESS, [l.workOrderNo, l.processName], PROGRESS_KEY, { [`${state}_finished_qty`]: sign * l.finishedQty, [`${state}_defective_qty`]: sign * l.defectiveQty });
    }
    const pairs = new Map(lines.map((l) => [JSON.stringify([l.workOrderNo, l.processName]), [l.workOrderNo, l.processName]]));
    for (const [order, process] of pairs.values()) {
      this.add(PROGRESS, [order, process], PROGRESS_KEY, { reports: sign, ...(named ? { named_reports: sign } : {}) });
      this.add(PROGRESS_WORKERS, [order, process, phone], WORKERS_KEY, { reports: sign });
      this.add(PROGRESS_DAYS, [order, process, date], DAYS_KEY, { reports: sign });
    }
  }

  /** The increments, leaving out those adding nothing. */
  changes(): RowChange[] {
    return [...this.rows.values()].filter((c) => Object.entries(c.row!).some(([col, v]) => typeof v === 'number' && !KEY_COLUMNS.has(col) && v !== 0));
  }
}

const PROGRESS_KEY = ['order_no', 'process_name'] as const;
const WORKERS_KEY = ['order_no', 'process_name', 'employee_phone'] as const;
const DAYS_KEY = ['order_no', 'process_name', 'report_date'] as const;
const KEY_COLUMNS = new Set<string>([...PROGRESS_KEY, ...WORKERS_KEY, ...DAYS_KEY]);
const PROGRESS_SUMS = ['approved_finished_qty', 'approved_defective_qty', 'pending_finished_qty', 'pending_defective_qty', 'reports', 'named_reports'] as const;
/** The sums of each table at zero. */
const ZERO: Record<string, Row> = {
  [PROGRESS]: Object.fromEntries(PROGRESS_SUMS.map((c) => [c, 0])),
  [PROGRESS_WORKERS]: { reports: 0 },
  [PROGRESS_DAYS]: { reports: 0 },
};

export const workOrderProgressProjection: Projection = {
  name: 'work-order-progress',
  mode: 'inline',
  tables: [
    {
      name: PROGRESS,
      key: [...PROGRESS_KEY],
      columns: [...PROGRESS_KEY, ...PROGRESS_SUMS],
      sums: true,
    },
    { name: PROGRESS_WORKERS, key: [...WORKERS_KEY], columns: [...WORKERS_KEY, 'reports'], sums: true },
    { name: PROGRESS_DAYS, key: [...DAYS_KEY], columns: [...DAYS_KEY, 'reports'], sums: true },
    { name: REPORT_LINES, key: ['report_id'], columns: ['report_id', 'lines'], internal: true },
  ],
  eventTypes: ['ReportSubmitted', 'ReportApproved', 'ReportRejected'],
  // Nothing needs to exist: a submission writes new rows, the sums are increments, and a review's pending lines are
  // absent when the submission named no order (named in `needs`, so that the inline path does not require them).
  touches: () => [],
  needs(e: ProjectedEvent) {
    return e.type === 'ReportSubmitted' ? [] : [{ table: REPORT_LINES, key: [e.data.reportId] }];
  },
  apply(e, view) {
    const key = [e.data.reportId];
    const inc = new Increments();
    if (e.type === 'ReportSubmitted') {
      const lines = orderLines(e.data.lines);
      if (lines.length === 0) return [];
      inc.lines(lines, e.data.employeePhone, e.data.reportDate, 'pending', 1, true);
      const row: Row = { report_id: e.data.reportId, lines };
      return [{ table: REPORT_LINES, key, row }, ...inc.changes()];
    }
    const pending = view.get(REPORT_LINES, key);
    const forget: RowChange[] = pending ? [{ table: REPORT_LINES, key, row: null }] : [];
    const phone = e.data.employeePhone as string;
    const date = String(e.data.reportDate);
    if (e.type === 'ReportApproved') {
      const before = e.data.correction ? orderLines(e.data.correction.before) : ((pending?.lines as OrderLine[] | undefined) ?? []);
      const after = e.data.correction ? orderLines(e.data.correction.after) : before;
      inc.lines(before, phone, date, 'pending', -1, true);
      inc.lines(after, phone, date, 'approved', 1, true);
      return [...forget, ...inc.changes()];
    }
    if (e.type === 'ReportRejected' && pending) {
      inc.lines(pending.lines as OrderLine[], phone, date, 'pending', -1, false);
      return [...forget, ...inc.changes()];
    }
    return [];
  },
};
