/**
 * The worker decider (spec 3.1, 2.3, 2.4; decisions.md "Clocking", "Reports and review"), pure.
 *
 * Consistency boundary: the stream `worker-<phone>`. Every clocking command and the submission decide on
 * the worker's state and append with the stream's expected version, so one worker never holds two open
 * sessions and one session never gives two reports, however requests race on however many instances.
 *
 * Commands (instants `now` are ISO 8601; ids are made by the caller so deciding stays pure):
 * - Start {deviceNo, sessionId}: no open session → ClockedIn (an over-age open session is first closed with
 *   SessionAbandoned). Repeating the start that opened the current session → nothing.
 * - SwitchDevice {deviceNo}: active session without the device → DeviceSwitched; repeating the last switch → nothing.
 * - Finish {deviceNo}: active session with the device → ClockedOut; window still open → nothing (the same
 *   window answers); window expired → ClockedOut `reopened` (重新报工: new clock-out time, new window).
 * - Submit {sessionId, reportId, lines, products, closedMonths, placement}: reporting session within its window →
 *   SessionReported and ReportSubmitted (for stream `report-<reportId>`), report date = the local date of `now` in
 *   the time zone, with the worker's team and workshop on that date (`placement`, a fact), with the report's plausibility flags (domain/plausibility.ts, under `settings.plausibility`);
 *   PERIOD_CLOSED when that date's month is closed (only a submission racing the close at
 *   the month's end, or on a clock behind the closer's, can meet it; the session stays open, so nothing is lost).
 *   The starting break (domain/shift-breaks.ts `sessionBreak`): from the unpaid windows of the
 *   worker's shift(s) overlapping the presence (`shiftDays`, a fact), source `shift` with the shift; else
 *   DEFAULT_BREAK_MINUTES (at most the minutes worked), source `default`.
 *   Crew work (commands/crew-lines.ts): a line with `crew` records each member's share; CREW_LINE_REPORTED,
 *   NOT_IN_CREW (`crew`, a fact: presence on the device in the session, the lines counting people already).
 * - Abandon {sessionId}: the job's command; an over-age open session → SessionAbandoned, else nothing.
 * Refusals are domain errors: CLOCK_STATE_CONFLICT with the label that fits, and those of domain/clock.ts
 * (REPORT_WINDOW_EXPIRED, SESSION_ABANDONED, REPORT_ALREADY_SUBMITTED, SESSION_NOT_FOUND) and report-lines.ts.
 */
import type { Decider } from '../decider.ts';
import { crewLines, type CrewFacts } from '../crew-lines.ts';
import type { EventData, WorkerEvent } from '../../events/catalog.ts';
import { localDate } from '../../time.ts';
import { domainError } from '../../domain/errors.ts';
import { monthOf } from '../../domain/period.ts';
import {
  clockStateConflict,
  initialBreakMinutes,
  isOverAge,
  labelAt,
  openOrNone,
  phaseOf,
  reportableSession,
  reportAlreadySubmitted,
  sessionAbandoned,
  sessionNotFound,
  windowEnd,
  type ClockSettings,
  type Session,
} from '../../domain/clock.ts';
import type { LineInput, ProductSnapshot } from '../../domain/report-line.ts';
import type { Placement } from '../../domain/placement.ts';
import { plausibilityFlags } from '../../domain/plausibility.ts';
import { buildReportLines } from '../report-lines.ts';
import type { DefectReason } from '../../domain/defect-reasons.ts';
import { sessionBreak, type ShiftDay } from '../../domain/shift-breaks.ts';
import { DEFAULT_FLOW_BOUNDS, flowFlags } from '../../domain/work-order-flow.ts';
import type { WorkOrderFact } from '../facts.ts';


interface Base {
  employeePhone: string;
  /** ISO 8601 instant of the decision (the service clock). */
  now: string;
}
export type WorkerCommand =
  | (Base & { type: 'Start'; deviceNo: string; sessionId: string })
  | (Base & { type: 'SwitchDevice'; deviceNo: string })
  | (Base & { type: 'Finish'; deviceNo: string })
  | (Base & {
      type: 'Submit';
      sessionId: string;
      reportId: string;
      lines: LineInput[];
      products: ProductSnapshot[];
      closedMonths: readonly string[];
      /** The worker's team and workshop on the report date (a fact). */
      placement: Placement;
      /**
       * The worker's calendar around the local date of the session's clock-in (a fact: each
       * date's team and its shift, domain/shift-breaks.ts ShiftDay); absent or for another date: no shift.
       */
      shiftDays?: readonly ShiftDay[];
      /** The defect reasons the lines name (a fact: those that exist, with category and active). */
      defectReasons?: readonly DefectReason[];
      /** The work orders the lines name (a fact: those that exist, with their other reports' pieces). */
      workOrders?: readonly WorkOrderFact[];
      /** Crew work: presence, the lines counting people already, names (a fact; commands/crew-lines.ts). */
      crew?: CrewFacts;
    })
  | (Base & { type: 'Abandon'; sessionId: string; reason: string });

type ReportSubmittedEvent = { type: 'ReportSubmitted'; data: EventData<'ReportSubmitted'> };
/** What the decider emits: worker-stream events, and ReportSubmitted for the report's own stream. */
export type WorkerDecision = WorkerEvent | ReportSubmittedEvent;

/** A session of the worker state: the session, and its last event (to recognise a repeated operation). */
export type WorkerSession = Session & { readonly last: { readonly type: WorkerEvent['type']; readonly deviceNo?: string } };

export interface WorkerState {
  /** The worker's latest session, whatever its status; undefined before the first clock-in. */
  readonly latest: WorkerSession | undefined;
  /** Closed sessions seen in the loaded events, by id. */
  readonly closed: Readonly<Record<string, { readonly status: 'reported' | 'abandoned'; readonly reportId?: string }>>;
}

export const initialWorkerState: WorkerState = { latest: undefined, closed: {} };

/**
 * Applies one event to the worker state (pure): ClockedIn opens the latest session, DeviceSwitched adds a device,
 * ClockedOut moves it to `reporting` with its clock-out and window end, SessionReported / SessionAbandoned close it
 * and record it in `closed`. Events of a session other than the latest change at most `closed`; ReportSubmitted
 * changes nothing.
 */
export function evolve(state: WorkerState, event: WorkerDecision): WorkerState {
  if (event.type === 'ClockedIn') {
    const d = event.data;
    return {
      ...state,
      latest: { status: 'active', sessionId: d.sessionId, clockInAt: d.at, devices: [d.deviceNo], last: { type: 'ClockedIn', deviceNo: d.deviceNo } },
    };
  }
  if (event.type === 'ReportSubmitted') return state;
  const d = event.data;
  let closed = state.closed;
  if (event.type === 'SessionReported') closed = { ...closed, [d.sessionId]: { status: 'reported', reportId: event.data.reportId } };
  if (event.type === 'SessionAbandoned') closed = { ...closed, [d.sessionId]: { status: 'abandoned' } };
  const s = state.latest;
  if (!s || s.sessionId !== d.sessionId) return { ...state, closed };
  const base = { sessionId: s.sessionId, clockInAt: s.clockInAt, devices: s.devices };
  switch (event.type) {
    case 'DeviceSwitched': {
      const devices = s.devices.includes(event.data.deviceNo) ? s.devices : [...s.devices, event.data.deviceNo];
      return { ...state, latest: { ...s, devices, last: { type: 'DeviceSwitched', deviceNo: event.data.deviceNo } } };
    }
    case 'ClockedOut':
      return {
        ...state,
        latest: { ...base, status: 'reporting', clockOutAt: event.data.at, expiresAt: event.data.expiresAt, last: { type: 'ClockedOut', deviceNo: event.data.deviceNo } },
      };
    case 'SessionReported':
      return { closed, latest: { ...base, status: 'reported', reportId: event.data.reportId, last: { type: 'SessionReported' } } };
    case 'SessionAbandoned':
      return { closed, latest: { ...base, status: 'abandoned', last: { type: 'SessionAbandoned' } } };
  }
}

const ABANDON_REASON_AT_START = '超过最长上班时长未下班报工，开始新的上班时自动结束';

/** The decider for `settings` (limits from config). */
export function workerDecider(settings: ClockSettings): Decider<WorkerCommand, WorkerState, WorkerDecision> {
  return {
    initialState: initialWorkerState,
    evolve,
    decide(cmd, state) {
      const now = new Date(cmd.now);
      const at = now.toISOString();
      const open = openOrNone(state.latest);
      const p = phaseOf(open, now, settings);
      const who = { employeePhone: cmd.employeePhone };
      switch (cmd.type) {
        case 'Start': {
          if (p.phase === 'none') {
            const out: WorkerDecision[] = [];
            if (open) out.push({ type: 'SessionAbandoned', data: { sessionId: open.sessionId, ...who, at, reason: ABANDON_REASON_AT_START } });
            out.push({ type: 'ClockedIn', data: { sessionId: cmd.sessionId, ...who, deviceNo: cmd.deviceNo, at } });
            return out;
          }
          if (p.phase === 'active' && open?.last.type === 'ClockedIn' && open.last.deviceNo === cmd.deviceNo) return [];
          throw clockStateConflict(labelAt(open, cmd.deviceNo, now, settings), 'start');
        }
        case 'SwitchDevice': {
          if (p.phase === 'active') {
            if (!p.session.devices.includes(cmd.deviceNo)) {
              return [{ type: 'DeviceSwitched', data: { sessionId: p.session.sessionId, ...who, deviceNo: cmd.deviceNo, at } }];
            }
            if (open?.last.type === 'DeviceSwitched' && open.last.deviceNo === cmd.deviceNo) return [];
          }
          throw clockStateConflict(labelAt(open, cmd.deviceNo, now, settings), 'switchDevice');
        }
        case 'Finish': {
          if (p.phase === 'window-open') return [];
          if ((p.phase === 'active' && p.session.devices.includes(cmd.deviceNo)) || p.phase === 'window-expired') {
            const data = {
              sessionId: p.session.sessionId,
              ...who,
              deviceNo: cmd.deviceNo,
              at,
              expiresAt: windowEnd(now, settings).toISOString(),
              reopened: p.phase === 'window-expired',
            };
            return [{ type: 'ClockedOut', data }];
          }
          throw clockStateConflict(labelAt(open, cmd.deviceNo, now, settings), 'finish');
        }
        case 'Submit':
          return submit(cmd, state, now, settings);
        case 'Abandon': {
          if (open && open.sessionId === cmd.sessionId && isOverAge(open, now, settings)) {
            return [{ type: 'SessionAbandoned', data: { sessionId: open.sessionId, ...who, at, reason: cmd.reason } }];
          }
          return [];
        }
      }
    },
  };
}

function submit(cmd: Extract<WorkerCommand, { type: 'Submit' }>, state: WorkerState, now: Date, settings: ClockSettings): WorkerDecision[] {
  if (state.latest?.sessionId !== cmd.sessionId) {
    const closed = state.closed[cmd.sessionId];
    if (closed?.status === 'reported') throw reportAlreadySubmitted(cmd.sessionId, closed.reportId);
    if (closed?.status === 'abandoned') throw sessionAbandoned(cmd.sessionId, settings);
    throw sessionNotFound();
  }
  const s = reportableSession(state.latest, now, settings);
  const reportDate = localDate(now, settings.timeZone);
  if (cmd.closedMonths.includes(monthOf(reportDate))) throw domainError('PERIOD_CLOSED', { month: monthOf(reportDate) }, { write: 'submit' });
  const byId = new Map(cmd.products.map((p) => [p.productId, p]));
  const built = buildReportLines(
    cmd.lines,
    (id) => {
      const p = byId.get(id);
      return p && s.devices.includes(p.deviceNo) ? p : undefined;
    },
    (line, productId) => domainError('PRODUCT_NOT_CANDIDATE', { line, productId }),
    { reasons: cmd.defectReasons ?? [], required: settings.defectReasonsRequired === true },
    { orders: cmd.workOrders ?? [] },
  );
  const at = now.toISOString();
  const clockOutAt = new Date(s.clockOutAt).toISOString();
  const clockInAt = new Date(s.clockInAt).toISOString();
  // Crew work: who each line counts (commands/crew-lines.ts).
  const lines = crewLines(built, cmd.lines, cmd.crew, {
    submitter: cmd.employeePhone,
    window: { from: clockInAt, to: clockOutAt },
    mode: settings.crewSplit ?? 'presence',
    timeZone: settings.timeZone,
    now: at,
  });
  // The break from the worker's shift(s) when the calendar of the clock-in date is known.
  const clockInDate = localDate(new Date(s.clockInAt), settings.timeZone);
  const days = cmd.shiftDays?.some((d) => d.date === clockInDate) ? cmd.shiftDays : [];
  const started = sessionBreak({ clockInAt, clockOutAt }, clockInDate, days, settings.timeZone, initialBreakMinutes(s.clockInAt, s.clockOutAt, settings.defaultBreakMinutes));
  const breakMinutes = started.breakMinutes;
  return [
    { type: 'SessionReported', data: { sessionId: s.sessionId, employeePhone: cmd.employeePhone, reportId: cmd.reportId, at } },
    {
      type: 'ReportSubmitted',
      data: {
        reportId: cmd.reportId,
        employeePhone: cmd.employeePhone,
        reportDate,
        sessionId: s.sessionId,
        clockInAt,
        clockOutAt,
        breakMinutes,
        devices: [...s.devices],
        lines,
        flags: [...plausibilityFlags({ clockInAt, clockOutAt, breakMinutes, lines }, settings.plausibility), ...flowFlags(lines, cmd.workOrders ?? [], settings.workOrderFlow ?? DEFAULT_FLOW_BOUNDS)],
        workshopCode: cmd.placement.workshopCode,
        teamCode: cmd.placement.teamCode,
        breakSource: started.breakSource,
        shift: started.shift,
        at,
      },
    },
  ];
}
