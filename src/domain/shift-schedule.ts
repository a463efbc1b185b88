/**
 * A team's shift calendar, pure: which shift a team works on a local date.
 *
 * - An assignment `{validFrom, rotation, daysEach}` holds from `validFrom` until the next assignment's validFrom.
 *   `rotation` is a list of shift ids (null: a day off); a single shift is a rotation of one. The rotation turns
 *   every `daysEach` days counted from validFrom: on date D the element is
 *   `rotation[floor(daysBetween(validFrom, D) / daysEach) mod rotation.length]` (a three-shift rotation
 *   [早, 中, 夜] with daysEach 7 changes shift every week; [早, 早, 早, 早, 早, null, null] with daysEach 1 is a
 *   five-day week).
 * - An override `{date, shiftId | null}` replaces the assignment on that one date (another shift, or a day off).
 *
 * `scheduledOn(schedule, D)` → `{shiftId, source}`: the override of D (source `override`), else the assignment in
 * force on D rotated (`assignment`; shiftId null on a rotation's day off), else nothing (`none`).
 */
import { daysBetween } from '../time.ts';

export interface ShiftAssignment {
  /** Local date from which the assignment holds. */
  readonly validFrom: string;
  /** Shift ids in turn; null: a day off. 1–MAX_ROTATION elements. */
  readonly rotation: readonly (string | null)[];
  /** Days each element of the rotation lasts (1–MAX_DAYS_EACH). */
  readonly daysEach: number;
}

export interface TeamSchedule {
  /** The team's assignments, in any order (one per validFrom). */
  readonly assignments: readonly ShiftAssignment[];
  /** Overrides by local date: a shift id, or null (a day off). */
  readonly overrides: Readonly<Record<string, string | null>>;
}

export const EMPTY_SCHEDULE: TeamSchedule = { assignments: [], overrides: {} };
export const MAX_ROTATION = 28;
export const MAX_DAYS_EACH = 31;

export type ScheduleSource = 'assignment' | 'override' | 'none';

/** The assignment in force on `date`: the one with the latest validFrom on or before it. */
export function assignmentOn(assignments: readonly ShiftAssignment[], date: string): ShiftAssignment | undefined {
  let best: ShiftAssignment | undefined;
  for (const a of assignments) if (a.validFrom <= date && (!best || a.validFrom > best.validFrom)) best = a;
  return best;
}

/** The rotation's element on `date` (module docstring); `date` on or after `a.validFrom`. */
export function rotatedOn(a: ShiftAssignment, date: string): string | null {
  const turn = Math.floor(daysBetween(a.validFrom, date) / a.daysEach) % a.rotation.length;
  return a.rotation[turn] ?? null;
}

/** Which shift the team works on `date`, and why (module docstring). */
export function scheduledOn(schedule: TeamSchedule, date: string): { shiftId: string | null; source: ScheduleSource } {
  if (Object.hasOwn(schedule.overrides, date)) return { shiftId: schedule.overrides[date], source: 'override' };
  const a = assignmentOn(schedule.assignments, date);
  return a ? { shiftId: rotatedOn(a, date), source: 'assignment' } : { shiftId: null, source: 'none' };
}
