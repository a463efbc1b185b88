/**
 * The catalog of every domain event (DEVELOPERS.md "The design").
 *
 * Streams:
 * - `worker-<phone>`: the worker's clocking. ClockedIn, DeviceSwitched, ClockedOut (also for 重新报工,
 *   `reopened: true`), SessionAbandoned, SessionReported. One stream per worker is the consistency boundary
 *   that keeps a worker at one open session and a session at one report (spec 3.1).
 * - `report-<reportId>`: a report's life. ReportSubmitted (appended in the same transaction as the worker's
 *   SessionReported), ReportApproved, ReportRejected, BreakChanged (spec 3.2).
 * - `product-<productId>`: a product's piece rates. RateSet, also when it replaces the entry of the
 *   same date (`replaced`), with the rate in force on that date before (old → new).
 * - `period-<YYYY-MM>`: a month's closes and reopens. PeriodClosed with the figures and the rates the
 *   close priced the month at, PeriodReopened with the reason.
 * - Organization: `workshop-<code>` (WorkshopDefined, WorkshopRenamed), `team-<code>` (TeamDefined,
 *   TeamChanged), `member-<phone>` (MembershipStarted, MembershipEnded: one worker's membership history, the
 *   consistency boundary of "one team at any date"), `device-<deviceNo>` (DeviceWorkshopSet).
 * - `scope-<phone>`: ScopeSet, an administrator's or manager's scope in one role
 *   (domain/scope.ts). The review events carry the report's placement (workshopCode, teamCode) besides.
 * - `defect-reason-<code>`: a defect reason (不良原因, domain/defect-reasons.ts). DefectReasonDefined,
 *   DefectReasonChanged (the whole new state: rename, recategorise, deactivate, reactivate).
 * - `work-order-<orderNo>`: a work order (生产工单, domain/work-orders.ts). WorkOrderReleased, WorkOrderChanged
 *   (planned quantity, due date, notes: before and after), WorkOrderOperationsChanged, WorkOrderCompleted,
 *   WorkOrderClosed, WorkOrderReopened, WorkOrderCancelled. A report line names its order (`workOrderNo`, absent in
 *   lines written before orders existed: no order).
 * - `stop-reason-<code>`, `stops-<deviceNo>`: downtime (停机), declared in stop-events.ts.
 *
 * Instants are ISO 8601 strings in UTC; local dates `YYYY-MM-DD` in APP_TIMEZONE; quantities whole pieces;
 * standard cycle times seconds (up to 3 decimals); standard workload pieces per 8-hour day; rates integers of
 * ten-thousandths of a yuan; amounts fen as text of digits (exact beyond 2^53, domain/money.ts).
 *
 * Plausibility flags (domain/plausibility.ts) are decided with the figures and carried by the events
 * that set or change them, so a replay gives the same flags whatever the configuration says later: ReportSubmitted
 * and ReportApproved (version 2; their version-1 payloads, written before flags existed, read as no flags) and
 * BreakChanged (`flags` when the event recomputed them; absent in older events: unchanged).
 *
 * Placement and break source (domain/placement.ts): ReportSubmitted version 3 records the worker's
 * workshop and team as of the report date and where the break came from (`shift` with the shift, or `default`);
 * its version-2 payloads read as no team and `default`. A BreakChanged makes the source `manager`.
 */
import { z } from 'zod';
import { defineEvent, type EventOf } from './define.ts';
import { reportLineSchema } from '../domain/report-line.ts';
import { plausibilityFlagSchema } from '../domain/plausibility.ts';
import { DEFECT_REASON_CODE_RE, DEFECT_REASON_NAME_MAX, defectCategorySchema } from '../domain/defect-reasons.ts';
import { stopEventDefinitions } from './stop-events.ts';

const instant = z.string().datetime({ offset: true });
const localDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const phone = z.string().regex(/^1\d{10}$/);

/**
 * Prefixes of the streams whose ids the SQL of a fact also builds (events/heads.ts: the heads of the streams a
 * worker's placement and shift calendar were read from; src/shifts/sql.ts), so that the naming lives here only.
 */
export const streamPrefixes = { team: 'team-', member: 'member-', shift: 'shift-', teamShifts: 'team-shifts-', workOrder: 'work-order-' } as const;

export const streams = {
  worker: (phone: string) => `worker-${phone}`,
  report: (reportId: string) => `report-${reportId}`,
  product: (productId: number) => `product-${productId}`,
  period: (month: string) => `period-${month}`,
  // organization
  workshop: (code: string) => `workshop-${code}`,
  team: (code: string) => `${streamPrefixes.team}${code}`,
  member: (phone: string) => `${streamPrefixes.member}${phone}`,
  device: (deviceNo: string) => `device-${deviceNo}`,
  // shifts: shifts
  shift: (shiftId: string) => `${streamPrefixes.shift}${shiftId}`,
  teamShifts: (teamCode: string) => `${streamPrefixes.teamShifts}${teamCode}`,
  defectReason: (code: string) => `defect-reason-${code}`,
  workOrder: (orderNo: string) => `${streamPrefixes.workOrder}${orderNo}`,
  // scopes
  scope: (phone: string) => `scope-${phone}`,
};

// ---- worker stream ---------------------------------------------------------------------------------
export const ClockedIn = defineEvent({
  type: 'ClockedIn',
  schema: z.object({ sessionId: z.string().uuid(), employeePhone: phone, deviceNo: z.string().min(1), at: instant }),
});
export const DeviceSwitched = defineEvent({
  type: 'DeviceSwitched',
  schema: z.object({ sessionId: z.string().uuid(), employeePhone: phone, deviceNo: z.string().min(1), at: instant }),
});
/** 下班报工; with `reopened: true` it is 重新报工 after an expired window (new clock-out time, new window). */
export const ClockedOut = defineEvent({
  type: 'ClockedOut',
  schema: z.object({
    sessionId: z.string().uuid(),
    employeePhone: phone,
    deviceNo: z.string().min(1),
    at: instant,
    /** End of the report filling window (at + REPORT_WINDOW_MINUTES). */
    expiresAt: instant,
    reopened: z.boolean(),
  }),
});
/** An active session older than SESSION_MAX_HOURS, closed without a report. */
export const SessionAbandoned = defineEvent({
  type: 'SessionAbandoned',
  schema: z.object({ sessionId: z.string().uuid(), employeePhone: phone, at: instant, reason: z.string() }),
});
/** The session's report was submitted; the session is closed (next scan: 开始上班). */
export const SessionReported = defineEvent({
  type: 'SessionReported',
  schema: z.object({ sessionId: z.string().uuid(), employeePhone: phone, reportId: z.string().uuid(), at: instant }),
});

// ---- report stream ---------------------------------------------------------------------------------
/** A report line (domain/report-line.ts: the one definition of its fields). */
const reportLine = reportLineSchema;

const reportRef = { reportId: z.string().uuid(), employeePhone: phone, reportDate: localDate };
/**
 * The report's placement (its ReportSubmitted's workshop and team) repeated on the review events,
 * so that projections keyed by team (the dashboard's sums) find their row from the event alone. Absent in events
 * written before: those reports were in no team (ReportSubmitted v2 upcasts to no placement).
 */
const placementRef = { workshopCode: z.string().nullable().optional(), teamCode: z.string().nullable().optional() };
/** The plausibility flags of the report's figures after the event. */
const flags = z.array(plausibilityFlagSchema);
/** Version 1 → 2: a payload written before plausibility flags existed has none. */
const noFlagsYet = { 1: (d: Record<string, unknown>) => ({ ...d, flags: [] }) };
/**
 * ReportSubmitted version 2 → 3: a report written before workshops, teams and shifts existed was
 * counted in no team and started with DEFAULT_BREAK_MINUTES.
 */
const noPlacementYet = { 2: (d: Record<string, unknown>) => ({ ...d, workshopCode: null, teamCode: null, breakSource: 'default', shift: null }) };

export const ReportSubmitted = defineEvent({
  type: 'ReportSubmitted',
  version: 3,
  upcasters: { ...noFlagsYet, ...noPlacementYet },
  schema: z.object({
    ...reportRef,
    sessionId: z.string().uuid(),
    clockInAt: instant,
    clockOutAt: instant,
    breakMinutes: z.number().int().min(0),
    devices: z.array(z.string()),
    lines: z.array(reportLine).min(1),
    flags,
    /** The worker's workshop and team as of reportDate (domain/placement.ts); null when in no team. */
    workshopCode: z.string().nullable(),
    teamCode: z.string().nullable(),
    /** Where breakMinutes came from: the worker's shift that day, or DEFAULT_BREAK_MINUTES. */
    breakSource: z.enum(['shift', 'default']),
    /** The shift the break was computed from (its name at the time); null when breakSource is `default`. */
    shift: z.object({ shiftId: z.string(), name: z.string() }).nullable(),
    at: instant,
  }),
});
export const ReportApproved = defineEvent({
  type: 'ReportApproved',
  version: 2,
  upcasters: noFlagsYet,
  schema: z.object({
    ...reportRef,
    ...placementRef,
    /** Present when the administrator corrected lines: the lines before and after. */
    correction: z.object({ before: z.array(reportLine), after: z.array(reportLine).min(1) }).optional(),
    /** The flags of the approved figures (recomputed after a correction): approved knowing them. */
    flags,
    at: instant,
  }),
});
export const ReportRejected = defineEvent({
  type: 'ReportRejected',
  schema: z.object({ ...reportRef, ...placementRef, reason: z.string().min(1).max(200), at: instant }),
});
export const BreakChanged = defineEvent({
  type: 'BreakChanged',
  schema: z.object({
    ...reportRef,
    ...placementRef,
    before: z.number().int().min(0),
    after: z.number().int().min(0),
    reason: z.string().max(200).optional(),
    /** The flags recomputed with the new break (absent in events written before flags existed: unchanged). */
    flags: flags.optional(),
    at: instant,
  }),
});

// ---- product stream -----------------------------------------------------------------------
const rate = z.number().int().describe('万分之一元');
const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/);
const fen = z.string().regex(/^-?\d+$/).describe('分（整数的十进制文本）');
/** A rate entry; `materialDefectRate` (料废单价) absent in entries set without one: 料废 is priced at `defectRate`. */
const rateEntry = z.object({ from: localDate, pieceRate: rate, defectRate: rate, materialDefectRate: rate.optional() });

/** A piece rate and defect rate from `effectiveFrom` on (until the product's next entry). */
export const RateSet = defineEvent({
  type: 'RateSet',
  schema: z.object({
    productId: z.number().int(),
    effectiveFrom: localDate,
    pieceRate: rate.min(0),
    defectRate: rate,
    /** 料废单价; absent: 料废 pieces are priced at `defectRate` (events before it existed, and rates set without it). */
    materialDefectRate: rate.optional(),
    /** The entry in force on effectiveFrom before this one (old → new); null when the date was unpriced. */
    before: rateEntry.nullable(),
    /** True when an entry of the same effectiveFrom was replaced. */
    replaced: z.boolean(),
    reason: z.string().max(200).optional(),
    at: instant,
  }),
});

// ---- period stream ------------------------------------------------------------------------
/** A month closed: its figures, and the rates each priced product had within it (the frozen statement's rates). */
export const PeriodClosed = defineEvent({
  type: 'PeriodClosed',
  schema: z.object({
    month,
    version: z.number().int().min(1),
    amountFen: fen,
    reports: z.number().int().min(0),
    finishedQty: z.number().int().min(0),
    defectiveQty: z.number().int().min(0),
    workers: z.number().int().min(0),
    rates: z.array(z.object({ productId: z.number().int(), segments: z.array(rateEntry) })),
    at: instant,
  }),
});
/** A closed month opened again, with the reason; `version` and `amountFen` are those of the close reopened. */
export const PeriodReopened = defineEvent({
  type: 'PeriodReopened',
  schema: z.object({ month, version: z.number().int().min(1), amountFen: fen, reason: z.string().min(1).max(200), at: instant }),
});

// ---- organization streams (workshops, teams, memberships, device workshops) --------------
/** A workshop's or team's code: letters, digits, `-`, `_`; 1–20 characters; immutable (it names the stream). */
const orgCode = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,19}$/);
const orgName = z.string().min(1).max(50);

/** Stream `workshop-<code>`: a workshop (车间) defined. */
export const WorkshopDefined = defineEvent({
  type: 'WorkshopDefined',
  schema: z.object({ code: orgCode, name: orgName, at: instant }),
});
/** Stream `workshop-<code>`: a workshop renamed (old → new). */
export const WorkshopRenamed = defineEvent({
  type: 'WorkshopRenamed',
  schema: z.object({ code: orgCode, name: orgName, before: orgName, at: instant }),
});
/** Stream `team-<code>`: a team (班组) defined in a workshop, with its leaders (phones of people in personnel). */
export const TeamDefined = defineEvent({
  type: 'TeamDefined',
  schema: z.object({ code: orgCode, name: orgName, workshopCode: orgCode, leaders: z.array(phone).min(1), at: instant }),
});
/** Stream `team-<code>`: a team's name, workshop (from a date) or leaders changed; the whole team after, and before. */
export const TeamChanged = defineEvent({
  type: 'TeamChanged',
  schema: z.object({
    code: orgCode,
    name: orgName,
    workshopCode: orgCode,
    leaders: z.array(phone).min(1),
    before: z.object({ name: orgName, workshopCode: orgCode, leaders: z.array(phone) }),
    at: instant,
    /**
     * The first local day in the new workshop when the team moved (null: it did not move). Absent in events recorded
     * before moves were dated: their workshop counts from the team's beginning, as it did then.
     */
    workshopFrom: localDate.nullable().optional(),
  }),
});
/**
 * A team member's coefficient (系数, crew work: domain/crew-split.ts) in hundredths, 10 … 999; absent in events
 * recorded before coefficients existed, and when none was given: 1.00 (100).
 */
const coefficient = z.number().int().min(10).max(999).optional();
/** Stream `member-<phone>`: the worker belongs to the team from `validFrom` (local date) on, open-ended. */
export const MembershipStarted = defineEvent({
  type: 'MembershipStarted',
  schema: z.object({ phone, teamCode: orgCode, validFrom: localDate, at: instant, coefficient }),
});
/**
 * Stream `member-<phone>`: the membership that began on `validFrom` ends with `validTo` (its last day, inclusive);
 * `coefficient` repeats the membership's (absent: 1.00), so the ended row is written from the event alone.
 */
export const MembershipEnded = defineEvent({
  type: 'MembershipEnded',
  schema: z.object({ phone, teamCode: orgCode, validFrom: localDate, validTo: localDate, at: instant, coefficient }),
});
/** Stream `device-<deviceNo>`: the device's workshop set (null: in no workshop), with the one before. */
export const DeviceWorkshopSet = defineEvent({
  type: 'DeviceWorkshopSet',
  schema: z.object({ deviceNo: z.string().min(1), workshopCode: orgCode.nullable(), before: orgCode.nullable(), at: instant }),
});
// ---- end of the organization streams -------------------------------------------------------------------------
// ---- shift streams (shifts and their calendar) ---------------------------------------------
// `shift-<shiftId>`: a shift's definition (ShiftDefined, then ShiftChanged with the whole new definition).
// `team-shifts-<teamCode>`: a team's assignments and overrides (domain/shift-schedule.ts), the consistency boundary
// of the team's calendar.
const localTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);
const breakWindow = z.object({ start: localTime, end: localTime, paid: z.boolean().optional() });
const shiftDefinition = {
  shiftId: z.string().min(1),
  name: z.string().min(1).max(30),
  /** Local times HH:mm of APP_TIMEZONE; over midnight when end <= start (end == start: 24 hours). */
  start: localTime,
  end: localTime,
  /** Break windows inside the shift; unpaid unless `paid` (domain/shift-breaks.ts). */
  breaks: z.array(breakWindow),
};
export const ShiftDefined = defineEvent({ type: 'ShiftDefined', schema: z.object({ ...shiftDefinition, at: instant }) });
/** The whole new definition; reports submitted before keep the break they were given. */
export const ShiftChanged = defineEvent({ type: 'ShiftChanged', schema: z.object({ ...shiftDefinition, at: instant }) });
/** A team works `rotation` (shift ids, null: day off), each element `daysEach` days, from `validFrom` on. */
export const ShiftAssigned = defineEvent({
  type: 'ShiftAssigned',
  schema: z.object({
    teamCode: z.string().min(1),
    validFrom: localDate,
    rotation: z.array(z.string().min(1).nullable()).min(1),
    daysEach: z.number().int().min(1),
    /** True when an assignment of the same validFrom was replaced. */
    replaced: z.boolean(),
    at: instant,
  }),
});
/** On `date` the team works `shiftId` instead (null: a day off). */
export const ShiftOverridden = defineEvent({
  type: 'ShiftOverridden',
  schema: z.object({ teamCode: z.string().min(1), date: localDate, shiftId: z.string().min(1).nullable(), at: instant }),
});
/** The override of `date` removed: the assignment holds again that day. */
export const ShiftOverrideRemoved = defineEvent({
  type: 'ShiftOverrideRemoved',
  schema: z.object({ teamCode: z.string().min(1), date: localDate, at: instant }),
});
// ---- scope stream -------------------------------------------------------------------
/**
 * A person's scope in one role (stream `scope-<phone>`; domain/scope.ts): the workshops and teams whose reports the
 * administrator or manager sees and acts on; both empty = the whole factory. Codes sorted, without repeats.
 */
export const ScopeSet = defineEvent({
  type: 'ScopeSet',
  schema: z.object({
    phone,
    role: z.enum(['admin', 'manager']),
    workshops: z.array(z.string().min(1)),
    teams: z.array(z.string().min(1)),
    at: instant,
  }),
});

// ---- defect reasons (不良原因), stream defect-reason-<code> ---------------------------------------------
const defectReasonFields = {
  code: z.string().regex(DEFECT_REASON_CODE_RE),
  name: z.string().min(1).max(DEFECT_REASON_NAME_MAX),
  category: defectCategorySchema,
};
/** A new defect reason, active (domain/defect-reasons.ts). */
export const DefectReasonDefined = defineEvent({ type: 'DefectReasonDefined', schema: z.object({ ...defectReasonFields, at: instant }) });
/**
 * A reason changed: its whole new state (name, category, active). Lines already recorded keep the category they
 * were recorded with, so a recategorised reason never reprices the past.
 */
export const DefectReasonChanged = defineEvent({
  type: 'DefectReasonChanged',
  schema: z.object({ ...defectReasonFields, active: z.boolean(), at: instant }),
});

// ---- work orders (生产工单), stream work-order-<orderNo> ------------------------------------------------------
const orderNo = z.string().min(1).max(40);
const orderFields = {
  plannedQty: z.number().int().min(1),
  dueDate: localDate.nullable(),
  notes: z.string().nullable(),
};
const orderStatus = z.enum(['released', 'completed', 'closed', 'cancelled']);
/** An order released (下达) with its product, planned quantity, due date, notes and operations in sequence. */
export const WorkOrderReleased = defineEvent({
  type: 'WorkOrderReleased',
  schema: z.object({ orderNo, projectNo: z.string(), productName: z.string(), ...orderFields, operations: z.array(z.string()).min(1), at: instant }),
});
/** The planned quantity, due date or notes changed: the new values and the ones before. */
export const WorkOrderChanged = defineEvent({
  type: 'WorkOrderChanged',
  schema: z.object({ orderNo, ...orderFields, before: z.object(orderFields), at: instant }),
});
/** The operations changed (appended, or removed while nothing was reported at them): the new list and the one before. */
export const WorkOrderOperationsChanged = defineEvent({
  type: 'WorkOrderOperationsChanged',
  schema: z.object({ orderNo, operations: z.array(z.string()).min(1), before: z.array(z.string()), at: instant }),
});
/** Completed (完工) by an administrator or manager. */
export const WorkOrderCompleted = defineEvent({ type: 'WorkOrderCompleted', schema: z.object({ orderNo, at: instant }) });
/** Closed (关闭, e.g. short-closed) with the reason. */
export const WorkOrderClosed = defineEvent({ type: 'WorkOrderClosed', schema: z.object({ orderNo, reason: z.string().min(1).max(200), at: instant }) });
/** A completed or closed order opened again (released) with the reason; `before` the status it left. */
export const WorkOrderReopened = defineEvent({
  type: 'WorkOrderReopened',
  schema: z.object({ orderNo, reason: z.string().min(1).max(200), before: orderStatus, at: instant }),
});
/** Cancelled (作废): only while no report names the order. */
export const WorkOrderCancelled = defineEvent({ type: 'WorkOrderCancelled', schema: z.object({ orderNo, at: instant }) });

export const eventDefinitions = [
  ClockedIn,
  DeviceSwitched,
  ClockedOut,
  SessionAbandoned,
  SessionReported,
  ReportSubmitted,
  ReportApproved,
  ReportRejected,
  BreakChanged,
  RateSet,
  PeriodClosed,
  PeriodReopened,
  // organization
  WorkshopDefined,
  WorkshopRenamed,
  TeamDefined,
  TeamChanged,
  MembershipStarted,
  MembershipEnded,
  DeviceWorkshopSet,
  // shifts: shifts
  ShiftDefined,
  ShiftChanged,
  ShiftAssigned,
  ShiftOverridden,
  ShiftOverrideRemoved,
  // scopes
  ScopeSet,
  DefectReasonDefined,
  DefectReasonChanged,
  // work orders
  WorkOrderReleased,
  WorkOrderChanged,
  WorkOrderOperationsChanged,
  WorkOrderCompleted,
  WorkOrderClosed,
  WorkOrderReopened,
  WorkOrderCancelled,
  // downtime (停机): stop-events.ts
  ...stopEventDefinitions,
] as const;

/** Any domain event as `{type, data}`, discriminated by `type`. */
export type DomainEvent = EventOf<(typeof eventDefinitions)[number]>;
export type EventType = DomainEvent['type'];
export type EventData<T extends EventType> = Extract<DomainEvent, { type: T }>['data'];
export type WorkerEvent = Extract<DomainEvent, { type: 'ClockedIn' | 'DeviceSwitched' | 'ClockedOut' | 'SessionAbandoned' | 'SessionReported' }>;
export type ReportEvent = Extract<DomainEvent, { type: 'ReportSubmitted' | 'ReportApproved' | 'ReportRejected' | 'BreakChanged' }>;
export type ProductEvent = Extract<DomainEvent, { type: 'RateSet' }>;
export type PeriodEvent = Extract<DomainEvent, { type: 'PeriodClosed' | 'PeriodReopened' }>;
// organization
export type WorkshopEvent = Extract<DomainEvent, { type: 'WorkshopDefined' | 'WorkshopRenamed' }>;
export type TeamEvent = Extract<DomainEvent, { type: 'TeamDefined' | 'TeamChanged' }>;
export type MemberEvent = Extract<DomainEvent, { type: 'MembershipStarted' | 'MembershipEnded' }>;
export type DeviceEvent = Extract<DomainEvent, { type: 'DeviceWorkshopSet' }>;
export type ShiftEvent = Extract<DomainEvent, { type: 'ShiftDefined' | 'ShiftChanged' }>;
export type TeamShiftEvent = Extract<DomainEvent, { type: 'ShiftAssigned' | 'ShiftOverridden' | 'ShiftOverrideRemoved' }>;
export type ScopeEvent = Extract<DomainEvent, { type: 'ScopeSet' }>;
export type DefectReasonEvent = Extract<DomainEvent, { type: 'DefectReasonDefined' | 'DefectReasonChanged' }>;
export type WorkOrderEvent = Extract<
  DomainEvent,
  { type: 'WorkOrderReleased' | 'WorkOrderChanged' | 'WorkOrderOperationsChanged' | 'WorkOrderCompleted' | 'WorkOrderClosed' | 'WorkOrderReopened' | 'WorkOrderCancelled' }
>;
export type StopReasonEvent = Extract<DomainEvent, { type: 'StopReasonDefined' | 'StopReasonChanged' }>;
export type StopEvent = Extract<DomainEvent, { type: 'StopStarted' | 'StopEnded' | 'StopCorrected' }>;
