/**
 * Corrected lines of an approval, validated like a submission (src/commands/report-lines.ts holds the rules).
 *
 * Which products a corrected line may name (decided here, README "Review"): a product already on the report,
 * keeping the report's copy of its standard cycle time and workload (history is not rewritten), or a candidate
 * of the report's devices (a product whose device is one of the session's devices, as the draft offered it),
 * taken with its current standard values. Anything else: 422 PRODUCT_NOT_ALLOWED.
 *
 * Pure: `resolveCorrectedLines(input, reportLines, candidates)` → ReportLine[] or throws AppError 422.
 */
import type { ReportLine } from '../../events/catalog.ts';
import { unprocessable } from '../../errors.ts';
import { buildReportLines, type LineInput, type ProductSnapshot } from '../report-lines.ts';

export type { LineInput, ProductSnapshot };

/**
 * Validates the corrected lines of an approval and returns them as report lines (module docstring): a product already
 * on the report keeps the report's standard values, a candidate of its devices takes its current ones.
 * Throws AppError 422 PRODUCT_NOT_ALLOWED for any other product, and the 422s of buildReportLines.
 */
export function resolveCorrectedLines(
  input: readonly LineInput[],
  reportLines: readonly ReportLine[],
  candidates: readonly ProductSnapshot[],
): ReportLine[] {
  const onReport = new Map(reportLines.map((l) => [l.productId, l]));
  const offered = new Map(candidates.map((c) => [c.productId, c]));
  return buildReportLines(
    input,
    (id) => onReport.get(id) ?? offered.get(id),
    (line, productId) => unprocessable('PRODUCT_NOT_ALLOWED', `第 ${line} 行的产品不是本报工单设备上的产品，不能填写`, { line, productId }),
  );
}

/** True when two line lists say the same (same products with the same quantities, in any order). */
export function sameLines(a: readonly ReportLine[], b: readonly ReportLine[]): boolean {
  if (a.length !== b.length) return false;
  const key = (l: ReportLine) => `${l.productId}:${l.finishedQty}:${l.defectiveQty}:${l.outputQty}`;
  const left = new Set(a.map(key));
  return b.every((l) => left.has(key(l)));
}
