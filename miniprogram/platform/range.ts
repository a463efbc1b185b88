/**
 * A page's date range bar (pages/common/range.wxml; the rules in core/range.ts): a tap on a choice or a picked date
 * becomes the page's new range data. Today is the phone's local date (core/time.ts `localDay`).
 */
import { choiceOf, choose, pick, rangeQuery, rangeView, type RangeChoice, type RangeKey, type RangeView } from '../core/range';
import { localDay } from '../core/time';

/** The data and `setData` of a page with a range bar. */
export interface RangePage {
  data: Pick<RangeView, 'rangeKey' | 'startDate' | 'endDate'>;
  setData(data: Record<string, unknown>): void;
}

/** Today on the phone's clock (`YYYY-MM-DD`). */
export const today = (): string => localDay(Date.now());

/**
 * Shows `r` on `self` among `choices` (checked against `maxDays`). Answers whether the page must reload its figures:
 * the dates asked changed, or the range now has a problem (the page then empties what it showed).
 */
export function showRange(self: RangePage, r: RangeChoice, choices: readonly RangeKey[], maxDays?: number): boolean {
  const before = JSON.stringify(rangeQuery(choiceOf(self.data)));
  const view = rangeView(r, choices, maxDays);
  self.setData({ ...view });
  return view.rangeProblem !== '' || JSON.stringify(rangeQuery(r)) !== before;
}

/** A tap on a choice (`data-key`): the new range shown; whether to reload (showRange). */
export function tapRange(self: RangePage, e: WechatMiniprogram.TouchEvent, choices: readonly RangeKey[], maxDays?: number): boolean {
  const key = String(e.currentTarget.dataset.key) as RangeKey;
  if (!choices.includes(key)) return false;
  return showRange(self, choose(key, today(), choiceOf(self.data)), choices, maxDays);
}

/** A date picked (`data-which` start or end; `detail.value` `YYYY-MM-DD`): the new range shown; whether to reload (showRange). */
export function pickRangeDate(self: RangePage, e: WechatMiniprogram.PickerChange, choices: readonly RangeKey[], maxDays?: number): boolean {
  const which = e.currentTarget.dataset.which === 'end' ? 'end' : 'start';
  return showRange(self, pick(choiceOf(self.data), which, String(e.detail.value), today()), choices, maxDays);
}
