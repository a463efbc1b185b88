/**
 * The plausibility rules (src/domain/plausibility.ts, 异常报工) as given-when-then tables: given a report's
 * clock-in/out, break and lines, when judged under the bounds, then these flags (codes, figures and sentences).
 * Bounds as the defaults: PLAUSIBLE_MIN_CYCLE_RATIO 0.5, PLAUSIBLE_MAX_WORKLOAD_RATIO 2, SESSION_MAX_HOURS 16.
 */
import { describe, expect, it } from 'vitest';
import {
  durationText,
  flagMessage,
  knownFlagsNote,
  maxPlausibleSpanMs,
  plausibilityFlags,
  untrustedFigures,
  type PlausibilityBounds,
  type ReportFigures,
} from '../../src/domain/plausibility.ts';

const bounds: PlausibilityBounds = { minCycleRatio: 0.5, maxWorkloadRatio: 2, maxSpanMs: maxPlausibleSpanMs(16 * 3_600_000) };
const IN = '2026-03-02T00:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(IN) + ms).toISOString();
const MIN = 60_000;
const H = 60 * MIN;

/** A report clocked in at IN, out `spanMs` later, with `breakMinutes` and lines [cycle s, workload, output]. */
const report = (spanMs: number, breakMinutes: number, lines: [number, number, number][]): ReportFigures => ({
  clockInAt: IN,
  clockOutAt: at(spanMs),
  breakMinutes,
  lines: lines.map(([standardCycleSeconds, standardWorkload, outputQty]) => ({ standardCycleSeconds, standardWorkload, outputQty })),
});
const codes = (r: ReportFigures, b = bounds) => plausibilityFlags(r, b).map((f) => f.code);

describe('given a report, when judged, then its flags', () => {
  const table: [string, ReportFigures, string[]][] = [
    ['an honest day: 8 h 30 min, 60 min break, 900 pieces at 30 s (7.5 h needed)', report(8.5 * H, 60, [[30, 960, 900]]), []],
    ['0 minutes worked, 205 pieces', report(0, 0, [[30, 960, 205]]), ['NO_WORKING_TIME']],
    ['a break as long as the shift, 10 pieces', report(60 * MIN, 60, [[30, 960, 10]]), ['NO_WORKING_TIME']],
    ['0 minutes worked, nothing produced', report(0, 0, [[30, 960, 0]]), []],
    ['8 minutes, 205 pieces at 30 s: too fast and far over the workload', report(8 * MIN, 0, [[30, 960, 205]]), ['CYCLE_TOO_FAST', 'OUTPUT_OVER_WORKLOAD']],
    ['exactly half the standard time (100 pieces at 30 s in 25 min)', report(25 * MIN, 0, [[30, 0, 100]]), []],
    ['a millisecond under half the standard time', report(25 * MIN - 1, 0, [[30, 0, 100]]), ['CYCLE_TOO_FAST']],
    ['two lines, weighted by output: 60 at 10 s + 40 at 40 s need 2,200 s; 1,100 s is half', report(1_100_000, 0, [[10, 0, 60], [40, 0, 40]]), []],
    ['the same lines in 1,099.999 s', report(1_099_999, 0, [[10, 0, 60], [40, 0, 40]]), ['CYCLE_TOO_FAST']],
    ['exactly twice the workload for 4 h (workload 800 a day: 400 for 4 h, 2 × = 800)', report(4 * H, 0, [[1, 800, 800]]), []],
    ['one piece over twice the workload for the time', report(4 * H, 0, [[1, 800, 801]]), ['OUTPUT_OVER_WORKLOAD']],
    ['the workload of two lines adds up (400 + 400 a day)', report(4 * H, 0, [[1, 400, 400], [1, 400, 400]]), []],
    ['no standard workload: no workload rule', report(4 * H, 0, [[1, 0, 5000]]), []],
    ['15 h from clock-in to clock-out (SESSION_MAX_HOURS 16 − 1)', report(15 * H, 60, [[30, 960, 1500]]), []],
    ['15 h and a millisecond', report(15 * H + 1, 60, [[30, 960, 1500]]), ['SESSION_TOO_LONG']],
    ['too long and nothing produced', report(15.5 * H, 0, [[30, 960, 0]]), ['SESSION_TOO_LONG']],
  ];
  it.each(table)('%s', (_, r, expected) => expect(codes(r)).toEqual(expected));
});

describe('bounds from the configuration', () => {
  it('a ratio of 0 turns its rule off; other ratios move the bound', () => {
    const fast = report(8 * MIN, 0, [[30, 960, 205]]);
    expect(codes(fast, { ...bounds, minCycleRatio: 0, maxWorkloadRatio: 0 })).toEqual([]);
    // 100 pieces at 30 s in 40 min: 80 % of the standard time.
    const r = report(40 * MIN, 0, [[30, 0, 100]]);
    expect(codes(r, { ...bounds, minCycleRatio: 0.8 })).toEqual([]);
    expect(codes(r, { ...bounds, minCycleRatio: 0.801 })).toEqual(['CYCLE_TOO_FAST']);
    expect(codes(report(4 * H, 0, [[1, 800, 600]]), { ...bounds, maxWorkloadRatio: 1.5 })).toEqual([]);
    expect(codes(report(4 * H, 0, [[1, 800, 601]]), { ...bounds, maxWorkloadRatio: 1.5 })).toEqual(['OUTPUT_OVER_WORKLOAD']);
  });

  it('SESSION_MAX_HOURS minus one hour, never below 0', () => {
    expect(maxPlausibleSpanMs(16 * H)).toBe(15 * H);
    expect(maxPlausibleSpanMs(0.5 * H)).toBe(0);
  });
});

describe('each flag reads as a Chinese sentence with its numbers', () => {
  const sentences = (r: ReportFigures) => plausibilityFlags(r, bounds).map(flagMessage);

  it('0 minutes and 205 pieces', () => {
    expect(sentences(report(0, 0, [[30, 960, 205]]))).toEqual(['有效工作时间 0 分钟却报了 205 件，按标准节拍需要 102 分钟']);
  });

  it('8 minutes and 205 pieces: the time, the pieces, the time the standard needs, both cycle times and the bound', () => {
    const [fast, over] = plausibilityFlags(report(8 * MIN, 0, [[30, 960, 205]]), bounds);
    expect(fast).toEqual({ code: 'CYCLE_TOO_FAST', effectiveSeconds: 480, outputQty: 205, standardSeconds: 6150, minCycleRatio: 0.5 });
    expect(flagMessage(fast)).toBe('8 分钟报了 205 件，按标准节拍需要 102 分钟（实际节拍 2.34 秒，不到标准节拍 30.00 秒的 50%）');
    expect(over).toEqual({ code: 'OUTPUT_OVER_WORKLOAD', effectiveSeconds: 480, outputQty: 205, standardWorkload: 960, maxWorkloadRatio: 2 });
    expect(flagMessage(over)).toBe('8 分钟报了 205 件，超过这段时间标准工作量 16 件的 2 倍（标准工作量 960 件/8 小时）');
  });

  it('a shift too long', () => {
    expect(sentences(report(15 * H + 20 * MIN, 60, [[30, 960, 1500]]))).toEqual([
      '上班到下班共 15 小时 20 分，超过 15 小时（最长上班时长减 1 小时），请核对是否忘记下班报工',
    ]);
  });

  it('an approval of a flagged report notes them as 已知异常; an unflagged one notes nothing', () => {
    const flags = plausibilityFlags(report(0, 0, [[30, 960, 205]]), bounds);
    expect(knownFlagsNote(flags)).toBe('已知异常：有效工作时间 0 分钟却报了 205 件，按标准节拍需要 102 分钟');
    expect(knownFlagsNote([])).toBeUndefined();
  });

  it('durations: seconds, minutes under two hours, then hours and minutes (rounded down)', () => {
    expect([durationText(45.9), durationText(60), durationText(8 * 60 + 59), durationText(119 * 60 + 59), durationText(7.5 * 3600), durationText(16 * 3600)]).toEqual([
      '45 秒',
      '1 分钟',
      '8 分钟',
      '119 分钟',
      '7 小时 30 分',
      '16 小时',
    ]);
  });
});

describe('which dashboard figures cannot be trusted', () => {
  it.each([
    ['no flags, an ordinary cycle', [], 12.5, { cycleTime: false, workload: false }],
    ['no flags, but an actual cycle of 0', [], 0, { cycleTime: true, workload: false }],
    ['no flags, no output (null cycle)', [], null, { cycleTime: false, workload: false }],
    ['no working time', ['NO_WORKING_TIME'], 0, { cycleTime: true, workload: true }],
    ['too fast', ['CYCLE_TOO_FAST'], 2.34, { cycleTime: true, workload: false }],
    ['over the workload', ['OUTPUT_OVER_WORKLOAD'], 20, { cycleTime: false, workload: true }],
    ['a shift too long', ['SESSION_TOO_LONG'], 60, { cycleTime: true, workload: false }],
  ] as const)('%s', (_, codes, cycle, expected) => {
    expect(untrustedFigures(codes.map((code) => ({ code })), cycle)).toEqual(expected);
  });
});
