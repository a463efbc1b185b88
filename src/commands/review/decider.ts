/**
 * The report decider (spec 3.2; decisions.md "Reports and review"): review and break-interval changes on the
 * stream `report-<reportId>`.
 *
 * State: `none` before ReportSubmitted, else the report as its events leave it. Commands:
 * - `Approve {lines?, candidates, at}`: only from `pending` (else REPORT_ALREADY_REVIEWED). `lines` are the
 *   corrected lines (lines.ts for the rules; `candidates` are the current snapshots of the products they name);
 *   lines equal to the current ones are no correction.
 * - `Reject {reason, at}`: only from `pending`; reason trimmed, 1–200 characters (INVALID_REASON).
 * - `ChangeBreak {breakMinutes, reason?, at}`: in `pending` or `approved` (REPORT_REJECTED otherwise); whole
 *   minutes ≥ 0 (INVALID_BREAK_MINUTES); BREAK_EXCEEDS_WORKING_TIME when clock-out − clock-in − breakMinutes × 60 s
 *   would be negative. The same value as now decides nothing (no event, nothing to audit).
 * Unknown report: REPORT_NOT_FOUND; so is a report outside the actor's scope (`inScope`, a fact of the command:
 * domain/scope.ts), so its existence is not leaked. The actor's own report (`actorPhone` is the
 * report's worker): SELF_REVIEW, for every command (nobody reviews their own report). A report dated in a closed month (`closedMonths`, a fact of the command:
 * commands/facts.ts): PERIOD_CLOSED, before any other refusal. Refusals are domain errors. Instants
 * `at` are ISO 8601 (UTC).
 *
 * Plausibility flags (domain/plausibility.ts under the decider's `bounds`): an approval carries the flags
 * of the figures it approves (recomputed from the corrected lines, else the report's own), so an approval of a
 * flagged report records that it was approved knowing them; a break change carries the flags recomputed with the
 * new break (the work order flow flags, domain/work-order-flow.ts, kept: they do not depend on it). A correction
 * recomputes the flow flags against the orders' other reports (a fact). Flags never refuse anything: a flagged report
 * may be approved.
 */
import type { Decider } from '../decider.ts';
import type { EventData, ReportEvent } from '../../events/catalog.ts';
import { domainError } from '../../domain/errors.ts';
import type { LineInput, ProductSnapshot, ReportLine } from '../../domain/report-line.ts';
import { effectiveMs, reportNotFound, spanMs } from '../../domain/report.ts';
import { monthOf } from '../../domain/period.ts';
import { plausibilityFlags, type PlausibilityBounds, type PlausibilityFlag } from '../../domain/plausibility.ts';
import { resolveCorrectedLines, sameLines } from './lines.ts';
import type { DefectReason } from '../../domain/defect-reasons.ts';
import { DEFAULT_FLOW_BOUNDS, flowFlags, isFlowFlag, type FlowBounds } from '../../domain/work-order-flow.ts';
import type { WorkOrderFact } from '../facts.ts';


export type ReportStatus = 'pending' | 'approved' | 'rejected';

/** A submitted report as its events leave it. */
export interface Report {
  readonly status: ReportStatus;
  readonly reportId: string;
  readonly employeePhone: string;
  readonly reportDate: string;
  readonly clockInAt: string;
  readonly clockOutAt: string;
  readonly breakMinutes: number;
  readonly devices: readonly string[];
  /** Lines as they stand (corrected lines replace the submitted ones). */
  readonly lines: readonly ReportLine[];
  /** Plausibility flags of the figures as they stand, as the events recorded them. */
  readonly flags: readonly PlausibilityFlag[];
  /** The report's workshop and team (ReportSubmitted), repeated on the review events. */
  readonly workshopCode: string | null;
  readonly teamCode: string | null;
}

export type ReportState = { readonly status: 'none' } | Report;

/**
 * Every review command carries the instant `at`, which of the months it may write into are closed, who acts
 * (`actorPhone`) and whether the report is in the actor's scope (`inScope`).
 */
export type ReviewBase = { at: string; closedMonths: readonly string[]; actorPhone: string; inScope: boolean };
export type ReviewCommand =
  | (ReviewBase & {
      type: 'Approve';
      lines?: LineInput[];
      candidates: ProductSnapshot[];
      /** The defect reasons the corrected lines name (a fact) and DEFECT_REASONS_REQUIRED. */
      defectReasons?: readonly DefectReason[];
      defectReasonsRequired?: boolean;
      /** The work orders the corrected lines name (a fact, without this report's pieces) and the flow bounds. */
      workOrders?: readonly WorkOrderFact[];
      workOrderFlow?: FlowBounds;
    })
  | (ReviewBase & { type: 'Reject'; reason: string })
  | (ReviewBase & { type: 'ChangeBreak'; breakMinutes: number; reason?: string });

export const REASON_MAX = 200;

const ref = (r: Report) => ({
  reportId: r.reportId,
  employeePhone: r.employeePhone,
  reportDate: r.reportDate,
  workshopCode: r.workshopCode,
  teamCode: r.teamCode,
});

function mustBePending(r: Report): void {
  if (r.status !== 'pending') throw domainError('REPORT_ALREADY_REVIEWED', { status: r.status });
}

const trimmed = (s: string | undefined) => s?.trim() || undefined;
const tooLong = (reason: string) => [...reason].length > REASON_MAX;
const invalidReason = (purpose: 'reject' | 'breakChange') => domainError('INVALID_REASON', undefined, { purpose, max: REASON_MAX });

/** The report's state from its events (`initialState`, `evolve`): what folds a report stream. */
export const reportFold: Pick<Decider<ReviewCommand, ReportState, ReportEvent>, 'initialState' | 'evolve'> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    if (event.type === 'ReportSubmitted') {
      const d = event.data;
      return {
        status: 'pending',
        reportId: d.reportId,
        employeePhone: d.employeePhone,
        reportDate: d.reportDate,
        clockInAt: d.clockInAt,
        clockOutAt: d.clockOutAt,
        breakMinutes: d.breakMinutes,
        devices: d.devices,
        lines: d.lines,
        flags: d.flags,
        workshopCode: d.workshopCode,
        teamCode: d.teamCode,
      };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'ReportApproved':
        return { ...state, status: 'approved', lines: event.data.correction?.after ?? state.lines, flags: event.data.flags };
      case 'ReportRejected':
        return { ...state, status: 'rejected' };
      case 'BreakChanged':
        return { ...state, breakMinutes: event.data.after, flags: event.data.flags ?? state.flags };
    }
  },
};

/** The report decider judging plausibility under `bounds` (module docstring). */
export const reviewDecider = (bounds: PlausibilityBounds): Decider<ReviewCommand, ReportState, ReportEvent> => ({
  ...reportFold,

  decide(command, state) {
    if (state.status === 'none' || !command.inScope) throw reportNotFound();
    if (command.actorPhone === state.employeePhone) {
      throw domainError('SELF_REVIEW', undefined, { write: command.type === 'ChangeBreak' ? 'breakChange' : 'review' });
    }
    const month = monthOf(state.reportDate);
    if (command.closedMonths.includes(month)) {
      throw domainError('PERIOD_CLOSED', { month }, { write: command.type === 'ChangeBreak' ? 'breakChange' : 'review' });
    }
    switch (command.type) {
      case 'Approve': {
        mustBePending(state);
        const rules = { reasons: command.defectReasons ?? [], required: command.defectReasonsRequired === true };
        const orders = command.workOrders ?? [];
        const after = command.lines ? resolveCorrectedLines(command.lines, state, command.candidates, rules, { orders }) : undefined;
        const correction = after && !sameLines(state.lines, after) ? { before: [...state.lines], after } : undefined;
        const flags = correction
          ? [...plausibilityFlags({ ...state, lines: correction.after }, bounds), ...flowFlags(correction.after, orders, command.workOrderFlow ?? DEFAULT_FLOW_BOUNDS)]
          : [...state.flags];
        return [{ type: 'ReportApproved', data: { ...ref(state), ...(correction ? { correction } : {}), flags, at: command.at } }];
      }
      case 'Reject': {
        mustBePending(state);
        const reason = trimmed(command.reason);
        if (reason === undefined || tooLong(reason)) throw invalidReason('reject');
        return [{ type: 'ReportRejected', data: { ...ref(state), reason, at: command.at } }];
      }
      case 'ChangeBreak': {
        if (state.status === 'rejected') throw domainError('REPORT_REJECTED', { status: state.status });
        const minutes = command.breakMinutes;
        if (!Number.isSafeInteger(minutes) || minutes < 0) throw domainError('INVALID_BREAK_MINUTES');
        const reason = trimmed(command.reason);
        if (reason !== undefined && tooLong(reason)) throw invalidReason('breakChange');
        if (effectiveMs(state, minutes) < 0) {
          throw domainError('BREAK_EXCEEDS_WORKING_TIME', { maxBreakMinutes: Math.floor(spanMs(state) / 60_000) });
        }
        if (minutes === state.breakMinutes) return [];
        // the flow flags do not depend on the break: kept as they stand
        const flags = [...plausibilityFlags({ ...state, breakMinutes: minutes }, bounds), ...state.flags.filter(isFlowFlag)];
        const data: EventData<'BreakChanged'> = {
          ...ref(state),
          before: state.breakMinutes,
          after: minutes,
          ...(reason ? { reason } : {}),
          flags,
          at: command.at,
        };
        return [{ type: 'BreakChanged', data }];
      }
    }
  },
});
