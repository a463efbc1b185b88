/**
 * The worker's commands (spec 3.1, 4.6; decisions.md "Clocking", "Reports and review"): each is one
 * `runCommand` (command.ts) of the worker decider on the worker stream `worker-<phone>`, read from the latest
 * session's ClockedIn on. The worker is the token's person, never the body's.
 *
 * - `startClock`, `switchDevice`, `finishClock`: the scanned device is a fact of the decision; the answer is the
 *   session as it stands after the decision, so a repeated operation (nothing appended, confirmed on fresh
 *   state) answers as the first did.
 * - `submitReport`: appends SessionReported to the worker stream and ReportSubmitted to the new stream
 *   `report-<reportId>` (expected version 0), with the products' fields copied into the lines (the products
 *   named are facts of the decision, and so is the month of the report date: it must be open; and the
 *   worker's team and workshop on the report date, recorded in ReportSubmitted).
 * - `abandonSession`: the abandonment job's command, as the system, inside the job's transaction.
 */
import { defectReasonFacts, workOrderFacts } from '../report-lines.ts';
import { labelAt, openOrNone, sessionNotFound, type ClockLabel, type ClockSettings } from '../../domain/clock.ts';
import type { CrewShareRecord, LineInput } from '../../domain/report-line.ts';
import { scannedDeviceNo, type DeviceRef } from '../../devices/device.ts';
import { streams } from '../../events/catalog.ts';
import { monthOf } from '../../domain/period.ts';
import { NO_PLACEMENT } from '../../domain/placement.ts';
import { localDate } from '../../time.ts';
import type { Actor } from '../../shared/actor.ts';
import { runCommand, SYSTEM, type CommandDeps } from '../command.ts';
import { timeOrderedId } from '../../ids.ts';
import type { StreamQuery } from '../repository.ts';
import { workerDecider, type WorkerCommand, type WorkerDecision, type WorkerState } from './decider.ts';

export type { DeviceRef };

/** What the worker's commands need: the command path's dependencies and the clock settings. */
export interface ClockDeps {
  readonly commands: CommandDeps;
  readonly clockSettings: ClockSettings;
}

/** The answer of start and switch-device. Instants are Dates (the route formats them in APP_TIMEZONE). */
export interface ClockSessionAnswer {
  sessionId: string;
  clockInAt: Date;
  devices: string[];
  /** The label a scan of the same device now gives (下班报工). */
  label: ClockLabel;
}

/** The answer of finish (下班报工 / 重新报工). */
export interface FinishAnswer extends ClockSessionAnswer {
  clockOutAt: Date;
  expiresAt: Date;
}

export interface SubmitAnswer {
  reportId: string;
  reportDate: string;
  status: 'pending';
  /** Crew work: the crew lines (1-based line numbers) with their members' shares; absent when none. */
  crewLines?: { line: number; productId: number; shares: CrewShareRecord[] }[];
}

/** The worker stream of `phone`, read in sections from a session's ClockedIn on. */
const workerStream = (deps: ClockDeps, phone: string): StreamQuery<WorkerState> => ({
  streamId: streams.worker(phone),
  fold: workerDecider(deps.clockSettings),
  sectionType: 'ClockedIn',
  keep: true,
});

/** The latest session of `state`, which a clock operation has just left in place (else a defect). */
function latestOf(state: WorkerState) {
  if (!state.latest) throw new Error('no session after a clock operation');
  return state.latest;
}

/** One clock operation at the scanned device; `answer` from the session after it. */
async function clockOperation<R>(
  deps: ClockDeps,
  actor: Actor,
  device: DeviceRef,
  type: 'Start' | 'SwitchDevice' | 'Finish',
  answer: (state: WorkerState, base: ClockSessionAnswer) => R,
): Promise<R> {
  const deviceNo = await scannedDeviceNo(deps.commands.reads, device);
  const sessionId = timeOrderedId(deps.commands.clock.now());
  return runCommand(deps.commands, actor, {
    decider: workerDecider(deps.clockSettings),
    stream: workerStream(deps, actor.phone),
    facts: { deviceNo },
    command: (_, now): WorkerCommand => {
      const base = { employeePhone: actor.phone, now: now.toISOString(), deviceNo };
      return type === 'Start' ? { type, sessionId, ...base } : { type, ...base };
    },
    answer: (state, _, now) => {
      const s = latestOf(state);
      const label = labelAt(openOrNone(s), deviceNo, now, deps.clockSettings).label;
      return answer(state, { sessionId: s.sessionId, clockInAt: new Date(s.clockInAt), devices: [...s.devices], label });
    },
  });
}

/** POST /api/clock/start (spec 3.1 开始上班). Throws ROLE_REVOKED, DEVICE_NOT_FOUND, CLOCK_STATE_CONFLICT. */
export const startClock = (deps: ClockDeps, actor: Actor, device: DeviceRef) => clockOperation(deps, actor, device, 'Start', (_, a) => a);

/** POST /api/clock/switch-device (spec 3.1 换设备). Throws ROLE_REVOKED, DEVICE_NOT_FOUND, CLOCK_STATE_CONFLICT. */
export const switchDevice = (deps: ClockDeps, actor: Actor, device: DeviceRef) => clockOperation(deps, actor, device, 'SwitchDevice', (_, a) => a);

/**
 * POST /api/clock/finish (spec 3.1 下班报工, and 重新报工 on an expired window; within the window it answers
 * the same window). Throws ROLE_REVOKED, DEVICE_NOT_FOUND, CLOCK_STATE_CONFLICT.
 */
export const finishClock = (deps: ClockDeps, actor: Actor, device: DeviceRef) =>
  clockOperation(deps, actor, device, 'Finish', (state, a): FinishAnswer => {
    const s = latestOf(state);
    if (s.status !== 'reporting') throw new Error(`a finished session is ${s.status}`);
    return { ...a, clockOutAt: new Date(s.clockOutAt), expiresAt: new Date(s.expiresAt) };
  });

/**
 * POST /api/reports: the worker confirms the report of `sessionId` (spec 4.6, decisions.md "Reports and
 * review"). Throws ROLE_REVOKED, SESSION_NOT_FOUND (also for another worker's session), REPORT_WINDOW_EXPIRED,
 * REPORT_ALREADY_SUBMITTED, SESSION_ABANDONED, CLOCK_STATE_CONFLICT (not clocked out), PERIOD_CLOSED, and the
 * lines' errors (report-lines.ts).
 */
export async function submitReport(deps: ClockDeps, actor: Actor, input: { sessionId: string; lines: LineInput[] }): Promise<SubmitAnswer> {
  const reportId = timeOrderedId(deps.commands.clock.now());
  return runCommand(deps.commands, actor, {
    decider: workerDecider(deps.clockSettings),
    stream: {
      ...workerStream(deps, actor.phone),
      // The section from the named session's ClockedIn (when it is the worker's own).
      locate: {
        find: async (q) =>
          (await q.query(`SELECT opened_version FROM sessions WHERE session_id = $1 AND employee_phone = $2`, [input.sessionId, actor.phone])).rows[0]
            ?.opened_version,
        covers: (state) => state.latest?.sessionId === input.sessionId,
      },
    },
    missing: sessionNotFound,
    facts: (now) => {
      const reportDate = localDate(now, deps.clockSettings.timeZone);
      return {
        productIds: input.lines.map((l) => l.productId).filter((id) => Number.isSafeInteger(id)),
        months: [monthOf(reportDate)],
        // The team and workshop on the report date (the decider's reportDate: the same instant).
        placementOf: { phone: actor.phone, date: reportDate },
        ...defectReasonFacts(input.lines),
        ...workOrderFacts(input.lines),
      };
    },
    // The worker's shift calendar around the session's clock-in date (src/shifts/sql.ts).
    // And crew work: who was on the crew lines' devices during the session, who counts whom already (src/crew/sql.ts).
    factsOf: (state, now) => {
      const s = state.latest;
      if (s?.sessionId !== input.sessionId) return {};
      const crew = s.status === 'reporting' ? crewQuery(deps, actor.phone, s, input.lines, now) : {};
      return { shiftsOf: { phone: actor.phone, date: localDate(new Date(s.clockInAt), deps.clockSettings.timeZone) }, ...crew };
    },
    command: (facts, now): WorkerCommand => ({
      type: 'Submit',
      employeePhone: actor.phone,
      now: now.toISOString(),
      sessionId: input.sessionId,
      reportId,
      lines: input.lines,
      products: [...facts.products],
      closedMonths: facts.closedMonths,
      placement: facts.placement ?? NO_PLACEMENT,
      shiftDays: facts.shiftDays,
      defectReasons: facts.defectReasons,
      workOrders: facts.workOrders,
      ...(facts.crew ? { crew: facts.crew } : {}),
    }),
    newStreamOf: (e) => (e.type === 'ReportSubmitted' ? streams.report(e.data.reportId) : undefined),
    answer: (_, events) => {
      const submitted = events.find((e): e is Extract<WorkerDecision, { type: 'ReportSubmitted' }> => e.type === 'ReportSubmitted');
      if (!submitted) throw new Error('a submission without ReportSubmitted');
      const crewLines = submitted.data.lines.flatMap((l, i) => (l.shares ? [{ line: i + 1, productId: l.productId, shares: l.shares }] : []));
      return { reportId: submitted.data.reportId, reportDate: submitted.data.reportDate, status: 'pending', ...(crewLines.length ? { crewLines } : {}) };
    },
  });
}

/** Phones as a line's `crew` may give them (anything else names nobody and is refused by the decider). */
const phonesOf = (crew: unknown): string[] => (Array.isArray(crew) ? crew.filter((p): p is string => typeof p === 'string') : []);

/** The crew fact of a submission of `lines` for the reporting session `s` (commands/facts.ts `crewOf`). */
function crewQuery(deps: ClockDeps, phone: string, s: { clockInAt: string | Date; clockOutAt: string | Date }, lines: readonly LineInput[], now: Date) {
  const ids = (ls: readonly LineInput[]) => ls.map((l) => l.productId).filter((id) => Number.isSafeInteger(id));
  return {
    crewOf: {
      from: new Date(s.clockInAt).toISOString(),
      to: new Date(s.clockOutAt).toISOString(),
      productIds: ids(lines),
      crewProductIds: ids(lines.filter((l) => l.crew !== undefined)),
      phones: [phone, ...lines.flatMap((l) => phonesOf(l.crew))],
      date: localDate(now, deps.clockSettings.timeZone),
      lookBackHours: Math.ceil(deps.clockSettings.sessionMaxMs / 3_600_000) + 24,
    },
  };
}

/**
 * Closes `sessionId` of `phone` as abandoned if it is still open and over age at the clock's now; `deps.commands`
 * reads and writes in the job's transaction. Returns true when it appended SessionAbandoned. Throws
 * StreamVersionConflict when the worker acted meanwhile (the job skips that session).
 */
export async function abandonSession(deps: ClockDeps, phone: string, sessionId: string, reason: string): Promise<boolean> {
  return runCommand(
    deps.commands,
    SYSTEM,
    {
      decider: workerDecider(deps.clockSettings),
      stream: workerStream(deps, phone),
      command: (_, now): WorkerCommand => ({ type: 'Abandon', employeePhone: phone, now: now.toISOString(), sessionId, reason }),
      answer: (_, events) => events.length > 0,
    },
    { maxAttempts: 1 },
  );
}
