/**
 * Crew work (班组报工) on the phone (decisions.md "Crew work"): the shares a crew line will give each member, shown
 * before it is sent, and the crew as 我的报工 and 审核 read it. Plain TypeScript, no `wx`, no `BigInt`.
 *
 * The split is the service's rule (src/domain/crew-split.ts), ported because the mini-program cannot import src/
 * (test/miniprogram/crew.test.ts runs both on the same cases): each member's weight is their seconds on the device
 * inside the submitter's session (CREW_SPLIT `presence`), × their coefficient in hundredths (`coefficient`) or the
 * same for everyone (`equal`); the pieces are split by the largest remainder method (each gets the floor of their
 * exact share, the pieces left go one each to the largest remainders; equal remainders to the earlier first clock-in
 * on the device, then the smaller phone number; all weights 0: split equally). Finished and defective pieces are
 * split each on the same weights.
 *
 * Exact integers without BigInt: a share is `whole × weight ÷ Σ weights`; with at most 10,000,000 pieces (MAX_QTY)
 * and weights up to 86,400 s × 999 (one day at the highest coefficient) the product stays below 2^53, so plain
 * numbers are exact. Beyond that (never from the draft) `largestRemainder` throws rather than be inexact.
 *
 * The draft does not say which CREW_SPLIT the service runs: the phone previews `presence` (the default) and says the
 * shares are an estimate; the service's shares, recorded with the report, are what 我的报工 shows afterwards.
 */

export type CrewSplitMode = 'presence' | 'coefficient' | 'equal';

/** One member as the split needs them (the draft's `crew` entries; a recorded share has the same fields). */
export interface CrewMember {
  phone: string;
  /** First instant on the device inside the window (ISO 8601): the tie-break. Unknown: after everyone known. */
  clockInAt?: string;
  /** Whole seconds on the device inside the submitter's session window. */
  seconds: number;
  /** Coefficient (系数) as the service gives it, e.g. 1.2. */
  coefficient: number;
}

/** A coefficient as given (1.2) → hundredths (120), read through its decimal text, never multiplied as a float; 100 when unreadable. */
export function coefficientHundredths(c: number): number {
  const m = /^(\d{1,2})(?:\.(\d{1,2}))?$/.exec(String(c));
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : 100;
}

/** Each member's weight by `mode` (module docstring), in the members' order (integers). */
export function crewWeights(members: readonly CrewMember[], mode: CrewSplitMode): number[] {
  return members.map((m) => (mode === 'equal' ? 1 : mode === 'coefficient' ? m.seconds * coefficientHundredths(m.coefficient) : m.seconds));
}

/** The tie-break of equal remainders: the earlier clock-in (unknown last), then the smaller phone number. */
function tieOrder(a: Pick<CrewMember, 'clockInAt' | 'phone'>, b: Pick<CrewMember, 'clockInAt' | 'phone'>): number {
  const ta = a.clockInAt ? Date.parse(a.clockInAt) : Infinity;
  const tb = b.clockInAt ? Date.parse(b.clockInAt) : Infinity;
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : 0;
}

/**
 * `whole` (≥ 0 pieces) split in proportion to `weights` (non-negative integers) by the largest remainder method;
 * `members` give the tie-break, in the same order. Throws when the arithmetic would not be exact (module docstring).
 */
export function largestRemainder(whole: number, weights: readonly number[], members: readonly Pick<CrewMember, 'clockInAt' | 'phone'>[]): number[] {
  if (weights.length !== members.length) throw new Error('largestRemainder: one weight per member');
  if (weights.length === 0) return [];
  const total = weights.reduce((a, w) => a + w, 0);
  const ws = total === 0 ? weights.map(() => 1) : weights;
  const sum = total === 0 ? ws.length : total;
  if (ws.some((w) => !Number.isSafeInteger(whole * w) || w < 0) || !Number.isSafeInteger(whole)) throw new Error('largestRemainder: not exact');
  const shares = ws.map((w) => Math.floor((whole * w) / sum));
  const remainders = ws.map((w, i) => whole * w - shares[i] * sum);
  let left = whole - shares.reduce((a, s) => a + s, 0);
  const order = ws.map((_, i) => i).sort((i, j) => remainders[j] - remainders[i] || tieOrder(members[i], members[j]));
  for (const i of order) {
    if (left === 0) break;
    shares[i] += 1;
    left -= 1;
  }
  return shares;
}

/** A member's pieces of a crew line. */
export interface CrewShare {
  phone: string;
  finishedQty: number;
  defectiveQty: number;
}

/** The shares of a line of `finishedQty` and `defectiveQty` among `members` by `mode`, in the members' order. */
export function crewShares(members: readonly CrewMember[], mode: CrewSplitMode, q: { finishedQty: number; defectiveQty: number }): CrewShare[] {
  const weights = crewWeights(members, mode);
  const finished = largestRemainder(q.finishedQty, weights, members);
  const defective = largestRemainder(q.defectiveQty, weights, members);
  return members.map((m, i) => ({ phone: m.phone, finishedQty: finished[i], defectiveQty: defective[i] }));
}

/** Whole minutes of `seconds` as a person reads them: `480 分钟` (seconds floored). */
export const minutesText = (seconds: number): string => `${Math.floor(seconds / 60)} 分钟`;

/** A person's name for a sentence: the name, or the phone number when the name is unknown. */
export const personName = (p: { phone: string; name: string | null }): string => p.name || p.phone;

/** A member's pieces as a line reads them: `成品 571，不良 0`. */
export const shareText = (s: { finishedQty: number; defectiveQty: number }): string => `成品 ${s.finishedQty}，不良 ${s.defectiveQty}`;

/** What the 报工单 says when another's crew line counts this worker for a candidate already. */
export const reportedByText = (by: { phone: string; name: string | null }): string => `已由 ${personName(by)} 班组报工`;

/** Why a proposed member is not in the crew (the draft's `crewLeftOut`). */
export const leftOutText = (m: { phone: string; name: string | null }): string => `${personName(m)} 已自己报工或已在别人的班组报工里，不再计入`;

/** A member of a recorded crew line as the reviewer reads them: `张三 480 分钟 · 成品 571，不良 0`. */
export const recordedShareText = (s: { phone: string; name: string | null; seconds: number; finishedQty: number; defectiveQty: number }): string =>
  `${personName(s)} ${minutesText(s.seconds)} · ${shareText(s)}`;
