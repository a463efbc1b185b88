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
 * - a product at most once (DUPLICATE_PRODUCT).
 */
import { domainError, type DomainError, type QuantityField } from '../domain/errors.ts';
import { MAX_LINES, MAX_QTY, snapshotOf, type LineInput, type ProductSnapshot, type ReportLine } from '../domain/report-line.ts';

const isQty = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_QTY;

const QUANTITIES: readonly QuantityField[] = ['finishedQty', 'defectiveQty', 'outputQty'];

/**
 * Validates `input` and returns the report lines, in the order given. `productOf(id)` gives the product a line
 * may name (undefined: not allowed, and `refuse(line, productId)` is thrown). Throws the domain errors above.
 */
export function buildReportLines(
  input: readonly LineInput[],
  productOf: (productId: number) => ProductSnapshot | undefined,
  refuse: (line: number, productId: number) => DomainError,
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
    return { ...snapshotOf(p), finishedQty: l.finishedQty, defectiveQty: l.defectiveQty, outputQty };
  });
}
