/**
 * Crew work (班组报工 / 多人作业; decisions.md "Crew work"): one report line for the pieces several people made
 * together, split among them exactly.
 *
 * - **Weights** (`crewWeights`): each member's seconds on the line's device inside the submitter's session window,
 *   by CREW_SPLIT: `presence` (default) the seconds; `coefficient` the seconds × the member's coefficient (系数);
 *   `equal` the same weight for everyone. A weight is an integer of hundredths (seconds × coefficient in hundredths),
 *   so no weight is ever a float; `weightValue` gives it as the number a person reads (28,800 s × 1.20 → 25,920).
 * - **Shares** (`largestRemainder`): a whole (pieces, or fen) split in proportion to the weights by the largest
 *   remainder method: each member gets the floor of their exact share, and the units left go one each to the
 *   largest remainders; equal remainders go to the earlier clock-in, then the smaller phone number. The shares sum
 *   exactly to the whole and each is within 1 of its exact value. Negative wholes (an amount made negative by a
 *   deduction) split as their magnitude, negated. When every weight is 0 the split is equal.
 * - **A crew line's shares** (`crewShares`): finished and defective pieces, each split on the same weights, so a
 *   member's output is finished + defective. The amount is split where it is priced (`splitAmount`): computed once
 *   for the crew line (domain/money.ts `lineAmountFen`, rounded to the fen once) and split to the fen on the same
 *   weights, never recomputed from rounded quantities.
 *
 * Coefficients (系数) are integers of hundredths, 10 … 999 (0.10 … 9.99), default 100 (1.00).
 */
import { lineAmountFen, type LineRates } from './money.ts';

/** CREW_SPLIT: how a crew line's weights are made. */
export const CREW_SPLIT_MODES = ['presence', 'coefficient', 'equal'] as const;
export type CrewSplitMode = (typeof CREW_SPLIT_MODES)[number];

/** A coefficient's bounds and default, hundredths (0.10, 9.99, 1.00). */
export const COEFFICIENT_MIN = 10;
export const COEFFICIENT_MAX = 999;
export const COEFFICIENT_DEFAULT = 100;

/** A coefficient in hundredths as the text a person reads: 120 → "1.20". */
export const formatCoefficient = (hundredths: number): string => `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;

/**
 * A coefficient given as a number of at most 2 decimals (1.2, "1.20") → hundredths, or undefined when it is not
 * such a number within 0.10 … 9.99. Read through its shortest decimal text, never multiplied as a float.
 */
export function parseCoefficient(value: unknown): number | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
  const m = /^(\d{1,2})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return undefined;
  const hundredths = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return hundredths >= COEFFICIENT_MIN && hundredths <= COEFFICIENT_MAX ? hundredths : undefined;
}

/** One member of a crew as the split needs them. */
export interface CrewMember {
  readonly phone: string;
  /** The member's first clock-in on the device inside the window (ISO 8601 instant): the first tie-break. */
  readonly clockInAt: string;
  /** Whole seconds on the line's device inside the submitter's session window. */
  readonly seconds: number;
  /** The member's coefficient on the report date, hundredths (COEFFICIENT_DEFAULT when in no team). */
  readonly coefficient: number;
}

/** Each member's weight in hundredths (module docstring), in the members' order. */
export function crewWeights(members: readonly CrewMember[], mode: CrewSplitMode): bigint[] {
  return members.map((m) => (mode === 'equal' ? 100n : BigInt(m.seconds) * BigInt(mode === 'coefficient' ? m.coefficient : 100)));
}

/** A weight in hundredths as the number a person reads (2,592,000 → 25,920; 2,656,923 → 26,569.23). */
export const weightValue = (hundredths: bigint): number => Number(hundredths) / 100;

/** The tie-break of equal remainders: the earlier clock-in, then the smaller phone number. */
const tieOrder = (a: Pick<CrewMember, 'clockInAt' | 'phone'>, b: Pick<CrewMember, 'clockInAt' | 'phone'>): number =>
  Date.parse(a.clockInAt) - Date.parse(b.clockInAt) || (a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : 0);

/**
 * `whole` split in proportion to `weights` (non-negative, hundredths) by the largest remainder method (module
 * docstring); `members` give the tie-break, in the same order as `weights`. Returns the shares in that order.
 * Throws on a negative weight or on lengths that differ (a defect of the caller).
 */
export function largestRemainder(whole: bigint, weights: readonly bigint[], members: readonly Pick<CrewMember, 'clockInAt' | 'phone'>[]): bigint[] {
  if (weights.length !== members.length) throw new Error('largestRemainder: one weight per member');
  if (weights.some((w) => w < 0n)) throw new Error('largestRemainder: a negative weight');
  if (weights.length === 0) return [];
  if (whole < 0n) return largestRemainder(-whole, weights, members).map((s) => -s);
  const total = weights.reduce((a, w) => a + w, 0n);
  const ws = total === 0n ? weights.map(() => 1n) : weights;
  const sum = total === 0n ? BigInt(ws.length) : total;
  const shares = ws.map((w) => (whole * w) / sum);
  const remainders = ws.map((w) => (whole * w) % sum);
  let left = whole - shares.reduce((a, s) => a + s, 0n);
  const order = ws.map((_, i) => i).sort((i, j) => (remainders[j] > remainders[i] ? 1 : remainders[j] < remainders[i] ? -1 : tieOrder(members[i], members[j])));
  for (const i of order) {
    if (left === 0n) break;
    shares[i] += 1n;
    left -= 1n;
  }
  return shares;
}

/** A member's share of a crew line: their weight (hundredths) and pieces. */
export interface CrewShare {
  readonly phone: string;
  readonly clockInAt: string;
  readonly seconds: number;
  /** Hundredths (the coefficient on the report date, recorded even when CREW_SPLIT ignores it). */
  readonly coefficient: number;
  /** Hundredths (module docstring). */
  readonly weight: number;
  readonly finishedQty: number;
  readonly defectiveQty: number;
}

/**
 * The shares of a crew line of `finishedQty` and `defectiveQty` pieces among `members` by `mode`: each quantity
 * split by the largest remainder method on the members' weights (module docstring). In the members' order.
 */
export function crewShares(members: readonly CrewMember[], mode: CrewSplitMode, quantities: { finishedQty: number; defectiveQty: number }): CrewShare[] {
  const weights = crewWeights(members, mode);
  const finished = largestRemainder(BigInt(quantities.finishedQty), weights, members);
  const defective = largestRemainder(BigInt(quantities.defectiveQty), weights, members);
  return members.map((m, i) => ({
    phone: m.phone,
    clockInAt: m.clockInAt,
    seconds: m.seconds,
    coefficient: m.coefficient,
    weight: Number(weights[i]),
    finishedQty: Number(finished[i]),
    defectiveQty: Number(defective[i]),
  }));
}

/** A crew line's amount (fen, computed once for the line) split to the fen on the recorded shares' weights. */
export function splitAmount(amountFen: bigint, shares: readonly Pick<CrewShare, 'phone' | 'clockInAt' | 'weight'>[]): bigint[] {
  return largestRemainder(
    amountFen,
    shares.map((s) => BigInt(s.weight)),
    shares,
  );
}

/**
 * A crew line's amounts (fen) under `rates` (the entry in force on the report date; undefined: unpriced → null):
 * the whole line priced once (domain/money.ts `lineAmountFen`, its 料废 pieces from the recorded reasons), then split
 * to the fen on the recorded shares' weights (`splitAmount`; a recorded weight is the number a person reads, as
 * `weightValue` gives it). `whole` is the crew's amount, `shares` each member's, in the shares' order, summing to it.
 */
export function crewLineAmounts(
  line: { finishedQty: number; defectiveQty: number; materialDefectQty: number; shares: readonly { phone: string; clockInAt: string; weight: number }[] },
  rates: LineRates | undefined,
): { whole: bigint; shares: bigint[] } | null {
  if (!rates) return null;
  const whole = lineAmountFen(line.finishedQty, line.defectiveQty, rates, line.materialDefectQty);
  return { whole, shares: splitAmount(whole, line.shares.map((s) => ({ ...s, weight: Math.round(s.weight * 100) }))) };
}
