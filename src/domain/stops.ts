/**
 * Stops (停机) of a device, pure: their intervals, the rule "one stop per device at a time", and where a stop still
 * recorded as lasting really ends.
 *
 * A stop is `[startAt, endAt)`; `endAt` null while it lasts. A stop still open when the last worker on the device
 * clocks out (or the session is abandoned) ends then, marked as ended by the system: its end is the end of the run of
 * the device's attendance (the union of the workers' presence on it, the sessions' presence, projections/sessions.ts) that holds its
 * start (`systemEnd`). The service never writes at a clock-out for it (decisions.md "Stops"): every read computes the
 * same end from the stored presence, and the next command on the device's stop stream records it (StopEnded,
 * `bySystem`), so the stream and the reads agree whenever either is asked.
 *
 * Overlap: two stops of one device overlap when their intervals share a moment; a lasting stop covers everything
 * from its start (or up to its system end). Touching stops (one ends when the next starts) do not overlap.
 */
import { runEnd, type Interval } from './intervals.ts';

/** A stop as the decider and the reads know it (instants ISO 8601). */
export interface Stop {
  readonly stopId: string;
  readonly deviceNo: string;
  readonly reasonCode: string;
  readonly startAt: string;
  readonly endAt: string | null;
  /** True when the end was recorded by the system (the device's attendance ended). */
  readonly endedBySystem: boolean;
}

/** A presence segment of a device as the attendance fact gives it, with its session's clock-in and abandonment. */
export interface AttendanceSegment {
  readonly from: string;
  readonly to: string | null;
  /** Milliseconds of the session's clock-in. */
  readonly clockInAt: number;
  readonly abandoned: boolean;
}

/**
 * The attendance intervals of `segments`: each [from, to), `to` Infinity while it lasts; an abandoned session's
 * segment ends at the latest at clock-in + `sessionMaxMs` (its abandonment may be recorded much later).
 */
export function attendanceIntervals(segments: readonly AttendanceSegment[], sessionMaxMs: number): Interval[] {
  return segments.map((s) => {
    const from = Date.parse(s.from);
    let to = s.to === null ? Infinity : Date.parse(s.to);
    if (s.abandoned) to = Math.min(to, s.clockInAt + sessionMaxMs);
    return { from, to: Math.max(from, to) };
  });
}

/**
 * Where a stop recorded as lasting and starting at `startMs` ends by the system: the end of the attendance run that
 * holds its start (module docstring); `startMs` itself when nobody was on the device then; null while the run lasts.
 */
export function systemEnd(startMs: number, attendance: readonly Interval[]): number | null {
  return runEnd(attendance, startMs);
}

/** The interval of a stop with its effective end (`end` Infinity: still lasting). */
export interface StopSpan {
  readonly stopId: string;
  readonly reasonCode: string;
  readonly from: number;
  readonly to: number;
}

/** The first of `others` (other stops of the device) that shares a moment with [from, to) (`to` Infinity: lasting). */
export function overlapping(from: number, to: number, others: readonly StopSpan[]): StopSpan | undefined {
  return others.find((o) => o.from < to && from < o.to);
}
