/**
 * Downtime (停机) and OEE as the phone shows them. Plain TypeScript, no `wx`.
 * - `stopView(stop, nowMs)`: the device's running stop of `GET /api/clock/state` (`stop`: reason, category, start) as
 *   two lines — `停机中：设备故障（非计划停机）` and `已停机 12 分钟（10:00 开始）`; whole minutes from the start to
 *   `nowMs` (the phone's clock), never negative; the start as the service wrote it (the factory's time).
 * - `oeeLine(f)`: a device's (or the total's) figures of `GET /api/oee` in one line, the service's percentages with
 *   their 1 decimal: `OEE 55.6 %（可用率 92.6 %，性能 64.0 %，质量 93.8 %）`; `—` where a figure has no denominator.
 */
import { clockTime } from './time';

export type StopCategory = 'planned' | 'unplanned';
export const STOP_CATEGORY_NAMES: Record<StopCategory, string> = { planned: '计划停机', unplanned: '非计划停机' };

/** A stop as the clock state gives it. */
export interface RunningStop {
  stopId: string;
  reasonCode: string;
  reasonName: string;
  category: StopCategory | null;
  startAt: string;
}

/** The two lines of a running stop (module docstring). */
export function stopView(stop: RunningStop, nowMs: number): { title: string; minutes: string } {
  const category = stop.category ? `（${STOP_CATEGORY_NAMES[stop.category]}）` : '';
  const started = Date.parse(stop.startAt);
  const minutes = Number.isNaN(started) ? 0 : Math.max(0, Math.floor((nowMs - started) / 60_000));
  return { title: `停机中：${stop.reasonName}${category}`, minutes: `已停机 ${minutes} 分钟（${clockTime(stop.startAt)} 开始）` };
}

/** A percentage of the OEE read as the phone shows it: `92.6 %`, `—` for null. */
export const pct = (v: number | null): string => (v === null ? '—' : `${v.toFixed(1)} %`);

/** One line of OEE figures (module docstring). */
export function oeeLine(f: { oeePct: number | null; availabilityPct: number | null; performancePct: number | null; qualityPct: number | null }): string {
  return `OEE ${pct(f.oeePct)}（可用率 ${pct(f.availabilityPct)}，性能 ${pct(f.performancePct)}，质量 ${pct(f.qualityPct)}）`;
}
