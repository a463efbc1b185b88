/**
 * The quality read's daily sums (GET /api/quality/defects, queries/quality.ts): an ASYNC projection of the report
 * stream, shaped as the dashboard's (projections/dashboard.ts).
 *
 * Tables (migrations/022), all sums whole pieces:
 * - `quality_report_contributions` (per PENDING report): its date, worker, placement and lines as submitted, i.e.
 *   what the report will add to its day once approved.
 * - `quality_daily_reasons` (per report_date + workshop_key + team_key + reason_key + category): the defective
 *   pieces of the approved lines by reason and the category recorded with it on the line; the pieces of a line
 *   without a reason (defectiveQty − its reasons' pieces) under reason_key '' and category '' (未注明).
 * - `quality_daily_dims` (per dimension + report_date + workshop_key + team_key + key + label): defective and output
 *   pieces by `worker` (phone; a crew line's pieces by its members' shares, domain/report-line.ts countedPieces), `product` (product id, labelled 产品名称（工序） as recorded: one row per label) and
 *   `device` (device no) and `workOrder` (the order the line names, '' for none); label '' but for products. A day's product rows sum to its totals.
 * - `quality_monthly_workers` (per month + workshop_key + team_key + employee_phone; month: its first day): the
 *   `worker` sums per calendar month, so the whole months of a range read one row per worker (queries/quality.ts).
 *
 * ReportSubmitted records the contribution; ReportApproved adds it (with the corrected lines when the approval
 * carries a correction) to the day and forgets it; ReportRejected forgets it. No other event changes an approved
 * report's lines, placement or status (events/catalog.ts: BreakChanged changes only the break; a report is
 * reviewed once, from pending: commands/review/decider.ts), so the sums of a day are those of its approved reports.
 *
 * Placement: the sums are keyed by the report's workshop and team codes ('' for none), as the dashboard's
 * (migrations/015), so the one scope rule and the workshop / team filters apply to them (queries/quality.ts). The
 * date, worker and placement are the submission's (kept on the contribution), as the `reports` read model's, so an
 * approval's day rows are known once its contribution is loaded (`needs`).
 */
import { countedPieces, type ReportLine } from '../domain/report-line.ts';
import type { ProjectedEvent, Projection, Row, RowChange, RowRef, RowView } from './projection.ts';

export const CONTRIBUTIONS = 'quality_report_contributions';
export const REASONS = 'quality_daily_reasons';
export const DIMS = 'quality_daily_dims';
export const MONTHLY_WORKERS = 'quality_monthly_workers';

/** The dimensions of `quality_daily_dims`. */
export type QualityDimension = 'worker' | 'product' | 'device' | 'workOrder';

/** The label a product line is shown with: 产品名称（工序）, as recorded on the line. */
export const productLabel = (l: Pick<ReportLine, 'productName' | 'processName'>): string => `${l.productName}（${l.processName}）`;

interface Placed {
  reportDate: string;
  employeePhone: string;
  workshopCode?: string | null;
  teamCode?: string | null;
}

/** The sums `lines` add to their day, as row keys and amounts (module docstring). */
function daySums(d: Placed, lines: readonly ReportLine[]) {
  const place = [d.reportDate, d.workshopCode ?? '', d.teamCode ?? ''];
  const reasons = new Map<string, { key: unknown[]; qty: number }>();
  const dims = new Map<string, { key: unknown[]; defective: number; output: number }>();
  const months = new Map<string, { key: unknown[]; defective: number; output: number }>();
  const addMonth = (phone: string, defective: number, output: number) => {
    const r = months.get(phone) ?? months.set(phone, { key: [`${d.reportDate.slice(0, 7)}-01`, place[1], place[2], phone], defective: 0, output: 0 }).get(phone)!;
    r.defective += defective;
    r.output += output;
  };
  const addReason = (reason: string, category: string, qty: number) => {
    if (qty === 0) return;
    const key = [...place, reason, category];
    const id = JSON.stringify(key);
    const r = reasons.get(id) ?? reasons.set(id, { key, qty: 0 }).get(id)!;
    r.qty += qty;
  };
  const addDim = (dimension: QualityDimension, k: string, label: string, defective: number, output: number) => {
    const key = [dimension, d.reportDate, place[1], place[2], k, label];
    const id = JSON.stringify(key);
    const r = dims.get(id) ?? dims.set(id, { key, defective: 0, output: 0 }).get(id)!;
    r.defective += defective;
    r.output += output;
  };
  for (const l of lines) {
    let explained = 0;
    for (const x of l.defects ?? []) {
      addReason(x.reasonCode, x.category, x.qty);
      explained += x.qty;
    }
    addReason('', '', l.defectiveQty - explained);
    // By worker: a crew line's pieces go to its members by their shares (domain/report-line.ts countedPieces).
    for (const p of countedPieces(l, d.employeePhone)) {
      addDim('worker', p.phone, '', p.defectiveQty, p.finishedQty + p.defectiveQty);
      addMonth(p.phone, p.defectiveQty, p.finishedQty + p.defectiveQty);
    }
    addDim('product', String(l.productId), productLabel(l), l.defectiveQty, l.outputQty);
    addDim('device', l.deviceNo, '', l.defectiveQty, l.outputQty);
    addDim('workOrder', l.workOrderNo ?? '', '', l.defectiveQty, l.outputQty);
  }
  return { reasons: [...reasons.values()], dims: [...dims.values()], months: [...months.values()] };
}

/** The lines an approval adds: the corrected ones, else the contribution's. */
const approvedLines = (e: ProjectedEvent, c: Row | undefined): ReportLine[] | undefined =>
  e.data.correction?.after ?? (c?.lines as ReportLine[] | undefined);

/** The report a contribution row records: its date, worker and placement (as submitted). */
const placedOf = (c: Row): Placed => ({
  reportDate: String(c.report_date),
  employeePhone: String(c.employee_phone),
  workshopCode: c.workshop_code as string | null,
  teamCode: c.team_code as string | null,
});

/** The daily rows the approval `e` adds to (none known yet when its contribution is not loaded). */
function dayRefs(e: ProjectedEvent, c: Row | undefined): RowRef[] {
  const lines = approvedLines(e, c);
  if (!c || !lines) return [];
  return refsOf(daySums(placedOf(c), lines));
}

/** The rows of `s` (daySums). */
const refsOf = (s: ReturnType<typeof daySums>): RowRef[] => [
  ...s.reasons.map((r) => ({ table: REASONS, key: r.key })),
  ...s.dims.map((r) => ({ table: DIMS, key: r.key })),
  ...s.months.map((r) => ({ table: MONTHLY_WORKERS, key: r.key })),
];

const REASON_KEY = ['report_date', 'workshop_key', 'team_key', 'reason_key', 'category'] as const;
const DIM_KEY = ['dimension', 'report_date', 'workshop_key', 'team_key', 'key', 'label'] as const;
const MONTH_KEY = ['month', 'workshop_key', 'team_key', 'employee_phone'] as const;
const rowOf = (cols: readonly string[], key: readonly unknown[]): Row => Object.fromEntries(cols.map((c, i) => [c, key[i]]));

/** The approval's additions to its day's rows (module docstring). */
function addToDay(c: Row, view: RowView, lines: readonly ReportLine[]): RowChange[] {
  const s = daySums(placedOf(c), lines);
  const writes: RowChange[] = [];
  for (const r of s.reasons) {
    const old = view.get(REASONS, r.key);
    writes.push({ table: REASONS, key: r.key, row: { ...rowOf(REASON_KEY, r.key), qty: Number(old?.qty ?? 0) + r.qty } });
  }
  for (const r of s.dims) {
    const old = view.get(DIMS, r.key);
    const row = { ...rowOf(DIM_KEY, r.key), defective_qty: Number(old?.defective_qty ?? 0) + r.defective, output_qty: Number(old?.output_qty ?? 0) + r.output };
    writes.push({ table: DIMS, key: r.key, row });
  }
  for (const m of s.months) {
    const old = view.get(MONTHLY_WORKERS, m.key);
    const row = { ...rowOf(MONTH_KEY, m.key), defective_qty: Number(old?.defective_qty ?? 0) + m.defective, output_qty: Number(old?.output_qty ?? 0) + m.output };
    writes.push({ table: MONTHLY_WORKERS, key: m.key, row });
  }
  return writes;
}

export const qualityProjection: Projection = {
  name: 'quality',
  mode: 'async',
  tables: [
    { name: CONTRIBUTIONS, key: ['report_id'], columns: ['report_id', 'report_date', 'employee_phone', 'workshop_code', 'team_code', 'lines'], internal: true },
    { name: REASONS, key: [...REASON_KEY], columns: [...REASON_KEY, 'qty'] },
    { name: DIMS, key: [...DIM_KEY], columns: [...DIM_KEY, 'defective_qty', 'output_qty'] },
    { name: MONTHLY_WORKERS, key: [...MONTH_KEY], columns: [...MONTH_KEY, 'defective_qty', 'output_qty'] },
  ],
  eventTypes: ['ReportSubmitted', 'ReportApproved', 'ReportRejected'],
  // A submission's and a rejection's rows are the pending report's contribution only: no reader sees it.
  shownBy: ['ReportApproved'],
  touches(e) {
    const c = { table: CONTRIBUTIONS, key: [e.data.reportId] };
    // A corrected approval's day rows are those of its corrected lines (the placement on the review events is the
    // submission's); an approval without correction finds its rows through its contribution (`needs`).
    if (e.type === 'ReportApproved' && e.data.correction) return [c, ...refsOf(daySums(e.data, e.data.correction.after))];
    return [c];
  },
  // A submission approved later in the same batch (a rebuild, a quick review) names the day rows of its lines, so
  // that the batch loads them in one query per table rather than one approval at a time through `needs`; any other
  // submission only its contribution (most batches: the day's submissions, none of them approved yet).
  ahead(events) {
    const approved = new Set(events.filter((e) => e.type === 'ReportApproved' && !e.data.correction).map((e) => e.data.reportId));
    return events.flatMap((e) => (e.type === 'ReportSubmitted' && approved.has(e.data.reportId) ? [...this.touches(e), ...refsOf(daySums(e.data, e.data.lines))] : this.touches(e)));
  },
  // An approval's day rows follow from its contribution (the date, worker and placement as submitted).
  needs(e, view) {
    if (e.type !== 'ReportApproved') return [];
    return dayRefs(e, view.get(CONTRIBUTIONS, [e.data.reportId]));
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
          workshop_code: d.workshopCode,
          team_code: d.teamCode,
          lines: d.lines,
        };
        return [{ table: CONTRIBUTIONS, key, row }];
      }
      case 'ReportApproved': {
        const lines = approvedLines(e, c);
        if (!c || !lines) return [];
        return [{ table: CONTRIBUTIONS, key, row: null }, ...addToDay(c, view, lines)];
      }
      case 'ReportRejected':
        return c ? [{ table: CONTRIBUTIONS, key, row: null }] : [];
      default:
        return [];
    }
  },
};
