/**
 * Command handlers of the worker's flow (issue #5): the impure shell around the pure worker decider. The
 * worker is the token's phone, never the body's. Each clock operation and the submission is one
 * `runWorkerCommand` (worker-command.ts: usually one round trip, refusals only from fresh facts).
 *
 * - `startClock`, `switchDevice`, `finishClock`: the answer is the session as it stands after the decision, so a
 *   repeated operation (nothing appended, confirmed on fresh facts) answers as the first did.
 * - `submitReport`: appends SessionReported to the worker stream and ReportSubmitted to the new stream
 *   `report-<reportId>` (expected version 0), with the product fields copied into the lines.
 * - `abandonSession`: the job's command, inside the job's transaction.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { AppContext } from '../../context.ts';
import { scannedDeviceNo } from '../../devices/device.ts';
import type { LineInput } from '../report-lines.ts';
import { labelAt, type ClockLabel } from './rules.ts';
import { openSession, type SessionState, type WorkerDecision } from './decider.ts';
import { clockSettings, loadWorkerFacts } from './facts.ts';
import { decideOn, runWorkerCommand, type Actor } from './worker-command.ts';

export type { Actor };

/** A scanned device: its number, or the short key of a device code (decisions.md "Device codes"). */
export interface DeviceRef {
  deviceNo?: string;
  deviceKey?: string;
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
export interface FinishAnswer {
  sessionId: string;
  clockInAt: Date;
  clockOutAt: Date;
  expiresAt: Date;
  devices: string[];
  label: ClockLabel;
}

type ClockOp = 'Start' | 'SwitchDevice' | 'Finish';

async function clockOperation<R>(
  ctx: AppContext,
  actor: Actor,
  device: DeviceRef,
  op: ClockOp,
  answer: (s: SessionState, deviceNo: string, now: Date) => R,
): Promise<R> {
  const deviceNo = await scannedDeviceNo(ctx.db.pool, device);
  const sessionId = randomUUID();
  return runWorkerCommand(ctx, actor, {
    from: { latest: true },
    deviceNo,
    command: (_, now) => {
      const base = { employeePhone: actor.phone, now: now.toISOString(), deviceNo };
      return op === 'Start' ? { type: 'Start', sessionId, ...base } : { type: op, ...base };
    },
    answer: (state, _, now) => answer(state.latest!, deviceNo, now),
  });
}

const sessionAnswer =
  (ctx: AppContext) =>
  (s: SessionState, deviceNo: string, now: Date): ClockSessionAnswer => ({
    sessionId: s.sessionId,
    clockInAt: new Date(s.clockInAt),
    devices: s.devices,
    label: labelAt(openSession({ latest: s, closed: {} }), deviceNo, now, clockSettings(ctx)).label,
  });

/** POST /api/clock/start (spec 3.1 开始上班). Throws 401 ROLE_REVOKED, 404 DEVICE_NOT_FOUND, 409 CLOCK_STATE_CONFLICT. */
export const startClock = (ctx: AppContext, actor: Actor, device: DeviceRef) => clockOperation(ctx, actor, device, 'Start', sessionAnswer(ctx));

/** POST /api/clock/switch-device (spec 3.1 换设备). Throws 401 ROLE_REVOKED, 404 DEVICE_NOT_FOUND, 409 CLOCK_STATE_CONFLICT. */
export const switchDevice = (ctx: AppContext, actor: Actor, device: DeviceRef) =>
  clockOperation(ctx, actor, device, 'SwitchDevice', sessionAnswer(ctx));

/**
 * POST /api/clock/finish (spec 3.1 下班报工, and 重新报工 on an expired window; within the window it answers
 * the same window). Throws 401 ROLE_REVOKED, 404 DEVICE_NOT_FOUND, 409 CLOCK_STATE_CONFLICT.
 */
export const finishClock = (ctx: AppContext, actor: Actor, device: DeviceRef) =>
  clockOperation(ctx, actor, device, 'Finish', (s, deviceNo, now): FinishAnswer => ({
    sessionId: s.sessionId,
    clockInAt: new Date(s.clockInAt),
    clockOutAt: new Date(s.clockOutAt!),
    expiresAt: new Date(s.expiresAt!),
    devices: s.devices,
    label: labelAt(openSession({ latest: s, closed: {} }), deviceNo, now, clockSettings(ctx)).label,
  }));

export interface SubmitAnswer {
  reportId: string;
  reportDate: string;
  status: 'pending';
}

/**
 * POST /api/reports: the worker confirms the report of `sessionId` (spec 4.6, decisions.md "Reports and
 * review"). Throws 401 ROLE_REVOKED, 404 SESSION_NOT_FOUND (also for another worker's session), 409
 * REPORT_WINDOW_EXPIRED, REPORT_ALREADY_SUBMITTED, SESSION_ABANDONED, CLOCK_STATE_CONFLICT (not clocked out),
 * 422 (report-lines.ts).
 */
export async function submitReport(ctx: AppContext, actor: Actor, input: { sessionId: string; lines: LineInput[] }): Promise<SubmitAnswer> {
  const reportId = randomUUID();
  return runWorkerCommand(ctx, actor, {
    from: { sessionId: input.sessionId },
    productIds: input.lines.map((l) => l.productId).filter((id) => Number.isSafeInteger(id)),
    command: (products, now) => ({
      type: 'Submit',
      employeePhone: actor.phone,
      now: now.toISOString(),
      sessionId: input.sessionId,
      reportId,
      lines: input.lines,
      products,
    }),
    answer: (_, events) => {
      const submitted = events.find((e) => e.type === 'ReportSubmitted') as Extract<WorkerDecision, { type: 'ReportSubmitted' }>;
      return { reportId: submitted.data.reportId, reportDate: submitted.data.reportDate, status: 'pending' };
    },
  });
}

/**
 * Closes `sessionId` of `phone` as abandoned if it is still open and over age at the clock's now, inside the
 * caller's transaction `tx` (the abandonment job's). Returns true when it appended SessionAbandoned.
 * Throws StreamVersionConflict when the worker acted meanwhile (the caller skips that session).
 */
export async function abandonSession(tx: pg.PoolClient, ctx: AppContext, phone: string, sessionId: string, reason: string): Promise<boolean> {
  const { section } = await loadWorkerFacts(tx, ctx, { phone, from: { latest: true } });
  const { appends } = decideOn(ctx, section!, { type: 'Abandon', employeePhone: phone, now: ctx.clock.now().toISOString(), sessionId, reason });
  if (appends.length === 0) return false;
  const stored = await ctx.store.append(tx, appends, { actorName: 'system', role: 'system' }, ctx.clock.now());
  await ctx.commands.projectInline(tx, stored);
  return true;
}
