/**
 * The one command path: every command of the service — clock operations, submission, approve,
 * reject, break change, the abandonment job — runs through `runCommand`:
 *
 *   1. load   the stream section and the facts the decision needs (repository.ts; from the per-process cache
 *             when it can);
 *   2. decide `decider.decide(command, state)`, pure (deciders throw domain errors);
 *   3. project the inline projections' rows of the new events, pure, from the section's rows
 *             (projections/inline.ts);
 *   4. append the events with the stream's expected version, the rows and the guard of the facts, in ONE
 *             statement (EventStore.append: a guarded write), so in one round trip, atomically.
 *
 * A lost race (StreamVersionConflict) or a fact that changed (GuardFailed) wrote nothing: the command starts again
 * from a fresh load, at most `maxAttempts` times (then StreamVersionConflict). A decision made on cached state is
 * only a hint: its refusals, and its "nothing to do", are confirmed on a fresh load before they are answered.
 * Refusals come in this order: the person (ROLE_REVOKED), the section (the stream query's `missing`), the device
 * (DEVICE_NOT_FOUND), the scope of an organization write (WHOLE_FACTORY_ONLY, NOT_IN_SCOPE: domain/scope.ts), then
 * the decider's.
 */
import type { Clock } from '../clock.ts';
import { GuardFailed } from '../db/guarded-write.ts';
import type { Queryable, StatementRunner } from '../db/transaction.ts';
import { domainError, isDomainError } from '../domain/errors.ts';
import { outsideScopeError } from '../domain/scope.ts';
import type { DomainEvent } from '../events/catalog.ts';
import { StreamVersionConflict, type EventMetadata, type EventStore, type StreamAppend } from '../events/store.ts';
import { rowsAfter } from '../projections/inline.ts';
import type { ProjectedEvent, Projection } from '../projections/projection.ts';
import { addRowWrites } from '../projections/row-writes.ts';
import type { Actor } from '../shared/actor.ts';
import type { Decider } from './decider.ts';
import { guardFacts, type FactQuery, type Facts } from './facts.ts';
import { sectionAfter, StreamRepository, type Repository, type StreamQuery } from './repository.ts';

/** What the command path needs; the composition root builds it (src/app.ts). */
export interface CommandDeps {
  readonly store: EventStore;
  readonly repository: Repository;
  /** Runs the loads: the pool, or a job's transaction. */
  readonly reads: Queryable;
  /** Runs the append: the group commit (or the pool), or a job's transaction. */
  readonly writes: StatementRunner;
  readonly clock: Clock;
  /** The inline projections, whose rows the append writes. */
  readonly inline: readonly Projection[];
  /**
   * Told the types of the events a command's append committed (absent inside a transaction: `commandsIn` leaves it
   * out, and the transaction's owner tells it after its commit). The service wakes the async consumers with it, so
   * that an approval reaches the wages and the dashboard at once (app.ts, projections/background.ts `nudge`).
   */
  readonly committed?: (types: readonly string[]) => void;
}

/**
 * `deps` for commands run inside the transaction `tx` (a job, a close, an import's confirmation): loads and
 * appends through `tx`, and fresh state every time (no cache to poison if the transaction rolls back). Each append
 * runs in a savepoint: a lost race that PostgreSQL reports as an error (the unique stream version) would otherwise
 * abort the whole transaction, where runCommand must load again and decide again.
 */
export const commandsIn = (deps: CommandDeps, tx: Queryable & StatementRunner): CommandDeps => ({
  ...deps,
  committed: undefined,
  reads: tx,
  writes: {
    async query(statement) {
      await tx.query('SAVEPOINT command_append');
      try {
        const r = await tx.query(statement);
        await tx.query('RELEASE SAVEPOINT command_append');
        return r;
      } catch (err) {
        await tx.query('ROLLBACK TO SAVEPOINT command_append');
        throw err;
      }
    },
  },
  repository: new StreamRepository(deps.store, deps.inline),
});

/** One command for runCommand: what to load, how to decide, where the events go, what to answer. */
export interface CommandRun<C, S, E extends DomainEvent, R> {
  readonly decider: Decider<C, S, E>;
  /** The stream decided on, and its section (repository.ts). */
  readonly stream: StreamQuery<S>;
  /** The error when `stream.locate` finds no section for this caller. */
  readonly missing?: () => Error;
  /**
   * The facts besides the person (who is a fact of every person's command), or a function of the instant of the
   * decision giving them (a submission writes into the month of that instant).
   */
  readonly facts?: Omit<FactQuery, 'person'> | ((now: Date) => Omit<FactQuery, 'person'>);
  /**
   * Facts that depend on the loaded section's state (the shifts around a submitted session's
   * clock-in date), added to `facts`; the repository asks them after it has the section.
   */
  readonly factsOf?: (state: S, now: Date) => Omit<FactQuery, 'person'>;
  /** The command, given the facts and the instant of the decision (the service clock's, also the events' time). */
  command(facts: Facts, now: Date): C;
  /** The stream of an event that does not belong to `stream`: it starts that stream (expected version 0). */
  newStreamOf?(event: E): string | undefined;
  /** The answer, from the state after the decision and the events decided. */
  answer(state: S, events: readonly E[], now: Date): R;
}

/**
 * Who acts: a person (the person fact: still in personnel with the role, and the events name them as personnel
 * does), or something else with the metadata it gives (no person to check): the system's own jobs.
 */
export type CommandActor = Actor | { readonly system: EventMetadata };

/** The service itself (the abandonment job). */
export const SYSTEM: CommandActor = { system: { actorName: 'system', role: 'system' } };

const metadataOf = (actor: CommandActor, facts: Facts): EventMetadata =>
  'system' in actor
    ? actor.system
    : { actorPhone: actor.phone, actorName: facts.personName, role: actor.role, ...(actor.requestId ? { requestId: actor.requestId } : {}) };

/** The appends of `events` decided on a section at `version` (module docstring of CommandRun.newStreamOf). */
function appendsOf<E extends DomainEvent>(run: Pick<CommandRun<unknown, unknown, E, unknown>, 'newStreamOf' | 'stream'>, version: number, events: readonly E[]): StreamAppend[] {
  const own: E[] = [];
  const others: StreamAppend[] = [];
  for (const e of events) {
    const stream = run.newStreamOf?.(e);
    if (stream === undefined) own.push(e);
    else others.push({ streamId: stream, expectedVersion: 0, events: [e] });
  }
  return [...(own.length ? [{ streamId: run.stream.streamId, expectedVersion: version, events: own }] : []), ...others];
}

/** The events of `appends` as the projections see them before the append: versions from the expected ones. */
const aheadOf = (appends: readonly StreamAppend[], metadata: EventMetadata, recordedAt: Date): ProjectedEvent[] =>
  appends.flatMap((a) =>
    a.events.map((e, i) => ({ streamId: a.streamId, streamVersion: Number(a.expectedVersion) + i + 1, type: e.type, data: e.data, metadata, recordedAt })),
  );

/**
 * Runs one command (module docstring) for `actor` and returns its answer. Throws the decider's domain errors,
 * ROLE_REVOKED, `run.missing()`, DEVICE_NOT_FOUND, WHOLE_FACTORY_ONLY, NOT_IN_SCOPE (each only from fresh state), and StreamVersionConflict when
 * every attempt lost a race.
 */
export async function runCommand<C, S, E extends DomainEvent, R>(
  deps: CommandDeps,
  actor: CommandActor,
  run: CommandRun<C, S, E, R>,
  options: { maxAttempts?: number } = {},
): Promise<R> {
  const maxAttempts = options.maxAttempts ?? 5;
  const person = 'system' in actor ? {} : { person: { phone: actor.phone, role: actor.role } };
  for (let attempt = 1; ; attempt++) {
    // The instant of the decision (also the events' time), taken first: the facts may depend on it.
    const now = deps.clock.now();
    const asked: FactQuery = { ...(typeof run.facts === 'function' ? run.facts(now) : run.facts), ...person };
    const factsOf = run.factsOf;
    // 1. Load.
    const loaded = await deps.repository.load(deps.reads, run.stream, asked, attempt > 1, factsOf && ((state: S) => ({ ...asked, ...factsOf(state, now) })));
    const { section, facts } = loaded;
    const query = loaded.query ?? asked;
    // Only what was read fresh says "missing" (the cache keeps no absent person, and assumes the device in use).
    if (query.person && facts.personName === undefined) throw domainError('ROLE_REVOKED');
    if (!section) throw run.missing?.() ?? new Error(`no section of ${run.stream.streamId}`);
    if (!facts.deviceInUse) throw domainError('DEVICE_NOT_FOUND');
    if (facts.outsideScope) throw outsideScopeError(facts.outsideScope);

    // 2. Decide.
    let events: E[];
    try {
      events = run.decider.decide(run.command(facts, now), section.state);
    } catch (err) {
      if (loaded.cached && isDomainError(err)) continue; // refusals only from fresh state
      throw err;
    }
    const state = events.reduce(run.decider.evolve, section.state);
    if (events.length === 0) {
      if (loaded.cached) continue; // "nothing to do" only from fresh state
      deps.repository.remember(run.stream, section, query, facts);
      return run.answer(state, events, now);
    }

    // 3. Project inline.
    const appends = appendsOf(run, section.version, events);
    const metadata = metadataOf(actor, facts);
    const ahead = aheadOf(appends, metadata, now);
    const rows = rowsAfter(deps.inline, section.rows, ahead);

    // 4. Append: events, rows and the facts' guard in one statement.
    try {
      await deps.store.append(deps.writes, appends, metadata, now, (w) => {
        guardFacts(w, query, facts);
        addRowWrites(w, rows.values());
      });
    } catch (err) {
      if (!(err instanceof StreamVersionConflict || err instanceof GuardFailed)) throw err;
      deps.repository.forget(run.stream, query);
      if (attempt >= maxAttempts) throw err instanceof StreamVersionConflict ? err : new StreamVersionConflict(run.stream.streamId, section.version);
      continue;
    }
    const own = ahead.filter((e) => e.streamId === run.stream.streamId);
    deps.repository.remember(run.stream, sectionAfter(run.stream, deps.inline, section, own, state, rows), query, facts);
    deps.committed?.(events.map((e) => e.type));
    return run.answer(state, events, now);
  }
}
