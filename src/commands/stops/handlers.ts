/**
 * The stop commands (停机; ./decider.ts): each one `runCommand` (command.ts) on the device's whole stream
 * `stops-<deviceNo>`, with the facts the decider needs read in the command's one statement and checked again in its
 * append's guard (commands/facts.ts): the device in use, the person (and for administrators and managers the device
 * inside their scope), clocked in on the device or not, the reasons named, the months written into, and the device's
 * attendance from the lasting stop's start (where it ends by the system). Run by src/http/routes/stops.ts.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/transaction.ts';
import type { ClockSettings } from '../../domain/clock.ts';
import { domainError } from '../../domain/errors.ts';
import { stopStreams } from '../../events/stop-events.ts';
import type { Actor } from '../../shared/actor.ts';
import { attendanceIntervals, systemEnd, type Stop } from '../../domain/stops.ts';
import { presenceLookBackHours } from '../../domain/presence-sql.ts';
import { runCommand, type CommandDeps } from '../command.ts';
import type { FactQuery, Facts } from '../facts.ts';
import { lastingStop, stopDecider, stopMonths, type StopCommand, type StopState } from './decider.ts';

/** What the stop commands need: the command path's dependencies and the clock settings (time zone, session limit). */
export interface StopDeps {
  readonly commands: CommandDeps;
  readonly clockSettings: ClockSettings;
}

/** A stop as the commands answer it: instants as Dates (the route formats them in APP_TIMEZONE). */
export interface StopAnswer {
  stopId: string;
  deviceNo: string;
  reasonCode: string;
  startAt: Date;
  endAt: Date | null;
  endedBySystem: boolean;
}

/** Administrators and managers act from the console (domain/decider.ts StopActor.office). */
const isOffice = (actor: Actor) => actor.role === 'admin' || actor.role === 'manager';

const answerOf = (s: Stop): StopAnswer => ({
  stopId: s.stopId,
  deviceNo: s.deviceNo,
  reasonCode: s.reasonCode,
  startAt: new Date(s.startAt),
  endAt: s.endAt === null ? null : new Date(s.endAt),
  endedBySystem: s.endedBySystem,
});

/** What a command of `kind` on the stops of `deviceNo` gives besides the facts: the command, the reasons it names, its months. */
interface StopRun {
  readonly reasonCodes: readonly string[];
  /** The months it writes into, given the state and now (ISO). */
  months(state: StopState, now: string): string[];
  command(base: Omit<Extract<StopCommand, { type: 'StartStop' }>, 'type' | 'stopId' | 'reasonCode'>): StopCommand;
  readonly stopId: string;
}

function run(deps: StopDeps, actor: Actor, deviceNo: string, r: StopRun): Promise<StopAnswer> {
  const tz = deps.clockSettings.timeZone;
  const office = isOffice(actor);
  const base: Omit<FactQuery, 'person'> = {
    deviceNo,
    ...(office ? { writeScope: [{ kind: 'device', code: deviceNo } as const] } : {}),
    onDevice: { phone: actor.phone, deviceNo },
    ...(r.reasonCodes.length ? { stopReasonCodes: r.reasonCodes } : {}),
  };
  return runCommand(deps.commands, actor, {
    decider: stopDecider,
    stream: { streamId: stopStreams.deviceStops(deviceNo), fold: stopDecider },
    facts: base,
    factsOf: (state, now) => {
      const lasting = lastingStop(state);
      return { months: r.months(state, now.toISOString()), ...(lasting ? { deviceAttendance: { deviceNo, from: lasting.startAt, lookBackHours: presenceLookBackHours(deps.clockSettings) } } : {}) };
    },
    command: (facts: Facts, now: Date) => {
      const at = now.toISOString();
      return r.command({
        deviceNo,
        now: at,
        timeZone: tz,
        by: { phone: actor.phone, name: facts.personName ?? null, office },
        facts: {
          onDevice: facts.onDevice === true,
          reasons: facts.stopReasons ?? [],
          closedMonths: facts.closedMonths,
          ...(facts.deviceAttendance ? { attendance: attendanceIntervals(facts.deviceAttendance, deps.clockSettings.sessionMaxMs) } : {}),
        },
      });
    },
    answer: (state) => {
      const s = state.stops[r.stopId];
      if (!s) throw new Error('no stop after a stop command');
      return answerOf(s);
    },
  });
}


/** The device of stop `stopId` (the `stops` read model), or STOP_NOT_FOUND. */
async function deviceOf(q: Queryable, stopId: string): Promise<string> {
  const r = await q.query(`SELECT device_no FROM stops WHERE stop_id = $1::uuid`, [stopId]);
  if (!r.rows[0]) throw domainError('STOP_NOT_FOUND', { stopId });
  return r.rows[0].device_no;
}

/**
 * 停机 from the phone: a stop of `deviceNo` for `reasonCode` from now. Throws DEVICE_NOT_FOUND, NOT_ON_DEVICE,
 * UNKNOWN_STOP_REASON, STOP_OVERLAPS, PERIOD_CLOSED, ROLE_REVOKED.
 */
export function startStop(deps: StopDeps, actor: Actor, deviceNo: string, reasonCode: string): Promise<StopAnswer> {
  const stopId = randomUUID();
  return run(deps, actor, deviceNo, {
    stopId,
    reasonCodes: [reasonCode],
    months: (_, now) => stopMonths({ startAt: now, endAt: now }, now, deps.clockSettings.timeZone),
    command: (b) => ({ ...b, type: 'StartStop', stopId, reasonCode }),
  });
}

/**
 * A past stop recorded by an administrator or manager, with both ends and a note. Throws INVALID_STOP,
 * UNKNOWN_STOP_REASON, STOP_OVERLAPS, PERIOD_CLOSED, NOT_IN_SCOPE, DEVICE_NOT_FOUND.
 */
export function recordStop(
  deps: StopDeps,
  actor: Actor,
  deviceNo: string,
  input: { reasonCode: string; startAt: string; endAt?: string | null; note?: string },
): Promise<StopAnswer> {
  const stopId = randomUUID();
  return run(deps, actor, deviceNo, {
    stopId,
    reasonCodes: [input.reasonCode],
    months: (_, now) => (input.endAt && input.endAt > input.startAt ? stopMonths({ startAt: input.startAt, endAt: input.endAt }, now, deps.clockSettings.timeZone) : []),
    command: (b) => ({ ...b, type: 'RecordStop', stopId, reasonCode: input.reasonCode, startAt: input.startAt, endAt: input.endAt, note: input.note }),
  });
}

/**
 * 恢复生产: ends stop `stopId` now (idempotent: an ended stop answers as it stands; one whose device the last worker
 * left ends there, by the system). Throws STOP_NOT_FOUND, NOT_ON_DEVICE, PERIOD_CLOSED.
 */
export async function endStop(deps: StopDeps, actor: Actor, stopId: string): Promise<StopAnswer> {
  const deviceNo = await deviceOf(deps.commands.reads, stopId);
  return run(deps, actor, deviceNo, {
    stopId,
    reasonCodes: [],
    months: (state, now) => {
      const s = state.stops[stopId];
      return s && s.endAt === null ? stopMonths({ startAt: s.startAt, endAt: now }, now, deps.clockSettings.timeZone) : [];
    },
    command: (b) => ({ ...b, type: 'EndStop', stopId }),
  });
}

/**
 * Corrects stop `stopId` (reason, start, end) with a note, audited before → after. Throws STOP_NOT_FOUND,
 * INVALID_STOP, UNKNOWN_STOP_REASON, STOP_OVERLAPS, PERIOD_CLOSED, NOT_IN_SCOPE.
 */
export async function correctStop(
  deps: StopDeps,
  actor: Actor,
  stopId: string,
  change: { reasonCode?: string; startAt?: string; endAt?: string | null; note?: string },
): Promise<StopAnswer> {
  const deviceNo = await deviceOf(deps.commands.reads, stopId);
  const tz = deps.clockSettings.timeZone;
  return run(deps, actor, deviceNo, {
    stopId,
    reasonCodes: change.reasonCode ? [change.reasonCode] : [],
    months: (state, now) => {
      const s = state.stops[stopId];
      if (!s) return [];
      const after = { startAt: change.startAt ?? s.startAt, endAt: change.endAt === undefined ? s.endAt : change.endAt };
      const valid = Date.parse(after.startAt) <= Date.parse(now) && (after.endAt === null || Date.parse(after.endAt) > Date.parse(after.startAt));
      return [...stopMonths(s, now, tz), ...(valid ? stopMonths(after, now, tz) : [])];
    },
    command: (b) => ({ ...b, type: 'CorrectStop', stopId, ...change, note: change.note }),
  });
}
