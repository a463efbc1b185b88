/**
 * The stop decider (停机; domain/stops.ts), pure, on the stream `stops-<deviceNo>`: the consistency boundary of
 * "one stop per device at a time". State: the device's stops by id.
 *
 * Facts every command brings (commands/facts.ts, checked again in the guard of its append): the reason named (exists,
 * active), the months the stop's times fall in (closed ones), whether the person is clocked in on the device, and
 * `lastingEnd`: for the stop recorded as lasting (if any), where the device's attendance run holding its start ended
 * (null: it lasts; domain/stops.ts `systemEnd`).
 *
 * - StartStop {stopId, reasonCode} (停机, from the phone): NOT_ON_DEVICE (409) unless the person is clocked in on the
 *   device; UNKNOWN_STOP_REASON (422); PERIOD_CLOSED; a lasting stop whose run ended is first ended there
 *   (StopEnded, bySystem); one still lasting is STOP_OVERLAPS (422, naming it) → StopStarted at now, endAt null.
 * - RecordStop {stopId, reasonCode, startAt, endAt, note} (an administrator's or manager's past stop): INVALID_STOP
 *   (endAt needed, end after start, nothing in the future, a note), UNKNOWN_STOP_REASON, PERIOD_CLOSED for any
 *   month of its days, STOP_OVERLAPS with any other stop of the device → StopStarted with both ends.
 * - EndStop {stopId} (恢复生产): STOP_NOT_FOUND; an ended stop → nothing (idempotent: the answer is the stop as it
 *   stands); a worker must be on the device (NOT_ON_DEVICE; administrators and managers may end one from the
 *   console); a run already ended → StopEnded at its end, bySystem; else StopEnded at now.
 * - CorrectStop {stopId, reasonCode?, startAt?, endAt?, note}: the times and reason before → after (StopCorrected),
 *   under the rules of RecordStop for the interval after (a lasting stop may stay lasting), PERIOD_CLOSED also for
 *   the months of the interval before; nothing changed → nothing.
 */
import type { Decider } from '../decider.ts';
import type { EventData, StopEvent } from '../../events/catalog.ts';
import { domainError } from '../../domain/errors.ts';
import { monthOf } from '../../domain/period.ts';
import type { StopReason } from '../../domain/stop-reasons.ts';
import { overlapping, systemEnd, type Stop, type StopSpan } from '../../domain/stops.ts';
import type { Interval } from '../../domain/intervals.ts';
import { addDays, localDate, toZonedIso } from '../../time.ts';

/** Who acts on a stop. */
export interface StopActor {
  readonly phone: string;
  readonly name: string | null;
  /** An administrator or manager (the console): may record past stops, correct them, end one off the device. */
  readonly office: boolean;
}

/** The facts a stop command brings (module docstring). */
export interface StopFacts {
  readonly onDevice: boolean;
  readonly reasons: readonly StopReason[];
  readonly closedMonths: readonly string[];
  /**
   * The device's attendance from the lasting stop's start (domain/stops.ts attendanceIntervals; `to` Infinity while
   * a worker is on it); absent when no stop is lasting.
   */
  readonly attendance?: readonly Interval[];
}

interface Base {
  readonly deviceNo: string;
  readonly now: string;
  readonly by: StopActor;
  readonly facts: StopFacts;
  readonly timeZone: string;
}
export type StopCommand =
  | (Base & { readonly type: 'StartStop'; readonly stopId: string; readonly reasonCode: string })
  | (Base & { readonly type: 'RecordStop'; readonly stopId: string; readonly reasonCode: string; readonly startAt: string; readonly endAt: string | null | undefined; readonly note: string | undefined })
  | (Base & { readonly type: 'EndStop'; readonly stopId: string })
  | (Base & {
      readonly type: 'CorrectStop';
      readonly stopId: string;
      readonly reasonCode?: string;
      readonly startAt?: string;
      readonly endAt?: string | null;
      readonly note: string | undefined;
    });

export interface StopState {
  readonly stops: Readonly<Record<string, Stop>>;
}

const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();

/** The stop recorded as lasting, if any. */
export const lastingStop = (state: StopState): Stop | undefined => Object.values(state.stops).find((s) => s.endAt === null);

/** Every local month [from, to] touches (`to` null: up to `now`). */
function monthsOf(fromIso: string, toIso: string | null, now: string, timeZone: string): string[] {
  const first = localDate(new Date(fromIso), timeZone);
  const last = localDate(new Date(toIso ?? now), timeZone);
  const out = new Set<string>();
  for (let d = first; d <= last; d = addDays(d, 1)) out.add(monthOf(d));
  return [...out];
}

/** The months a command writes into (its facts ask them: each must be open). */
export function stopMonths(c: { startAt: string; endAt: string | null }, now: string, timeZone: string): string[] {
  return monthsOf(c.startAt, c.endAt, now, timeZone);
}

function checkReason(code: string, reasons: readonly StopReason[]): void {
  const r = reasons.find((x) => x.code === code);
  if (!r || !r.active) throw domainError('UNKNOWN_STOP_REASON', { reasonCode: code }, { inactive: r !== undefined });
}

function checkMonths(months: readonly string[], closed: readonly string[]): void {
  const hit = months.find((m) => closed.includes(m));
  if (hit) throw domainError('PERIOD_CLOSED', { month: hit }, { write: 'stop' });
}

/**
 * For the lasting stop of `state`: the ISO end of the attendance run holding its start (domain/stops.ts systemEnd),
 * null while the run lasts; undefined when no stop is lasting or the attendance was not read.
 */
export function lastingEnd(state: StopState, attendance: readonly Interval[] | undefined): string | null | undefined {
  const lasting = lastingStop(state);
  if (!lasting || !attendance) return undefined;
  const end = systemEnd(ms(lasting.startAt), attendance);
  return end === null ? null : iso(end);
}

/** The other stops of the state as spans, a lasting one up to its system end (or without end). */
function spansOf(state: StopState, except: string, lastingEnd: string | null | undefined): StopSpan[] {
  return Object.values(state.stops)
    .filter((s) => s.stopId !== except)
    .map((s) => ({ stopId: s.stopId, reasonCode: s.reasonCode, from: ms(s.startAt), to: s.endAt !== null ? ms(s.endAt) : typeof lastingEnd === 'string' ? ms(lastingEnd) : Infinity }));
}

function refuseOverlap(from: number, to: number, state: StopState, except: string, c: Base): void {
  const o = overlapping(from, to, spansOf(state, except, lastingEnd(state, c.facts.attendance)));
  if (!o) return;
  const stop = state.stops[o.stopId];
  const local = (t: string) => toZonedIso(new Date(t), c.timeZone).slice(5, 16).replace('T', ' ');
  const span = `${stop.reasonCode} ${local(stop.startAt)}–${stop.endAt ? local(stop.endAt).slice(-5) : '至今'}`;
  throw domainError('STOP_OVERLAPS', { stopId: o.stopId, reasonCode: stop.reasonCode, startAt: stop.startAt, endAt: stop.endAt }, { span });
}

/** The checks of a stop's interval given by a person (RecordStop, CorrectStop). */
function checkTimes(startAt: string, endAt: string | null, note: string | undefined, now: string): void {
  if (!note || note.trim().length === 0) throw domainError('INVALID_STOP', { problem: 'note' });
  if (endAt !== null && ms(endAt) <= ms(startAt)) throw domainError('INVALID_STOP', { problem: 'order' });
  if (ms(startAt) > ms(now) || (endAt !== null && ms(endAt) > ms(now))) throw domainError('INVALID_STOP', { problem: 'future' });
}

/** StopEnded by the system for the lasting stop when its attendance run ended before `now`. */
function systemEnded(state: StopState, c: Base): Extract<StopEvent, { type: 'StopEnded' }>[] {
  const lasting = lastingStop(state);
  const end = lastingEnd(state, c.facts.attendance);
  if (!lasting || typeof end !== 'string' || ms(end) > ms(c.now)) return [];
  const endAt = iso(Math.max(ms(end), ms(lasting.startAt)));
  return [{ type: 'StopEnded', data: { stopId: lasting.stopId, deviceNo: c.deviceNo, endAt, bySystem: true, by: null, at: c.now } }];
}

export const stopDecider: Decider<StopCommand, StopState, StopEvent> = {
  initialState: { stops: {} },

  decide(c, state) {
    const by = { phone: c.by.phone, name: c.by.name };
    switch (c.type) {
      case 'StartStop': {
        if (!c.facts.onDevice) throw domainError('NOT_ON_DEVICE', { deviceNo: c.deviceNo });
        checkReason(c.reasonCode, c.facts.reasons);
        checkMonths(stopMonths({ startAt: c.now, endAt: c.now }, c.now, c.timeZone), c.facts.closedMonths);
        const ended = systemEnded(state, c);
        const after = ended.reduce(stopDecider.evolve, state);
        refuseOverlap(ms(c.now), Infinity, after, c.stopId, c);
        return [...ended, { type: 'StopStarted', data: { stopId: c.stopId, deviceNo: c.deviceNo, reasonCode: c.reasonCode, startAt: c.now, endAt: null, note: null, by, at: c.now } }];
      }
      case 'RecordStop': {
        if (!c.endAt) throw domainError('INVALID_STOP', { problem: 'endNeeded' });
        checkTimes(c.startAt, c.endAt, c.note, c.now);
        checkReason(c.reasonCode, c.facts.reasons);
        checkMonths(stopMonths(c as { startAt: string; endAt: string }, c.now, c.timeZone), c.facts.closedMonths);
        refuseOverlap(ms(c.startAt), ms(c.endAt), state, c.stopId, c);
        const data = { stopId: c.stopId, deviceNo: c.deviceNo, reasonCode: c.reasonCode, startAt: iso(ms(c.startAt)), endAt: iso(ms(c.endAt)), note: c.note!.trim(), by, at: c.now };
        return [{ type: 'StopStarted', data }];
      }
      case 'EndStop': {
        const stop = state.stops[c.stopId];
        if (!stop) throw domainError('STOP_NOT_FOUND', { stopId: c.stopId });
        if (stop.endAt !== null) return [];
        const ended = systemEnded(state, c);
        if (ended.length) return ended;
        if (!c.facts.onDevice && !c.by.office) throw domainError('NOT_ON_DEVICE', { deviceNo: c.deviceNo });
        checkMonths(stopMonths({ startAt: stop.startAt, endAt: c.now }, c.now, c.timeZone), c.facts.closedMonths);
        return [{ type: 'StopEnded', data: { stopId: c.stopId, deviceNo: c.deviceNo, endAt: c.now, bySystem: false, by, at: c.now } }];
      }
      case 'CorrectStop': {
        const stop = state.stops[c.stopId];
        if (!stop) throw domainError('STOP_NOT_FOUND', { stopId: c.stopId });
        const after = {
          reasonCode: c.reasonCode ?? stop.reasonCode,
          startAt: c.startAt !== undefined ? iso(ms(c.startAt)) : stop.startAt,
          endAt: c.endAt === undefined ? stop.endAt : c.endAt === null ? null : iso(ms(c.endAt)),
        };
        const before = { reasonCode: stop.reasonCode, startAt: stop.startAt, endAt: stop.endAt };
        if (after.reasonCode === before.reasonCode && after.startAt === before.startAt && after.endAt === before.endAt) return [];
        checkTimes(after.startAt, after.endAt, c.note, c.now);
        if (after.reasonCode !== before.reasonCode) checkReason(after.reasonCode, c.facts.reasons);
        checkMonths([...stopMonths(before, c.now, c.timeZone), ...stopMonths(after, c.now, c.timeZone)], c.facts.closedMonths);
        const runEnd = lastingEnd(state, c.facts.attendance);
        const lasting = after.endAt === null && typeof runEnd === 'string' ? ms(runEnd) : Infinity;
        refuseOverlap(ms(after.startAt), after.endAt !== null ? ms(after.endAt) : lasting, state, c.stopId, c);
        return [{ type: 'StopCorrected', data: { stopId: c.stopId, deviceNo: c.deviceNo, before, after, note: c.note!.trim(), by, at: c.now } }];
      }
    }
  },

  evolve(state, event) {
    const d = event.data as EventData<'StopStarted'> & EventData<'StopEnded'> & EventData<'StopCorrected'>;
    const stops = { ...state.stops };
    if (event.type === 'StopStarted') {
      const s = event.data;
      stops[s.stopId] = { stopId: s.stopId, deviceNo: s.deviceNo, reasonCode: s.reasonCode, startAt: s.startAt, endAt: s.endAt, endedBySystem: false };
    } else if (event.type === 'StopEnded') {
      const s = stops[d.stopId];
      if (s) stops[d.stopId] = { ...s, endAt: event.data.endAt, endedBySystem: event.data.bySystem };
    } else {
      const s = stops[d.stopId];
      const a = event.data.after;
      if (s) stops[d.stopId] = { ...s, reasonCode: a.reasonCode, startAt: a.startAt, endAt: a.endAt, endedBySystem: a.endAt === null ? false : s.endedBySystem && a.endAt === s.endAt };
    }
    return { stops };
  },
};
