/**
 * 我的工资: the mini-program's money (miniprogram/core/money.ts) — the service's amounts (yuan text
 * with 2 decimals) read into integer fen as text and shown as `¥1,234.56`, exactly at any size (beyond
 * 2^53 fen), negative amounts from negative defect rates, and the change since the previous close. Given-when-then
 * tables, and properties against the service's own exact arithmetic (src/domain/money.ts: BigInt fen).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFen, lineAmountFen } from '../../src/domain/money.ts';
import { addFen, fenOfAmount, fenText, moneyOf, previousCloseText, subtractFen, yuanOfFen } from '../../miniprogram/core/money.ts';

describe('reading an amount of the service into integer fen (text)', () => {
  it.each([
    // given the service's amount → then fen as text
    ['168.01', '16801'],
    ['0.00', '0'],
    ['-0.00', '0'],
    ['-0.13', '-13'],
    ['13065.00', '1306500'],
    ['0.5', '50'],
    ['7', '700'],
    ['007.10', '710'],
    ['90071992547409.93', '9007199254740993'], // 2^53 + 1 fen: a double would read …992
    ['-123456789012345678901.99', '-12345678901234567890199'],
  ])('%j → %j', (amount, fen) => {
    expect(fenOfAmount(amount)).toBe(fen);
  });

  it.each(['', '1.005', '1e3', '0x10', '¥1.00', '1,000.00', '--1', '1.', '.5', 'NaN', 'null'])('%j is not an amount: undefined, shown as it came', (text) => {
    expect(fenOfAmount(text)).toBeUndefined();
    expect(moneyOf(text)).toBe(text);
  });
});

describe('showing fen as yuan', () => {
  it.each([
    // given fen → then what the worker reads
    ['0', '¥0.00'],
    ['1', '¥0.01'],
    ['10', '¥0.10'],
    ['16801', '¥168.01'],
    ['100000', '¥1,000.00'],
    ['1306500', '¥13,065.00'],
    ['-13', '-¥0.13'],
    ['-250', '-¥2.50'],
    ['-123456789', '-¥1,234,567.89'],
    ['9007199254740992', '¥90,071,992,547,409.92'], // 2^53
    ['9007199254740993', '¥90,071,992,547,409.93'], // 2^53 + 1: Number(…) would show …409.92
    ['-18446744073709551617', '-¥184,467,440,737,095,516.17'], // −(2^64 + 1)
    ['000123', '¥1.23'],
  ])('%j fen → %j', (fen, shown) => {
    expect(yuanOfFen(fen)).toBe(shown);
  });

  it('refuses text that is not integer fen (a programming error)', () => {
    for (const bad of ['1.5', '', 'abc', '1e3']) expect(() => yuanOfFen(bad)).toThrow(/not integer fen/);
  });

  it('the service amount → the page, through fen: moneyOf', () => {
    expect(moneyOf('168.01')).toBe('¥168.01');
    expect(moneyOf('13065.00')).toBe('¥13,065.00');
    expect(moneyOf('-0.13')).toBe('-¥0.13');
    expect(moneyOf('90071992547409.93')).toBe('¥90,071,992,547,409.93');
  });

  it('negative line amounts from a negative defect rate, as the service computes and writes them', () => {
    // 0 finished × 1.2500 + 25 defective × −0.5050 = −12.6250 yuan → −1262.5 fen → −1263 fen (half away from zero)
    const fen = lineAmountFen(0, 25, { pieceRate: 12500, defectRate: -5050 });
    expect(fen).toBe(-1263n);
    expect(moneyOf(formatFen(fen))).toBe('-¥12.63');
    // 1 finished × 0.0100 + 5 defective × −0.1000 = −0.49 yuan
    expect(moneyOf(formatFen(lineAmountFen(1, 5, { pieceRate: 100, defectRate: -1000 })))).toBe('-¥0.49');
  });

  it('any amount the service can write reads back to its fen and shows its digits (property, against BigInt)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), (fen) => {
        const text = formatFen(fen); // the service's writing
        expect(fenOfAmount(text)).toBe(fen.toString());
        const shown = yuanOfFen(fenOfAmount(text)!);
        expect(shown.replace(/[¥,]/g, '')).toBe(text);
        expect(shown.startsWith('-')).toBe(fen < 0n);
      }),
      { seed: 23, numRuns: 500 },
    );
  });
});

describe('sums and differences of fen text', () => {
  it.each([
    // given a, b → then a + b, a − b
    ['0', '0', '0', '0'],
    ['1', '-1', '0', '2'],
    ['-1', '1', '0', '-2'],
    ['999', '1', '1000', '998'],
    ['-999', '-1', '-1000', '-998'],
    ['100', '-250', '-150', '350'],
    ['9007199254740992', '1', '9007199254740993', '9007199254740991'],
    ['-9007199254740993', '9007199254740993', '0', '-18014398509481986'],
  ])('%j and %j → %j, %j', (a, b, sum, difference) => {
    expect(addFen(a, b)).toBe(sum);
    expect(subtractFen(a, b)).toBe(difference);
  });

  it('equals BigInt arithmetic for any integers (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }), fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }), (a, b) => {
        expect(addFen(a.toString(), b.toString())).toBe((a + b).toString());
        expect(subtractFen(a.toString(), b.toString())).toBe((a - b).toString());
      }),
      { seed: 23, numRuns: 500 },
    );
  });

  it('normalises integer text and refuses anything else', () => {
    expect([fenText('007'), fenText('-0'), fenText(' -12 '), fenText('1.0'), fenText('')]).toEqual(['7', '0', '-12', undefined, undefined]);
  });
});

describe('the previous close beside the new one (a month reopened and closed again)', () => {
  it.each([
    // given previousAmount, amount → then the sentence
    ['280.98', '300.00', '上次结账时 ¥280.98，现在 ¥300.00（多 ¥19.02）'],
    ['300.00', '280.98', '上次结账时 ¥300.00，现在 ¥280.98（少 ¥19.02）'],
    ['12.50', '12.50', '上次结账时 ¥12.50，现在 ¥12.50（没有变化）'],
    ['0.10', '-0.20', '上次结账时 ¥0.10，现在 -¥0.20（少 ¥0.30）'],
    ['90071992547409.92', '90071992547409.93', '上次结账时 ¥90,071,992,547,409.92，现在 ¥90,071,992,547,409.93（多 ¥0.01）'],
  ])('%j then %j: %j', (previous, amount, sentence) => {
    expect(previousCloseText(previous, amount)).toBe(sentence);
  });

  it('is undefined when an amount cannot be read', () => {
    expect(previousCloseText('1.0.0', '2.00')).toBeUndefined();
  });
});

it('core/money.ts never turns money into a float (no Number, parseFloat, toFixed, Math, BigInt)', () => {
  const code = readFileSync(new URL('../../miniprogram/core/money.ts', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  expect(code).not.toMatch(/\b(Number|parseFloat|parseInt|toFixed|Math|BigInt)\b|\d+n\b/);
});
