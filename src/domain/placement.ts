/**
 * Where a report's output is counted and where its break came from.
 *
 * - Placement: the worker's team (班组) and that team's workshop (车间) as of the report's `reportDate` (local date
 *   in APP_TIMEZONE), recorded in ReportSubmitted so that a later move of the worker never changes where past
 *   output is counted. Both null when the worker belongs to no team on that date. Codes are the workshops' and
 *   teams' immutable codes.
 * - Break source: `shift` when the break minutes were computed from the unpaid break windows of the worker's shift
 *   on the session's day, `default` when DEFAULT_BREAK_MINUTES applied (no shift that day), `manager` after a
 *   manager changed the break (BreakChanged, spec 2.5).
 */
export interface Placement {
  readonly workshopCode: string | null;
  readonly teamCode: string | null;
}

/** A worker in no team on the report date. */
export const NO_PLACEMENT: Placement = Object.freeze({ workshopCode: null, teamCode: null });

export const BREAK_SOURCES = ['shift', 'default', 'manager'] as const;
export type BreakSource = (typeof BREAK_SOURCES)[number];

/** The shift a report's break was computed from: its id and its name at the time (kept in the event). */
export interface ShiftRef {
  readonly shiftId: string;
  readonly name: string;
}
