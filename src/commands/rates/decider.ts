/**
 * The rate decider, pure: a product's piece and defect rates on the stream
 * `product-<productId>`. State: the product's rate entries by date (domain/rates.ts).
 *
 * Command `SetRate {productId, effectiveFrom, pieceRate, defectRate, materialDefectRate?, reason?, at, productExists,
 * closedMonths}` (`materialDefectRate` 料废单价: absent, 料废 is priced at `defectRate`)
 * (rates in ten-thousandths of a yuan, already parsed: domain/money.ts):
 * - the product must exist (PRODUCT_NOT_FOUND) — a fact of the command;
 * - the month of `effectiveFrom` must be open (PERIOD_CLOSED): a rate from a date in a closed month would reprice
 *   a paid month. A rate from an earlier open month holds on through later months; a closed one among them keeps
 *   the rates it was closed with (the wage projection's pinned rates);
 * - piece rate ≥ 0, each within ±MAX_RATE (INVALID_RATE); reason at most 200 characters (INVALID_REASON);
 * - → RateSet with the entry in force on that date before (old → new), `replaced` when an entry of the same date
 *   existed; the same rates again on the same date decide nothing.
 */
import type { Decider } from '../decider.ts';
import type { ProductEvent } from '../../events/catalog.ts';
import { domainError } from '../../domain/errors.ts';
import { MAX_RATE } from '../../domain/money.ts';
import { monthOf } from '../../domain/period.ts';
import { entryOf, rateOn, withEntry, type RateEntry } from '../../domain/rates.ts';

export interface RateState {
  /** The product's entries, by date. */
  readonly entries: readonly RateEntry[];
}

export interface SetRate {
  readonly type: 'SetRate';
  readonly productId: number;
  /** Local date `YYYY-MM-DD` from which the rates hold. */
  readonly effectiveFrom: string;
  readonly pieceRate: number;
  readonly defectRate: number;
  readonly materialDefectRate?: number;
  readonly reason?: string;
  /** ISO 8601 instant of the decision. */
  readonly at: string;
  /** Whether the product is in the product list (a fact). */
  readonly productExists: boolean;
  /** Which of the months the command writes into are closed (a fact). */
  readonly closedMonths: readonly string[];
}

export const RATE_REASON_MAX = 200;

const inRange = (rate: number) => Number.isSafeInteger(rate) && Math.abs(rate) <= MAX_RATE;

export const rateDecider: Decider<SetRate, RateState, ProductEvent> = {
  initialState: { entries: [] },

  decide(c, state) {
    if (!c.productExists) throw domainError('PRODUCT_NOT_FOUND');
    const month = monthOf(c.effectiveFrom);
    if (c.closedMonths.includes(month)) throw domainError('PERIOD_CLOSED', { month }, { write: 'rate' });
    if (!inRange(c.pieceRate) || c.pieceRate < 0) throw domainError('INVALID_RATE', { field: 'pieceRate' });
    if (!inRange(c.defectRate)) throw domainError('INVALID_RATE', { field: 'defectRate' });
    if (c.materialDefectRate !== undefined && !inRange(c.materialDefectRate)) throw domainError('INVALID_RATE', { field: 'materialDefectRate' });
    const material = c.materialDefectRate !== undefined ? { materialDefectRate: c.materialDefectRate } : {};
    const reason = c.reason?.trim() || undefined;
    if (reason !== undefined && [...reason].length > RATE_REASON_MAX) throw domainError('INVALID_REASON', undefined, { purpose: 'rate', max: RATE_REASON_MAX });
    const same = state.entries.find((e) => e.from === c.effectiveFrom);
    if (same && same.pieceRate === c.pieceRate && same.defectRate === c.defectRate && same.materialDefectRate === c.materialDefectRate) return [];
    const before = rateOn(state.entries, c.effectiveFrom) ?? null;
    return [
      {
        type: 'RateSet',
        data: {
          productId: c.productId,
          effectiveFrom: c.effectiveFrom,
          pieceRate: c.pieceRate,
          defectRate: c.defectRate,
          ...material,
          before: before && {
            from: before.from,
            pieceRate: before.pieceRate,
            defectRate: before.defectRate,
            ...(before.materialDefectRate !== undefined ? { materialDefectRate: before.materialDefectRate } : {}),
          },
          replaced: same !== undefined,
          ...(reason ? { reason } : {}),
          at: c.at,
        },
      },
    ];
  },

  evolve(state, event) {
    const d = event.data;
    return { entries: withEntry(state.entries, entryOf(d)) };
  },
};
