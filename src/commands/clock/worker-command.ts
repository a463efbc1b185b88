/**
 * How a worker's command runs (issue #5: a worker's command is one round trip): `runWorkerCommand(ctx, actor, op)`
 * takes the facts (facts.ts: the worker stream from the session's ClockedIn on, the person's name, the scanned
 * device, the products named), decides, computes the inline projections' rows from the loaded section and the
 * new events (projections/ahead.ts), and appends them with the stream's expected version and the facts'
 * conditions in ONE statement (EventStore.append with AppendOptions), through the group commit on PostgreSQL
 * (db/group-commit.ts: under load, the statements of commands that wait together share one commit). With facts
 * this process cached from the worker's previous command (facts-cache.ts), that statement is the command's only
 * round trip; without, one read precedes it. When a cached fact no longer holds (another instance acted, the
 * person was removed or renamed, the device or a product changed), nothing is written and the command starts again
 * from facts read afresh; refusals (401, 404, 409, 422) are only ever given from fresh facts, in the order: person
 * (401 ROLE_REVOKED), session (404), device (404 DEVICE_NOT_FOUND), then the decider's. A lost race is retried a
 * bounded number of times.
 */
import type { AppContext } from '../../context.ts';
import { roleRevoked } from '../../auth/roles.ts';
import { deviceNotFound } from '../../devices/device.ts';
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
import type { ProductSnapshot } from '../report-lines.ts';
import { sessionNotFound } from './rules.ts';
import { workerDecider, type WorkerCommand, type WorkerDecision, type WorkerState } from './decider.ts';
import {
  clockSettings,
  deviceInUse,
  inlineProjections,
  loadWorkerFacts,
  personHolds,
  productsAsCopied,
  sectionAfter,
  type FactsQuery,
  type HistoryEvent,
  type WorkerFacts,
  type WorkerSection,
} from './facts.ts';

/** Who acts: the token's person. `name` is read with the other facts (personnel), never taken from the token. */
export interface Actor {
  phone: string;
  role: string;
  requestId?: string;
}

const MAX_ATTEMPTS = 5;

const metadataOf = (a: Actor, name: string): EventMetadata => ({
  actorPhone: a.phone,
  actorName: name,
  role: a.role,
  ...(a.requestId ? { requestId: a.requestId } : {}),
});

/** Decides `cmd` on the section; returns the appends (worker stream, report streams), the events and the new state. */
export function decideOn(ctx: AppContext, section: WorkerSection, cmd: WorkerCommand) {
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
export interface WorkerOperation<R> {
  /** The section to decide on: the latest session's, or a given session's (which must be the worker's own). */
  from: FactsQuery['from'];
  /** The scanned device (its existence is a fact of the decision). */
  deviceNo?: string;
  /** The products the command copies (their fields are facts of the decision). */
  productIds?: readonly number[];
  /** The command at `now` (the service clock's, also the events' recorded time), given the products asked. */
  command(products: ProductSnapshot[], now: Date): WorkerCommand;
  /** The answer at `now`, from the state after the decision and the events decided. */
  answer(state: WorkerState, events: WorkerDecision[], now: Date): R;
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
export async function runWorkerCommand<R>(ctx: AppContext, actor: Actor, op: WorkerOperation<R>): Promise<R> {
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
      decided = decideOn(ctx, facts.section, op.command(facts.products, now));
    } catch (err) {
      if (cached) continue; // refusals only from fresh facts
      throw err;
    }
    if (decided.appends.length === 0) {
      if (cached) continue; // "nothing to do" only from fresh facts
      cache.rememberWorker(actor.phone, { personName: facts.personName, section: facts.section });
      return op.answer(decided.state, decided.events, now);
    }
    const metadata = metadataOf(actor, facts.personName);
    const streamId = streams.worker(actor.phone);
    const conditions: AppendCondition[] = [personHolds(actor.phone, actor.role, facts.personName)];
    if (op.deviceNo !== undefined) conditions.push(deviceInUse(op.deviceNo));
    if (op.productIds?.length) conditions.push(productsAsCopied(facts.products.filter((p) => op.productIds!.includes(p.productId))));
    const rows = rowsAhead(inlineProjections(ctx), facts.section.rows, decided.appends, metadata, now);
    let stored: StoredEvent[];
    try {
      stored = await ctx.store.append(ctx.db.appends, decided.appends, metadata, now, { conditions, rows });
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
    return op.answer(decided.state, decided.events, now);
  }
}
