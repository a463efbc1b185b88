/**
 * Command handlers of review and break-interval changes (spec 3.2, 4.6, 4.7): load the report stream, decide
 * with `reviewDecider`, append with the expected version (executeCommand: a lost race reloads and decides
 * again, so of two administrators approving at once one wins and the other gets 409 REPORT_ALREADY_REVIEWED).
 * The actor (phone, name, role) goes into the event metadata, where the audit log reads it.
 *
 * Answers: the report's status after the command; times ISO 8601 with the factory's offset, effective working
 * time in seconds.
 */
import type pg from 'pg';
import type { AppContext } from '../../context.ts';
import { executeCommand, loadStream, type Decider } from '../decider.ts';
import { streams, type DomainEvent, type ReportLine } from '../../events/catalog.ts';
import type { EventMetadata } from '../../events/store.ts';
import type { CurrentUser } from '../../http/route.ts';
import { toZonedIso } from '../../time.ts';
import { effectiveMs, parseReportId, reviewDecider, type ReportState, type ReviewCommand } from './decider.ts';
import { productsOfDevices, type LineInput } from '../report-lines.ts';

export interface ReviewAnswer {
  reportId: string;
  status: 'pending' | 'approved' | 'rejected';
  breakMinutes: number;
  effectiveSeconds: number;
  lines: ReportLine[];
  /** True when this approval changed the lines. */
  corrected?: boolean;
  rejectReason?: string;
  at: string;
}

const metadataOf = (actor: CurrentUser, requestId?: string): EventMetadata => ({
  actorPhone: actor.phone,
  actorName: actor.name,
  role: actor.role,
  ...(requestId ? { requestId } : {}),
});

/** The decider's fold over a report stream (which holds report events only; evolve ignores anything else). */
const reportStream = reviewDecider as unknown as Pick<Decider<unknown, ReportState, DomainEvent>, 'initialState' | 'evolve'>;

async function run(
  ctx: AppContext,
  reportId: string,
  actor: CurrentUser,
  requestId: string | undefined,
  makeCommand: (tx: pg.PoolClient, state: ReportState, at: string) => Promise<ReviewCommand>,
): Promise<ReviewAnswer> {
  const streamId = streams.report(parseReportId(reportId));
  return executeCommand(ctx.commands, metadataOf(actor, requestId), async (tx) => {
    const { state, version } = await loadStream(tx, ctx.store, streamId, reportStream);
    const at = ctx.clock.now().toISOString();
    const command = await makeCommand(tx, state, at);
    const events = reviewDecider.decide(command, state);
    const after = events.reduce(reviewDecider.evolve, state);
    const approved = events.find((e) => e.type === 'ReportApproved');
    const rejected = events.find((e) => e.type === 'ReportRejected');
    const result: ReviewAnswer = {
      reportId: after.reportId!,
      status: after.status as ReviewAnswer['status'],
      breakMinutes: after.breakMinutes!,
      effectiveSeconds: effectiveMs(after, after.breakMinutes!) / 1000,
      lines: after.lines!,
      ...(approved ? { corrected: Boolean(approved.data.correction) } : {}),
      ...(rejected ? { rejectReason: rejected.data.reason } : {}),
      at: toZonedIso(new Date(at), ctx.config.timeZone),
    };
    return { appends: [{ streamId, expectedVersion: version, events: events as DomainEvent[] }], result };
  });
}

/** Approves a pending report, optionally with corrected lines. Throws 404, 409, 422 (see decider.ts, lines.ts). */
export function approveReport(ctx: AppContext, actor: CurrentUser, reportId: string, lines: LineInput[] | undefined, requestId?: string) {
  return run(ctx, reportId, actor, requestId, async (tx, state, at) => ({
    type: 'Approve',
    at,
    lines,
    candidates: lines && state.status === 'pending' ? await productsOfDevices(tx, state.devices ?? []) : [],
  }));
}

/** Rejects a pending report with a reason (1–200 characters). Throws 404, 409, 422. */
export function rejectReport(ctx: AppContext, actor: CurrentUser, reportId: string, reason: string, requestId?: string) {
  return run(ctx, reportId, actor, requestId, async (_tx, _state, at) => ({ type: 'Reject', at, reason }));
}

/** Changes the break interval of a pending or approved report (manager). Throws 404, 409, 422. */
export function changeBreakMinutes(
  ctx: AppContext,
  actor: CurrentUser,
  reportId: string,
  input: { breakMinutes: number; reason?: string },
  requestId?: string,
) {
  return run(ctx, reportId, actor, requestId, async (_tx, _state, at) => ({ type: 'ChangeBreak', at, ...input }));
}
