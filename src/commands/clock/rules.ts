/**
 * The clocking rules of spec 3.1 and decisions.md "Clocking", pure and in one place: the phase of a worker's
 * open session at an instant, the one action label a scan answers, the report filling window, the
 * abandonment of over-age sessions, the starting break interval, and the errors that name the label that fits.
 * Used by the worker decider (commands) and the state and draft queries alike, so both always agree.
 *
 * Instants are ISO 8601 strings or Dates; durations milliseconds (`ClockLimits`).
 */
import { AppError, conflict } from '../../errors.ts';

/** The action labels of spec 3.1 (exact interface values). */
export const LABELS = {
  start: '开始上班',
  switchDevice: '换设备',
  finish: '下班报工',
  continueReport: '继续报工',
  reReport: '重新报工',
} as const;
export type ClockLabel = (typeof LABELS)[keyof typeof LABELS];
export const ALL_LABELS = Object.values(LABELS) as [ClockLabel, ...ClockLabel[]];

export interface ClockLimits {
  /** Report filling validity from the ClockedOut time, ms (REPORT_WINDOW_MINUTES). */
  readonly reportWindowMs: number;
  /** Age from clock-in after which a session is abandoned, ms (SESSION_MAX_HOURS). */
  readonly sessionMaxMs: number;
}

/** What the rules need to know of a session that is not closed (reported or abandoned). */
export interface OpenSession {
  readonly sessionId: string;
  readonly status: 'active' | 'reporting';
  readonly clockInAt: string | Date;
  readonly devices: readonly string[];
  /** Present when status is 'reporting'. */
  readonly clockOutAt?: string | Date;
  readonly expiresAt?: string | Date;
}

/**
 * - none: no open session (or one that is abandoned by age, see `isOverAge`)
 * - active: clocked in
 * - window-open: clocked out, report window not over (now ≤ expiresAt: "within 30 minutes")
 * - window-expired: clocked out, more than the window ago, not submitted
 */
export type Phase = 'none' | 'active' | 'window-open' | 'window-expired';

const ms = (t: string | Date) => (typeof t === 'string' ? Date.parse(t) : t.getTime());

/** End of the report window for a clock-out at `clockOutAt`. */
export const windowEnd = (clockOutAt: Date, limits: ClockLimits): Date => new Date(clockOutAt.getTime() + limits.reportWindowMs);

/** True while a report window ending at `expiresAt` is still open at `now` (the edge itself is inside). */
export const withinWindow = (expiresAt: string | Date, now: Date): boolean => now.getTime() <= ms(expiresAt);

/**
 * True when an open session is abandoned by age (decisions.md "Clocking": a forgotten clock-out must not
 * become a 30-hour report): more than SESSION_MAX_HOURS since clock-in, and, for a session already clocked out,
 * its report window is over too (a window still open may be used to the end).
 */
export function isOverAge(s: OpenSession, now: Date, limits: ClockLimits): boolean {
  if (now.getTime() - ms(s.clockInAt) <= limits.sessionMaxMs) return false;
  return s.status === 'active' || !withinWindow(s.expiresAt!, now);
}

/** The phase of the worker's open session `s` (undefined: none) at `now`. */
export function phaseOf(s: OpenSession | undefined, now: Date, limits: ClockLimits): Phase {
  if (!s || isOverAge(s, now, limits)) return 'none';
  if (s.status === 'active') return 'active';
  return withinWindow(s.expiresAt!, now) ? 'window-open' : 'window-expired';
}

export interface LabelAnswer {
  label: ClockLabel;
  sessionId?: string;
  /** End of the report window (继续报工 and 重新报工). */
  expiresAt?: Date;
}

/** The one label of spec 3.1 for a worker scanning `deviceNo` at `now`, with the session it refers to. */
export function labelAt(s: OpenSession | undefined, deviceNo: string, now: Date, limits: ClockLimits): LabelAnswer {
  const phase = phaseOf(s, now, limits);
  switch (phase) {
    case 'none':
      return { label: LABELS.start };
    case 'active':
      return { label: s!.devices.includes(deviceNo) ? LABELS.finish : LABELS.switchDevice, sessionId: s!.sessionId };
    case 'window-open':
      return { label: LABELS.continueReport, sessionId: s!.sessionId, expiresAt: new Date(ms(s!.expiresAt!)) };
    case 'window-expired':
      return { label: LABELS.reReport, sessionId: s!.sessionId, expiresAt: new Date(ms(s!.expiresAt!)) };
  }
}

/**
 * The break interval a report starts with (decisions.md: DEFAULT_BREAK_MINUTES), whole minutes, never more
 * than the whole minutes worked, so that effective working time is never negative.
 */
export function initialBreakMinutes(clockInAt: string | Date, clockOutAt: string | Date, defaultBreakMinutes: number): number {
  const worked = Math.floor(Math.max(0, ms(clockOutAt) - ms(clockInAt)) / 60_000);
  return Math.min(defaultBreakMinutes, worked);
}

// ---- errors ---------------------------------------------------------------------------------------------

const LABEL_HINTS: Record<ClockLabel, string> = {
  开始上班: '您当前没有进行中的上班记录，请点击“开始上班”',
  换设备: '这台设备还不在本次上班记录中，请点击“换设备”',
  下班报工: '这台设备已在本次上班记录中，请点击“下班报工”',
  继续报工: '您已下班，报工单还在填写时限内，请点击“继续报工”完成提交',
  重新报工: '报工单已超过填写时限，请点击“重新报工”',
};

/** 409 CLOCK_STATE_CONFLICT: the operation does not fit the state; `details.label` is the one that does. */
export function clockStateConflict(answer: LabelAnswer, intro = '当前状态不能进行此操作：', hint = LABEL_HINTS[answer.label]): AppError {
  return conflict('CLOCK_STATE_CONFLICT', intro + hint, {
    label: answer.label,
    ...(answer.sessionId ? { sessionId: answer.sessionId } : {}),
  });
}

const minutesText = (windowMs: number) => String(Number((windowMs / 60_000).toFixed(2)));
const hoursText = (maxMs: number) => String(Number((maxMs / 3_600_000).toFixed(2)));

/** 409 REPORT_WINDOW_EXPIRED (spec 3.1 rule 2): scan again and use 重新报工. */
export function reportWindowExpired(sessionId: string, limits: ClockLimits): AppError {
  return conflict(
    'REPORT_WINDOW_EXPIRED',
    `报工单已超过 ${minutesText(limits.reportWindowMs)} 分钟的填写时限，请重新扫描设备码并点击“重新报工”`,
    { label: LABELS.reReport, sessionId },
  );
}

/** 409 SESSION_ABANDONED: the session was closed by age; the next scan starts a new one. */
export function sessionAbandoned(sessionId: string, limits: ClockLimits): AppError {
  return conflict(
    'SESSION_ABANDONED',
    `这次上班已超过 ${hoursText(limits.sessionMaxMs)} 小时未完成报工，已自动结束，不能再提交；请扫描设备码重新“开始上班”`,
    { label: LABELS.start, sessionId },
  );
}

/** 409 REPORT_ALREADY_SUBMITTED: one session gives at most one report. */
export function reportAlreadySubmitted(sessionId: string, reportId: string | undefined): AppError {
  return conflict('REPORT_ALREADY_SUBMITTED', '这次上班的报工单已经提交过了，不能重复提交；可在“我的报工”中查看', {
    sessionId,
    ...(reportId ? { reportId } : {}),
  });
}

/** 404 SESSION_NOT_FOUND: no such session of this worker (another worker's session is never revealed). */
export const sessionNotFound = () => new AppError(404, 'SESSION_NOT_FOUND', '没有找到这次上班记录，请重新扫描设备码');

/** A session of any status, as the decider and the `sessions` read model both know it. */
export interface AnySession extends Omit<OpenSession, 'status'> {
  readonly status: OpenSession['status'] | 'reported' | 'abandoned';
  readonly reportId?: string | null;
}

/**
 * Spec 3.1 rule 2, for the draft and the submission alike: the session's report may be filled in now only
 * when it is clocked out and its window is open. Throws 409 REPORT_ALREADY_SUBMITTED, SESSION_ABANDONED
 * (closed or over age), CLOCK_STATE_CONFLICT with 下班报工 (not clocked out yet), REPORT_WINDOW_EXPIRED.
 */
export function assertReportable(s: AnySession, now: Date, limits: ClockLimits): void {
  if (s.status === 'reported') throw reportAlreadySubmitted(s.sessionId, s.reportId ?? undefined);
  if (s.status === 'abandoned') throw sessionAbandoned(s.sessionId, limits);
  const phase = phaseOf(s as OpenSession, now, limits);
  if (phase === 'none') throw sessionAbandoned(s.sessionId, limits);
  if (phase === 'active') throw clockStateConflict({ label: LABELS.finish, sessionId: s.sessionId }, '还没有下班，不能填写报工单：', '请先扫描设备码并点击“下班报工”');
  if (phase === 'window-expired') throw reportWindowExpired(s.sessionId, limits);
}
