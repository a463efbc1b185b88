/**
 * Report detail lines (spec 2.4; decisions.md "Reports and review"): the one place for the rules of the lines
 * a worker submits and an administrator corrects, and for the copy of each product's fields into the line
 * (domain/report-line.ts), so later product edits never rewrite a report.
 *
 * Rules, each a domain error naming the line (1-based, as the form shows it):
 * - at least one line (NO_LINES), at most MAX_LINES (TOO_MANY_LINES);
 * - quantities are integers 0 … MAX_QTY pieces (INVALID_QUANTITY);
 * - outputQty = finishedQty + defectiveQty; computed when omitted (OUTPUT_QTY_MISMATCH when it differs), and at
 *   most MAX_QTY like any quantity (OUTPUT_QTY_TOO_LARGE: finished + defective over it);
 * - the product is one the caller allows (submission: a candidate of the session's devices,
 *   PRODUCT_NOT_CANDIDATE; correction: review/lines.ts, PRODUCT_NOT_ALLOWED);
 * - a product at most once (DUPLICATE_PRODUCT);
 * - the defect reasons (domain/defect-reasons.ts): each `qty` an integer ≥ 1 and each reason once (INVALID_DEFECTS),
 *   a reason that exists and is active (UNKNOWN_DEFECT_REASON; the reasons are a fact of the command), their sum at
 *   most `defectiveQty`, and equal to it when DEFECT_REASONS_REQUIRED (DEFECTS_SUM_MISMATCH). Each recorded reason
 *   carries its category of now. A correction's line without `defects` keeps the reasons recorded on the report's
 *   line of that product (`keptDefects`), checked against the new quantities again.
 * - the work order (domain/work-orders.ts; the orders named are a fact of the command): one that exists
 *   (WORK_ORDER_NOT_FOUND), is open (WORK_ORDER_NOT_OPEN), makes the line's product (项目号 + 产品名称,
 *   WORK_ORDER_WRONG_PRODUCT) and has the line's 工序 among its operations (WORK_ORDER_WRONG_OPERATION). A
 *   correction's line without `workOrderNo` keeps the order of the report's line of that product (`keptOrder`), and a
 *   line naming the order its product's line already named is not checked again (reports already submitted can be
 *   reviewed after their order closed); `null` names none.
 */
import { domainError, type DomainError, type QuantityField } from '../domain/errors.ts';
import { MAX_LINES, MAX_QTY, snapshotOf, type LineDefect, type LineInput, type ProductSnapshot, type ReportLine } from '../domain/report-line.ts';
import type { DefectReason } from '../domain/defect-reasons.ts';
import { isOpen, type StoredStatus } from '../domain/work-orders.ts';

/** What the defect reasons of lines are checked against: the reasons named (a fact), DEFECT_REASONS_REQUIRED. */
export interface DefectRules {
  readonly reasons: readonly DefectReason[];
  readonly required: boolean;
  /** The reasons recorded on a line of the product (a correction keeps them when a line gives none). */
  readonly keptDefects?: (productId: number) => readonly LineDefect[] | undefined;
}

export const NO_DEFECT_RULES: DefectRules = { reasons: [], required: false };

/** What the work orders of lines are checked against: the orders named (a fact) and a correction's kept orders. */
export interface WorkOrderRules {
  readonly orders: readonly { orderNo: string; projectNo: string; productName: string; operations: readonly string[]; status: StoredStatus }[];
  /** The order the report's line of the product names (a correction keeps it when a line gives none). */
  readonly keptOrder?: (productId: number) => string | undefined;
}

export const NO_WORK_ORDER_RULES: WorkOrderRules = { orders: [] };

/** The order line `line` (1-based) counts toward, or throws (module docstring). */
function lineOrder(line: number, l: LineInput, p: ProductSnapshot, rules: WorkOrderRules): string | undefined {
  const kept = rules.keptOrder?.(l.productId);
  if (l.workOrderNo === undefined) return kept;
  if (l.workOrderNo === null || l.workOrderNo.trim() === '') return undefined;
  const orderNo = l.workOrderNo.trim();
  if (orderNo === kept) return orderNo;
  const o = rules.orders.find((x) => x.orderNo === orderNo);
  if (!o) throw domainError('WORK_ORDER_NOT_FOUND', { orderNo, line });
  if (!isOpen(o.status)) throw domainError('WORK_ORDER_NOT_OPEN', { line, orderNo, status: o.status }, { processName: p.processName });
  if (o.projectNo !== p.projectNo || o.productName !== p.productName) {
    throw domainError('WORK_ORDER_WRONG_PRODUCT', { line, orderNo }, { orderProduct: o.productName, lineProduct: p.productName });
  }
  if (!o.operations.includes(p.processName)) throw domainError('WORK_ORDER_WRONG_OPERATION', { line, orderNo, processName: p.processName }, { operations: o.operations });
  return orderNo;
}

/**
 * The fact query of the orders `lines` name (`{workOrders}`, or nothing when none), besides those of `kept` (a
 * correction's report lines), leaving out the pieces of report `exceptReport` (the one corrected).
 */
export function workOrderFacts(lines: readonly LineInput[] | undefined, kept: readonly { workOrderNo?: string }[] = [], exceptReport?: string): { workOrders?: { orderNos: string[]; exceptReport?: string } } {
  const named = (lines ?? []).map((l) => (typeof l.workOrderNo === 'string' ? l.workOrderNo.trim() : undefined));
  const orderNos = [...new Set([...named, ...kept.map((l) => l.workOrderNo)].filter((n): n is string => typeof n === 'string' && n.length > 0 && n.length <= 40))];
  return orderNos.length ? { workOrders: { orderNos, ...(exceptReport ? { exceptReport } : {}) } } : {};
}

/** The recorded reasons of line `line` (1-based) with `defectiveQty` pieces, or throws (module docstring). */
function lineDefects(line: number, l: LineInput, rules: DefectRules): LineDefect[] | undefined {
  let defects: LineDefect[] | undefined;
  if (l.defects === undefined) {
    const kept = rules.keptDefects?.(l.productId);
    defects = kept && kept.length ? kept.map((d) => ({ ...d })) : undefined;
  } else {
    const byCode = new Map(rules.reasons.map((r) => [r.code, r]));
    const seen = new Set<string>();
    defects = l.defects.map((d, i) => {
      if (!Number.isInteger(d.qty) || d.qty < 1 || d.qty > MAX_QTY) throw domainError('INVALID_DEFECTS', { line, index: i, problem: 'qty' });
      if (seen.has(d.reasonCode)) throw domainError('INVALID_DEFECTS', { line, index: i, problem: 'duplicate' });
      seen.add(d.reasonCode);
      const reason = byCode.get(d.reasonCode);
      if (!reason || !reason.active) throw domainError('UNKNOWN_DEFECT_REASON', { line, reasonCode: d.reasonCode }, { inactive: reason !== undefined });
      return { reasonCode: d.reasonCode, qty: d.qty, category: reason.category };
    });
    if (defects.length === 0) defects = undefined;
  }
  const sum = (defects ?? []).reduce((a, d) => a + d.qty, 0);
  if (sum > l.defectiveQty || (rules.required && sum !== l.defectiveQty)) {
    throw domainError('DEFECTS_SUM_MISMATCH', { line, defectiveQty: l.defectiveQty, defectsQty: sum }, { required: rules.required });
  }
  return defects;
}

const isQty = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_QTY;

const QUANTITIES: readonly QuantityField[] = ['finishedQty', 'defectiveQty', 'outputQty'];

/**
 * Validates `input` and returns the report lines, in the order given. `productOf(id)` gives the product a line
 * may name (undefined: not allowed, and `refuse(line, productId)` is thrown); `defectRules` what its defect reasons
 * are checked against. Throws the domain errors above.
 */
export function buildReportLines(
  input: readonly LineInput[],
  productOf: (productId: number) => ProductSnapshot | undefined,
  refuse: (line: number, productId: number) => DomainError,
  defectRules: DefectRules = NO_DEFECT_RULES,
  orderRules: WorkOrderRules = NO_WORK_ORDER_RULES,
): ReportLine[] {
  if (input.length === 0) throw domainError('NO_LINES');
  if (input.length > MAX_LINES) throw domainError('TOO_MANY_LINES', undefined, { max: MAX_LINES });
  const seen = new Set<number>();
  return input.map((l, i) => {
    const line = i + 1;
    for (const field of QUANTITIES) {
      if (field === 'outputQty' && l.outputQty === undefined) continue;
      if (!isQty(l[field])) throw domainError('INVALID_QUANTITY', { line, field }, { max: MAX_QTY });
    }
    const outputQty = l.finishedQty + l.defectiveQty;
    if (l.outputQty !== undefined && l.outputQty !== outputQty) {
      throw domainError('OUTPUT_QTY_MISMATCH', { line, expected: outputQty }, { finishedQty: l.finishedQty, defectiveQty: l.defectiveQty, given: l.outputQty });
    }
    if (!isQty(outputQty)) throw domainError('OUTPUT_QTY_TOO_LARGE', { line, max: MAX_QTY }, { finishedQty: l.finishedQty, defectiveQty: l.defectiveQty });
    const p = productOf(l.productId);
    if (!p) throw refuse(line, l.productId);
    if (seen.has(l.productId)) {
      throw domainError('DUPLICATE_PRODUCT', { line, productId: l.productId }, { productName: p.productName, processName: p.processName });
    }
    seen.add(l.productId);
    const defects = lineDefects(line, l, defectRules);
    const workOrderNo = lineOrder(line, l, p, orderRules);
    return { ...snapshotOf(p), finishedQty: l.finishedQty, defectiveQty: l.defectiveQty, outputQty, ...(defects ? { defects } : {}), ...(workOrderNo ? { workOrderNo } : {}) };
  });
}

/**
 * The fact query of the defect reasons `lines` name (`{defectReasonCodes}`, or nothing when none), so that a line
 * without reasons adds nothing to a submission's facts.
 */
export function defectReasonFacts(lines: readonly LineInput[] | undefined): { defectReasonCodes?: string[] } {
  const codes = [...new Set((lines ?? []).flatMap((l) => (Array.isArray(l.defects) ? l.defects.map((d) => d.reasonCode) : [])).filter((c) => typeof c === 'string'))];
  return codes.length ? { defectReasonCodes: codes } : {};
}
