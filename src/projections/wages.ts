/**
 * Piece-rate wages: an ASYNC projection of the report, product and period streams into the
 * tables of migrations/011. Exact: rates in ten-thousandths of a yuan, a line's amount in fen rounded once
 * (domain/money.ts), every sum a sum of rounded lines, kept as text of digits (numeric, never a float).
 *
 * - `wage_rates` (per product): the rate entries as the projection knows them (domain/rates.ts).
 * - `wage_pending` (per pending report): its lines, which an approval without correction approves.
 * - `wage_lines` (per line of an approved report): priced at the rates in force on its report date; `null` rates
 *   and amount: unpriced (no entry in force on that date). A line keeps its defect reasons as recorded (with the
 *   category of the moment it was recorded, domain/report-line.ts): its 料废 pieces are priced at the entry's
 *   `materialDefectRate` (absent: its defect rate), the other defective pieces at the defect rate (money.ts).
 * - `wage_workers` (per month and worker): reports, quantities, amount, unpriced lines; the amount at the last
 *   close and the one before it (a statement shows both after a reopen and a second close).
 * - `wage_months` (per month): the totals, and how the month is priced: open — at the current rates; closed — at
 *   the rates its close pinned (the close's event carries them).
 *
 * Events:
 * - ReportSubmitted: the pending lines. ReportRejected: forgets them.
 * - ReportApproved: the lines (corrected ones when there is a correction), priced, added to the worker's and the
 *   month's sums.
 * - RateSet: the product's entries; the lines of the product from its date to the product's next entry are
 *   repriced, in open months only — a closed month keeps its close's rates (its statements are frozen).
 * - PeriodClosed: the month is priced at the close's rates (lines whose product's rates differ, e.g. a rate that
 *   committed while the close was computing, are repriced to them), and each worker's amount is kept as the
 *   close's, the previous close's beside it.
 * - PeriodReopened: the month is priced at the current rates again (lines of products whose rates changed while
 *   it was closed are repriced).
 * Crew work (班组报工): a crew line's approval writes one `wage_lines` row per member (`member_no` 1…, the
 * member as `employee_phone`, their pieces), its amount the member's share of the line's amount, priced once for
 * the whole line and split to the fen on the recorded weights (domain/crew-split.ts), the whole line kept beside it
 * (`crew`); repricing prices the whole again and splits again. Other lines have `member_no` 0. Each member's sums
 * count their share, and the crew's report among their reports; the month counts the report once and the line's
 * pieces once (the shares sum to them).
 * Replay equals the incremental result (tested): every row is a function of the events in order.
 */
import type { EventData } from '../events/catalog.ts';
import { defectSplit, type CrewShareRecord, type LineDefect, type ReportLine } from '../domain/report-line.ts';
import { splitAmount } from '../domain/crew-split.ts';
import { fenOf, lineAmountFen, materialRateOf } from '../domain/money.ts';
import { monthOf } from '../domain/period.ts';
import { entryOf, nextFrom, rateOn, sameSegments, segmentsIn, withEntry, type RateEntry } from '../domain/rates.ts';
import type { ProjectedEvent, Projection, Row, RowChange, RowRef, RowScan, RowView } from './projection.ts';

export const WAGE_TABLES = {
  rates: 'wage_rates',
  pending: 'wage_pending',
  lines: 'wage_lines',
  workers: 'wage_workers',
  months: 'wage_months',
} as const;
const T = WAGE_TABLES;

/** The fields of a line the wages keep: the product's, as the report copied them, and the quantities. */
const LINE_FIELDS = ['productId', 'projectNo', 'productName', 'deviceNo', 'processName', 'finishedQty', 'defectiveQty', 'defects', 'shares'] as const;
export type WageLineFields = Pick<ReportLine, (typeof LINE_FIELDS)[number]>;
type PendingLine = WageLineFields;

const pendingLine = (l: WageLineFields): WageLineFields => Object.fromEntries(LINE_FIELDS.filter((f) => l[f] !== undefined).map((f) => [f, l[f]])) as WageLineFields;

const ratesRef = (productId: number): RowRef => ({ table: T.rates, key: [productId] });
const monthRef = (month: string): RowRef => ({ table: T.months, key: [month] });
const workerRef = (month: string, phone: string): RowRef => ({ table: T.workers, key: [month, phone] });
const workersOf = (month: string): RowScan => ({ table: T.workers, where: { month: { eq: month } } });
const linesOf = (month: string, productIds: readonly number[]): RowScan => ({ table: T.lines, where: { month: { eq: month }, product_id: { in: productIds } } });

/** The product's entries as the projection knows them. */
const historyOf = (view: RowView, productId: number): RateEntry[] => (view.get(T.rates, [productId])?.rates as RateEntry[] | undefined) ?? [];
/** The rates a closed month was pinned at, by product. */
const pinnedOf = (month: Row | undefined): Record<string, RateEntry[]> | undefined => (month?.status === 'closed' ? (month.pinned as Record<string, RateEntry[]>) : undefined);

/** The entries that price `productId` in `month` (row): the pinned ones when it is closed, else the current ones. */
function pricingHistory(view: RowView, month: Row | undefined, productId: number): RateEntry[] {
  const pinned = pinnedOf(month);
  return pinned ? (pinned[productId] ?? []) : historyOf(view, productId);
}

type Price = Pick<Row, 'piece_rate' | 'defect_rate' | 'material_defect_rate' | 'amount_fen'>;

/** The 料废 pieces of a line's recorded reasons (stored as the `defects` column; null: none). */
const materialQtyOf = (defectiveQty: number, defects: unknown): number => defectSplit(defectiveQty, (defects as LineDefect[] | null) ?? undefined).material;

/**
 * Crew work: a crew line as its members' rows keep it whole (`crew` column): the line's quantities and reasons, its
 * submitter, and the shares (who, weight, tie-break, pieces), from which each member's amount is split again
 * whenever the line is priced (domain/crew-split.ts `splitAmount`).
 */
interface CrewWhole {
  submitter: string;
  finishedQty: number;
  defectiveQty: number;
  defects: LineDefect[] | null;
  /** Fen of the whole line; null: unpriced. */
  amountFen: number | null;
  /** Fen of each share, in the shares' order; null: unpriced. */
  amounts: number[] | null;
  shares: Pick<CrewShareRecord, 'phone' | 'name' | 'clockInAt' | 'weight' | 'finishedQty' | 'defectiveQty'>[];
}

/** A crew member's price: the whole line priced once, its amount split to the fen on the shares' weights. */
function crewPriced(crew: CrewWhole, memberNo: number, history: readonly RateEntry[], date: string): Price & { crew: CrewWhole } {
  const whole = priced(crew.finishedQty, crew.defectiveQty, crew.defects, history, date);
  const split = whole.amount_fen === null ? null : splitAmount(BigInt(whole.amount_fen as number), crew.shares.map((x) => ({ ...x, weight: Math.round(x.weight * 100) })));
  return {
    ...whole,
    amount_fen: split ? Number(split[memberNo - 1]) : null,
    crew: { ...crew, amountFen: whole.amount_fen as number | null, amounts: split ? split.map(Number) : null },
  };
}

/** The rates and amount of a line dated `date` under `history` (nulls: unpriced). */
function priced(finishedQty: number, defectiveQty: number, defects: unknown, history: readonly RateEntry[], date: string): Price {
  const rate = rateOn(history, date);
  if (!rate) return { piece_rate: null, defect_rate: null, material_defect_rate: null, amount_fen: null };
  const amount = lineAmountFen(finishedQty, defectiveQty, rate, materialQtyOf(defectiveQty, defects));
  return { piece_rate: rate.pieceRate, defect_rate: rate.defectRate, material_defect_rate: materialRateOf(rate), amount_fen: Number(amount) };
}

const samePrice = (a: Row, b: Price & { crew?: CrewWhole }) =>
  a.piece_rate === b.piece_rate &&
  a.defect_rate === b.defect_rate &&
  a.material_defect_rate === b.material_defect_rate &&
  a.amount_fen === b.amount_fen &&
  (b.crew === undefined || (a.crew as CrewWhole | null)?.amountFen === b.crew.amountFen);

const amountOf = (line: Row | undefined) => (line && line.amount_fen !== null ? BigInt(line.amount_fen as number) : 0n);
const unpricedOf = (line: Row | undefined) => (line && line.amount_fen === null ? 1 : 0);
const add = (text: unknown, delta: bigint) => String(fenOf(text as string) + delta);

/** A new month row: no reports, open. */
const emptyMonth = (month: string): Row => ({
  month,
  reports: 0,
  finished_qty: 0,
  defective_qty: 0,
  amount_fen: '0',
  unpriced_lines: 0,
  workers: 0,
  status: 'open',
  version: 0,
  pinned: null,
});

/**
 * The worker and month rows an event changes: read from the view once, changed in place, written at the end
 * (`changes`). Creating a worker's row counts the worker in its month.
 */
class Sums {
  private readonly months = new Map<string, Row>();
  private readonly workers = new Map<string, Row>();

  constructor(private readonly view: RowView) {}

  month(month: string): Row {
    let m = this.months.get(month);
    if (!m) this.months.set(month, (m = { ...(this.view.get(T.months, [month]) ?? emptyMonth(month)) }));
    return m;
  }

  worker(month: string, phone: string): Row {
    const id = `${month} ${phone}`;
    let w = this.workers.get(id);
    if (!w) {
      const old = this.view.get(T.workers, [month, phone]);
      if (!old) this.month(month).workers = Number(this.month(month).workers) + 1;
      w = { ...(old ?? { month, employee_phone: phone, reports: 0, finished_qty: 0, defective_qty: 0, amount_fen: '0', unpriced_lines: 0, closed_amount_fen: null, previous_amount_fen: null }) };
      this.workers.set(id, w);
    }
    return w;
  }

  /** Moves the sums of `after`'s worker and month from line `before` (undefined: new) to `after`. */
  line(before: Row | undefined, after: Row): void {
    const delta = amountOf(after) - amountOf(before);
    const unpriced = unpricedOf(after) - (before ? unpricedOf(before) : 0);
    const quantities = before ? [0, 0] : [Number(after.finished_qty), Number(after.defective_qty)];
    for (const r of [this.worker(after.month as string, after.employee_phone as string), this.month(after.month as string)]) {
      r.amount_fen = add(r.amount_fen, delta);
      r.unpriced_lines = Number(r.unpriced_lines) + unpriced;
      r.finished_qty = Number(r.finished_qty) + quantities[0];
      r.defective_qty = Number(r.defective_qty) + quantities[1];
    }
  }

  changes(): RowChange[] {
    return [
      ...[...this.workers.values()].map((row) => ({ table: T.workers, key: [row.month, row.employee_phone], row })),
      ...[...this.months.values()].map((row) => ({ table: T.months, key: [row.month], row })),
    ];
  }
}

/** Reprices `lines` under `historyOf(productId)`, moving the sums; returns the changed lines' writes. */
function reprice(lines: readonly Row[], historyOf: (productId: number) => readonly RateEntry[], sums: Sums): RowChange[] {
  const out: RowChange[] = [];
  for (const line of lines) {
    const history = historyOf(Number(line.product_id));
    const crew = line.crew as CrewWhole | null;
    const p = crew
      ? crewPriced(crew, Number(line.member_no), history, line.report_date as string)
      : priced(Number(line.finished_qty), Number(line.defective_qty), line.defects, history, line.report_date as string);
    if (samePrice(line, p)) continue;
    const after = { ...line, ...p };
    sums.line(line, after);
    out.push({ table: T.lines, key: [line.report_id, line.line_no, line.member_no], row: after });
  }
  return out;
}

/** The products of `month` (row) whose pricing entries within it differ between the pinned and the current ones. */
function differing(view: RowView, month: string, pinned: Record<string, RateEntry[]>): number[] {
  return Object.keys(pinned)
    .map(Number)
    .filter((p) => !sameSegments(pinned[p], segmentsIn(historyOf(view, p), month)));
}

/** The lines a RateSet reprices: its product's, from its date until the product's next entry. */
function rateScan(view: RowView, d: EventData<'RateSet'>): RowScan {
  const until = nextFrom(historyOf(view, d.productId), d.effectiveFrom);
  return { table: T.lines, where: { product_id: { eq: d.productId }, report_date: { gte: d.effectiveFrom, ...(until ? { lt: until } : {}) } } };
}

/** The worker and month rows of `lines`. */
const sumsOf = (lines: readonly Row[]): RowRef[] => lines.flatMap((l) => [monthRef(l.month as string), workerRef(l.month as string, l.employee_phone as string)]);

export const wagesProjection: Projection = {
  name: 'wages',
  mode: 'async',
  tables: [
    { name: T.rates, key: ['product_id'], columns: ['product_id', 'rates'], internal: true },
    { name: T.pending, key: ['report_id'], columns: ['report_id', 'month', 'report_date', 'employee_phone', 'lines'], internal: true },
    {
      name: T.lines,
      key: ['report_id', 'line_no', 'member_no'],
      columns: [
        'report_id', 'line_no', 'month', 'report_date', 'employee_phone', 'product_id', 'project_no', 'product_name', 'device_no', 'process_name',
        'finished_qty', 'defective_qty', 'piece_rate', 'defect_rate', 'amount_fen', 'material_defect_rate', 'defects', 'member_no', 'crew',
      ],
    },
    {
      name: T.workers,
      key: ['month', 'employee_phone'],
      columns: ['month', 'employee_phone', 'reports', 'finished_qty', 'defective_qty', 'amount_fen', 'unpriced_lines', 'closed_amount_fen', 'previous_amount_fen'],
      exact: ['amount_fen', 'closed_amount_fen', 'previous_amount_fen'],
    },
    {
      name: T.months,
      key: ['month'],
      columns: ['month', 'reports', 'finished_qty', 'defective_qty', 'amount_fen', 'unpriced_lines', 'workers', 'status', 'version', 'pinned'],
      exact: ['amount_fen'],
    },
  ],
  eventTypes: ['ReportSubmitted', 'ReportApproved', 'ReportRejected', 'RateSet', 'PeriodClosed', 'PeriodReopened'],
  // A submission's and a rejection's rows are its pending lines only (wage_pending): no reader sees them.
  shownBy: ['ReportApproved', 'RateSet', 'PeriodClosed', 'PeriodReopened'],

  touches(e) {
    switch (e.type) {
      case 'ReportSubmitted': {
        const d = e.data as EventData<'ReportSubmitted'>;
        // The rates of its products: its approval will price them (loaded ahead, in the same batch).
        return [{ table: T.pending, key: [d.reportId] }, ...d.lines.map((l) => ratesRef(l.productId))];
      }
      case 'ReportApproved': {
        const d = e.data as EventData<'ReportApproved'>;
        const month = monthOf(d.reportDate);
        return [{ table: T.pending, key: [d.reportId] }, monthRef(month), workerRef(month, d.employeePhone), ...(d.correction?.after ?? []).map((l) => ratesRef(l.productId))];
      }
      case 'ReportRejected':
        return [{ table: T.pending, key: [e.data.reportId] }];
      case 'RateSet':
        return [ratesRef(e.data.productId)];
      case 'PeriodClosed': {
        const d = e.data as EventData<'PeriodClosed'>;
        return [monthRef(d.month), ...d.rates.map((r) => ratesRef(r.productId))];
      }
      case 'PeriodReopened':
        return [monthRef(e.data.month)];
      default:
        return [];
    }
  },

  needs(e, view) {
    switch (e.type) {
      case 'ReportApproved': {
        const d = e.data as EventData<'ReportApproved'>;
        if (d.correction) return [];
        const pending = view.get(T.pending, [d.reportId]);
        return ((pending?.lines as PendingLine[] | undefined) ?? []).map((l) => ratesRef(l.productId));
      }
      case 'RateSet': {
        const scan = rateScan(view, e.data as EventData<'RateSet'>);
        return [scan, ...(view.scan ? sumsOf(view.scan(scan.table, scan.where)) : [])];
      }
      case 'PeriodClosed': {
        const d = e.data as EventData<'PeriodClosed'>;
        const pinned = Object.fromEntries(d.rates.map((r) => [r.productId, r.segments]));
        const diff = differing(view, d.month, pinned);
        const lines = diff.length ? [linesOf(d.month, diff)] : [];
        return [workersOf(d.month), ...lines, ...(view.scan && lines.length ? sumsOf(view.scan(T.lines, lines[0].where)) : [])];
      }
      case 'PeriodReopened': {
        const month = view.get(T.months, [e.data.month]);
        const pinned = pinnedOf(month);
        if (!pinned) return [];
        const products = Object.keys(pinned).map(Number);
        const known = products.every((p) => view.get(T.rates, [p]) !== undefined);
        const refs: (RowRef | RowScan)[] = products.map(ratesRef);
        if (!known) return refs;
        const diff = differing(view, e.data.month, pinned);
        if (diff.length === 0) return refs;
        const scan = linesOf(e.data.month, diff);
        return [...refs, scan, ...(view.scan ? sumsOf(view.scan(scan.table, scan.where)) : [])];
      }
      default:
        return [];
    }
  },

  apply(e, view): RowChange[] {
    const sums = new Sums(view);
    const out: RowChange[] = [];
    switch (e.type) {
      case 'ReportSubmitted': {
        const d = e.data as EventData<'ReportSubmitted'>;
        const month = monthOf(d.reportDate);
        const row: Row = { report_id: d.reportId, month, report_date: d.reportDate, employee_phone: d.employeePhone, lines: d.lines.map(pendingLine) };
        out.push({ table: T.pending, key: [d.reportId], row });
        break;
      }
      case 'ReportRejected': {
        const d = e.data as EventData<'ReportRejected'>;
        if (!view.get(T.pending, [d.reportId])) return [];
        out.push({ table: T.pending, key: [d.reportId], row: null });
        break;
      }
      case 'ReportApproved': {
        const d = e.data as EventData<'ReportApproved'>;
        const month = monthOf(d.reportDate);
        const pending = view.get(T.pending, [d.reportId]);
        const lines = (d.correction?.after as PendingLine[] | undefined) ?? (pending?.lines as PendingLine[] | undefined);
        if (!lines) return [];
        const m = sums.month(month);
        if (pending) out.push({ table: T.pending, key: [d.reportId], row: null });
        const monthRow = view.get(T.months, [month]);
        const members = new Set<string>();
        lines.forEach((l, i) => {
          if (l.shares) {
            // Crew work: one row per member, their share of the pieces and of the amount priced once for the line.
            const history = pricingHistory(view, monthRow, l.productId);
            const whole: CrewWhole = {
              submitter: d.employeePhone,
              finishedQty: l.finishedQty,
              defectiveQty: l.defectiveQty,
              defects: l.defects?.length ? l.defects : null,
              amountFen: null,
              amounts: null,
              shares: l.shares.map((x) => ({ phone: x.phone, name: x.name, clockInAt: x.clockInAt, weight: x.weight, finishedQty: x.finishedQty, defectiveQty: x.defectiveQty })),
            };
            l.shares.forEach((x, k) => {
              const row: Row = {
                report_id: d.reportId,
                line_no: i + 1,
                member_no: k + 1,
                month,
                report_date: d.reportDate,
                employee_phone: x.phone,
                product_id: l.productId,
                project_no: l.projectNo,
                product_name: l.productName,
                device_no: l.deviceNo,
                process_name: l.processName,
                finished_qty: x.finishedQty,
                defective_qty: x.defectiveQty,
                defects: null,
                ...crewPriced(whole, k + 1, history, d.reportDate),
              };
              sums.line(undefined, row);
              out.push({ table: T.lines, key: [d.reportId, i + 1, k + 1], row });
              if (x.phone !== d.employeePhone) members.add(x.phone);
            });
            return;
          }
          const row: Row = {
            report_id: d.reportId,
            line_no: i + 1,
            member_no: 0,
            crew: null,
            month,
            report_date: d.reportDate,
            employee_phone: d.employeePhone,
            product_id: l.productId,
            project_no: l.projectNo,
            product_name: l.productName,
            device_no: l.deviceNo,
            process_name: l.processName,
            finished_qty: l.finishedQty,
            defective_qty: l.defectiveQty,
            defects: l.defects?.length ? l.defects : null,
            ...priced(l.finishedQty, l.defectiveQty, l.defects, pricingHistory(view, monthRow, l.productId), d.reportDate),
          };
          sums.line(undefined, row);
          out.push({ table: T.lines, key: [d.reportId, i + 1, 0], row });
        });
        const w = sums.worker(month, d.employeePhone);
        w.reports = Number(w.reports) + 1;
        // A crew member counts the crew's report among theirs (the month counts it once).
        for (const phone of members) {
          const mw = sums.worker(month, phone);
          mw.reports = Number(mw.reports) + 1;
        }
        m.reports = Number(m.reports) + 1;
        break;
      }
      case 'RateSet': {
        const d = e.data as EventData<'RateSet'>;
        const scan = rateScan(view, d);
        const history = withEntry(historyOf(view, d.productId), entryOf(d));
        out.push({ table: T.rates, key: [d.productId], row: { product_id: d.productId, rates: history } });
        const open = view.scan!(scan.table, scan.where).filter((l) => view.get(T.months, [l.month])?.status !== 'closed');
        out.push(...reprice(open, () => history, sums));
        break;
      }
      case 'PeriodClosed': {
        const d = e.data as EventData<'PeriodClosed'>;
        const pinned = Object.fromEntries(d.rates.map((r) => [r.productId, r.segments]));
        const diff = differing(view, d.month, pinned);
        if (diff.length) out.push(...reprice(view.scan!(T.lines, linesOf(d.month, diff).where), (p) => pinned[p] ?? [], sums));
        Object.assign(sums.month(d.month), { status: 'closed', version: d.version, pinned });
        for (const old of view.scan!(T.workers, workersOf(d.month).where)) {
          const w = sums.worker(d.month, old.employee_phone as string);
          w.previous_amount_fen = d.version > 1 ? (w.closed_amount_fen ?? '0') : null;
          w.closed_amount_fen = w.amount_fen;
        }
        break;
      }
      case 'PeriodReopened': {
        const month = view.get(T.months, [e.data.month]);
        const pinned = pinnedOf(month);
        if (!pinned) return [];
        const diff = differing(view, e.data.month, pinned);
        if (diff.length) out.push(...reprice(view.scan!(T.lines, linesOf(e.data.month, diff).where), (p) => historyOf(view, p), sums));
        Object.assign(sums.month(e.data.month), { status: 'open', pinned: null });
        break;
      }
      default:
        return [];
    }
    return [...out, ...sums.changes()];
  },
};
