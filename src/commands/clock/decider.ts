/**
 * The worker decider (spec 3.1, 2.3, 2.4; decisions.md "Clocking", "Reports and review"), pure.
 *
 * Consistency boundary: the stream `worker-<phone>`. Every clocking command and the submission decide on
 * the worker's whole state and append with the stream's expected version, so one worker never holds two open
 * sessions and one session never gives two reports, however requests race on however many instances.
 *
 * Commands (instants `now` are ISO 8601; ids are made by the caller so deciding stays pure):
 * - Start {deviceNo, sessionId}: no open session → ClockedIn (an over-age open session is first closed with
 *   SessionAbandoned). Repeating the start that opened the current session → nothing.
 * - SwitchDevice {deviceNo}: active session without the device → DeviceSwitched; repeating the last switch → nothing.
 * - Finish {deviceNo}: active session with the device → ClockedOut; window still open → nothing (the same
 *   window answers); window expired → ClockedOut `reopened` (重新报工: new clock-out time, new window).
 * - Submit {sessionId, reportId, lines, products}: reporting session within its window → SessionReported and
 *   ReportSubmitted (for stream `report-<reportId>`), report date = the local date of `now` in the time zone.
 * - Abandon {sessionId}: the job's command; an over-age open session → SessionAbandoned, else nothing.
 * An operation that does not fit the state throws 409 CLOCK_STATE_CONFLICT with the label that fits; other
 * errors: rules.ts (409 REPORT_WINDOW_EXPIRED, SESSION_ABANDONED, REPORT_ALREADY_SUBMITTED; 404
 * SESSION_NOT_FOUND) and lines.ts (422).
 */
import type { Decider } from '../decider.ts';
import type { ReportLine, WorkerEvent, EventData } from '../../events/catalog.ts';
import { localDate } from '../../time.ts';
import { buildReportLines, type LineInput, type ProductSnapshot } from '../report-lines.ts';
import { unprocessable } from '../../errors.ts';
import {
  assertReportable,
  clockStateConflict,
  initialBreakMinutes,
  isOverAge,
  labelAt,
  phaseOf,
  reportAlreadySubmitted,
  sessionAbandoned,
  sessionNotFound,
  windowEnd,
  type ClockLimits,
  type OpenSession,
} from './rules.ts';

export interface ClockSettings extends ClockLimits {
  /** APP_TIMEZONE: the report date is the confirmation day there. */
  readonly timeZone: string;
  /** DEFAULT_BREAK_MINUTES. */
  readonly defaultBreakMinutes: number;
}

interface Base {
  employeePhone: string;
  /** ISO 8601 instant of the decision (the service clock). */
  now: string;
}
export type WorkerCommand =
  | (Base & { type: 'Start'; deviceNo: string; sessionId: string })
  | (Base & { type: 'SwitchDevice'; deviceNo: string })
  | (Base & { type: 'Finish'; deviceNo: string })
  | (Base & { type: 'Submit'; sessionId: string; reportId: string; lines: LineInput[]; products: ProductSnapshot[] })
  | (Base & { type: 'Abandon'; sessionId: string; reason: string });

type ReportSubmittedEvent = { type: 'ReportSubmitted'; data: EventData<'ReportSubmitted'> };
/** What the decider emits: worker-stream events, and ReportSubmitted for the report's own stream. */
export type WorkerDecision = WorkerEvent | ReportSubmittedEvent;

export interface SessionState {
  sessionId: string;
  status: 'active' | 'reporting' | 'reported' | 'abandoned';
  clockInAt: string;
  devices: string[];
  clockOutAt?: string;
  expiresAt?: string;
  reportId?: string;
  /** The last event of the session, to recognise a repeated operation. */
  last: { type: WorkerEvent['type']; deviceNo?: string };
}

export interface WorkerState {
  /** The worker's latest session, whatever its status. */
  latest?: SessionState;
  /** Closed sessions seen in the loaded events, by id. */
  closed: Record<string, { status: 'reported' | 'abandoned'; reportId?: string }>;
}

/** The latest session when it is open (active or reporting). */
export function openSession(state: WorkerState): (OpenSession & SessionState) | undefined {
  const s = state.latest;
  return s && (s.status === 'active' || s.status === 'reporting') ? (s as OpenSession & SessionState) : undefined;
}

/**
 * Applies one event to the worker state (pure): ClockedIn opens the latest session, DeviceSwitched adds a device,
 * ClockedOut moves it to `reporting` with its clock-out and window end, SessionReported / SessionAbandoned close it
 * and record it in `closed`. Events of a session other than the latest change at most `closed`; ReportSubmitted
 * changes nothing.
 */
export function evolve(state: WorkerState, event: WorkerDecision): WorkerState {
  const s = state.latest;
  switch (event.type) {
    case 'ClockedIn':
      return {
        ...state,
        latest: {
          sessionId: event.data.sessionId,
          status: 'active',
          clockInAt: event.data.at,
          devices: [event.data.deviceNo],
          last: { type: 'ClockedIn', deviceNo: event.data.deviceNo },
        },
      };
    case 'DeviceSwitched':
      if (!s || s.sessionId !== event.data.sessionId) return state;
      return {
        ...state,
        latest: {
          ...s,
          devices: s.devices.includes(event.data.deviceNo) ? s.devices : [...s.devices, event.data.deviceNo],
          last: { type: 'DeviceSwitched', deviceNo: event.data.deviceNo },
        },
      };
    case 'ClockedOut':
      if (!s || s.sessionId !== event.data.sessionId) return state;
      return {
        ...state,
        latest: {
          ...s,
          status: 'reporting',
          clockOutAt: event.data.at,
          expiresAt: event.data.expiresAt,
          last: { type: 'ClockedOut', deviceNo: event.data.deviceNo },
        },
      };
    case 'SessionAbandoned':
    case 'SessionReported': {
      const status = event.type === 'SessionReported' ? 'reported' : 'abandoned';
      const reportId = event.type === 'SessionReported' ? event.data.reportId : undefined;
      const closed = { ...state.closed, [event.data.sessionId]: { status, reportId } } as WorkerState['closed'];
      if (!s || s.sessionId !== event.data.sessionId) return { ...state, closed };
      return { latest: { ...s, status, reportId, last: { type: event.type } }, closed };
    }
    default:
      return state;
  }
}

const ABANDON_REASON_AT_START = '超过最长上班时长未下班报工，开始新的上班时自动结束';

/** The decider for `settings` (limits from config). */
export function workerDecider(settings: ClockSettings): Decider<WorkerCommand, WorkerState, WorkerDecision> {
  return {
    initialState: { closed: {} },
    evolve,
    decide(cmd, state) {
      const now = new Date(cmd.now);
      const at = now.toISOString();
      const open = openSession(state);
      const phase = phaseOf(open, now, settings);
      const who = { employeePhone: cmd.employeePhone };
      switch (cmd.type) {
        case 'Start': {
          if (phase === 'none') {
            const out: WorkerDecision[] = [];
            if (open) out.push({ type: 'SessionAbandoned', data: { sessionId: open.sessionId, ...who, at, reason: ABANDON_REASON_AT_START } });
            out.push({ type: 'ClockedIn', data: { sessionId: cmd.sessionId, ...who, deviceNo: cmd.deviceNo, at } });
            return out;
          }
          if (phase === 'active' && open!.last.type === 'ClockedIn' && open!.last.deviceNo === cmd.deviceNo) return [];
          throw clockStateConflict(labelAt(open, cmd.deviceNo, now, settings), '现在不能开始上班：');
        }
        case 'SwitchDevice': {
          if (phase === 'active') {
            if (!open!.devices.includes(cmd.deviceNo)) {
              return [{ type: 'DeviceSwitched', data: { sessionId: open!.sessionId, ...who, deviceNo: cmd.deviceNo, at } }];
            }
            if (open!.last.type === 'DeviceSwitched' && open!.last.deviceNo === cmd.deviceNo) return [];
          }
          throw clockStateConflict(labelAt(open, cmd.deviceNo, now, settings), '现在不能换设备：');
        }
        case 'Finish': {
          if (phase === 'window-open') return [];
          if ((phase === 'active' && open!.devices.includes(cmd.deviceNo)) || phase === 'window-expired') {
            return [
              {
                type: 'ClockedOut',
                data: {
                  sessionId: open!.sessionId,
                  ...who,
                  deviceNo: cmd.deviceNo,
                  at,
                  expiresAt: windowEnd(now, settings).toISOString(),
                  reopened: phase === 'window-expired',
                },
              },
            ];
          }
          throw clockStateConflict(labelAt(open, cmd.deviceNo, now, settings), '现在不能下班报工：');
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

function submit(
  cmd: Extract<WorkerCommand, { type: 'Submit' }>,
  state: WorkerState,
  now: Date,
  settings: ClockSettings,
): WorkerDecision[] {
  const s = state.latest?.sessionId === cmd.sessionId ? state.latest : undefined;
  if (!s) {
    const closed = state.closed[cmd.sessionId];
    if (closed?.status === 'reported') throw reportAlreadySubmitted(cmd.sessionId, closed.reportId);
    if (closed?.status === 'abandoned') throw sessionAbandoned(cmd.sessionId, settings);
    throw sessionNotFound();
  }
  assertReportable(s, now, settings);

  const byId = new Map(cmd.products.map((p) => [p.productId, p]));
  const lines: ReportLine[] = buildReportLines(
    cmd.lines,
    (id) => {
      const p = byId.get(id);
      return p && s.devices.includes(p.deviceNo) ? p : undefined;
    },
    (line, productId) =>
      unprocessable('PRODUCT_NOT_CANDIDATE', `第 ${line} 行：所选产品不是本次上班所用设备的产品，请刷新报工单后重新选择`, { line, productId }),
  );
  const at = now.toISOString();
  const reportDate = localDate(now, settings.timeZone);
  return [
    { type: 'SessionReported', data: { sessionId: s.sessionId, employeePhone: cmd.employeePhone, reportId: cmd.reportId, at } },
    {
      type: 'ReportSubmitted',
      data: {
        reportId: cmd.reportId,
        employeePhone: cmd.employeePhone,
        reportDate,
        sessionId: s.sessionId,
        clockInAt: s.clockInAt,
        clockOutAt: s.clockOutAt!,
        breakMinutes: initialBreakMinutes(s.clockInAt, s.clockOutAt!, settings.defaultBreakMinutes),
        devices: s.devices,
        lines,
        at,
      },
    },
  ];
}
