/**
 * Shifts (班次) and the break they give a session, pure: no I/O, no clock.
 *
 * A shift is `{start, end, breaks}` in local wall-clock times `HH:mm` of APP_TIMEZONE. It runs over midnight when
 * `end <= start`; `end == start` is a shift of 24 hours (decision: a round-the-clock post is expressible; a
 * shift of no length is not). Break windows `{start, end, paid?}` lie inside the shift, in the shift's order of
 * time (a window of an overnight shift after midnight belongs to the next local date), are not empty and do not
 * overlap each other (they may touch). Unpaid unless `paid: true`.
 *
 * An occurrence of a shift is the shift on a local date D (the date it starts): its instants and its windows'
 * instants come from `localInstantMs` (src/time.ts), so they are right on a day the zone's offset changes (a window
 * across Europe/Berlin's skipped hour 02:00–03:00 on 2026-03-29 lasts 0 minutes; across the repeated hour on
 * 2026-10-25 it lasts 120 minutes: what the wall clock of the factory lived through).
 *
 * Which occurrences apply to a session (the rule of the service, README "班次与休息"): the worker's team's shift
 * on the local date D of clock-in; plus the team's shift of D−1 when that occurrence (an overnight shift) reaches
 * into the presence; plus the team's shift of D+1 when its occurrence reaches into the presence (a long session
 * that runs into the next day's shift). `occurrencesApplying` makes that choice; `breakMinutesOf` then counts:
 *
 *   break minutes = whole minutes (rounded down) of the union of the unpaid windows of the occurrences applying
 *                   that overlap the presence [clockIn, clockOut], never more than the whole minutes worked.
 *
 * So a worker who left before lunch has no lunch deducted, and a night shift's window after midnight counts.
 */
import { addDays, localInstantMs } from '../time.ts';

/** A break window of a shift: local times `HH:mm`; unpaid unless `paid`. */
export interface BreakWindow {
  readonly start: string;
  readonly end: string;
  readonly paid?: boolean;
}

/** A shift's times: local `HH:mm` start and end (over midnight when end <= start) and its break windows. */
export interface ShiftTimes {
  readonly start: string;
  readonly end: string;
  readonly breaks: readonly BreakWindow[];
}

/** A shift on a local date (the date it starts). */
export interface ShiftOccurrence<S extends ShiftTimes = ShiftTimes> {
  readonly date: string;
  readonly shift: S;
}

/** An interval of instants, milliseconds since the epoch, [from, to). */
export interface Span {
  readonly from: number;
  readonly to: number;
}

/** What is wrong with a shift's times (validateShiftTimes); `window` is the 0-based index of the break window. */
export type ShiftProblem =
  | { readonly problem: 'time'; readonly field: 'start' | 'end' }
  | { readonly problem: 'windowTime' | 'windowEmpty' | 'windowOutside'; readonly window: number }
  | { readonly problem: 'windowsOverlap'; readonly window: number }
  | { readonly problem: 'tooManyWindows'; readonly max: number };

export const MAX_BREAK_WINDOWS = 8;
const DAY = 1440;
const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** True when `s` is a local time `HH:mm` (00:00–23:59). */
export const isLocalTime = (s: string): boolean => TIME_RE.test(s);

/** Minutes after midnight of `HH:mm`. */
export const minuteOfDay = (s: string): number => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));

/** The shift's length in minutes (1–1440; end == start: 1440). */
export function shiftLength(s: Pick<ShiftTimes, 'start' | 'end'>): number {
  return (minuteOfDay(s.end) - minuteOfDay(s.start) + DAY) % DAY || DAY;
}

/** Minutes from the shift's start to local time `t`, within one day [0, 1440). */
const sinceStart = (s: Pick<ShiftTimes, 'start'>, t: string) => (minuteOfDay(t) - minuteOfDay(s.start) + DAY) % DAY;

/** A window's position in minutes from its shift's start: [from, to), `to` up to the shift's length. */
function windowOffsets(s: ShiftTimes, w: BreakWindow): { from: number; to: number } {
  const from = sinceStart(s, w.start);
  let to = sinceStart(s, w.end);
  // A window that ends where a 24-hour shift starts (or ends exactly at the shift's end of a 24-hour shift).
  if (to === 0 && w.end === s.start) to = DAY;
  return { from, to };
}

/**
 * The first problem of `s` (module docstring: times `HH:mm`, windows inside the shift, not empty, not
 * overlapping, at most MAX_BREAK_WINDOWS), or undefined when the times are valid.
 */
export function validateShiftTimes(s: ShiftTimes): ShiftProblem | undefined {
  if (!isLocalTime(s.start)) return { problem: 'time', field: 'start' };
  if (!isLocalTime(s.end)) return { problem: 'time', field: 'end' };
  if (s.breaks.length > MAX_BREAK_WINDOWS) return { problem: 'tooManyWindows', max: MAX_BREAK_WINDOWS };
  const length = shiftLength(s);
  const placed: { from: number; to: number; index: number }[] = [];
  for (const [index, w] of s.breaks.entries()) {
    if (!isLocalTime(w.start) || !isLocalTime(w.end)) return { problem: 'windowTime', window: index };
    if (w.start === w.end) return { problem: 'windowEmpty', window: index };
    const o = windowOffsets(s, w);
    if (o.to <= o.from || o.to > length) return { problem: 'windowOutside', window: index };
    placed.push({ ...o, index });
  }
  placed.sort((a, b) => a.from - b.from);
  for (let i = 1; i < placed.length; i++) {
    if (placed[i].from < placed[i - 1].to) return { problem: 'windowsOverlap', window: Math.max(placed[i].index, placed[i - 1].index) };
  }
  return undefined;
}

/** The local date and time `minutes` after `start` on `date` (minutes may run into the next days). */
function wallAt(date: string, start: string, minutes: number): { date: string; time: string } {
  const m = minuteOfDay(start) + minutes;
  const t = m % DAY;
  return { date: addDays(date, Math.floor(m / DAY)), time: `${String(Math.floor(t / 60)).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}` };
}

/** An occurrence with its instants: its span and its unpaid windows' spans. */
interface Placed<S extends ShiftTimes = ShiftTimes> {
  readonly occurrence: ShiftOccurrence<S>;
  readonly span: Span;
  readonly unpaid: readonly Span[];
}

/** The instants of occurrence `o` in `timeZone` (module docstring). */
function place<S extends ShiftTimes>(o: ShiftOccurrence<S>, timeZone: string): Placed<S> {
  /** The instant `minutes` after the occurrence's start, on the wall clock. */
  const at = (minutes: number) => {
    const wall = wallAt(o.date, o.shift.start, minutes);
    return localInstantMs(wall.date, wall.time, timeZone);
  };
  const unpaid = o.shift.breaks.filter((w) => !w.paid).map((w) => windowOffsets(o.shift, w));
  return { occurrence: o, span: { from: at(0), to: at(shiftLength(o.shift)) }, unpaid: unpaid.map((w) => ({ from: at(w.from), to: at(w.to) })) };
}

/** The instants of the occurrence: from its start on `date` to its end (on date+1 when over midnight). */
export function occurrenceSpan(o: ShiftOccurrence, timeZone: string): Span {
  return place(o, timeZone).span;
}

/** Milliseconds of [a.from, a.to) ∩ [b.from, b.to) (0 when apart). */
const overlapMs = (a: Span, b: Span) => Math.max(0, Math.min(a.to, b.to) - Math.max(a.from, b.from));

/** The presence of a session: clock-in and clock-out instants (ISO 8601 or Date). */
export interface Presence {
  readonly clockInAt: string | Date;
  readonly clockOutAt: string | Date;
}

const presenceSpan = (p: Presence): Span => ({ from: new Date(p.clockInAt).getTime(), to: new Date(p.clockOutAt).getTime() });

/**
 * Break minutes of a presence under the occurrences given (module docstring): the whole minutes of the union of
 * their unpaid windows within [clockIn, clockOut], at most the whole minutes worked. Paid windows never count.
 */
export function breakMinutesOf(presence: Presence, occurrences: readonly ShiftOccurrence[], timeZone: string): number {
  return minutesWithin(presenceSpan(presence), occurrences.map((o) => place(o, timeZone)));
}

function minutesWithin(p: Span, placed: readonly Placed[]): number {
  const worked = Math.floor(Math.max(0, p.to - p.from) / 60_000);
  const cut: Span[] = [];
  for (const o of placed) {
    for (const w of o.unpaid) {
      const from = Math.max(w.from, p.from);
      const to = Math.min(w.to, p.to);
      if (to > from) cut.push({ from, to });
    }
  }
  cut.sort((a, b) => a.from - b.from);
  let total = 0;
  let end = -Infinity;
  for (const w of cut) {
    const from = Math.max(w.from, end);
    if (w.to > from) total += w.to - from;
    end = Math.max(end, w.to);
  }
  return Math.min(Math.floor(total / 60_000), worked);
}

/**
 * The occurrences that apply to a session clocked in on local date `clockInDate` (module docstring): the team's
 * shift of that date (given as `byDate[clockInDate]`, null or absent: none), and those of the day before and the
 * day after whose span overlaps the presence. In date order.
 */
export function occurrencesApplying<S extends ShiftTimes>(
  presence: Presence,
  clockInDate: string,
  byDate: Readonly<Record<string, S | null | undefined>>,
  timeZone: string,
): ShiftOccurrence<S>[] {
  const on = (offset: number) => {
    const date = addDays(clockInDate, offset);
    const shift = byDate[date];
    return shift ? place({ date, shift }, timeZone) : undefined;
  };
  return applyingWithin(presenceSpan(presence), on(-1), on(0), on(1)).map((o) => o.occurrence);
}

/**
 * The rule of occurrencesApplying over the placed occurrences of the day before, the day of and the day after the
 * clock-in date (undefined: no shift that day): the day's always, the others when they overlap the presence `p`.
 */
function applyingWithin<S extends ShiftTimes>(p: Span, before: Placed<S> | undefined, of: Placed<S> | undefined, after: Placed<S> | undefined): Placed<S>[] {
  const out: Placed<S>[] = [];
  if (before && overlapMs(before.span, p) > 0) out.push(before);
  if (of) out.push(of);
  if (after && overlapMs(after.span, p) > 0) out.push(after);
  return out;
}

/**
 * The occurrence a report names as its shift: the one whose span overlaps the presence most (ties: the earlier),
 * the clock-in date's when none overlaps; undefined when `applying` is empty.
 */
export function namedOccurrence<S extends ShiftTimes>(presence: Presence, applying: readonly ShiftOccurrence<S>[], clockInDate: string, timeZone: string): ShiftOccurrence<S> | undefined {
  return namedWithin(presenceSpan(presence), applying.map((o) => place(o, timeZone)), clockInDate)?.occurrence;
}

function namedWithin<S extends ShiftTimes>(p: Span, applying: readonly Placed<S>[], clockInDate: string): Placed<S> | undefined {
  let best: Placed<S> | undefined;
  let bestMs = 0;
  for (const o of applying) {
    const ms = overlapMs(o.span, p);
    if (ms > bestMs) [best, bestMs] = [o, ms];
  }
  return best ?? applying.find((o) => o.occurrence.date === clockInDate) ?? applying[0];
}

/** A shift as a day of a worker's calendar carries it: its id, name (at the time) and times. */
export interface NamedShift extends ShiftTimes {
  readonly shiftId: string;
  readonly name: string;
}

/** A local date of a worker's calendar: the worker's team that day and the team's shift (null: none, a day off). */
export interface ShiftDay {
  readonly date: string;
  readonly teamCode: string | null;
  readonly shift: NamedShift | null;
}

/** Where a session's starting break came from (domain/placement.ts BreakSource without `manager`). */
export interface SessionBreak {
  readonly breakMinutes: number;
  readonly breakSource: 'shift' | 'default';
  readonly shift: { readonly shiftId: string; readonly name: string } | null;
}

/**
 * The break a session starts with (README "班次与休息"): given the worker's
 * calendar days around the local date of clock-in (`days`: each date's shift of the team the worker belonged to
 * that date), the occurrences applying (occurrencesApplying) give `breakMinutesOf` with source `shift` and the
 * named occurrence's shift; none → `defaultBreak(presence)` (DEFAULT_BREAK_MINUTES, at most the minutes worked)
 * with source `default`.
 *
 * The instants of the calendar's occurrences are computed once per `days` array (placedDays): a worker's calendar
 * is kept in the process (src/shifts/calendar-cache.ts), and the draft and the submission of each of the worker's
 * sessions ask about the same array (bench/README.md, this arithmetic was the largest piece of the
 * server's extra cost per clock cycle).
 */
export function sessionBreak(presence: Presence, clockInDate: string, days: readonly ShiftDay[], timeZone: string, defaultBreak: number): SessionBreak {
  const p = presenceSpan(presence);
  const placed = placedDays(days, timeZone);
  const on = (offset: number) => placed.get(addDays(clockInDate, offset));
  const applying = applyingWithin(p, on(-1), on(0), on(1));
  const named = namedWithin(p, applying, clockInDate);
  if (!named) return { breakMinutes: defaultBreak, breakSource: 'default', shift: null };
  return { breakMinutes: minutesWithin(p, applying), breakSource: 'shift', shift: { shiftId: named.occurrence.shift.shiftId, name: named.occurrence.shift.name } };
}

/**
 * The placed occurrences of a calendar's days with a shift, by date, in `timeZone`: computed once per days array
 * (a worker's kept calendar is asked by every draft and submission of the worker's sessions that day).
 */
function placedDays(days: readonly ShiftDay[], timeZone: string): ReadonlyMap<string, Placed<NamedShift>> {
  const kept = placedByDays.get(days);
  if (kept?.timeZone === timeZone) return kept.byDate;
  const byDate = new Map<string, Placed<NamedShift>>();
  for (const d of days) if (d.shift) byDate.set(d.date, place({ date: d.date, shift: d.shift }, timeZone));
  if (days.length) placedByDays.set(days, { timeZone, byDate });
  return byDate;
}

const placedByDays = new WeakMap<readonly ShiftDay[], { readonly timeZone: string; readonly byDate: ReadonlyMap<string, Placed<NamedShift>> }>();

/**
 * The unpaid break windows (instants) of the occurrences of `days` that apply to a session clocked in on local date
 * `clockInDate` with presence `presence` (occurrencesApplying's rule): what the OEE read takes out of the device's
 * attended time (domain/oee.ts). None when no shift applies (a flat default break has no place in time).
 */
export function unpaidWindowsOf(presence: Presence, clockInDate: string, days: readonly ShiftDay[], timeZone: string): Span[] {
  const placed = placedDays(days, timeZone);
  const on = (offset: number) => placed.get(addDays(clockInDate, offset));
  return applyingWithin(presenceSpan(presence), on(-1), on(0), on(1)).flatMap((o) => o.unpaid);
}
