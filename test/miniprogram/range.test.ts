/**
 * The mini-program's date ranges without WeChat (miniprogram/core/range.ts): 今天 / 本周 / 本月 / 上月 / 自定义 / 全部
 * → startDate/endDate on a Monday, a Sunday, a month's last day, in January and December, across a year and a leap
 * February; the checks of a picked range against the service's own bound (src/queries/dashboard.ts); the address
 * parameters a page passes on; the week's Monday against a day-by-day walk (property).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_RANGE_DAYS as SERVICE_MAX_RANGE_DAYS } from '../../src/queries/dashboard.ts';
import {
  DASHBOARD_CHOICES,
  LIST_CHOICES,
  MAX_RANGE_DAYS,
  choose,
  daysOf,
  isDay,
  monthEnd,
  pick,
  presetRange,
  rangeFromOptions,
  rangeParams,
  rangeProblem,
  rangeQuery,
  rangeText,
  rangeTitle,
  rangeView,
} from '../../miniprogram/core/range.ts';

const all = (today: string) => ({
  today: presetRange('today', today),
  week: presetRange('week', today),
  month: presetRange('month', today),
  lastMonth: presetRange('lastMonth', today),
});

describe('presets', () => {
  it('on a Monday: 本周 is that Monday only; 本月 from the 1st; 上月 the whole previous month', () => {
    expect(all('2026-03-02')).toEqual({
      today: { startDate: '2026-03-02', endDate: '2026-03-02' },
      week: { startDate: '2026-03-02', endDate: '2026-03-02' },
      month: { startDate: '2026-03-01', endDate: '2026-03-02' },
      lastMonth: { startDate: '2026-02-01', endDate: '2026-02-28' },
    });
  });

  it('on a Sunday 本周 goes back to Monday, across a month boundary', () => {
    expect(presetRange('week', '2026-03-08')).toEqual({ startDate: '2026-03-02', endDate: '2026-03-08' });
    expect(presetRange('week', '2026-03-01')).toEqual({ startDate: '2026-02-23', endDate: '2026-03-01' });
  });

  it("on a month's last day 本月 is the whole month; 上月 of a 31-day month's end is the 30-day month before", () => {
    expect(presetRange('month', '2026-03-31')).toEqual({ startDate: '2026-03-01', endDate: '2026-03-31' });
    expect(presetRange('lastMonth', '2026-03-31')).toEqual({ startDate: '2026-02-01', endDate: '2026-02-28' });
    expect(presetRange('lastMonth', '2026-05-31')).toEqual({ startDate: '2026-04-01', endDate: '2026-04-30' });
  });

  it("in January 上月 is the previous year's December; 本周 of New Year's Day starts in December", () => {
    expect(all('2026-01-01')).toEqual({
      today: { startDate: '2026-01-01', endDate: '2026-01-01' },
      week: { startDate: '2025-12-29', endDate: '2026-01-01' },
      month: { startDate: '2026-01-01', endDate: '2026-01-01' },
      lastMonth: { startDate: '2025-12-01', endDate: '2025-12-31' },
    });
  });

  it('in December 上月 is November; on the 31st 本月 is all of December', () => {
    expect(presetRange('lastMonth', '2026-12-31')).toEqual({ startDate: '2026-11-01', endDate: '2026-11-30' });
    expect(presetRange('month', '2026-12-31')).toEqual({ startDate: '2026-12-01', endDate: '2026-12-31' });
  });

  it("a leap year's February: 29 days, as 上月 in March and as a month's end", () => {
    expect(presetRange('lastMonth', '2024-03-15')).toEqual({ startDate: '2024-02-01', endDate: '2024-02-29' });
    expect([monthEnd('2024-02'), monthEnd('2100-02'), monthEnd('2000-02'), monthEnd('2026-12'), monthEnd('2026-01')]).toEqual([
      '2024-02-29',
      '2100-02-28',
      '2000-02-29',
      '2026-12-31',
      '2026-01-31',
    ]);
  });

  it("本周 starts on the Monday on or before any day, at most 6 days back (property)", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }), (d) => {
        const today = d.toISOString().slice(0, 10);
        const { startDate, endDate } = presetRange('week', today);
        expect(endDate).toBe(today);
        expect(new Date(`${startDate}T00:00:00Z`).getUTCDay()).toBe(1);
        expect(daysOf({ startDate, endDate })).toBeGreaterThanOrEqual(1);
        expect(daysOf({ startDate, endDate })).toBeLessThanOrEqual(7);
        const last = presetRange('lastMonth', today);
        expect(last.startDate.endsWith('-01')).toBe(true);
        // The day after 上月's end is this month's 1st.
        const after = new Date(Date.parse(`${last.endDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
        expect(after).toBe(`${today.slice(0, 7)}-01`);
      }),
      { seed: 31, numRuns: 300 },
    );
  });
});

describe('picked ranges', () => {
  it('are refused with a sentence when a date is missing or impossible, the end is before the start, or 看板 would span over 366 days', () => {
    expect(MAX_RANGE_DAYS).toBe(SERVICE_MAX_RANGE_DAYS);
    expect(rangeProblem({ startDate: '', endDate: '2026-03-02' })).toBe('请选择开始日期');
    expect(rangeProblem({ startDate: '2026-02-30', endDate: '2026-03-02' })).toBe('请选择开始日期');
    expect(rangeProblem({ startDate: '2026-03-02', endDate: '' })).toBe('请选择结束日期');
    expect(rangeProblem({ startDate: '2026-03-02', endDate: '2026-03-01' })).toBe('结束日期不能早于开始日期');
    expect(rangeProblem({ startDate: '2025-03-02', endDate: '2026-03-02' }, MAX_RANGE_DAYS)).toBe(''); // 366 days
    expect(rangeProblem({ startDate: '2025-03-01', endDate: '2026-03-02' }, MAX_RANGE_DAYS)).toBe('日期范围最多 366 天，请缩小范围');
    expect(rangeProblem({ startDate: '2020-01-01', endDate: '2026-03-02' })).toBe(''); // a list has no bound
    expect([isDay('2024-02-29'), isDay('2026-02-29'), isDay('2026-13-01'), isDay('2026-3-1')]).toEqual([true, false, false, false]);
  });

  it('自定义 starts from the dates shown; a picked date makes the range 自定义 and keeps the other date', () => {
    const month = choose('month', '2026-03-18');
    expect(month).toEqual({ key: 'month', startDate: '2026-03-01', endDate: '2026-03-18' });
    expect(choose('custom', '2026-03-18', month)).toEqual({ key: 'custom', startDate: '2026-03-01', endDate: '2026-03-18' });
    expect(choose('custom', '2026-03-18', choose('all', '2026-03-18'))).toEqual({ key: 'custom', startDate: '2026-03-18', endDate: '2026-03-18' });
    expect(pick(month, 'start', '2026-02-15', '2026-03-18')).toEqual({ key: 'custom', startDate: '2026-02-15', endDate: '2026-03-18' });
    expect(pick(choose('all', '2026-03-18'), 'end', '2026-03-20', '2026-03-18')).toEqual({ key: 'custom', startDate: '2026-03-18', endDate: '2026-03-20' });
  });

  it('全部 asks no dates; the others ask both; the texts and titles a page shows', () => {
    expect(rangeQuery(choose('all', '2026-03-18'))).toEqual({});
    expect(rangeQuery(choose('lastMonth', '2026-03-18'))).toEqual({ startDate: '2026-02-01', endDate: '2026-02-28' });
    expect(rangeText(choose('all', '2026-03-18'))).toBe('全部日期');
    expect(rangeText(choose('today', '2026-03-18'))).toBe('2026-03-18');
    expect(rangeText(choose('lastMonth', '2026-03-18'))).toBe('2026-02-01 至 2026-02-28');
    expect(rangeTitle(choose('lastMonth', '2026-03-18'))).toBe('上月');
    expect(rangeTitle({ key: 'custom', startDate: '2026-01-05', endDate: '2026-02-10' })).toBe('2026-01-05 至 2026-02-10');
    expect(rangeView(choose('week', '2026-03-18'), DASHBOARD_CHOICES, MAX_RANGE_DAYS)).toEqual({
      rangeKey: 'week',
      startDate: '2026-03-16',
      endDate: '2026-03-18',
      rangeText: '2026-03-16 至 2026-03-18',
      rangeChoices: ['今天', '本周', '本月', '上月', '自定义'].map((name, i) => ({ key: DASHBOARD_CHOICES[i], name })),
      rangeProblem: '',
    });
    expect(LIST_CHOICES[0]).toBe('all');
  });

  it('a page opens the range another page passes on (presets by name, 自定义 by dates, one day by date)', () => {
    const week = choose('week', '2026-03-18');
    for (const r of [choose('lastMonth', '2026-03-18'), week, { key: 'custom' as const, startDate: '2025-12-01', endDate: '2026-01-31' }]) {
      expect(rangeFromOptions(rangeParams(r), '2026-03-18', DASHBOARD_CHOICES, week)).toEqual(r);
    }
    expect(rangeFromOptions({ date: '2026-02-27', phone: '13800138000' }, '2026-03-18', DASHBOARD_CHOICES, week)).toEqual({ key: 'custom', startDate: '2026-02-27', endDate: '2026-02-27' });
    // 全部 is not a choice of 看板; nonsense falls back.
    for (const o of [{ range: 'all' }, { range: 'x' }, { startDate: '2026-02-30', endDate: '2026-03-01' }, {}]) {
      expect(rangeFromOptions(o, '2026-03-18', DASHBOARD_CHOICES, week)).toEqual(week);
    }
  });
});
