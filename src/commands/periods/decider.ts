/**
 * The period decider, pure: a month's closes and reopens on the stream
 * `period-<YYYY-MM>`. State: open or closed, the number of closes so far (`version`), the last close's amount.
 *
 * - `Close {month, today, pending, unpriced, figures, rates, at}`: the facts are read by the close's handler under
 *   the month's exclusive lock (close-facts.ts). Refused with PERIOD_ALREADY_CLOSED when closed; else with every
 *   blocker at once — the month has not ended on `today` (PERIOD_NOT_ENDED), reports dated in it are pending
 *   (PERIOD_HAS_PENDING), approved lines have no rate in force on their date (PERIOD_HAS_UNPRICED) — the code
 *   being the first of them, `details` listing them all. → PeriodClosed with version + 1, the figures and the
 *   rates the month was priced at.
 * - `Reopen {month, reason, at}`: only a closed month (PERIOD_NOT_CLOSED); reason trimmed, 1–200 characters
 *   (INVALID_REASON). → PeriodReopened with the version and amount of the close it reopens.
 */
import type { Decider } from '../decider.ts';
import type { PeriodEvent } from '../../events/catalog.ts';
import { domainError, type CloseBlocker, type CloseBlockers } from '../../domain/errors.ts';
import { monthEnded } from '../../domain/period.ts';
import type { RateEntry } from '../../domain/rates.ts';

export interface PeriodState {
  readonly status: 'open' | 'closed';
  readonly version: number;
  /** The last close's amount, fen as text. */
  readonly amountFen: string;
}

/** A month's figures as the close computes them (close-facts.ts). */
export interface CloseFigures {
  /** Fen, text of digits. */
  readonly amountFen: string;
  readonly reports: number;
  readonly finishedQty: number;
  readonly defectiveQty: number;
  readonly workers: number;
}

export type PeriodCommand =
  | {
      readonly type: 'Close';
      readonly month: string;
      /** The local date of the decision (APP_TIMEZONE). */
      readonly today: string;
      readonly pending: Pick<CloseBlockers, 'pending' | 'pendingTotal'>;
      readonly unpriced: Pick<CloseBlockers, 'unpriced' | 'unpricedTotal'>;
      readonly figures: CloseFigures;
      readonly rates: readonly { productId: number; segments: RateEntry[] }[];
      readonly at: string;
    }
  | { readonly type: 'Reopen'; readonly month: string; readonly reason: string; readonly at: string };

export const REOPEN_REASON_MAX = 200;

export const periodDecider: Decider<PeriodCommand, PeriodState, PeriodEvent> = {
  initialState: { status: 'open', version: 0, amountFen: '0' },

  decide(c, state) {
    if (c.type === 'Close') {
      if (state.status === 'closed') throw domainError('PERIOD_ALREADY_CLOSED', { month: c.month, version: state.version });
      const blockers: CloseBlocker[] = [];
      if (!monthEnded(c.month, c.today)) blockers.push('PERIOD_NOT_ENDED');
      if (c.pending.pendingTotal > 0) blockers.push('PERIOD_HAS_PENDING');
      if (c.unpriced.unpricedTotal > 0) blockers.push('PERIOD_HAS_UNPRICED');
      if (blockers.length) throw domainError(blockers[0], { month: c.month, blockers, ...c.pending, ...c.unpriced });
      return [{ type: 'PeriodClosed', data: { month: c.month, version: state.version + 1, ...c.figures, rates: [...c.rates], at: c.at } }];
    }
    if (state.status !== 'closed') throw domainError('PERIOD_NOT_CLOSED', { month: c.month });
    const reason = c.reason.trim();
    if (reason === '' || [...reason].length > REOPEN_REASON_MAX) throw domainError('INVALID_REASON', undefined, { purpose: 'reopen', max: REOPEN_REASON_MAX });
    return [{ type: 'PeriodReopened', data: { month: c.month, version: state.version, amountFen: state.amountFen, reason, at: c.at } }];
  },

  evolve(state, event) {
    return event.type === 'PeriodClosed'
      ? { status: 'closed', version: event.data.version, amountFen: event.data.amountFen }
      : { ...state, status: 'open' };
  },
};
