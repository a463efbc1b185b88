/**
 * Corrected lines of an approval, validated like a submission (src/commands/report-lines.ts holds the rules).
 *
 * Which products a corrected line may name (README "Review"): a product already on the report, keeping the
 * report's copy of its standard cycle time and workload (history is not rewritten), or a product of one of the
 * report's devices (as the draft offered it), taken with its current standard values. Anything else: domain
 * error PRODUCT_NOT_ALLOWED.
 *
 * A crew line (班组报工) keeps its recorded members, or those of them the corrected line's `crew` names, and its
 * shares are computed again for the corrected quantities from the recorded weights (commands/crew-lines.ts); the
 * approval's correction records them before → after (the audit).
 *
 * Pure: `resolveCorrectedLines(input, report, products)` → ReportLine[] or throws a domain error.
 */
import { domainError } from '../../domain/errors.ts';
import { lineContentKey, type LineInput, type ProductSnapshot, type ReportLine } from '../../domain/report-line.ts';
import { buildReportLines, NO_DEFECT_RULES, NO_WORK_ORDER_RULES, type DefectRules, type WorkOrderRules } from '../report-lines.ts';
import { correctedShares } from '../crew-lines.ts';

/**
 * Validates the corrected lines of an approval and returns them as report lines (module docstring): a product
 * already on the report keeps the report's standard values; a product of `products` (current snapshots of the
 * products the input names) whose device is one of the report's `devices` takes its current ones.
 * A corrected line without `defects` keeps the reasons recorded on the report's line of its product, and one without
 * `workOrderNo` the order it names (`orderRules`: the orders the corrected lines name, a fact).
 * Throws PRODUCT_NOT_ALLOWED for any other product, and the domain errors of buildReportLines.
 */
export function resolveCorrectedLines(
  input: readonly LineInput[],
  report: { lines: readonly ReportLine[]; devices: readonly string[] },
  products: readonly ProductSnapshot[],
  defectRules: DefectRules = NO_DEFECT_RULES,
  orderRules: WorkOrderRules = NO_WORK_ORDER_RULES,
): ReportLine[] {
  const onReport = new Map(report.lines.map((l) => [l.productId, l]));
  const offered = new Map(products.filter((p) => report.devices.includes(p.deviceNo)).map((p) => [p.productId, p]));
  const built = buildReportLines(
    input,
    (id) => onReport.get(id) ?? offered.get(id),
    (line, productId) => domainError('PRODUCT_NOT_ALLOWED', { line, productId }),
    { ...defectRules, keptDefects: (id) => onReport.get(id)?.defects },
    { ...orderRules, keptOrder: (id) => onReport.get(id)?.workOrderNo },
  );
  // Crew work: a crew line's shares computed again from the recorded members and weights (commands/crew-lines.ts).
  return built.map((l, i) => {
    const shares = correctedShares(onReport.get(l.productId)?.shares, input[i].crew, l, i + 1);
    return shares ? { ...l, shares } : l;
  });
}

/** True when two line lists say the same (the same products with the same content, domain/report-line.ts lineContentKey, in any order). */
export function sameLines(a: readonly ReportLine[], b: readonly ReportLine[]): boolean {
  if (a.length !== b.length) return false;
  const key = (l: ReportLine) => `${l.productId}:${lineContentKey(l)}`;
  const left = new Set(a.map(key));
  return b.every((l) => left.has(key(l)));
}
