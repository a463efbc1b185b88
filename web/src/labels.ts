/** Chinese labels the console shows for the service's values (roles, report status, audit actions). */
import type { AuditEntry, Report, Role } from './api/types';

export const ROLE_LABELS: Record<Role, string> = { worker: '员工', admin: '管理员', manager: '经理' };
/** The label of a role value as the audit log records it (any string; unknown values as they are). */
export const roleLabel = (role: string | null): string => (role === null ? '' : (ROLE_LABELS as Record<string, string>)[role] ?? role);
export const STATUS_LABELS: Record<Report['status'], string> = { pending: '待审核', approved: '已通过', rejected: '已驳回' };
export const STATUS_TAGS: Record<Report['status'], 'warning' | 'success' | 'danger'> = { pending: 'warning', approved: 'success', rejected: 'danger' };
export const ACTION_LABELS: Record<AuditEntry['action'], string> = {
  submitted: '提交',
  corrected: '修正',
  approved: '审核通过',
  rejected: '驳回',
  break_changed: '修改休息时间',
};

/** `2026-03-02T08:05:00+08:00` → `2026-03-02 08:05` (the factory's local time as the service gives it). */
export const localTime = (iso: string | null | undefined): string => (iso ? iso.slice(0, 16).replace('T', ' ') : '');

/** Seconds → `7 小时 30 分`. */
export function duration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(Math.abs(minutes) / 60);
  const m = Math.abs(minutes) % 60;
  return `${minutes < 0 ? '-' : ''}${h} 小时 ${m} 分`;
}

/** A figure of the dashboard (2 decimals as the service rounds them), `—` for null. */
export const figure = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : v.toFixed(2));

/** A local date `YYYY-MM-DD` of `d` in the browser's zone (the office's). */
export function isoDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** `2026-03` → `2026年3月`. */
export const monthLabel = (month: string): string => `${month.slice(0, 4)}年${Number(month.slice(5, 7))}月`;

/** This month `YYYY-MM` in the browser's zone (the office's). */
export const thisMonth = (): string => isoDate(new Date()).slice(0, 7);

/** A month `YYYY-MM` from the address, or undefined. */
export const monthParam = (v: unknown): string | undefined => (typeof v === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(v) ? v : undefined);

/**
 * Where a report's break came from: 来自班次「白班」, 默认, 经理修改.
 */
export function breakSourceLabel(source: 'shift' | 'default' | 'manager', shiftName: string | null): string {
  if (source === 'shift') return shiftName ? `来自班次「${shiftName}」` : '来自班次';
  return source === 'manager' ? '经理修改' : '默认';
}

/**
 * A report's 班组 (the report's team and workshop as of its date): 冲压一班（冲压车间）, the team alone
 * without a workshop name, '' when the report has no team (the worker belonged to none that day).
 */
export function teamLabel(teamName: string | null | undefined, workshopName: string | null | undefined): string {
  if (!teamName) return '';
  return workshopName ? `${teamName}（${workshopName}）` : teamName;
}
