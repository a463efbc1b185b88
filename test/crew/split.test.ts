/**
 * The crew split (domain/crew-split.ts) and presence (domain/crew-presence.ts): table tests of the largest remainder
 * method with its tie-breaks, the weights by CREW_SPLIT, the coefficient's text, and properties over generated
 * crews (the shares sum exactly to the whole; each share is within 1 of its exact value).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crewLineAmounts, crewShares, crewWeights, largestRemainder, parseCoefficient, formatCoefficient, splitAmount, weightValue, type CrewMember } from '../../src/domain/crew-split.ts';
import { deviceSegments, presenceOn } from '../../src/domain/crew-presence.ts';
import { lineAmountFen, formatFen } from '../../src/domain/money.ts';

const A: CrewMember = { phone: '13800000001', clockInAt: '2026-03-02T00:00:00.000Z', seconds: 28_800, coefficient: 100 };
const B: CrewMember = { phone: '13800000002', clockInAt: '2026-03-02T02:00:00.000Z', seconds: 21_600, coefficient: 120 };

describe('crew split: the done-when figures', () => {
  it('1,000 pieces on 28,800 and 21,600 s: A 571, B 429 (the one piece left to the larger remainder)', () => {
    const shares = crewShares([A, B], 'presence', { finishedQty: 1000, defectiveQty: 0 });
    expect(shares.map((s) => [s.phone, weightValue(BigInt(s.weight)), s.finishedQty, s.defectiveQty])).toEqual([
      [A.phone, 28_800, 571, 0],
      [B.phone, 21_600, 429, 0],
    ]);
  });

  it('the crew amount 370.00 (1,000 × 0.37, rounded once) splits to A 211.43 and B 158.57 (the fen left to A)', () => {
    const amount = lineAmountFen(1000, 0, { pieceRate: 3700, defectRate: 0 });
    const shares = crewShares([A, B], 'presence', { finishedQty: 1000, defectiveQty: 0 });
    const split = splitAmount(amount, shares);
    expect([formatFen(amount), ...split.map(formatFen)]).toEqual(['370.00', '211.43', '158.57']);
    expect(split.reduce((a, s) => a + s, 0n)).toBe(amount);
  });

  it('CREW_SPLIT=coefficient with B at 1.20: weights 28,800 and 25,920; equal: the same weight each', () => {
    expect(crewWeights([A, B], 'coefficient').map(weightValue)).toEqual([28_800, 25_920]);
    expect(crewWeights([A, B], 'presence').map(weightValue)).toEqual([28_800, 21_600]);
    expect(crewWeights([A, B], 'equal').map(weightValue)).toEqual([1, 1]);
    expect(crewShares([A, B], 'equal', { finishedQty: 7, defectiveQty: 3 }).map((s) => [s.finishedQty, s.defectiveQty])).toEqual([
      [4, 2],
      [3, 1],
    ]);
  });
});

describe('largest remainder: table', () => {
  const m = (phone: string, clockInAt = '2026-03-02T00:00:00.000Z') => ({ phone, clockInAt });
  const cases: { name: string; whole: bigint; weights: bigint[]; members: { phone: string; clockInAt: string }[]; shares: bigint[] }[] = [
    { name: 'exact split, nothing left', whole: 10n, weights: [1n, 1n], members: [m('1'), m('2')], shares: [5n, 5n] },
    { name: 'equal remainders: the earlier clock-in first', whole: 1n, weights: [1n, 1n], members: [m('2', '2026-03-02T01:00:00Z'), m('1', '2026-03-02T02:00:00Z')], shares: [1n, 0n] },
    { name: 'equal remainders and clock-ins: the smaller phone first', whole: 1n, weights: [1n, 1n], members: [m('13900000002'), m('13900000001')], shares: [0n, 1n] },
    { name: 'three ways, two left', whole: 2n, weights: [1n, 1n, 1n], members: [m('3'), m('1'), m('2')], shares: [0n, 1n, 1n] },
    { name: 'larger remainder beats earlier clock-in', whole: 3n, weights: [1n, 2n], members: [m('1'), m('2', '2026-03-02T05:00:00Z')], shares: [1n, 2n] },
    { name: 'zero weights: split equally', whole: 5n, weights: [0n, 0n], members: [m('1'), m('2')], shares: [3n, 2n] },
    { name: 'a zero weight among others gets nothing', whole: 9n, weights: [0n, 3n], members: [m('1'), m('2')], shares: [0n, 9n] },
    { name: 'a negative amount splits as its magnitude, negated', whole: -5n, weights: [1n, 1n], members: [m('1'), m('2')], shares: [-3n, -2n] },
    { name: 'nothing to split', whole: 0n, weights: [5n, 7n], members: [m('1'), m('2')], shares: [0n, 0n] },
    { name: 'one member gets the whole', whole: 12345678901234567n, weights: [3n], members: [m('1')], shares: [12345678901234567n] },
  ];
  it.each(cases)('$name', ({ whole, weights, members, shares }) => {
    expect(largestRemainder(whole, weights, members)).toEqual(shares);
  });
});

describe('largest remainder: properties', () => {
  const crew = fc.array(
    fc.record({
      phone: fc.integer({ min: 0, max: 99 }).map((n) => `139000000${String(n).padStart(2, '0')}`),
      minute: fc.integer({ min: 0, max: 600 }),
      seconds: fc.integer({ min: 0, max: 86_400 }),
      coefficient: fc.integer({ min: 10, max: 999 }),
    }),
    { minLength: 1, maxLength: 8 },
  );
  const members = (xs: { phone: string; minute: number; seconds: number; coefficient: number }[]): CrewMember[] =>
    xs.map((x) => ({ phone: x.phone, clockInAt: new Date(Date.UTC(2026, 2, 2, 0, x.minute)).toISOString(), seconds: x.seconds, coefficient: x.coefficient }));

  it('the shares sum exactly to the whole and each is within 1 of its exact value (every mode)', () => {
    fc.assert(
      fc.property(crew, fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.constantFrom('presence', 'coefficient', 'equal' as const), (xs, whole, mode) => {
        const ms = members(xs);
        const weights = crewWeights(ms, mode);
        const shares = largestRemainder(whole, weights, ms);
        expect(shares.reduce((a, s) => a + s, 0n)).toBe(whole);
        const total = weights.reduce((a, w) => a + w, 0n);
        const [ws, sum] = total === 0n ? [weights.map(() => 1n), BigInt(weights.length)] : [weights, total];
        shares.forEach((s, i) => {
          // |s − whole × w / sum| < 1  ⇔  |s × sum − whole × w| < sum
          const diff = s * sum - whole * ws[i];
          expect(diff < 0n ? -diff : diff).toBeLessThan(sum);
        });
      }),
    );
  });

  it('the pieces split never depends on the members order', () => {
    fc.assert(
      fc.property(crew, fc.integer({ min: 0, max: 10_000_000 }), (xs, qty) => {
        const ms = members(xs);
        const byPhone = (ss: { phone: string; clockInAt: string; finishedQty: number }[]) =>
          ss.map((s) => `${s.phone}@${s.clockInAt}:${s.finishedQty}`).sort();
        expect(byPhone(crewShares([...ms].reverse(), 'presence', { finishedQty: qty, defectiveQty: 0 }))).toEqual(
          byPhone(crewShares(ms, 'presence', { finishedQty: qty, defectiveQty: 0 })),
        );
      }),
    );
  });
});

describe('coefficient (系数)', () => {
  it.each([
    [1, 100],
    [1.2, 120],
    ['1.20', 120],
    [0.1, 10],
    [9.99, 999],
    [0.09, undefined],
    [10, undefined],
    [1.234, undefined],
    ['1e0', undefined],
    [-1, undefined],
  ])('%s → %s hundredths', (given, hundredths) => {
    expect(parseCoefficient(given)).toBe(hundredths);
  });
  it('reads back as text with 2 decimals', () => {
    expect([formatCoefficient(100), formatCoefficient(120), formatCoefficient(10), formatCoefficient(999)]).toEqual(['1.00', '1.20', '0.10', '9.99']);
  });
});

describe('presence on a device', () => {
  const at = (h: number, m = 0) => new Date(Date.UTC(2026, 2, 2, h, m)).toISOString();
  it('a session switching devices: its seconds on one device inside the window, and the first instant there', () => {
    const segs = deviceSegments(
      [
        { type: 'ClockedIn', deviceNo: 'W01', at: at(0) },
        { type: 'DeviceSwitched', deviceNo: 'W02', at: at(2) },
        { type: 'DeviceSwitched', deviceNo: 'W01', at: at(3) },
        { type: 'ClockedOut', deviceNo: 'W01', at: at(8) },
      ],
      at(23),
    );
    expect(segs.map((s) => s.deviceNo)).toEqual(['W01', 'W02', 'W01']);
    expect(presenceOn(segs, 'W01', { from: at(1), to: at(6) })).toEqual({ seconds: 4 * 3600, firstAt: at(1) });
    expect(presenceOn(segs, 'W02', { from: at(0), to: at(8) })).toEqual({ seconds: 3600, firstAt: at(2) });
    expect(presenceOn(segs, 'W03', { from: at(0), to: at(8) })).toEqual({ seconds: 0, firstAt: null });
  });
  it('an open session runs to the instant asked; 重新报工 moves the end to the latest clock-out', () => {
    expect(presenceOn(deviceSegments([{ type: 'ClockedIn', deviceNo: 'W01', at: at(2) }], at(5)), 'W01', { from: at(0), to: at(8) }).seconds).toBe(3 * 3600);
    const reopened = deviceSegments(
      [
        { type: 'ClockedIn', deviceNo: 'W01', at: at(2) },
        { type: 'ClockedOut', deviceNo: 'W01', at: at(4) },
        { type: 'ClockedOut', deviceNo: 'W01', at: at(6) },
      ],
      at(23),
    );
    expect(presenceOn(reopened, 'W01', { from: at(0), to: at(8) }).seconds).toBe(4 * 3600);
  });
});

describe('crewLineAmounts: a crew line priced once and split on its recorded weights', () => {
  const shares = [
    { phone: '13900000001', clockInAt: '2026-03-02T08:00:00+08:00', weight: 28_800 },
    { phone: '13900000002', clockInAt: '2026-03-02T10:00:00+08:00', weight: 21_600 },
  ];
  it('1,000 × 0.37 = 370.00 splits to 211.43 and 158.57 (the fen left to the larger remainder)', () => {
    const a = crewLineAmounts({ finishedQty: 1000, defectiveQty: 0, materialDefectQty: 0, shares }, { pieceRate: 3700, defectRate: 0 })!;
    expect([formatFen(a.whole), ...a.shares.map(formatFen)]).toEqual(['370.00', '211.43', '158.57']);
  });
  it('料废 pieces at their own rate, and no rate: null', () => {
    // 10 × 1.00 + 2 × (−0.50) + 1 × 0.20 = 9.20, split 28,800 : 21,600 → 5.257… and 3.942… → 5.26 and 3.94
    const a = crewLineAmounts({ finishedQty: 10, defectiveQty: 3, materialDefectQty: 1, shares }, { pieceRate: 10_000, defectRate: -5000, materialDefectRate: 2000 })!;
    expect([formatFen(a.whole), ...a.shares.map(formatFen)]).toEqual(['9.20', '5.26', '3.94']);
    expect(crewLineAmounts({ finishedQty: 10, defectiveQty: 0, materialDefectQty: 0, shares }, undefined)).toBeNull();
  });
});
