/** Given-when-then for the rate decider and the period decider (src/commands/rates, src/commands/periods). */
import { describe, expect, it } from 'vitest';
import { rateDecider, type SetRate } from '../../src/commands/rates/decider.ts';
import { periodDecider, type PeriodCommand } from '../../src/commands/periods/decider.ts';
import type { PeriodEvent, ProductEvent } from '../../src/events/catalog.ts';
import { scenario } from '../helpers/gwt.ts';

const at = '2026-03-14T01:00:00.000Z';
const rates = scenario(rateDecider);
const set = (effectiveFrom: string, pieceRate: number, defectRate = 0, more: Partial<SetRate> = {}): SetRate => ({
  type: 'SetRate',
  productId: 7,
  effectiveFrom,
  pieceRate,
  defectRate,
  at,
  productExists: true,
  closedMonths: [],
  ...more,
});
const rateSet = (effectiveFrom: string, pieceRate: number, defectRate = 0): ProductEvent => ({
  type: 'RateSet',
  data: { productId: 7, effectiveFrom, pieceRate, defectRate, before: null, replaced: false, at },
});

describe('the rate decider', () => {
  it('sets a first rate: RateSet, nothing before', () => {
    expect(rates.given([]).when(set('2026-03-01', 12_500, -5_000, { reason: ' 按合同 ' })).events).toEqual([
      { type: 'RateSet', data: { productId: 7, effectiveFrom: '2026-03-01', pieceRate: 12_500, defectRate: -5_000, before: null, replaced: false, reason: '按合同', at } },
    ]);
  });

  it('a raise from the 15th names the rate in force that day before it (old → new), not replacing it', () => {
    const r = rates.given([rateSet('2026-03-01', 12_500)]).when(set('2026-03-15', 13_000));
    expect(r.events![0].data).toMatchObject({ before: { from: '2026-03-01', pieceRate: 12_500, defectRate: 0 }, replaced: false });
  });

  it('the same date again replaces the entry (an event, old → new); the same rates again decide nothing', () => {
    const given = [rateSet('2026-03-01', 12_500), rateSet('2026-03-15', 13_000)];
    const r = rates.given(given).when(set('2026-03-15', 13_500));
    expect(r.events![0].data).toMatchObject({ effectiveFrom: '2026-03-15', pieceRate: 13_500, before: { from: '2026-03-15', pieceRate: 13_000 }, replaced: true });
    expect(rates.given(given).when(set('2026-03-15', 13_000)).events).toEqual([]);
  });

  it('refuses a rate from a date in a closed month: 409 PERIOD_CLOSED naming it; a closed later month does not matter', () => {
    const r = rates.given([]).when(set('2026-03-10', 1, 0, { closedMonths: ['2026-03'] }));
    expect(r.error).toMatchObject({ status: 409, code: 'PERIOD_CLOSED', details: { month: '2026-03' } });
    expect(r.error.message).toMatch(/^2026年3月已结账，不能设置从该月生效的单价/);
    expect(rates.given([]).when(set('2026-02-20', 1, 0, { closedMonths: ['2026-03'] })).events).toHaveLength(1);
  });

  it('refuses an unknown product (404), a negative or out-of-range rate, a reason over 200 characters (422)', () => {
    expect(rates.given([]).when(set('2026-03-01', 1, 0, { productExists: false })).error).toMatchObject({ status: 404, code: 'PRODUCT_NOT_FOUND' });
    expect(rates.given([]).when(set('2026-03-01', -1)).error).toMatchObject({ status: 422, code: 'INVALID_RATE', details: { field: 'pieceRate' } });
    expect(rates.given([]).when(set('2026-03-01', 1, 1_000_000_000)).error).toMatchObject({ status: 422, code: 'INVALID_RATE', details: { field: 'defectRate' } });
    expect(rates.given([]).when(set('2026-03-01', 1, -999_999_999)).events).toHaveLength(1);
    expect(rates.given([]).when(set('2026-03-01', 1, 0, { reason: '字'.repeat(201) })).error).toMatchObject({ status: 422, code: 'INVALID_REASON' });
    expect(rates.given([]).when(set('2026-03-01', 1, 0, { reason: '字'.repeat(200) })).events).toHaveLength(1);
  });

  it('evolves into the entries by date', () => {
    const state = [rateSet('2026-03-15', 2), rateSet('2026-03-01', 1), rateSet('2026-03-15', 3)].reduce(rateDecider.evolve, rateDecider.initialState);
    expect(state.entries).toEqual([
      { from: '2026-03-01', pieceRate: 1, defectRate: 0 },
      { from: '2026-03-15', pieceRate: 3, defectRate: 0 },
    ]);
  });
});

const periods = scenario(periodDecider);
const figures = { amountFen: '44983', reports: 6, finishedQty: 365, defectiveQty: 23, workers: 2 };
const noBlockers = { pending: { pending: [], pendingTotal: 0 }, unpriced: { unpriced: [], unpricedTotal: 0 } };
const pinned = [{ productId: 7, segments: [{ from: '2026-03-01', pieceRate: 12_500, defectRate: 0 }] }];
const close = (today: string, more: Partial<Extract<PeriodCommand, { type: 'Close' }>> = {}): PeriodCommand => ({
  type: 'Close',
  month: '2026-03',
  today,
  ...noBlockers,
  figures,
  rates: pinned,
  at,
  ...more,
});
const closed = (version: number, amountFen = '44983'): PeriodEvent => ({ type: 'PeriodClosed', data: { month: '2026-03', version, ...figures, amountFen, rates: pinned, at } });
const reopened = (version: number): PeriodEvent => ({ type: 'PeriodReopened', data: { month: '2026-03', version, amountFen: '44983', reason: '补录', at } });

describe('the period decider', () => {
  it('closes a month that has ended, with nothing pending and every line priced: version 1, the figures and the rates', () => {
    expect(periods.given([]).when(close('2026-04-01')).events).toEqual([{ type: 'PeriodClosed', data: { month: '2026-03', version: 1, ...figures, rates: pinned, at } }]);
  });

  it('refuses on the last day of the month (APP_TIMEZONE): 409 PERIOD_NOT_ENDED', () => {
    const r = periods.given([]).when(close('2026-03-31'));
    expect(r.error).toMatchObject({ status: 409, code: 'PERIOD_NOT_ENDED', details: { blockers: ['PERIOD_NOT_ENDED'] } });
  });

  it('lists every blocker at once, the code being the first', () => {
    const pending = { pending: [{ reportId: 'r1', reportDate: '2026-03-20', employeePhone: '13800000003', employeeName: '王五' }], pendingTotal: 1 };
    const unpriced = {
      unpriced: [{ reportId: 'r5', reportDate: '2026-03-05', employeePhone: '13800000003', employeeName: '王五', productId: 3, projectNo: 'XM', productName: '支架', deviceNo: 'D1', processName: '冲压' }],
      unpricedTotal: 1,
    };
    const both = periods.given([]).when(close('2026-04-01', { pending, unpriced }));
    expect(both.error).toMatchObject({ status: 409, code: 'PERIOD_HAS_PENDING', details: { month: '2026-03', blockers: ['PERIOD_HAS_PENDING', 'PERIOD_HAS_UNPRICED'], ...pending, ...unpriced } });
    expect(both.error.message).toBe('2026年3月不能结账：还有 1 张报工单待审核，请先审核；有 1 行明细的产品在报工日期没有计件单价，请先设置单价');
    expect(periods.given([]).when(close('2026-04-01', { unpriced })).error.code).toBe('PERIOD_HAS_UNPRICED');
  });

  it('refuses a second close: 409 PERIOD_ALREADY_CLOSED, whatever else', () => {
    expect(periods.given([closed(1)]).when(close('2026-03-31')).error).toMatchObject({ status: 409, code: 'PERIOD_ALREADY_CLOSED', details: { month: '2026-03', version: 1 } });
  });

  it('reopens with a trimmed reason, naming the close reopened; refuses without a reason (422) or when open (409)', () => {
    expect(periods.given([closed(1)]).when({ type: 'Reopen', month: '2026-03', reason: ' 补录 ', at }).events).toEqual([reopened(1)]);
    for (const reason of ['', '   ', '字'.repeat(201)]) {
      expect(periods.given([closed(1)]).when({ type: 'Reopen', month: '2026-03', reason, at }).error).toMatchObject({ status: 422, code: 'INVALID_REASON' });
    }
    expect(periods.given([]).when({ type: 'Reopen', month: '2026-03', reason: 'x', at }).error).toMatchObject({ status: 409, code: 'PERIOD_NOT_CLOSED' });
    expect(periods.given([closed(1), reopened(1)]).when({ type: 'Reopen', month: '2026-03', reason: 'x', at }).error.code).toBe('PERIOD_NOT_CLOSED');
  });

  it('closing again after a reopen is version 2; its reopen carries version 2 and its amount', () => {
    const given = [closed(1), reopened(1)];
    expect(periods.given(given).when(close('2026-04-03')).events![0].data).toMatchObject({ version: 2 });
    const r = periods.given([...given, closed(2, '45995')]).when({ type: 'Reopen', month: '2026-03', reason: '再查', at });
    expect(r.events![0].data).toMatchObject({ version: 2, amountFen: '45995' });
  });
});
