/**
 * OEE (设备综合效率), pure: the sums of a device on a local date from its attendance, the workers' break windows, its
 * stops and its approved lines, and the percentages from those sums (decisions.md "OEE").
 *
 * Per device and local date (times in milliseconds, cut at local midnight of APP_TIMEZONE):
 * - attended = the UNION of the intervals in which any worker was clocked on the device (never the sum of
 *   overlapping people);
 * - planned production = the union over the workers of (their presence on the device − their shift's unpaid break
 *   windows), i.e. attended minus the moments when every worker on the device was on an unpaid break of their shift
 *   (a flat default break has no place in time and is not subtracted), − planned stops inside it;
 * - run = planned − unplanned stops inside it;
 * - plannedStop / unplannedStop = the stops' moments that were taken out (so attended − breaks = planned + plannedStop,
 *   planned = run + unplannedStop);
 * - ideal = Σ standard cycle × (成品 + 不良), fully productive = Σ standard cycle × 成品 of the approved lines of the
 *   device's products dated that day (cycle in ms: seconds to 3 decimals, exact); good = Σ 成品, total = Σ (成品 + 不良).
 * availability = run ÷ planned, performance = ideal ÷ run, quality = fully productive ÷ ideal, OEE = fully productive
 * ÷ planned (= A × P × Q exactly), goodRate = good ÷ total. Over several devices or days: sums of numerators and
 * denominators (`addSums`), never averages of ratios. Percentages to 1 decimal from exact integer arithmetic, rounded
 * half away from zero (`pct1`), null where the denominator is 0; above 100 shown as it is.
 */
import { intersect, lengthsBetween, subtract, union, within, type Interval } from './intervals.ts';

/** The sums of one cell (a device on a day) or of several: milliseconds and pieces. */
export interface OeeSums {
  attendedMs: number;
  plannedMs: number;
  plannedStopMs: number;
  unplannedStopMs: number;
  runMs: number;
  idealMs: number;
  fullyProductiveMs: number;
  goodQty: number;
  totalQty: number;
}

export const ZERO_SUMS: Readonly<OeeSums> = Object.freeze({
  attendedMs: 0,
  plannedMs: 0,
  plannedStopMs: 0,
  unplannedStopMs: 0,
  runMs: 0,
  idealMs: 0,
  fullyProductiveMs: 0,
  goodQty: 0,
  totalQty: 0,
});

/** `a` + `b`, field by field (a new object). */
export function addSums(a: Readonly<OeeSums>, b: Readonly<OeeSums>): OeeSums {
  const out = { ...a };
  for (const k of Object.keys(out) as (keyof OeeSums)[]) out[k] += b[k];
  return out;
}

/** `num ÷ den` in percent to 1 decimal, rounded half away from zero, from exact integers; null when `den` is 0. */
export function pct1(num: number, den: number): number | null {
  if (den === 0) return null;
  const n = BigInt(Math.round(num)) * 1000n;
  const d = BigInt(Math.round(den));
  const neg = n < 0n !== d < 0n;
  const [an, ad] = [n < 0n ? -n : n, d < 0n ? -d : d];
  const tenths = (2n * an + ad) / (2n * ad); // round half up of |num| × 1000 / |den|
  return Number(neg ? -tenths : tenths) / 10;
}

/** The percentages of `s` (module docstring). */
export function percentages(s: Readonly<OeeSums>) {
  return {
    availabilityPct: pct1(s.runMs, s.plannedMs),
    performancePct: pct1(s.idealMs, s.runMs),
    qualityPct: pct1(s.fullyProductiveMs, s.idealMs),
    goodRatePct: pct1(s.goodQty, s.totalQty),
    oeePct: pct1(s.fullyProductiveMs, s.plannedMs),
  };
}

/** A worker's session on the device: its intervals there and the unpaid break windows of its shift. */
export interface SessionOnDevice {
  readonly intervals: readonly Interval[];
  readonly breaks: readonly Interval[];
}

/** A stop of the device with its effective interval and its reason's category. */
export interface StopOnDevice {
  readonly reasonCode: string;
  readonly category: 'planned' | 'unplanned';
  readonly interval: Interval;
}

/** The time sums of one device, per day piece of `bounds` (ascending local midnights), and its stop losses by reason. */
export interface DeviceTimes {
  /** One per day piece: attended, planned, stops, run (the other fields 0). */
  readonly days: OeeSums[];
  /** Milliseconds of each reason's stops taken out of the planned (planned stops) or the run time (unplanned), per day. */
  readonly losses: Map<string, number[]>;
}

/** The time sums of a device (module docstring) from its sessions and stops, cut at `bounds`. */
export function deviceTimes(sessions: readonly SessionOnDevice[], stops: readonly StopOnDevice[], bounds: readonly number[]): DeviceTimes {
  const attended = union(sessions.flatMap((s) => s.intervals));
  const working = union(sessions.flatMap((s) => subtract(s.intervals, s.breaks)));
  const plannedStops = stops.filter((s) => s.category === 'planned').map((s) => s.interval);
  const unplannedStops = stops.filter((s) => s.category === 'unplanned').map((s) => s.interval);
  const planned = subtract(working, plannedStops);
  const run = subtract(planned, unplannedStops);
  const perDay = (set: readonly Interval[]) => lengthsBetween(set, bounds);
  const [a, p, ps, us, r] = [perDay(attended), perDay(planned), perDay(intersect(working, plannedStops)), perDay(intersect(planned, unplannedStops)), perDay(run)];
  const days = a.map((_, k) => ({ ...ZERO_SUMS, attendedMs: a[k], plannedMs: p[k], plannedStopMs: ps[k], unplannedStopMs: us[k], runMs: r[k] }));
  const losses = new Map<string, number[]>();
  for (const s of stops) {
    const inside = perDay(within(s.category === 'planned' ? working : planned, s.interval));
    const kept = losses.get(s.reasonCode);
    losses.set(s.reasonCode, kept ? kept.map((x, k) => x + inside[k]) : inside);
  }
  return { days, losses };
}

/** The milliseconds of a standard cycle of `seconds` (up to 3 decimals), exact. */
export const cycleMs = (seconds: number): number => Math.round(seconds * 1000);
