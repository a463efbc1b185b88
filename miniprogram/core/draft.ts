/**
 * The report form's rules (decisions.md "Reports and review"; README "Clocking"): quantities typed per product,
 * checked before anything is sent, and the totals the worker sees. Used by the worker's 报工单 and by the
 * reviewer's correction. Plain TypeScript, no `wx`.
 *
 * Rules, as the service checks them again: quantities are integers 0–10,000,000; output = finished + defective,
 * at most 10,000,000; at least one line; at most 200 lines; a product at most once. A product left blank (or 0 and
 * 0) is not a line. A row's defect reasons (core/defects.ts) each take a whole number of pieces (blank or 0: the
 * reason is not sent), together at most the row's 不良; the line carries `defects` only when one has pieces. A row of
 * 0 and 0 is no line, whatever its reasons say (a correction removes a line so).
 */
import { overSumProblem, type ReasonQty } from './defects';

/** Most pieces one quantity may say (src/domain/report-line.ts MAX_QTY). */
export const MAX_QTY = 10_000_000;
/** Most lines one report may have (src/domain/report-line.ts MAX_LINES). */
export const MAX_LINES = 200;

/** One product of the form: its id, the name the worker reads, the two quantities as typed, and its reasons. */
export interface QuantityRow {
  productId: number;
  name: string;
  finished: string;
  defective: string;
  /** The defect reasons offered on this row with their pieces as typed (none: the row takes no reasons). */
  reasons?: readonly ReasonQty[];
}

/** A line as `POST /api/reports` and the approval's `lines` take it. */
export interface LineInput {
  productId: number;
  finishedQty: number;
  defectiveQty: number;
  /** The reasons with pieces (left out when none has). */
  defects?: { reasonCode: string; qty: number }[];
  /** The work order the line counts toward (left out: none; core/work-orders.ts). */
  workOrderNo?: string;
  /** A crew line's members, the submitter included (left out: the submitter's alone; core/crew.ts). */
  crew?: string[];
}

export interface FormCheck {
  /** The lines to send (products with a quantity), in the form's order. */
  lines: LineInput[];
  /** One Chinese sentence per problem, empty when the form may be sent. */
  problems: string[];
  /** Sums over the valid quantities: finished, defective, output (= finished + defective). */
  totals: { finished: number; defective: number; output: number };
}

/** A typed quantity: blank is 0; else a whole number 0–MAX_QTY; undefined when it is none of these. */
export function quantityOf(text: string | undefined): number | undefined {
  const t = (text ?? '').trim();
  if (t === '') return 0;
  if (!/^\d{1,8}$/.test(t)) return undefined;
  const n = Number(t);
  return n <= MAX_QTY ? n : undefined;
}

/**
 * Checks the rows of a form and gives the lines to send, the problems (each naming the product) and the totals.
 * `allowEmpty`: no line at all is not a problem (never for a submission or a correction).
 */
export function checkForm(rows: readonly QuantityRow[], allowEmpty = false): FormCheck {
  const problems: string[] = [];
  const lines: LineInput[] = [];
  const seen = new Set<number>();
  const totals = { finished: 0, defective: 0, output: 0 };
  for (const row of rows) {
    const finished = quantityOf(row.finished);
    const defective = quantityOf(row.defective);
    if (finished === undefined) problems.push(`“${row.name}”的成品数量请填写 0 到 ${MAX_QTY} 之间的整数`);
    if (defective === undefined) problems.push(`“${row.name}”的不良数量请填写 0 到 ${MAX_QTY} 之间的整数`);
    if (finished === undefined || defective === undefined) continue;
    if (finished + defective > MAX_QTY) {
      problems.push(`“${row.name}”的成品加不良不能超过 ${MAX_QTY}`);
      continue;
    }
    totals.finished += finished;
    totals.defective += defective;
    totals.output += finished + defective;
    if (finished + defective === 0) continue; // not a line (a correction's removed line): its reasons go with it
    const defects: { reasonCode: string; qty: number }[] = [];
    let reasonsOk = true;
    for (const r of row.reasons ?? []) {
      const qty = quantityOf(r.qty);
      if (qty === undefined) {
        problems.push(`“${row.name}”的不良原因“${r.name}”请填写 0 到 ${MAX_QTY} 之间的整数`);
        reasonsOk = false;
      } else if (qty > 0) defects.push({ reasonCode: r.code, qty });
    }
    const explained = defects.reduce((s, d) => s + d.qty, 0);
    if (reasonsOk && explained > defective) {
      problems.push(overSumProblem(row.name, explained, defective));
      reasonsOk = false;
    }
    if (!reasonsOk) continue;
    if (seen.has(row.productId)) {
      problems.push(`“${row.name}”填了两行，同一产品只能填一行`);
      continue;
    }
    seen.add(row.productId);
    lines.push({ productId: row.productId, finishedQty: finished, defectiveQty: defective, ...(defects.length ? { defects } : {}) });
  }
  if (lines.length === 0 && problems.length === 0 && !allowEmpty) problems.push('请至少填写一个产品的数量');
  if (lines.length > MAX_LINES) problems.push(`一张报工单最多 ${MAX_LINES} 行`);
  return { lines, problems, totals };
}

/**
 * Effective working time in seconds (spec 2.5): clock-out − clock-in − break minutes × 60, from ISO instants;
 * may be negative only when the break is longer than the shift (the service refuses that for a break change).
 */
export function effectiveSeconds(clockInAt: string, clockOutAt: string, breakMinutes: number): number {
  return (Date.parse(clockOutAt) - Date.parse(clockInAt)) / 1000 - breakMinutes * 60;
}

/**
 * The quantities typed on a 报工单 as the phone keeps them (platform/typed-store.ts), per product id: only products
 * with something typed, the texts as typed (checked again when sent), and the pieces typed per defect reason
 * (`defects`, reason code → text; left out when none was typed). The 报工单 adds the choices made on a product
 * (`choices`): the work order picked (`order`, '' for 不指定工单; left out: the default) and the crew members
 * unticked (`crewOut`).
 */
export type TypedQuantities = Record<string, { finished: string; defective: string; defects?: Record<string, string>; order?: string; crewOut?: string[] }>;

/** What the 报工单 keeps of a product's choices (see TypedQuantities). */
export type Choices = Record<string, { order?: string; crewOut?: string[] }>;

/** `typed` with `choices` added per product (a product with choices and nothing typed is kept with blank quantities). */
export function withChoices(typed: TypedQuantities, choices: Choices): TypedQuantities {
  const out: TypedQuantities = { ...typed };
  for (const [id, c] of Object.entries(choices)) {
    if (c.order === undefined && !(c.crewOut && c.crewOut.length)) continue;
    out[id] = { ...(out[id] ?? { finished: '', defective: '' }), ...(c.order === undefined ? {} : { order: c.order }), ...(c.crewOut && c.crewOut.length ? { crewOut: c.crewOut } : {}) };
  }
  return out;
}

/** What of `rows` was typed (module docstring of `TypedQuantities`). */
export function typedOf(rows: readonly QuantityRow[]): TypedQuantities {
  const typed: TypedQuantities = {};
  for (const r of rows) {
    const defects: Record<string, string> = {};
    for (const x of r.reasons ?? []) if (x.qty !== '') defects[x.code] = x.qty;
    const anyReason = Object.keys(defects).length > 0;
    if (r.finished !== '' || r.defective !== '' || anyReason) {
      typed[String(r.productId)] = { finished: r.finished, defective: r.defective, ...(anyReason ? { defects } : {}) };
    }
  }
  return typed;
}

/**
 * `rows` with the quantities of `typed` put back where the product is still a candidate (a product no longer on
 * the draft is left out; a row with nothing kept stays as it came), and the pieces of each reason still offered on
 * the row (a reason no longer active is left out). Used when a 报工单 opens again: after 重新报工, after the app was
 * killed, after a login.
 */
export function withTyped<R extends QuantityRow>(rows: readonly R[], typed: TypedQuantities | undefined): R[] {
  return rows.map((r) => {
    const t = typed?.[String(r.productId)];
    if (!(t && typeof t.finished === 'string' && typeof t.defective === 'string')) return r;
    const kept = t.defects && typeof t.defects === 'object' ? t.defects : {};
    const reasons = r.reasons?.map((x) => (typeof kept[x.code] === 'string' ? { ...x, qty: kept[x.code] } : x));
    return { ...r, finished: t.finished, defective: t.defective, ...(reasons ? { reasons } : {}) };
  });
}

/** The output (finished + defective) of one row as typed; 0 while a quantity is not a valid one (its reasons aside). */
export function rowOutput(row: QuantityRow): number {
  const check = checkForm([{ ...row, reasons: undefined }], true);
  return check.problems.length ? 0 : check.totals.output;
}
