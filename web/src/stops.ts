/**
 * Downtime (停机) as the console shows it: the stop reasons' categories in Chinese (计划停机: 换模, 保养, 培训, 会议 —
 * not part of the planned production time; 非计划停机: 设备故障, 待料, 质量问题, 停电 — a loss of availability; the
 * service's rule in src/domain/stop-reasons.ts), and minutes of the OEE read's seconds (1 decimal, as the service
 * gives the losses' `stopMinutes`).
 */
import type { StopCategory } from './api/types';

export const STOP_CATEGORY_LABELS: Record<StopCategory, string> = { planned: '计划停机', unplanned: '非计划停机' };
/** What each category means for OEE, as the reason dialog explains it. */
export const STOP_CATEGORY_HINTS: Record<StopCategory, string> = {
  planned: '换模、保养、培训、会议：不计入计划生产时间',
  unplanned: '设备故障、待料、质量问题、停电：计入可用率损失',
};
export const STOP_CATEGORY_TAGS: Record<StopCategory, 'info' | 'danger'> = { planned: 'info', unplanned: 'danger' };
export const STOP_CATEGORIES: StopCategory[] = ['planned', 'unplanned'];

/** Seconds → minutes with 1 decimal (rounded half away from zero; the figures are never negative). */
export const minutes = (seconds: number): number => Math.round(seconds / 6) / 10;

/** Minutes as the table shows them: `270.0`. */
export const minutesText = (seconds: number): string => minutes(seconds).toFixed(1);

/** The percentages of the OEE read, in the order the table and the totals show them (OEE first: what one asks). */
export const OEE_PERCENTAGES = [
  { key: 'oeePct', label: 'OEE' },
  { key: 'availabilityPct', label: '可用率' },
  { key: 'performancePct', label: '性能' },
  { key: 'qualityPct', label: '质量' },
  { key: 'goodRatePct', label: '良品率' },
] as const;

/** The times behind the percentages (seconds in the answer, minutes on the page), in the order of the formula. */
export const OEE_MINUTES = [
  { key: 'attendedSeconds', label: '出勤' },
  { key: 'plannedStopSeconds', label: '计划停机' },
  { key: 'plannedSeconds', label: '计划生产' },
  { key: 'unplannedStopSeconds', label: '非计划停机' },
  { key: 'runSeconds', label: '运行' },
  { key: 'idealSeconds', label: '理论' },
  { key: 'fullyProductiveSeconds', label: '完全有效' },
] as const;

/**
 * An instant picked in the console (a Date of the browser, the office's zone, which is the factory's) as the service
 * reads it: ISO 8601 with the offset, `2026-03-02T09:00:00+08:00`.
 */
export function zonedIso(d: Date): string {
  const p = (n: number) => String(Math.abs(n)).padStart(2, '0');
  const off = -d.getTimezoneOffset();
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}${off < 0 ? '-' : '+'}${p(Math.trunc(off / 60))}:${p(off % 60)}`;
}
