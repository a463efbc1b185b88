/**
 * The date range a list or 看板 shows: 全部 / 今天 / 本周 / 本月 / 上月 / 自定义 (spec 4.6–4.8 name a date filter on
 * 我的报工, 我审核的 and the dashboard). A choice gives `startDate`/`endDate` (`YYYY-MM-DD`, both inclusive) from
 * `today`, the local date the page passes (core/time.ts `localDay`: the phone's zone, the factory's on its phones).
 * Weeks start on Monday (本周 on a Monday is that Monday only); 本周 and 本月 end today; 上月 is the whole previous
 * month (January's is the previous year's December). Plain TypeScript, no `wx`.
 */
import { shiftMonth, weekStart } from './time';

/** A choice of range. `all`: no date filter (lists only); `custom`: two dates picked. */
export type RangeKey = 'all' | 'today' | 'week' | 'month' | 'lastMonth' | 'custom';

/** The words a person reads on each choice. */
export const RANGE_NAMES: Record<RangeKey, string> = { all: '全部', today: '今天', week: '本周', month: '本月', lastMonth: '上月', custom: '自定义' };

/** The choices of 我的报工 and 我审核的 (default 全部: the whole list, as before a filter existed). */
export const LIST_CHOICES: readonly RangeKey[] = ['all', 'today', 'week', 'month', 'lastMonth', 'custom'];
/** The choices of 看板 and the break change (the service needs both dates there; default 本周). */
export const DASHBOARD_CHOICES: readonly RangeKey[] = ['today', 'week', 'month', 'lastMonth', 'custom'];

/** Most days one dashboard range may span (src/queries/dashboard.ts MAX_RANGE_DAYS; 422 INVALID_DATE_RANGE beyond). */
export const MAX_RANGE_DAYS = 366;

/** Inclusive local dates `YYYY-MM-DD`. */
export interface DateRange {
  startDate: string;
  endDate: string;
}

/** A page's range: the choice and its dates (both '' for 全部). */
export interface RangeChoice extends DateRange {
  key: RangeKey;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a real calendar date `YYYY-MM-DD` (not 2026-02-30). */
export function isDay(text: string): boolean {
  const m = DAY.exec(text);
  if (!m) return false;
  const t = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return t.toISOString().slice(0, 10) === text;
}

/** The last day `YYYY-MM-DD` of `month` (`YYYY-MM`): 2024-02 → 2024-02-29. */
export function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** The dates of a preset choice on `today` (`YYYY-MM-DD`); module docstring for the rules. */
export function presetRange(key: 'today' | 'week' | 'month' | 'lastMonth', today: string): DateRange {
  const month = today.slice(0, 7);
  switch (key) {
    case 'today':
      return { startDate: today, endDate: today };
    case 'week':
      return { startDate: weekStart(today), endDate: today };
    case 'month':
      return { startDate: `${month}-01`, endDate: today };
    case 'lastMonth': {
      const last = shiftMonth(month, -1);
      return { startDate: `${last}-01`, endDate: monthEnd(last) };
    }
  }
}

/** Days from `startDate` to `endDate`, both counted (1 for one day; ≤ 0 when the end is before the start). */
export function daysOf(r: DateRange): number {
  const at = (d: string) => Date.parse(`${d}T00:00:00Z`);
  return Math.round((at(r.endDate) - at(r.startDate)) / 86_400_000) + 1;
}

/**
 * What is wrong with a picked range, or '' when it may be asked: a missing or impossible date, the end before the
 * start, more than `maxDays` days (看板: MAX_RANGE_DAYS, as the service refuses; lists: no bound).
 */
export function rangeProblem(r: DateRange, maxDays?: number): string {
  if (!isDay(r.startDate)) return '请选择开始日期';
  if (!isDay(r.endDate)) return '请选择结束日期';
  if (r.endDate < r.startDate) return '结束日期不能早于开始日期';
  if (maxDays !== undefined && daysOf(r) > maxDays) return `日期范围最多 ${maxDays} 天，请缩小范围`;
  return '';
}

/**
 * The range after tapping `key` on `today`: a preset's dates; 全部 without dates; 自定义 keeps the dates shown
 * before (so the pickers start from what the person was looking at), or today when there were none.
 */
export function choose(key: RangeKey, today: string, before?: RangeChoice): RangeChoice {
  if (key === 'all') return { key, startDate: '', endDate: '' };
  if (key === 'custom') {
    const startDate = before?.startDate || today;
    const endDate = before?.endDate || today;
    return { key, startDate, endDate };
  }
  return { key, ...presetRange(key, today) };
}

/** The range after picking `value` as its `which` date: always 自定义, the other date kept. */
export function pick(r: RangeChoice, which: 'start' | 'end', value: string, today: string): RangeChoice {
  const base = r.startDate && r.endDate ? r : { ...r, startDate: today, endDate: today };
  return which === 'start' ? { ...base, key: 'custom', startDate: value } : { ...base, key: 'custom', endDate: value };
}

/** The page-address parameters that open the same range (rangeFromOptions reads them back). */
export function rangeParams(r: RangeChoice): Record<string, string> {
  return r.key === 'custom' ? { startDate: r.startDate, endDate: r.endDate } : { range: r.key };
}

/** The query of a range: `{startDate, endDate}`, or nothing for 全部. */
export function rangeQuery(r: RangeChoice): Partial<DateRange> {
  return r.key === 'all' ? {} : { startDate: r.startDate, endDate: r.endDate };
}

/** How a page names a range: `全部日期`, `2026-03-02`, `2026-03-01 至 2026-03-31`. */
export function rangeText(r: RangeChoice): string {
  if (r.key === 'all' || !r.startDate) return '全部日期';
  return r.startDate === r.endDate ? r.startDate : `${r.startDate} 至 ${r.endDate}`;
}

/** The title of a range's figures on 看板: `本周`, `上月`, or for 自定义 the dates. */
export function rangeTitle(r: RangeChoice): string {
  return r.key === 'custom' ? rangeText(r) : RANGE_NAMES[r.key];
}

/** The data a page's range bar renders (pages/common/range.wxml). */
export interface RangeView {
  rangeKey: RangeKey;
  startDate: string;
  endDate: string;
  rangeText: string;
  rangeChoices: { key: RangeKey; name: string }[];
  /** '' or the sentence of rangeProblem. */
  rangeProblem: string;
}

/** The range bar's data for `r` among `choices`, checked against `maxDays` (rangeProblem). */
export function rangeView(r: RangeChoice, choices: readonly RangeKey[], maxDays?: number): RangeView {
  return {
    rangeKey: r.key,
    startDate: r.startDate,
    endDate: r.endDate,
    rangeText: rangeText(r),
    rangeChoices: choices.map((key) => ({ key, name: RANGE_NAMES[key] })),
    rangeProblem: r.key === 'all' ? '' : rangeProblem(r, maxDays),
  };
}

/** The page's range back from its data (the inverse of rangeView). */
export const choiceOf = (v: Pick<RangeView, 'rangeKey' | 'startDate' | 'endDate'>): RangeChoice => ({ key: v.rangeKey, startDate: v.startDate, endDate: v.endDate });

/**
 * The range an address asks for: `range=<key>` (a preset among `choices`, on `today`) or `startDate=&endDate=`
 * (自定义, both real dates), `date=` (one day, as a 看板 row opens the break change); else `fallback`.
 */
export function rangeFromOptions(o: Record<string, string | undefined>, today: string, choices: readonly RangeKey[], fallback: RangeChoice): RangeChoice {
  const key = choices.find((k) => k === o.range && k !== 'custom');
  if (key) return choose(key, today);
  if (o.startDate && o.endDate && isDay(o.startDate) && isDay(o.endDate)) return { key: 'custom', startDate: o.startDate, endDate: o.endDate };
  if (o.date && isDay(o.date)) return { key: 'custom', startDate: o.date, endDate: o.date };
  return fallback;
}
