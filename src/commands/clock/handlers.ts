/**
 * Command handlers of the worker's flow (issue #5): the impure shell around the pure worker decider.
 * Each runs in one `executeCommand` transaction: load the worker stream, decide, append with the expected
 * version (retried on a lost race), project inline. The worker is the token's phone, never the body's.
 *
 * - `startClock`, `switchDevice`, `finishClock`: resolve the scanned device (404 DEVICE_NOT_FOUND), then
 *   decide; the answer is the session as it stands after the decision, so a repeated operation (nothing
 *   appended) answers as the first did.
 * - `submitReport`: loads the named products, decides, and appends SessionReported to the worker stream and
 *   ReportSubmitted to the new stream `report-<reportId>` (expected version 0) in the same transaction.
 * - `abandonSession`: the job's command, inside the job's transaction.
 *
 * Loading: the worker stream is read from the latest session's ClockedIn on (its version is kept in the
 * `sessions` read model, written inline), so a command costs the same on a worker's first day as after years,
 * in one statement (`loadWorker`).
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { AppContext } from '../../context.ts';
import { resolveDevice } from '../../devices/device.ts';
import { streams, type WorkerEvent } from '../../events/catalog.ts';
import type { EventMetadata, StreamAppend } from '../../events/store.ts';
import { executeCommand, fold, type Decision } from '../decider.ts';
import { SNAPSHOT_COLUMNS, snapshotOfRow, type LineInput, type ProductSnapshot } from '../report-lines.ts';
import { labelAt, sessionNotFound, type ClockLabel } from './rules.ts';
import { openSession, workerDecider, type ClockSettings, type SessionState, type WorkerCommand, type WorkerDecision, type WorkerState } from './decider.ts';

/** Who acts: the token's person. */
export interface Actor {
  phone: string;
  name?: string;
  role?: string;
  requestId?: string;
}

/** A scanned device: its number, or the short key of a device code (decisions.md "Device codes"). */
export interface DeviceRef {
  deviceNo?: string;
  deviceKey?: string;
}

/**
 * The worker decider's settings from the config: report window and session max age in milliseconds,
 * APP_TIMEZONE, DEFAULT_BREAK_MINUTES.
 */
export const clockSettings = (ctx: AppContext): ClockSettings => ({
  reportWindowMs: ctx.config.reportWindowMs,
  sessionMaxMs: ctx.config.sessionMaxMs,
  timeZone: ctx.config.timeZone,
  defaultBreakMinutes: ctx.config.defaultBreakMinutes,
});

const metadataOf = (a: Actor): EventMetadata => ({
  actorPhone: a.phone,
  ...(a.name ? { actorName: a.name } : {}),
  ...(a.role ? { role: a.role } : {}),
  ...(a.requestId ? { requestId: a.requestId } : {}),
});

export interface LoadedWorker {
  state: WorkerState;
  /** The stream's version to expect when appending (0: the stream does not exist yet). */
  version: number;
}

/**
 * Loads the worker's state in one statement (one snapshot, one round trip): the worker stream from the ClockedIn
 * of a session on, through the store's registry (upcasting old payload versions).
 * - `{latest: true}`: from the worker's latest session (none yet: the whole stream, i.e. nothing).
 * - `{sessionId}`: from that session, which must be the worker's own; `undefined` when it is not (or unknown).
 * State and version come from the same read: a version asked for separately could include an event the state
 * has not seen (a racing start committing in between), and appending after it would open a second session.
 */
export async function loadWorker(
  tx: pg.PoolClient,
  ctx: AppContext,
  phone: string,
  from: { latest: true } | { sessionId: string },
): Promise<LoadedWorker | undefined> {
  const fromSession = 'sessionId' in from;
  const r = await tx.query(
    fromSession
      ? `WITH s AS (SELECT opened_version FROM sessions WHERE session_id = $2 AND employee_phone = $3)
         SELECT e.stream_version, e.event_type, e.schema_version, e.data
           FROM events e, s WHERE e.stream_id = $1 AND e.stream_version >= s.opened_version
          ORDER BY e.stream_version`
      : `SELECT stream_version, event_type, schema_version, data FROM events
          WHERE stream_id = $1
            AND stream_version >= COALESCE((SELECT opened_version FROM sessions WHERE employee_phone = $2
                                             ORDER BY opened_version DESC LIMIT 1), 1)
          ORDER BY stream_version`,
    fromSession ? [streams.worker(phone), from.sessionId, phone] : [streams.worker(phone), phone],
  );
  // From a session on, its ClockedIn is always there: no row means no such session of this worker.
  if (fromSession && r.rows.length === 0) return undefined;
  const registry = ctx.store.registry;
  const events = r.rows.map(
    (row) => ({ type: row.event_type, data: registry.upcast(row.event_type, row.schema_version, row.data) }) as WorkerDecision,
  );
  return {
    state: fold(workerDecider(clockSettings(ctx)), events),
    version: r.rows.length ? Number(r.rows[r.rows.length - 1].stream_version) : 0,
  };
}

/** Decides `cmd` on the loaded state; returns the appends (worker stream, report streams) and the new state. */
function decideOn(ctx: AppContext, loaded: LoadedWorker, cmd: WorkerCommand) {
  const decider = workerDecider(clockSettings(ctx));
  const events = decider.decide(cmd, loaded.state);
  const worker = events.filter((e): e is WorkerEvent => e.type !== 'ReportSubmitted');
  const appends: StreamAppend[] = [];
  if (worker.length) appends.push({ streamId: streams.worker(cmd.employeePhone), expectedVersion: loaded.version, events: worker });
  for (const e of events) {
    if (e.type === 'ReportSubmitted') appends.push({ streamId: streams.report(e.data.reportId), expectedVersion: 0, events: [e] });
  }
  return { appends, events, state: events.reduce(decider.evolve, loaded.state) };
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
  const deviceNo = await resolveDevice(ctx.db.pool, device);
  return executeCommand(ctx.commands, metadataOf(actor), async (tx): Promise<Decision<R>> => {
    const now = ctx.clock.now();
    const loaded = (await loadWorker(tx, ctx, actor.phone, { latest: true }))!;
    const base = { employeePhone: actor.phone, now: now.toISOString(), deviceNo };
    const cmd: WorkerCommand = op === 'Start' ? { type: 'Start', sessionId: randomUUID(), ...base } : { type: op, ...base };
    const { appends, state } = decideOn(ctx, loaded, cmd);
    return { appends, result: answer(state.latest!, deviceNo, now) };
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

/** POST /api/clock/start (spec 3.1 开始上班). Throws 404 DEVICE_NOT_FOUND, 409 CLOCK_STATE_CONFLICT. */
export const startClock = (ctx: AppContext, actor: Actor, device: DeviceRef) => clockOperation(ctx, actor, device, 'Start', sessionAnswer(ctx));

/** POST /api/clock/switch-device (spec 3.1 换设备). Throws 404 DEVICE_NOT_FOUND, 409 CLOCK_STATE_CONFLICT. */
export const switchDevice = (ctx: AppContext, actor: Actor, device: DeviceRef) =>
  clockOperation(ctx, actor, device, 'SwitchDevice', sessionAnswer(ctx));

/**
 * POST /api/clock/finish (spec 3.1 下班报工, and 重新报工 on an expired window; within the window it answers
 * the same window). Throws 404 DEVICE_NOT_FOUND, 409 CLOCK_STATE_CONFLICT.
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

/** Products by id as line snapshots (current values: copied into the report at submission). */
async function loadProducts(tx: pg.PoolClient, ids: readonly number[]): Promise<ProductSnapshot[]> {
  const r = await tx.query(`SELECT ${SNAPSHOT_COLUMNS} FROM products WHERE id = ANY($1::bigint[])`, [[...new Set(ids)]]);
  return r.rows.map(snapshotOfRow);
}

/**
 * POST /api/reports: the worker confirms the report of `sessionId` (spec 4.6, decisions.md "Reports and
 * review"). Throws 404 SESSION_NOT_FOUND (also for another worker's session), 409 REPORT_WINDOW_EXPIRED,
 * REPORT_ALREADY_SUBMITTED, SESSION_ABANDONED, CLOCK_STATE_CONFLICT (not clocked out), 422 (lines.ts).
 */
export async function submitReport(ctx: AppContext, actor: Actor, input: { sessionId: string; lines: LineInput[] }): Promise<SubmitAnswer> {
  return executeCommand(ctx.commands, metadataOf(actor), async (tx): Promise<Decision<SubmitAnswer>> => {
    const loaded = await loadWorker(tx, ctx, actor.phone, { sessionId: input.sessionId });
    if (!loaded) throw sessionNotFound();
    const products = await loadProducts(tx, input.lines.map((l) => l.productId).filter((id) => Number.isSafeInteger(id)));
    const { appends, events } = decideOn(ctx, loaded, {
      type: 'Submit',
      employeePhone: actor.phone,
      now: ctx.clock.now().toISOString(),
      sessionId: input.sessionId,
      reportId: randomUUID(),
      lines: input.lines,
      products,
    });
    const submitted = events.find((e) => e.type === 'ReportSubmitted') as Extract<WorkerDecision, { type: 'ReportSubmitted' }>;
    return { appends, result: { reportId: submitted.data.reportId, reportDate: submitted.data.reportDate, status: 'pending' } };
  });
}

/**
 * Closes `sessionId` of `phone` as abandoned if it is still open and over age at the clock's now, inside the
 * caller's transaction `tx` (the abandonment job's). Returns true when it appended SessionAbandoned.
 * Throws StreamVersionConflict when the worker acted meanwhile (the caller skips that session).
 */
export async function abandonSession(tx: pg.PoolClient, ctx: AppContext, phone: string, sessionId: string, reason: string): Promise<boolean> {
  const loaded = (await loadWorker(tx, ctx, phone, { latest: true }))!;
  const { appends } = decideOn(ctx, loaded, { type: 'Abandon', employeePhone: phone, now: ctx.clock.now().toISOString(), sessionId, reason });
  if (appends.length === 0) return false;
  const stored = await ctx.store.append(tx, appends, { actorName: 'system', role: 'system' }, ctx.clock.now());
  await ctx.commands.projectInline(tx, stored);
  return true;
}
