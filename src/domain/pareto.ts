/**
 * A Pareto of defective pieces (the quality read): groups largest first, each with its share of the total and the
 * cumulative share, percentages to 1 decimal computed from the integer sums (never from rounded shares), so the
 * cumulative of the last group is exactly 100.0. Pure.
 */

/** One group as counted: its key (null: 未注明 / none), label and defective pieces. */
export interface ParetoGroup {
  readonly key: string | null;
  readonly label: string;
  readonly defectiveQty: number;
}

export interface ParetoItem extends ParetoGroup {
  /** Percent of the total, 1 decimal. */
  readonly sharePct: number;
  /** Percent of the total of this group and every larger one, 1 decimal; the last is 100. */
  readonly cumulativePct: number;
}

/** `part / whole` in percent, rounded half up to 1 decimal, from integers (0 when `whole` is 0). */
export function percent1(part: number, whole: number): number {
  if (whole <= 0) return 0;
  const tenths = (BigInt(part) * 2000n + BigInt(whole)) / (2n * BigInt(whole)); // round(part × 1000 / whole)
  return Number(tenths) / 10;
}

/** The groups with pieces, largest first (ties by label, then key), with their shares (module docstring). */
export function pareto(groups: readonly ParetoGroup[]): { items: ParetoItem[]; totalDefectiveQty: number } {
  const kept = groups.filter((g) => g.defectiveQty > 0);
  const total = kept.reduce((a, g) => a + g.defectiveQty, 0);
  kept.sort((a, b) => b.defectiveQty - a.defectiveQty || a.label.localeCompare(b.label, 'zh') || String(a.key).localeCompare(String(b.key)));
  let running = 0;
  const items = kept.map((g) => {
    running += g.defectiveQty;
    return { ...g, sharePct: percent1(g.defectiveQty, total), cumulativePct: percent1(running, total) };
  });
  return { items, totalDefectiveQty: total };
}
