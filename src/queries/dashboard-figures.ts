/**
 * The dashboard figures of one row from its exact integer sums (decisions.md "Calculations", exact):
 * - `actualCycleSeconds` = Σ effective seconds / Σ (finished + defective); null when the divisor is 0.
 * - `standardCycleSeconds` = Σ (line standard cycle × line outputQty) / Σ outputQty; null when 0.
 * - `cycleTimeDiffPct` = (actual − standard) / standard × 100 (positive: slower than standard); null when either
 *   is null or standard is 0.
 * - `workloadDiffPct` = (Σ finished − standardWorkload) / standardWorkload × 100; null when the workload is 0.
 * Every figure is computed as an exact fraction of integers (BigInt) and rounded only here, on output, to 2
 * decimals, halves away from zero. Inputs: effective time in ms, cycle × output in thousandths of a second.
 */

export interface DailySums {
  effectiveMs: number;
  finishedQty: number;
  defectiveQty: number;
  outputQty: number;
  /** Σ standard cycle (thousandths of a second) × outputQty. */
  cycleOutputMilli: number;
  standardWorkload: number;
}

export interface DashboardFigures {
  actualCycleSeconds: number | null;
  standardCycleSeconds: number | null;
  cycleTimeDiffPct: number | null;
  workloadDiffPct: number | null;
}

/** num / den rounded to 2 decimals, halves away from zero; null when den is 0. */
export function round2(num: bigint, den: bigint): number | null {
  if (den === 0n) return null;
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const neg = num < 0n;
  const abs = neg ? -num : num;
  const hundredths = (abs * 200n + den) / (2n * den);
  return Number(neg ? -hundredths : hundredths) / 100;
}

/**
 * The figures of one dashboard row from its sums (module docstring): seconds and percentages rounded to 2 decimals,
 * null where a divisor is 0. `effectiveMs` in milliseconds, `cycleOutputMilli` in thousandths of a second.
 */
export function figuresOf(s: DailySums): DashboardFigures {
  const E = BigInt(s.effectiveMs);
  const q = BigInt(s.finishedQty) + BigInt(s.defectiveQty);
  const o = BigInt(s.outputQty);
  const S = BigInt(s.cycleOutputMilli);
  const W = BigInt(s.standardWorkload);
  const F = BigInt(s.finishedQty);
  // actual = E / (1000 q) s; standard = S / (1000 o) s.
  const actualCycleSeconds = round2(E, 1000n * q);
  const standardCycleSeconds = round2(S, 1000n * o);
  // (actual − standard) / standard × 100 = 100 (E·o − S·q) / (S·q)
  const cycleTimeDiffPct = q === 0n || o === 0n || S === 0n ? null : round2(100n * (E * o - S * q), S * q);
  const workloadDiffPct = round2(100n * (F - W), W);
  return { actualCycleSeconds, standardCycleSeconds, cycleTimeDiffPct, workloadDiffPct };
}
