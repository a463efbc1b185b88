/** Money, exact (src/domain/money.ts, src/domain/rates.ts): parsing, rounding, formatting, effective dates. */
import { describe, expect, it } from 'vitest';
import { formatFen, formatRate, lineAmountFen, parseRate, roundToFen } from '../../src/domain/money.ts';
import { nextFrom, rateOn, sameSegments, segmentsIn, withEntry } from '../../src/domain/rates.ts';

describe('rates from text and JSON numbers', () => {
  it.each([
    ['1.25', 12500],
    ['0.8', 8000],
    [0.8, 8000],
    [1.25, 12500],
    ['-0.5', -5000],
    [-0.5, -5000],
    ['0', 0],
    ['-0', 0],
    ['007.5', 75000],
    [' 1.2345 ', 12345],
    ['99999.9999', 999_999_999],
    [0.0003, 3],
    [12.3456, 123456],
    [99999.9999, 999_999_999],
  ])('%j → %i ten-thousandths', (input, expected) => {
    expect(parseRate(input, true)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['1.23456', 'too_many_decimals'],
    [0.00001, 'too_many_decimals'], // String(0.00001) is "0.00001": 5 decimals
    [1e-7, 'not_a_number'], // "1e-7": an exponent form
    [1e21, 'not_a_number'],
    ['1e3', 'not_a_number'],
    ['abc', 'not_a_number'],
    ['', 'not_a_number'],
    ['1.', 'not_a_number'],
    ['+1', 'not_a_number'],
    [Number.NaN, 'not_a_number'],
    [true, 'not_a_number'],
    [null, 'not_a_number'],
    ['100000', 'too_large'],
    [-100000, 'too_large'],
  ])('%j is refused: %s', (input, problem) => {
    expect(parseRate(input, true)).toEqual({ ok: false, problem });
  });

  it('refuses a negative piece rate and takes a negative defect rate', () => {
    expect(parseRate('-0.01', false)).toEqual({ ok: false, problem: 'negative' });
    expect(parseRate(-1, false)).toEqual({ ok: false, problem: 'negative' });
    expect(parseRate('-0.01', true)).toEqual({ ok: true, value: -100 });
  });

  it('answers rates with 4 decimals and amounts with 2', () => {
    expect([formatRate(12500), formatRate(-5000), formatRate(0), formatRate(3), formatRate(999_999_999)]).toEqual(['1.2500', '-0.5000', '0.0000', '0.0003', '99999.9999']);
    expect([formatFen(16801n), formatFen(-13n), formatFen(0n), formatFen(5n), formatFen(123456789012345678901n)]).toEqual(['168.01', '-0.13', '0.00', '0.05', '1234567890123456789.01']);
  });
});

describe('a line’s amount', () => {
  it('rounds half away from zero, once: 1.005 → 1.01, −0.125 → −0.13, 1.0049 → 1.00', () => {
    expect(roundToFen(10_050n)).toBe(101n);
    expect(roundToFen(-1_250n)).toBe(-13n);
    expect(roundToFen(10_049n)).toBe(100n);
    expect(roundToFen(-10_049n)).toBe(-100n);
  });

  it('is exact where a float is off by a fen: 10 × 1.0005 = 10.005 → 10.01 (10 * 1.0005 is 10.004999… in binary)', () => {
    expect(Math.round(10 * 1.0005 * 100) / 100).toBe(10); // the float way
    expect(formatFen(lineAmountFen(10, 0, { pieceRate: 10_005, defectRate: 0 }))).toBe('10.01');
  });

  it('stays exact beyond 2^53 ten-thousandths: 10,000,000 pieces × 99,999.9999 yuan', () => {
    const fen = lineAmountFen(10_000_000, 10_000_000, { pieceRate: 999_999_999, defectRate: 999_999_999 });
    expect(fen).toBe(199_999_999_800_000n);
    expect(formatFen(fen)).toBe('1999999998000.00');
  });

  it('adds a negative defect rate as a deduction', () => {
    expect(formatFen(lineAmountFen(100, 2, { pieceRate: 12_500, defectRate: -5_000 }))).toBe('124.00');
  });
});

describe('effective dates', () => {
  const h = withEntry(withEntry([], { from: '2026-03-15', pieceRate: 13_000, defectRate: 0 }), { from: '2026-03-01', pieceRate: 12_500, defectRate: 0 });
  it('a rate holds from its date until the next: a raise from the 15th does not rewrite the 1st–14th', () => {
    expect(rateOn(h, '2026-02-28')).toBeUndefined();
    expect(rateOn(h, '2026-03-01')?.pieceRate).toBe(12_500);
    expect(rateOn(h, '2026-03-14')?.pieceRate).toBe(12_500);
    expect(rateOn(h, '2026-03-15')?.pieceRate).toBe(13_000);
    expect(rateOn(h, '2027-01-01')?.pieceRate).toBe(13_000);
    expect([nextFrom(h, '2026-03-01'), nextFrom(h, '2026-03-15')]).toEqual(['2026-03-15', undefined]);
  });

  it('the same date again replaces the entry; a month is priced by the entry in force on its 1st and those within it', () => {
    const replaced = withEntry(h, { from: '2026-03-15', pieceRate: 14_000, defectRate: 0 });
    expect(replaced.map((e) => [e.from, e.pieceRate])).toEqual([
      ['2026-03-01', 12_500],
      ['2026-03-15', 14_000],
    ]);
    expect(segmentsIn(h, '2026-04').map((e) => e.from)).toEqual(['2026-03-15']);
    expect(segmentsIn(h, '2026-03').map((e) => e.from)).toEqual(['2026-03-01', '2026-03-15']);
    expect(segmentsIn(h, '2026-02')).toEqual([]);
    expect(sameSegments(segmentsIn(h, '2026-03'), segmentsIn(replaced, '2026-03'))).toBe(false);
    expect(sameSegments(segmentsIn(h, '2026-02'), segmentsIn(replaced, '2026-02'))).toBe(true);
  });
});
