/**
 * Review and break-interval changes (spec 3.2, 4.6, 4.7): each is one `runCommand` (command.ts) of the report
 * decider on the whole stream `report-<reportId>` (a lost race loads again and decides again, so of two
 * administrators approving at once one wins and the other gets REPORT_ALREADY_REVIEWED). The actor (phone, name
 * from personnel, role) goes into the event metadata, where the audit log reads it. The month of the report's
 * date is a fact of each (commands/facts.ts): every one of them writes into that month, which must be open
 *; a report's date never changes, so it is read first from the `reports` read model. Whether the
 * report is in the actor's scope is a fact too (facts.ts `reportInScope`), checked again by the
 * append's guard; out of scope is REPORT_NOT_FOUND, one's own report SELF_REVIEW (decider.ts).
 *
 * Answers: the report after the command; `at` is the command's instant (a Date), effective working time in
 * seconds, and the report's plausibility flags after the command.
 */
import type { LineInput, ProductSnapshot, ReportLine } from '../../domain/report-line.ts';
import type { PlausibilityBounds, PlausibilityFlag } from '../../domain/plausibility.ts';
import { streams, type ReportEvent } from '../../events/catalog.ts';
import type { Actor } from '../../shared/actor.ts';
import { runCommand, type CommandDeps } from '../command.ts';
import type { FactQuery, Facts } from '../facts.ts';
import { defectReasonFacts, workOrderFacts } from '../report-lines.ts';
import type { FlowBounds } from '../../domain/work-order-flow.ts';
import type { StreamQuery } from '../repository.ts';
import { effectiveMs, parseReportId } from '../../domain/report.ts';
import { monthOf } from '../../domain/period.ts';
import type { Queryable } from '../../db/transaction.ts';
import { reportFold, reviewDecider, type Report, type ReportState, type ReviewBase, type ReviewCommand } from './decider.ts';

/** What the review commands need: the command path, and the bounds of the plausibility flags. */
export interface ReviewDeps {
  readonly commands: CommandDeps;
  readonly clockSettings: { readonly plausibility: PlausibilityBounds; readonly defectReasonsRequired?: boolean; readonly workOrderFlow?: FlowBounds };
}

export interface ReviewAnswer {
  reportId: string;
  status: Report['status'];
  breakMinutes: number;
  effectiveSeconds: number;
  lines: ReportLine[];
  /** The plausibility flags of the report's figures after the command (domain/plausibility.ts). */
  flags: PlausibilityFlag[];
  /** True when this approval changed the lines. */
  corrected?: boolean;
  rejectReason?: string;
  at: Date;
}

/** The whole stream of report `reportId` (a path parameter: not a UUID is REPORT_NOT_FOUND). */
const reportStream = (reportId: string): StreamQuery<ReportState> => ({ streamId: streams.report(parseReportId(reportId)), fold: reportFold });

function answerOf(state: ReportState, events: readonly ReportEvent[], at: Date): ReviewAnswer {
  if (state.status === 'none') throw new Error('a decided report does not exist');
  const approved = events.find((e) => e.type === 'ReportApproved');
  const rejected = events.find((e) => e.type === 'ReportRejected');
  return {
    reportId: state.reportId,
    status: state.status,
    breakMinutes: state.breakMinutes,
    effectiveSeconds: effectiveMs(state, state.breakMinutes) / 1000,
    lines: [...state.lines],
    flags: [...state.flags],
    ...(approved ? { corrected: Boolean(approved.data.correction) } : {}),
    ...(rejected ? { rejectReason: rejected.data.reason } : {}),
    at,
  };
}

/** The month of report `reportId`'s date (a UUID), or undefined for an unknown report. */
async function reportMonth(q: Queryable, reportId: string): Promise<string | undefined> {
  const r = await q.query(`SELECT report_date FROM reports WHERE report_id = $1`, [reportId]);
  return r.rows[0] ? monthOf(r.rows[0].report_date) : undefined;
}

/**
 * Runs `command` (given the facts: the products, the instant, the closed months) on report `reportId` for
 * `actor`, with `productIds` and the report's month as facts.
 */
async function review(
  deps: ReviewDeps,
  actor: Actor,
  reportId: string,
  command: (products: ProductSnapshot[], base: ReviewBase, facts: Facts) => ReviewCommand,
  productIds: number[] = [],
  more: Pick<FactQuery, 'defectReasonCodes'> = {},
  moreOf?: (state: ReportState) => Omit<FactQuery, 'person'>,
): Promise<ReviewAnswer> {
  const stream = reportStream(reportId);
  const id = parseReportId(reportId);
  const month = await reportMonth(deps.commands.reads, id);
  return runCommand(deps.commands, actor, {
    decider: reviewDecider(deps.clockSettings.plausibility),
    stream,
    facts: { productIds, months: month ? [month] : [], reportInScope: id, ...more },
    ...(moreOf ? { factsOf: (state: ReportState) => moreOf(state) } : {}),
    command: (facts, now) =>
      command([...facts.products], { at: now.toISOString(), closedMonths: facts.closedMonths, actorPhone: actor.phone, inScope: facts.reportInScope }, facts),
    answer: answerOf,
  });
}

/**
 * Approves a pending report, optionally with corrected lines (the products they name are facts of the decision).
 * Throws REPORT_NOT_FOUND (also out of scope), SELF_REVIEW, PERIOD_CLOSED, REPORT_ALREADY_REVIEWED, the lines' errors (lines.ts), ROLE_REVOKED.
 */
export function approveReport(deps: ReviewDeps, actor: Actor, reportId: string, lines: LineInput[] | undefined): Promise<ReviewAnswer> {
  const ids = (lines ?? []).map((l) => l.productId).filter((id) => Number.isSafeInteger(id));
  return review(
    deps,
    actor,
    reportId,
    (candidates, base, facts) => ({
      type: 'Approve',
      ...base,
      lines,
      candidates,
      defectReasons: facts.defectReasons,
      defectReasonsRequired: deps.clockSettings.defectReasonsRequired === true,
      workOrders: facts.workOrders,
      workOrderFlow: deps.clockSettings.workOrderFlow,
    }),
    ids,
    defectReasonFacts(lines),
    // the orders the corrected lines name or keep (their flow flags are recomputed)
    lines ? (state) => workOrderFacts(lines, state.status === 'none' ? [] : state.lines, reportId) : undefined,
  );
}

/**
 * Rejects a pending report with a reason (1–200 characters). Throws REPORT_NOT_FOUND (also out of scope), SELF_REVIEW, PERIOD_CLOSED,
 * REPORT_ALREADY_REVIEWED, INVALID_REASON.
 */
export function rejectReport(deps: ReviewDeps, actor: Actor, reportId: string, reason: string): Promise<ReviewAnswer> {
  return review(deps, actor, reportId, (_, base) => ({ type: 'Reject', ...base, reason }));
}

/**
 * Changes the break interval of a pending or approved report (manager). Throws REPORT_NOT_FOUND (also out of scope), SELF_REVIEW, PERIOD_CLOSED,
 * REPORT_REJECTED, INVALID_BREAK_MINUTES, INVALID_REASON, BREAK_EXCEEDS_WORKING_TIME.
 */
export function changeBreakMinutes(deps: ReviewDeps, actor: Actor, reportId: string, input: { breakMinutes: number; reason?: string }): Promise<ReviewAnswer> {
  return review(deps, actor, reportId, (_, base) => ({ type: 'ChangeBreak', ...base, ...input }));
}
