/**
 * The clocking rules of spec 3.1 and decisions.md "Clocking", pure and in one place: what a session is, the
 * phase of a worker's open session at an instant, the one action label a scan answers, the report filling
 * window, the abandonment of over-age sessions and the starting break interval. The worker decider
 * (commands/clock) and the state and draft queries (queries/) judge with the same functions, so they always
 * agree. Refusals are domain errors (domain/errors.ts).
 *
 * Instants are ISO 8601 strings or Dates; durations milliseconds (`ClockLimits`); break intervals whole minutes.
 */
import type { FlowBounds } from './work-order-flow.ts';
import type { CrewSplitMode } from './crew-split.ts';
import { domainError, type ClockAttempt, type DomainError } from './errors.ts';
import { LABELS, type ClockLabel } from './labels.ts';
import type { PlausibilityBounds } from './plausibility.ts';

export { LABELS, ALL_LABELS, type ClockLabel } from './labels.ts';

export interface ClockLimits {
  /** Report filling validity from the ClockedOut time, ms (REPORT_WINDOW_MINUTES). */
  readonly reportWindowMs: number;
  /** Age from clock-in after which a session is abandoned, ms (SESSION_MAX_HOURS). */
  readonly sessionMaxMs: number;
}

/**
 * The clock settings of the service (from the configuration): the limits, the factory's zone, the starting break,
 * and the bounds of the plausibility flags a submission is judged by.
 */
export interface ClockSettings extends ClockLimits {
  /** APP_TIMEZONE: the report date is the confirmation day there. */
  readonly timeZone: string;
  /** DEFAULT_BREAK_MINUTES. */
  readonly defaultBreakMinutes: number;
  /** PLAUSIBLE_MIN_CYCLE_RATIO, PLAUSIBLE_MAX_WORKLOAD_RATIO, SESSION_MAX_HOURS − 1 h (domain/plausibility.ts). */
  readonly plausibility: PlausibilityBounds;
  /** DEFECT_REASONS_REQUIRED: a line's defect reasons must cover every defective piece (commands/report-lines.ts). */
  readonly defectReasonsRequired?: boolean;
  /** WORK_ORDER_FLOW_TOLERANCE and WORK_ORDER_OVERRUN_RATIO: the flow flags of lines naming work orders (domain/work-order-flow.ts). */
  readonly workOrderFlow?: FlowBounds;
  /** CREW_SPLIT: how a crew line is split among its members (domain/crew-split.ts); absent: presence. */
  readonly crewSplit?: CrewSplitMode;
}

export type Instant = string | Date;

interface SessionBase {
  readonly sessionId: string;
  readonly clockInAt: Instant;
  /** Devices used, in the order of first use. */
  readonly devices: readonly string[];
}
/** Clocked in. */
export interface ActiveSession extends SessionBase {
  readonly status: 'active';
}
/** Clocked out; the report window ends at `expiresAt` (open or over). */
export interface ReportingSession extends SessionBase {
  readonly status: 'reporting';
  readonly clockOutAt: Instant;
  readonly expiresAt: Instant;
}
/** Its report was submitted. */
export interface ReportedSession extends SessionBase {
  readonly status: 'reported';
  readonly reportId: string;
}
/** Closed by age without a report. */
export interface AbandonedSession extends SessionBase {
  readonly status: 'abandoned';
}
/** A clock session (spec 2.3), as the worker decider and the `sessions` read model both know it. */
export type Session = ActiveSession | ReportingSession | ReportedSession | AbandonedSession;
/** A session that is not closed. */
export type OpenSession = ActiveSession | ReportingSession;

/** The session when it is open (active or reporting), else undefined. */
export const openOrNone = <S extends Session>(s: S | undefined): Extract<S, OpenSession> | undefined =>
  s && (s.status === 'active' || s.status === 'reporting') ? (s as Extract<S, OpenSession>) : undefined;

/**
 * - none: no open session (or one that is abandoned by age, see `isOverAge`)
 * - active: clocked in
 * - window-open: clocked out, report window not over (now ≤ expiresAt: "within 30 minutes")
 * - window-expired: clocked out, more than the window ago, not submitted
 */
export type Phase =
  | { readonly phase: 'none' }
  | { readonly phase: 'active'; readonly session: ActiveSession }
  | { readonly phase: 'window-open' | 'window-expired'; readonly session: ReportingSession };

const ms = (t: Instant) => (typeof t === 'string' ? Date.parse(t) : t.getTime());

/** End of the report window for a clock-out at `clockOutAt`. */
export const windowEnd = (clockOutAt: Date, limits: ClockLimits): Date => new Date(clockOutAt.getTime() + limits.reportWindowMs);

/** True while a report window ending at `expiresAt` is still open at `now` (the edge itself is inside). */
export const withinWindow = (expiresAt: Instant, now: Date): boolean => now.getTime() <= ms(expiresAt);

/**
 * True when an open session is abandoned by age (decisions.md "Clocking": a forgotten clock-out must not
 * become a 30-hour report): more than SESSION_MAX_HOURS since clock-in, and, for a session already clocked out,
 * its report window is over too (a window still open may be used to the end).
 */
export function isOverAge(s: OpenSession, now: Date, limits: ClockLimits): boolean {
  if (now.getTime() - ms(s.clockInAt) <= limits.sessionMaxMs) return false;
  return s.status === 'active' || !withinWindow(s.expiresAt, now);
}

/** The phase of the worker's open session `s` (undefined: none) at `now`, with the session it concerns. */
export function phaseOf(s: OpenSession | undefined, now: Date, limits: ClockLimits): Phase {
  if (!s || isOverAge(s, now, limits)) return { phase: 'none' };
  if (s.status === 'active') return { phase: 'active', session: s };
  return { phase: withinWindow(s.expiresAt, now) ? 'window-open' : 'window-expired', session: s };
}

export interface LabelAnswer {
  label: ClockLabel;
  sessionId?: string;
  /** End of the report window (继续报工 and 重新报工). */
  expiresAt?: Date;
}

/** The one label of spec 3.1 for a worker scanning `deviceNo` at `now`, with the session it refers to. */
export function labelAt(s: OpenSession | undefined, deviceNo: string, now: Date, limits: ClockLimits): LabelAnswer {
  const p = phaseOf(s, now, limits);
  switch (p.phase) {
    case 'none':
      return { label: LABELS.start };
    case 'active':
      return { label: p.session.devices.includes(deviceNo) ? LABELS.finish : LABELS.switchDevice, sessionId: p.session.sessionId };
    case 'window-open':
    case 'window-expired':
      return {
        label: p.phase === 'window-open' ? LABELS.continueReport : LABELS.reReport,
        sessionId: p.session.sessionId,
        expiresAt: new Date(ms(p.session.expiresAt)),
      };
  }
}

/**
 * The break interval a report starts with (decisions.md: DEFAULT_BREAK_MINUTES), whole minutes, never more
 * than the whole minutes worked, so that effective working time is never negative.
 */
export function initialBreakMinutes(clockInAt: Instant, clockOutAt: Instant, defaultBreakMinutes: number): number {
  const worked = Math.floor(Math.max(0, ms(clockOutAt) - ms(clockInAt)) / 60_000);
  return Math.min(defaultBreakMinutes, worked);
}

// ---- refusals -------------------------------------------------------------------------------------------

/** CLOCK_STATE_CONFLICT: `attempt` does not fit the state; `answer.label` is the label that does. */
export const clockStateConflict = (answer: LabelAnswer, attempt: ClockAttempt): DomainError<'CLOCK_STATE_CONFLICT'> =>
  domainError('CLOCK_STATE_CONFLICT', { label: answer.label, ...(answer.sessionId ? { sessionId: answer.sessionId } : {}) }, { attempt });

/** REPORT_WINDOW_EXPIRED (spec 3.1 rule 2): scan again and use 重新报工. */
export const reportWindowExpired = (sessionId: string, limits: ClockLimits) =>
  domainError('REPORT_WINDOW_EXPIRED', { label: LABELS.reReport, sessionId }, { windowMinutes: limits.reportWindowMs / 60_000 });

/** SESSION_ABANDONED: the session was closed by age; the next scan starts a new one. */
export const sessionAbandoned = (sessionId: string, limits: ClockLimits) =>
  domainError('SESSION_ABANDONED', { label: LABELS.start, sessionId }, { maxHours: limits.sessionMaxMs / 3_600_000 });

/** REPORT_ALREADY_SUBMITTED: one session gives at most one report. */
export const reportAlreadySubmitted = (sessionId: string, reportId: string | undefined) =>
  domainError('REPORT_ALREADY_SUBMITTED', { sessionId, ...(reportId ? { reportId } : {}) });

/** SESSION_NOT_FOUND: no such session of this worker. */
export const sessionNotFound = () => domainError('SESSION_NOT_FOUND');

/**
 * Spec 3.1 rule 2, for the draft and the submission alike: the report of session `s` may be filled in at `now`
 * only when it is clocked out and its window is open; returns the session then. Throws DomainError
 * REPORT_ALREADY_SUBMITTED, SESSION_ABANDONED (closed or over age), CLOCK_STATE_CONFLICT with 下班报工 (not
 * clocked out yet), REPORT_WINDOW_EXPIRED.
 */
export function reportableSession(s: Session, now: Date, limits: ClockLimits): ReportingSession {
  if (s.status === 'reported') throw reportAlreadySubmitted(s.sessionId, s.reportId);
  if (s.status === 'abandoned') throw sessionAbandoned(s.sessionId, limits);
  const p = phaseOf(s, now, limits);
  switch (p.phase) {
    case 'none':
      throw sessionAbandoned(s.sessionId, limits);
    case 'active':
      throw clockStateConflict({ label: LABELS.finish, sessionId: s.sessionId }, 'report');
    case 'window-expired':
      throw reportWindowExpired(s.sessionId, limits);
    case 'window-open':
      return p.session;
  }
}
