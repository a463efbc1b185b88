/**
 * Effective-dated rates: a product's rates as entries `{from, pieceRate, defectRate}`
 * (`from`: a local date `YYYY-MM-DD`; rates in ten-thousandths of a yuan, domain/money.ts). An entry holds from
 * its date until the next entry's: a raise from the 15th does not rewrite the 1st–14th. The date a price is read
 * at is the report's `reportDate`, never the time of the computation. Pure.
 */
import { monthDates } from './period.ts';

/** One entry of a product's rate history. */
export interface RateEntry {
  readonly from: string;
  readonly pieceRate: number;
  readonly defectRate: number;
  /** 料废单价; absent: a 料废 piece is priced at `defectRate` (domain/money.ts `lineAmountFen`). */
  readonly materialDefectRate?: number;
}

/** Two entries price alike (an absent material rate is the defect rate). */
export const samePrices = (a: Omit<RateEntry, 'from'>, b: Omit<RateEntry, 'from'>): boolean =>
  a.pieceRate === b.pieceRate && a.defectRate === b.defectRate && (a.materialDefectRate ?? a.defectRate) === (b.materialDefectRate ?? b.defectRate);

/** The entry a RateSet's payload sets (`materialDefectRate` only when it has one). */
export const entryOf = (d: { effectiveFrom: string; pieceRate: number; defectRate: number; materialDefectRate?: number }): RateEntry => ({
  from: d.effectiveFrom,
  pieceRate: d.pieceRate,
  defectRate: d.defectRate,
  ...(d.materialDefectRate !== undefined ? { materialDefectRate: d.materialDefectRate } : {}),
});

/** `history` with `entry` in place (replacing an entry of the same date), sorted by date. */
export function withEntry(history: readonly RateEntry[], entry: RateEntry): RateEntry[] {
  return [...history.filter((e) => e.from !== entry.from), entry].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}

/** The entry in force on local date `date` (the last one from on or before it), or undefined: unpriced. */
export function rateOn(history: readonly RateEntry[], date: string): RateEntry | undefined {
  let found: RateEntry | undefined;
  for (const e of history) {
    if (e.from > date) break;
    found = e;
  }
  return found;
}

/** The date of the entry after the one from `from` (exclusive end of its reach), or undefined: open-ended. */
export function nextFrom(history: readonly RateEntry[], from: string): string | undefined {
  return history.find((e) => e.from > from)?.from;
}

/**
 * The entries that price dates of `month`: the one in force on its first day (with its own date) and those
 * starting within it. Two histories price every date of the month alike when these are equal (`sameSegments`).
 */
export function segmentsIn(history: readonly RateEntry[], month: string): RateEntry[] {
  const { first, last } = monthDates(month);
  const atStart = rateOn(history, first);
  return [...(atStart ? [atStart] : []), ...history.filter((e) => e.from > first && e.from <= last)];
}

/** True when two lists of entries are the same. */
export const sameSegments = (a: readonly RateEntry[], b: readonly RateEntry[]): boolean =>
  a.length === b.length && a.every((e, i) => e.from === b[i].from && samePrices(e, b[i]));
