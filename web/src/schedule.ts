/**
 * What a change of a team's 排班 or of one day's 调整 does, in the words the 排班 page asks with before it saves
 * (README "班次与休息"): "从 11月1日 起 焊装一班 由 白班 改为 夜班，影响之后的报工休息时间". Pure; the rule of which
 * assignment holds on a date is the service's (src/domain/shift-schedule.ts: the latest validFrom on or before it),
 * read here only to name what is replaced.
 */
import type { TeamSchedule } from './api/types';

export type Assignment = TeamSchedule['assignments'][number];
/** The form's 排班: shift ids in turn, null a day off, '' not chosen yet. */
export interface AssignmentForm {
  validFrom: string;
  rotation: (string | null | '')[];
  daysEach: number;
}

/** `2026-11-01` → `11月1日` (with the year when it is not `thisYear`). */
export function dayLabel(date: string, thisYear?: string): string {
  const md = `${Number(date.slice(5, 7))}月${Number(date.slice(8, 10))}日`;
  return thisYear && date.slice(0, 4) !== thisYear ? `${date.slice(0, 4)}年${md}` : md;
}

/** A rotation in words: `白班`, `白班、休息（每班 7 天轮换）`. */
export function rotationText(rotation: readonly (string | null)[], daysEach: number, shiftName: (id: string) => string): string {
  const names = rotation.map((id) => (id === null ? '休息' : shiftName(id))).join('、');
  return rotation.length > 1 ? `${names}（每班 ${daysEach} 天轮换）` : names;
}

/** The assignment in force on `date`: the latest validFrom on or before it. */
export const assignmentOn = (assignments: readonly Assignment[], date: string): Assignment | undefined =>
  assignments.filter((a) => a.validFrom <= date).sort((a, b) => (a.validFrom < b.validFrom ? 1 : -1))[0];

const sameRotation = (a: Assignment, rotation: readonly (string | null)[], daysEach: number) =>
  a.rotation.length === rotation.length && a.rotation.every((id, i) => id === rotation[i]) && (rotation.length === 1 || a.daysEach === daysEach);

/**
 * The sentence of the form's change, or null when the form changes nothing (the same rotation already holds from
 * that date on: a single shift from any date, a rotation only from its own date, since a later start turns it
 * anew) or is not complete (a date or an item not chosen).
 */
export function assignmentChange(assignments: readonly Assignment[], form: AssignmentForm, team: string, today: string, shiftName: (id: string) => string): string | null {
  if (!form.validFrom || form.rotation.some((id) => id === '')) return null;
  const rotation = form.rotation as (string | null)[];
  const before = assignmentOn(assignments, form.validFrom);
  if (before && sameRotation(before, rotation, form.daysEach) && (rotation.length === 1 || before.validFrom === form.validFrom)) return null;
  const year = today.slice(0, 4);
  const oldText = before ? rotationText(before.rotation, before.daysEach, shiftName) : '未排班';
  let newText = rotationText(rotation, form.daysEach, shiftName);
  if (newText === oldText) newText += '，从这天起重新轮换';
  const next = assignments.filter((a) => a.validFrom > form.validFrom).sort((a, b) => (a.validFrom < b.validFrom ? -1 : 1))[0];
  const until = next ? `（到 ${dayLabel(next.validFrom, year)} 为止，之后仍按已有的排班：${rotationText(next.rotation, next.daysEach, shiftName)}）` : '';
  const past = form.validFrom < today ? '；已提交的报工单保留原来的休息时间' : '';
  return `从 ${dayLabel(form.validFrom, year)} 起 ${team} 由 ${oldText} 改为 ${newText}${until}，影响之后的报工休息时间${past}`;
}

/** A day's shift in words for the 调整 question: the shift's name, 休息, or 未排班. */
export const dayShiftText = (shift: { name: string } | null, source: 'assignment' | 'override' | 'none'): string =>
  shift ? shift.name : source === 'none' ? '未排班' : '休息';
