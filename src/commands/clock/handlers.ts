/**
 * Command handlers of the worker's flow (issue #5): the impure shell around the pure worker decider. The
 * worker is the token's phone, never the body's.
 *
 * Every command is `runWorkerCommand`: take the facts (facts.ts: the worker stream from the session's ClockedIn
 * on, the person's name, the scanned device, the products named), decide, compute the inline projections' rows
 * from the loaded section and the new events, and append them with the stream's expected version and the facts'
 * conditions in ONE statement (EventStore.append with AppendOptions). With facts this process cached from the
 * worker's previous command, that statement is the command's only round trip; without, one read precedes it.
 * When a cached fact no longer holds (another instance acted, the person was removed, the device or a product
 * changed), nothing is written and the command starts again from facts read afresh; refusals (401, 404, 409,
 * 422) are only ever given from fresh facts, in the order: person (401 ROLE_REVOKED), session (404), device
 * (404 DEVICE_NOT_FOUND), then the decider's. A lost race is retried a bounded number of times.
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
import { roleRevoked } from '../../auth/roles.ts';
import { deviceNotFound, resolveDevice } from '../../devices/device.ts';
import { streams, type WorkerEvent } from '../../events/catalog.ts';
import {
  AppendConditionFailed,
  StreamVersionConflict,
  type AppendCondition,
  type EventMetadata,
  type StoredEvent,
  type StreamAppend,
} from '../../events/store.ts';
import { rowsAhead } from '../../projections/ahead.ts';
import type { LineInput, ProductSnapshot } from '../report-lines.ts';
import { labelAt, sessionNotFound, type ClockLabel } from './rules.ts';
import { openSession, workerDecider, type SessionState, type WorkerCommand, type WorkerDecision, type WorkerState } from './decider.ts';
import {
  clockSettings,
  deviceInUse,
  loadWorkerFacts,
  personHolds,
  productsAsCopied,
  inlineProjections,
  sectionAfter,
  type FactsQuery,
  type HistoryEvent,
  type WorkerFacts,
  type WorkerSection,
} from './facts.ts';

export { clockSettings };

/** Who acts: the token's person. `name` is read with the other facts (personnel), never taken from the token. */
export interface Actor {
  phone: string;
  role: string;
  requestId?: string;
}

/** A scanned device: its number, or the short key of a device code (decisions.md "Device codes"). */
export interface DeviceRef {
  deviceNo?: string;
  deviceKey?: string;
}

const MAX_ATTEMPTS = 5;

const metadataOf = (a: Actor, name: string): EventMetadata => ({
  actorPhone: a.phone,
  actorName: name,
  role: a.role,
  ...(a.requestId ? { requestId: a.requestId } : {}),
});

/** Decides `cmd` on the section; returns the appends (worker stream, report streams), the events and the new state. */
function decideOn(ctx: AppContext, section: WorkerSection, cmd: WorkerCommand) {
  const decider = workerDecider(clockSettings(ctx));
  const events = decider.decide(cmd, section.state);
  const worker = events.filter((e): e is WorkerEvent => e.type !== 'ReportSubmitted');
  const appends: StreamAppend[] = [];
  if (worker.length) appends.push({ streamId: streams.worker(cmd.employeePhone), expectedVersion: section.version, events: worker });
  for (const e of events) {
    if (e.type === 'ReportSubmitted') appends.push({ streamId: streams.report(e.data.reportId), expectedVersion: 0, events: [e] });
  }
  return { appends, events, state: events.reduce(decider.evolve, section.state) };
}

/** One worker command for runWorkerCommand. */
interface WorkerOperation<R> {
  /** The section to decide on: the latest session's, or a given session's (which must be the worker's own). */
  from: FactsQuery['from'];
  /** The scanned device (its existence is a fact of the decision). */
  deviceNo?: string;
  /** The products the command copies (their fields are facts of the decision). */
  productIds?: readonly number[];
  /** The command, given the snapshots of the products asked. */
  command(products: ProductSnapshot[]): WorkerCommand;
  /** The answer, from the state after the decision and the events decided. */
  answer(state: WorkerState, events: WorkerDecision[]): R;
}

/** Facts from the cache, when this process has all the operation needs; else undefined. */
function cachedFacts(ctx: AppContext, phone: string, op: WorkerOperation<unknown>): Required<Omit<WorkerFacts, 'deviceInUse'>> | undefined {
  const w = ctx.factsCache.worker(phone);
  if (!w) return undefined;
  if ('sessionId' in op.from && w.section.state.latest?.sessionId !== op.from.sessionId) return undefined;
  const products = op.productIds?.length ? ctx.factsCache.productsOf(op.productIds) : [];
  if (!products) return undefined;
  return { personName: w.personName, section: w.section, products };
}

/**
 * Runs one worker command (module docstring): cached or fresh facts → decide → inline rows → one guarded append;
 * on a changed fact or a lost race, again from fresh facts (at most MAX_ATTEMPTS). Throws the decider's
 * AppErrors and 401 ROLE_REVOKED, 404 SESSION_NOT_FOUND, 404 DEVICE_NOT_FOUND (all from fresh facts), and 409
 * CONCURRENT_MODIFICATION when every attempt lost a race.
 */
async function runWorkerCommand<R>(ctx: AppContext, actor: Actor, op: WorkerOperation<R>): Promise<R> {
  const cache = ctx.factsCache;
  for (let attempt = 1; ; attempt++) {
    const cached = attempt === 1 ? cachedFacts(ctx, actor.phone, op) : undefined;
    let facts = cached;
    if (!facts) {
      const f = await loadWorkerFacts(ctx.db.pool, ctx, { phone: actor.phone, role: actor.role, from: op.from, deviceNo: op.deviceNo, productIds: op.productIds });
      if (f.personName === undefined) throw roleRevoked();
      if (!f.section) throw sessionNotFound();
      if (!f.deviceInUse) throw deviceNotFound();
      cache.rememberProducts(f.products);
      facts = { personName: f.personName, section: f.section, products: f.products };
    }
    const now = ctx.clock.now();
    let decided;
    try {
      decided = decideOn(ctx, facts.section, op.command(facts.products));
    } catch (err) {
      if (cached) continue; // refusals only from fresh facts
      throw err;
    }
    if (decided.appends.length === 0) {
      if (cached) continue; // "nothing to do" only from fresh facts
      cache.rememberWorker(actor.phone, { personName: facts.personName, section: facts.section });
      return op.answer(decided.state, decided.events);
    }
    const metadata = metadataOf(actor, facts.personName);
    const streamId = streams.worker(actor.phone);
    const conditions: AppendCondition[] = [personHolds(actor.phone, actor.role, facts.personName)];
    if (op.deviceNo !== undefined) conditions.push(deviceInUse(op.deviceNo));
    if (op.productIds?.length) conditions.push(productsAsCopied(facts.products.filter((p) => op.productIds!.includes(p.productId))));
    const rows = rowsAhead(inlineProjections(ctx), facts.section.rows, decided.appends, metadata, now);
    let stored: StoredEvent[];
    try {
      stored = await ctx.store.append(ctx.db.pool, decided.appends, metadata, now, { conditions, rows });
    } catch (err) {
      if (!(err instanceof StreamVersionConflict || err instanceof AppendConditionFailed)) throw err;
      cache.forgetWorker(actor.phone);
      if (attempt >= MAX_ATTEMPTS) throw err instanceof StreamVersionConflict ? err : new StreamVersionConflict(streamId, facts.section.version);
      continue;
    }
    const added: HistoryEvent[] = stored
      .filter((e) => e.streamId === streamId)
      .map((e) => ({ type: e.type as HistoryEvent['type'], data: e.data, streamVersion: e.streamVersion, metadata, recordedAt: now }));
    cache.rememberWorker(actor.phone, { personName: facts.personName, section: sectionAfter(ctx, actor.phone, facts.section, added, decided.state, rows) });
    return op.answer(decided.state, decided.events);
  }
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

/** The scanned device's number: `deviceNo` as given (its existence is checked with the command), or the device of a key. */
async function deviceNoOf(ctx: AppContext, device: DeviceRef): Promise<string> {
  if (device.deviceNo !== undefined) return device.deviceNo;
  return resolveDevice(ctx.db.pool, device);
}

async function clockOperation<R>(
  ctx: AppContext,
  actor: Actor,
  device: DeviceRef,
  op: ClockOp,
  answer: (s: SessionState, deviceNo: string, now: Date) => R,
): Promise<R> {
  const deviceNo = await deviceNoOf(ctx, device);
  const sessionId = randomUUID();
  return runWorkerCommand(ctx, actor, {
    from: { latest: true },
    deviceNo,
    command: () => {
      const base = { employeePhone: actor.phone, now: ctx.clock.now().toISOString(), deviceNo };
      return op === 'Start' ? { type: 'Start', sessionId, ...base } : { type: op, ...base };
    },
    answer: (state) => answer(state.latest!, deviceNo, ctx.clock.now()),
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
    command: (products) => ({
      type: 'Submit',
      employeePhone: actor.phone,
      now: ctx.clock.now().toISOString(),
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
