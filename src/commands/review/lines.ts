/**
 * Corrected lines of an approval, validated like a submission (decisions.md "Reports and review": quantities
 * are non-negative integers, `outputQty` = finished + defective (computed when omitted, 422 when it differs),
 * at least one line, a product at most once).
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

/** A line as the administrator sends it. */
export interface LineInput {
  productId: number;
  finishedQty: number;
  defectiveQty: number;
  outputQty?: number;
}

/** A product's identity and standard values as they are now (a candidate of the report's devices). */
export type ProductSnapshot = Omit<ReportLine, 'finishedQty' | 'defectiveQty' | 'outputQty'>;

/** Most lines a report may carry; a guard against absurd bodies. */
export const MAX_LINES = 200;

const isQty = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export function resolveCorrectedLines(
  input: readonly LineInput[],
  reportLines: readonly ReportLine[],
  candidates: readonly ProductSnapshot[],
): ReportLine[] {
  if (input.length === 0) throw unprocessable('NO_LINES', '至少需要填写一行产品数量');
  if (input.length > MAX_LINES) throw unprocessable('TOO_MANY_LINES', `一份报工单最多 ${MAX_LINES} 行产品`);
  const onReport = new Map(reportLines.map((l) => [l.productId, l]));
  const offered = new Map(candidates.map((c) => [c.productId, c]));
  const seen = new Set<number>();
  return input.map((line, i) => {
    const row = i + 1;
    for (const field of ['finishedQty', 'defectiveQty'] as const) {
      if (!isQty(line[field])) {
        throw unprocessable('INVALID_QUANTITY', `第 ${row} 行的${field === 'finishedQty' ? '成品数量' : '不良数量'}必须是不小于 0 的整数`, {
          line: row,
          field,
        });
      }
    }
    const outputQty = line.finishedQty + line.defectiveQty;
    if (line.outputQty !== undefined && line.outputQty !== null) {
      if (!isQty(line.outputQty)) {
        throw unprocessable('INVALID_QUANTITY', `第 ${row} 行的产出数量必须是不小于 0 的整数`, { line: row, field: 'outputQty' });
      }
      if (line.outputQty !== outputQty) {
        throw unprocessable('OUTPUT_QTY_MISMATCH', `第 ${row} 行的产出数量应等于成品数量加不良数量（${outputQty}）`, {
          line: row,
          expected: outputQty,
        });
      }
    }
    if (seen.has(line.productId)) {
      throw unprocessable('DUPLICATE_PRODUCT', `第 ${row} 行的产品重复了，同一产品只能填写一行`, { line: row, productId: line.productId });
    }
    seen.add(line.productId);
    const base = onReport.get(line.productId) ?? offered.get(line.productId);
    if (!base) {
      throw unprocessable('PRODUCT_NOT_ALLOWED', `第 ${row} 行的产品不是本报工单设备上的产品，不能填写`, {
        line: row,
        productId: line.productId,
      });
    }
    return {
      productId: base.productId,
      projectNo: base.projectNo,
      productName: base.productName,
      deviceNo: base.deviceNo,
      processName: base.processName,
      standardCycleSeconds: base.standardCycleSeconds,
      standardWorkload: base.standardWorkload,
      finishedQty: line.finishedQty,
      defectiveQty: line.defectiveQty,
      outputQty,
    };
  });
}

/** True when two line lists say the same (same products with the same quantities, in any order). */
export function sameLines(a: readonly ReportLine[], b: readonly ReportLine[]): boolean {
  if (a.length !== b.length) return false;
  const key = (l: ReportLine) => `${l.productId}:${l.finishedQty}:${l.defectiveQty}:${l.outputQty}`;
  const left = new Set(a.map(key));
  return b.every((l) => left.has(key(l)));
}
