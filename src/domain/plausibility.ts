/**
 * Plausibility flags of a report (异常报工): pure rules that say, from a
 * report's own figures, which reports cannot be true, so that a reviewer sees it before approving (approving stays
 * possible). A flag is a stable code with the figures it was judged on; `flagMessage` gives its Chinese sentence.
 *
 * The rules (a report = clock-in, clock-out, break minutes and lines; output = Σ outputQty = Σ (finished + defective)):
 * - `NO_WORKING_TIME`: effective working time (clock-out − clock-in − break) ≤ 0 with output > 0.
 * - `CYCLE_TOO_FAST`: effective time > 0 and the actual cycle time (effective s / output) is below
 *   `minCycleRatio` × the report's standard cycle time (output-weighted, spec 2.5); since the same output divides
 *   both, that is: effective time < minCycleRatio × Σ (line standard cycle × line output). Default ratio 0.5
 *   (PLAUSIBLE_MIN_CYCLE_RATIO): faster than half the standard.
 * - `OUTPUT_OVER_WORKLOAD`: effective time > 0 and output > `maxWorkloadRatio` × the lines' standard workload
 *   (Σ of the lines' 标准工作量, pieces per 8-hour day, spec 2.5) scaled to the effective time (× effective s /
 *   28,800 s). Default ratio 2 (PLAUSIBLE_MAX_WORKLOAD_RATIO): more than twice the standard for the time worked.
 * - `SESSION_TOO_LONG`: clock-out − clock-in longer than SESSION_MAX_HOURS minus one hour (a forgotten clock-out
 *   that the abandonment rule only just did not catch).
 * A ratio of 0 turns its rule off. Comparisons are exact (integers: milliseconds, thousandths of a second × pieces,
 * ratios in thousandths); no float decides a flag.
 *
 * The flags are computed by the deciders from the figures and carried in the events (ReportSubmitted, ReportApproved,
 * BreakChanged; events/catalog.ts), so a replay gives the same flags whatever the configuration says later.
 */
import { z } from 'zod';
import { cycleMilli, type ReportLine } from './report-line.ts';
import { effectiveMs, spanMs } from './report.ts';
import { exceedsPreviousSchema, flowFlagMessage, overPlannedSchema } from './work-order-flow.ts';

/** The 8-hour day a standard workload is counted over, seconds (spec 2.1: 28800 ÷ standard cycle time). */
export const STANDARD_DAY_SECONDS = 28_800;

/** The bounds of the rules (module docstring), from the configuration (src/config.ts). */
export interface PlausibilityBounds {
  /** PLAUSIBLE_MIN_CYCLE_RATIO: 0–1, at most 3 decimals; 0 turns the rule off. */
  readonly minCycleRatio: number;
  /** PLAUSIBLE_MAX_WORKLOAD_RATIO: 0, or 1 and more, at most 3 decimals; 0 turns the rule off. */
  readonly maxWorkloadRatio: number;
  /** The longest plausible clock-in to clock-out, ms: SESSION_MAX_HOURS − 1 h (`maxPlausibleSpanMs`). */
  readonly maxSpanMs: number;
}

/** SESSION_MAX_HOURS (ms) minus one hour, never below 0: a session longer than this is flagged SESSION_TOO_LONG. */
export const maxPlausibleSpanMs = (sessionMaxMs: number): number => Math.max(0, sessionMaxMs - 3_600_000);

/** A ratio as a person reads it: 0.5 → `50%`; a multiple: 2 → `2`, 1.5 → `1.5`. */
const percent = (ratio: number) => `${Math.round(ratio * 1000) / 10}%`;
const times = (ratio: number) => `${Math.round(ratio * 1000) / 1000}`;

/** The bounds of the configuration's settings (src/config.ts: the two ratios and SESSION_MAX_HOURS in ms). */
export const plausibilityBounds = (c: { plausibleMinCycleRatio: number; plausibleMaxWorkloadRatio: number; sessionMaxMs: number }): PlausibilityBounds => ({
  minCycleRatio: c.plausibleMinCycleRatio,
  maxWorkloadRatio: c.plausibleMaxWorkloadRatio,
  maxSpanMs: maxPlausibleSpanMs(c.sessionMaxMs),
});

/** What the bounds flag, in one Chinese sentence (npm run cli -- doctor). */
export function boundsText(b: PlausibilityBounds): string {
  const rules = [
    '有效工作时间为 0 却有产出',
    b.minCycleRatio > 0 ? `实际节拍不到标准节拍的 ${percent(b.minCycleRatio)}` : undefined,
    b.maxWorkloadRatio > 0 ? `产出超过这段时间标准工作量的 ${times(b.maxWorkloadRatio)} 倍` : undefined,
    `上班到下班超过 ${durationText(b.maxSpanMs / 1000)}`,
  ];
  return `${rules.filter(Boolean).join('、')}的报工单标为异常`;
}

const seconds = z.number().describe('秒');
const pieces = z.number().int().min(0);

/** A flag as the events carry it: the code and the figures it was judged on (seconds, pieces, ratios). */
export const plausibilityFlagSchema = z.discriminatedUnion('code', [
  z.object({
    code: z.literal('NO_WORKING_TIME'),
    effectiveSeconds: seconds.describe('有效工作时间（秒）'),
    outputQty: pieces.describe('产出数量（件）'),
    standardSeconds: seconds.describe('按标准节拍需要的时间（秒）= Σ 标准节拍 × 产出'),
  }),
  z.object({
    code: z.literal('CYCLE_TOO_FAST'),
    effectiveSeconds: seconds.describe('有效工作时间（秒）'),
    outputQty: pieces.describe('产出数量（件）'),
    standardSeconds: seconds.describe('按标准节拍需要的时间（秒）= Σ 标准节拍 × 产出'),
    minCycleRatio: z.number().describe('判定界限：实际节拍低于标准节拍的这个比例（PLAUSIBLE_MIN_CYCLE_RATIO）'),
  }),
  z.object({
    code: z.literal('OUTPUT_OVER_WORKLOAD'),
    effectiveSeconds: seconds.describe('有效工作时间（秒）'),
    outputQty: pieces.describe('产出数量（件）'),
    standardWorkload: pieces.describe('明细行标准工作量之和（件/8 小时）'),
    maxWorkloadRatio: z.number().describe('判定界限：产出超过这段时间标准工作量的这个倍数（PLAUSIBLE_MAX_WORKLOAD_RATIO）'),
  }),
  z.object({
    code: z.literal('SESSION_TOO_LONG'),
    spanSeconds: seconds.describe('上班到下班的时长（秒）'),
    maxSpanSeconds: seconds.describe('判定界限（秒）= SESSION_MAX_HOURS − 1 小时'),
  }),
  // work orders: quantities that cannot flow (domain/work-order-flow.ts)
  exceedsPreviousSchema,
  overPlannedSchema,
]);

export type PlausibilityFlag = z.infer<typeof plausibilityFlagSchema>;
export type FlagCode = PlausibilityFlag['code'];

/** Every flag code, in the order flags are listed. */
export const FLAG_CODES: readonly FlagCode[] = ['NO_WORKING_TIME', 'CYCLE_TOO_FAST', 'OUTPUT_OVER_WORKLOAD', 'SESSION_TOO_LONG', 'EXCEEDS_PREVIOUS_OPERATION', 'OVER_PLANNED'];

/** A short Chinese name of each flag (filters, tags). */
export const FLAG_LABELS: Readonly<Record<FlagCode, string>> = {
  NO_WORKING_TIME: '没有有效工作时间',
  CYCLE_TOO_FAST: '节拍快得不可能',
  OUTPUT_OVER_WORKLOAD: '超出标准工作量',
  SESSION_TOO_LONG: '上班时间过长',
  EXCEEDS_PREVIOUS_OPERATION: '超过上道工序产出',
  OVER_PLANNED: '超过工单计划',
};

/**
 * The flags that make cycle time figures (actual cycle, cycle difference) not to be trusted: the time worked or the
 * pieces cannot be true (a shift too long makes the actual cycle look slow, the others make it look fast).
 */
export const CYCLE_FLAGS: readonly FlagCode[] = ['NO_WORKING_TIME', 'CYCLE_TOO_FAST', 'SESSION_TOO_LONG'];
/** The flags that make the output against the standard workload (workload difference) not to be trusted. */
export const WORKLOAD_FLAGS: readonly FlagCode[] = ['NO_WORKING_TIME', 'OUTPUT_OVER_WORKLOAD'];

/**
 * Which figures of a dashboard row cannot be trusted (shown as 异常, not as a good figure): the cycle
 * figures when a flag of CYCLE_FLAGS is among `flags` or the actual cycle is 0 with output; the workload difference
 * when a flag of WORKLOAD_FLAGS is.
 */
export function untrustedFigures(flags: readonly { code: FlagCode }[], actualCycleSeconds: number | null): { cycleTime: boolean; workload: boolean } {
  const has = (codes: readonly FlagCode[]) => flags.some((f) => codes.includes(f.code));
  return { cycleTime: has(CYCLE_FLAGS) || actualCycleSeconds === 0, workload: has(WORKLOAD_FLAGS) };
}

/** What the rules read of a report. Instants ISO 8601; break whole minutes. */
export interface ReportFigures {
  readonly clockInAt: string;
  readonly clockOutAt: string;
  readonly breakMinutes: number;
  readonly lines: readonly Pick<ReportLine, 'standardCycleSeconds' | 'standardWorkload' | 'outputQty'>[];
}

/** A ratio of at most 3 decimals as thousandths (0.5 → 500). */
const milli = (ratio: number): bigint => BigInt(Math.round(ratio * 1000));

/** The flags of `report` under `bounds` (module docstring), in FLAG_CODES order; [] for a plausible report. Pure. */
export function plausibilityFlags(report: ReportFigures, bounds: PlausibilityBounds): PlausibilityFlag[] {
  let output = 0;
  let standardMs = 0; // Σ standard cycle (ms) × output
  let workload = 0;
  for (const l of report.lines) {
    output += l.outputQty;
    standardMs += cycleMilli(l.standardCycleSeconds) * l.outputQty;
    workload += l.standardWorkload;
  }
  const span = spanMs(report);
  const effective = effectiveMs(report, report.breakMinutes);
  const flags: PlausibilityFlag[] = [];
  const judged = { effectiveSeconds: effective / 1000, outputQty: output };
  if (output > 0 && effective <= 0) {
    flags.push({ code: 'NO_WORKING_TIME', ...judged, standardSeconds: standardMs / 1000 });
  } else if (output > 0) {
    const E = BigInt(effective);
    const minCycle = milli(bounds.minCycleRatio);
    // effective < ratio × standard time  ⇔  effective × 1000 < ratio‰ × standard time
    if (minCycle > 0n && E * 1000n < minCycle * BigInt(standardMs)) {
      flags.push({ code: 'CYCLE_TOO_FAST', ...judged, standardSeconds: standardMs / 1000, minCycleRatio: bounds.minCycleRatio });
    }
    const maxWorkload = milli(bounds.maxWorkloadRatio);
    // output > ratio × workload × effective / 28,800,000 ms  ⇔  output × 28,800,000 × 1000 > ratio‰ × workload × effective
    if (maxWorkload > 0n && workload > 0 && BigInt(output) * BigInt(STANDARD_DAY_SECONDS * 1000) * 1000n > maxWorkload * BigInt(workload) * E) {
      flags.push({ code: 'OUTPUT_OVER_WORKLOAD', ...judged, standardWorkload: workload, maxWorkloadRatio: bounds.maxWorkloadRatio });
    }
  }
  if (span > bounds.maxSpanMs) flags.push({ code: 'SESSION_TOO_LONG', spanSeconds: span / 1000, maxSpanSeconds: bounds.maxSpanMs / 1000 });
  return flags;
}

/**
 * A duration for a sentence, whole units rounded down: under a minute in seconds (`45 秒`), under two hours in
 * minutes (`8 分钟`, `102 分钟`: short spans compare at a glance), else hours and minutes (`7 小时 30 分`, `16 小时`).
 */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} 秒`;
  const minutes = Math.floor(s / 60);
  if (minutes < 120) return `${minutes} 分钟`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h} 小时 ${m} 分` : `${h} 小时`;
}

const cycle = (seconds: number, qty: number) => (seconds / qty).toFixed(2);

/**
 * The Chinese sentence of `flag`, with its numbers, e.g. `8 分钟报了 205 件，按标准节拍需要 102 分钟（实际节拍 2.34 秒，
 * 不到标准节拍 30.00 秒的 50%）`.
 */
export function flagMessage(flag: PlausibilityFlag): string {
  switch (flag.code) {
    case 'NO_WORKING_TIME':
      return `有效工作时间 0 分钟却报了 ${flag.outputQty} 件，按标准节拍需要 ${durationText(flag.standardSeconds)}`;
    case 'CYCLE_TOO_FAST':
      return (
        `${durationText(flag.effectiveSeconds)}报了 ${flag.outputQty} 件，按标准节拍需要 ${durationText(flag.standardSeconds)}` +
        `（实际节拍 ${cycle(flag.effectiveSeconds, flag.outputQty)} 秒，不到标准节拍 ${cycle(flag.standardSeconds, flag.outputQty)} 秒的 ${percent(flag.minCycleRatio)}）`
      );
    case 'OUTPUT_OVER_WORKLOAD': {
      const forTime = Math.floor((flag.standardWorkload * flag.effectiveSeconds) / STANDARD_DAY_SECONDS);
      return (
        `${durationText(flag.effectiveSeconds)}报了 ${flag.outputQty} 件，超过这段时间标准工作量 ${forTime} 件的 ${times(flag.maxWorkloadRatio)} 倍` +
        `（标准工作量 ${flag.standardWorkload} 件/8 小时）`
      );
    }
    case 'SESSION_TOO_LONG':
      return `上班到下班共 ${durationText(flag.spanSeconds)}，超过 ${durationText(flag.maxSpanSeconds)}（最长上班时长减 1 小时），请核对是否忘记下班报工`;
    case 'EXCEEDS_PREVIOUS_OPERATION':
    case 'OVER_PLANNED':
      return flowFlagMessage(flag);
  }
}

/** A flag as the API answers it: its code, its sentence and its figures. */
export const withMessage = (flag: PlausibilityFlag) => ({ ...flag, message: flagMessage(flag) });

/** `已知异常：<sentence>；<sentence>` for an approval of a flagged report, or undefined without flags. */
export function knownFlagsNote(flags: readonly PlausibilityFlag[]): string | undefined {
  return flags.length ? `已知异常：${flags.map(flagMessage).join('；')}` : undefined;
}
