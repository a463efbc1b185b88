/**
 * Domain errors: what a decider, a domain rule or the command path refuses, as a typed value: a
 * stable code, the `details` a client may act on (sent in the answer's `error.details`), and the `context` the
 * sentence needs besides (never sent). There is no HTTP status and no sentence here: the HTTP edge maps each code
 * to both in one table (src/http/domain-errors.ts), which the type checker keeps complete.
 *
 * `domainError(code, details?, context?)` makes one; `DomainErrorCatalog` lists every code with its shapes.
 */
import type { ClockLabel } from './labels.ts';
import type { ShiftProblem } from './shift-breaks.ts';

/** What a worker tried when the clock state refused it (the sentence names it). */
export type ClockAttempt = 'start' | 'switchDevice' | 'finish' | 'report';
/** The quantity fields of a line (domain/report-line.ts). */
export type QuantityField = 'finishedQty' | 'defectiveQty' | 'outputQty';
type ReportStatus = 'pending' | 'approved' | 'rejected';
type Line = { line: number; productId: number };
/** What a write into a closed month tried (the sentence says what to do). */
export type PeriodWrite = 'review' | 'breakChange' | 'rate' | 'submit' | 'stop';
/** A reason's use: a reject's (required), a break change's, a rate's (optional) or a reopen's (required). */
export type ReasonPurpose = 'reject' | 'breakChange' | 'rate' | 'reopen';
/** A rate field. */
export type RateField = 'pieceRate' | 'defectRate' | 'materialDefectRate';
/** What keeps a month from closing; the refusal lists them all at once. */
export type CloseBlocker = 'PERIOD_NOT_ENDED' | 'PERIOD_HAS_PENDING' | 'PERIOD_HAS_UNPRICED';
/** The details of a refused close: every blocker, with the reports (at most CLOSE_LIST_MAX of each kind) and counts. */
export interface CloseBlockers {
  month: string;
  blockers: CloseBlocker[];
  pending: { reportId: string; reportDate: string; employeePhone: string; employeeName: string | null }[];
  pendingTotal: number;
  unpriced: { reportId: string; reportDate: string; employeePhone: string; employeeName: string | null; productId: number; projectNo: string; productName: string; deviceNo: string; processName: string }[];
  unpricedTotal: number;
}

/** The writes only a person of the whole factory makes (domain/scope.ts, the rule of writes). */
export type WholeFactoryWrite = 'createWorkshop' | 'shift' | 'scope' | 'defectReason' | 'stopReason';

/** Every domain error code → its public details and its context (for the sentence only); `never`: none. */
export interface DomainErrorCatalog {
  /** The token's person no longer holds its role (removed, or the role taken away). */
  ROLE_REVOKED: { details: never; context: never };
  /** No product uses the scanned (or named) device. */
  DEVICE_NOT_FOUND: { details: never; context: never };
  /** No such session of this worker (another worker's session is never revealed). */
  SESSION_NOT_FOUND: { details: never; context: never };
  /** The operation does not fit the clock state; `label` is the one that does (spec 3.1). */
  CLOCK_STATE_CONFLICT: { details: { label: ClockLabel; sessionId?: string }; context: { attempt: ClockAttempt } };
  /** The report window is over: scan again and use 重新报工 (spec 3.1 rule 2). */
  REPORT_WINDOW_EXPIRED: { details: { label: ClockLabel; sessionId: string }; context: { windowMinutes: number } };
  /** The session was closed by age (decisions.md "Clocking"). */
  SESSION_ABANDONED: { details: { label: ClockLabel; sessionId: string }; context: { maxHours: number } };
  /** One session gives at most one report. */
  REPORT_ALREADY_SUBMITTED: { details: { sessionId: string; reportId?: string }; context: never };
  /** A submitted line names a product that is not on the session's devices. */
  PRODUCT_NOT_CANDIDATE: { details: Line; context: never };
  /**
   * Crew work: a crew line names someone who was not on the line's device during the submitter's session (the window
   * as local instants; null in a correction, which names a member not recorded).
   */
  NOT_IN_CREW: {
    details: { line: number; phone: string; name: string | null; deviceNo: string; windowFrom: string | null; windowTo: string | null };
    context: { from: string | null; to: string | null };
  };
  /** Crew work: another's crew line counts the worker already for this product on this device then. */
  CREW_LINE_REPORTED: { details: { line: number; productId: number; reportId: string; submitter: string; submitterName: string | null }; context: never };
  /** A corrected line names a product neither on the report nor on its devices. */
  PRODUCT_NOT_ALLOWED: { details: Line; context: never };
  NO_LINES: { details: never; context: never };
  TOO_MANY_LINES: { details: never; context: { max: number } };
  INVALID_QUANTITY: { details: { line: number; field: QuantityField }; context: { max: number } };
  OUTPUT_QTY_MISMATCH: { details: { line: number; expected: number }; context: { finishedQty: number; defectiveQty: number; given: number } };
  /** finished + defective, the output, is over the limit of a quantity (a rule across fields). */
  OUTPUT_QTY_TOO_LARGE: { details: { line: number; max: number }; context: { finishedQty: number; defectiveQty: number } };
  DUPLICATE_PRODUCT: { details: Line; context: { productName: string; processName: string } };
  REPORT_NOT_FOUND: { details: never; context: never };
  REPORT_ALREADY_REVIEWED: { details: { status: ReportStatus }; context: never };
  /** A reject's or a reopen's reason (1–max characters), a break change's or a rate's (at most max). */
  INVALID_REASON: { details: never; context: { purpose: ReasonPurpose; max: number } };
  REPORT_REJECTED: { details: { status: ReportStatus }; context: never };
  INVALID_BREAK_MINUTES: { details: never; context: never };
  BREAK_EXCEEDS_WORKING_TIME: { details: { maxBreakMinutes: number }; context: never };
  /** No such product (a rate names it). */
  PRODUCT_NOT_FOUND: { details: never; context: never };
  /** A rate out of its rules (a negative piece rate, out of range): the edge's parsing refuses it first. */
  INVALID_RATE: { details: { field: RateField }; context: never };
  /** A write into a month that is closed: approve, correct, reject, break change, rate, submission. */
  PERIOD_CLOSED: { details: { month: string }; context: { write: PeriodWrite } };
  /** A close refused: the month has not ended, reports are pending, lines are unpriced (all listed at once). */
  PERIOD_NOT_ENDED: { details: CloseBlockers; context: never };
  PERIOD_HAS_PENDING: { details: CloseBlockers; context: never };
  PERIOD_HAS_UNPRICED: { details: CloseBlockers; context: never };
  /** A close of a month already closed. */
  PERIOD_ALREADY_CLOSED: { details: { month: string; version: number }; context: never };
  /** A reopen of a month that is not closed. */
  PERIOD_NOT_CLOSED: { details: { month: string }; context: never };
  // ---- organization ----
  /** A workshop with this code exists already (codes are unique and never reused). */
  WORKSHOP_EXISTS: { details: { code: string }; context: never };
  /** No workshop with this code (a path names it, or a team or device refers to it). */
  WORKSHOP_NOT_FOUND: { details: { code: string }; context: never };
  /** A team with this code exists already. */
  TEAM_EXISTS: { details: { code: string }; context: never };
  /** No team with this code. */
  TEAM_NOT_FOUND: { details: { code: string }; context: never };
  /** A team leader's phone is not a person in personnel. */
  LEADER_NOT_FOUND: { details: { phone: string }; context: never };
  /** A member must be a person with the worker role. */
  NOT_A_WORKER: { details: { phone: string }; context: never };
  /** A membership date that would rewrite the history: the earliest date allowed is `earliest`. */
  MEMBERSHIP_DATE_TOO_EARLY: { details: { earliest: string }; context: { action: 'join' | 'end' } };
  /** Ending a membership when the worker is in no team (or the open one ended already). */
  NO_OPEN_MEMBERSHIP: { details: { phone: string }; context: never };
  // ---- shifts: shifts ----
  /** No such shift (PUT /api/shifts/{shiftId}). */
  SHIFT_NOT_FOUND: { details: never; context: never };
  /** A line's defect reasons: a qty not an integer ≥ 1, or a reason twice (`index`: 0-based in the line's list). */
  INVALID_DEFECTS: { details: { line: number; index: number; problem: 'qty' | 'duplicate' }; context: never };
  /** A line names a defect reason that does not exist or is deactivated. */
  UNKNOWN_DEFECT_REASON: { details: { line: number; reasonCode: string }; context: { inactive: boolean } };
  /** A line's reasons cover more pieces than its defective ones, or (DEFECT_REASONS_REQUIRED) not all of them. */
  DEFECTS_SUM_MISMATCH: { details: { line: number; defectiveQty: number; defectsQty: number }; context: { required: boolean } };
  /** A defect reason's code is taken (also by a deactivated reason: reactivate it). */
  DEFECT_REASON_EXISTS: { details: { code: string; name: string; active: boolean }; context: never };
  DEFECT_REASON_NOT_FOUND: { details: { code: string }; context: never };
  /** A defect reason's code or name out of its rules (domain/defect-reasons.ts). */
  INVALID_DEFECT_REASON: { details: { field: 'code' | 'name' }; context: { max: number } };
  // ---- downtime (停机): domain/stop-reasons.ts, domain/stops.ts ----
  /** A stop reason's code is taken (also by a deactivated reason: reactivate it). */
  STOP_REASON_EXISTS: { details: { code: string; name: string; active: boolean }; context: never };
  STOP_REASON_NOT_FOUND: { details: { code: string }; context: never };
  /** A stop reason's code or name out of its rules (domain/stop-reasons.ts). */
  INVALID_STOP_REASON: { details: { field: 'code' | 'name' }; context: { max: number } };
  /** A stop names a reason that does not exist or is deactivated. */
  UNKNOWN_STOP_REASON: { details: { reasonCode: string }; context: { inactive: boolean } };
  /** A stop's interval overlaps another stop of the same device (that one named; `span` its local times). */
  STOP_OVERLAPS: { details: { stopId: string; reasonCode: string; startAt: string; endAt: string | null }; context: { span: string } };
  /** Starting or ending a stop from the phone needs the person clocked in on that device. */
  NOT_ON_DEVICE: { details: { deviceNo: string }; context: never };
  STOP_NOT_FOUND: { details: { stopId: string }; context: never };
  /** A stop's times or note out of their rules: end not after start, a time in the future, no note. */
  INVALID_STOP: { details: { problem: 'order' | 'future' | 'note' | 'endNeeded' }; context: never };
  /** A shift's name or times out of their rules (domain/shift-breaks.ts validateShiftTimes). */
  INVALID_SHIFT: { details: ShiftProblem | { problem: 'name'; max: number }; context: never };
  /** An assignment or override names a shift that does not exist. */
  UNKNOWN_SHIFT: { details: { shiftId: string }; context: never };
  /** A rotation out of its rules: 1–max elements, each lasting 1–max days (domain/shift-schedule.ts). */
  INVALID_ROTATION: { details: { field: 'rotation' | 'daysEach'; max: number }; context: never };
  // ---- scopes: scoped review ----
  /** Nobody reviews (approves, corrects, rejects) or changes the break of their own report. */
  SELF_REVIEW: { details: never; context: { write: 'review' | 'breakChange' } };
  /** Nobody sets their own scope (a reviewer never widens it). */
  OWN_SCOPE: { details: never; context: never };
  /** The person does not hold the role whose scope is set (administrator or manager). */
  SCOPE_PERSON_NOT_FOUND: { details: never; context: { role: 'admin' | 'manager' } };
  /** A scope names workshops or teams that do not exist. */
  UNKNOWN_SCOPE_CODES: { details: { workshops: string[]; teams: string[] }; context: never };
  /** Only a manager of the whole factory closes or reopens a month (its figures are the whole factory's). */
  CLOSE_NEEDS_WHOLE_FACTORY: { details: never; context: never };
  /** A team's move to another workshop dated before its last move or after today. */
  TEAM_MOVE_DATE: { details: { earliest: string | null; latest: string }; context: never };
  /** A write of the organization touches a workshop, team, worker or device outside the person's scope (domain/scope.ts). */
  NOT_IN_SCOPE: { details: { kind: 'workshop' | 'team' | 'member' | 'device'; code: string }; context: never };
  /** A write only a person of the whole factory makes (a new workshop, a shift, a scope), by a narrowly scoped one. */
  WHOLE_FACTORY_ONLY: { details: never; context: { write: WholeFactoryWrite } };
  // ---- work orders (domain/work-orders.ts) ----
  /** An order with this number exists already. */
  WORK_ORDER_EXISTS: { details: { orderNo: string }; context: never };
  /** No such order: a path names it (404), or a report line (422, `line` given). */
  WORK_ORDER_NOT_FOUND: { details: { orderNo: string; line?: number }; context: never };
  /** A report line names an order that is completed, closed or cancelled. */
  WORK_ORDER_NOT_OPEN: { details: { line: number; orderNo: string; status: string }; context: { processName: string } };
  /** A report line's product is not the order's. */
  WORK_ORDER_WRONG_PRODUCT: { details: { line: number; orderNo: string }; context: { orderProduct: string; lineProduct: string } };
  /** A report line's 工序 is not an operation of the order. */
  WORK_ORDER_WRONG_OPERATION: { details: { line: number; orderNo: string; processName: string }; context: { operations: readonly string[] } };
  /** The order's status does not allow the action (complete, close, reopen, cancel, change). */
  WORK_ORDER_STATUS: { details: { orderNo: string; status: string }; context: { action: WorkOrderAction } };
  /** Cancel, or an operation's removal, while reports name the order (at that operation). */
  WORK_ORDER_REPORTED: { details: { orderNo: string; processNames: string[] }; context: { action: 'cancel' | 'removeOperation' } };
  /** A field of an order out of its rules (domain/work-orders.ts). */
  INVALID_WORK_ORDER: { details: { field: WorkOrderField }; context: { max: number } };
  /** No product of the catalog has this 项目号 and 产品名称. */
  UNKNOWN_WORK_ORDER_PRODUCT: { details: { projectNo: string; productName: string }; context: never };
  /** Operations that are no 工序 of the product anywhere in the catalog. */
  UNKNOWN_WORK_ORDER_OPERATION: { details: { processNames: string[] }; context: { productName: string } };
}

/** What a person did to an order that its status refused. */
export type WorkOrderAction = 'complete' | 'close' | 'reopen' | 'cancel' | 'change';
/** The fields of an order a command checks. */
export type WorkOrderField = 'orderNo' | 'projectNo' | 'productName' | 'plannedQty' | 'dueDate' | 'notes' | 'operations' | 'reason';

export type DomainErrorCode = keyof DomainErrorCatalog;
export type DetailsOf<C extends DomainErrorCode> = DomainErrorCatalog[C]['details'];
export type ContextOf<C extends DomainErrorCode> = DomainErrorCatalog[C]['context'];

type Args<C extends DomainErrorCode> = [DetailsOf<C>] extends [never]
  ? [ContextOf<C>] extends [never]
    ? []
    : [details: undefined, context: ContextOf<C>]
  : [ContextOf<C>] extends [never]
    ? [details: DetailsOf<C>]
    : [details: DetailsOf<C>, context: ContextOf<C>];

/** A refusal of the domain (module docstring). `message` is the code: the sentence is the HTTP edge's. */
export class DomainError<C extends DomainErrorCode = DomainErrorCode> extends Error {
  constructor(
    readonly code: C,
    readonly details: DetailsOf<C> | undefined,
    readonly context: ContextOf<C> | undefined,
  ) {
    super(code);
    this.name = 'DomainError';
  }
}

/** The domain error `code` with its details and context (typed by DomainErrorCatalog). */
export function domainError<C extends DomainErrorCode>(code: C, ...args: Args<C>): DomainError<C> {
  const [details, context] = args as [DetailsOf<C> | undefined, ContextOf<C> | undefined];
  return new DomainError(code, details, context);
}

/** True when `err` is a domain error (of `code`, when given). */
export function isDomainError<C extends DomainErrorCode>(err: unknown, code?: C): err is DomainError<C> {
  return err instanceof DomainError && (code === undefined || err.code === code);
}
