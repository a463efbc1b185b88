/**
 * Deciders and the command handler (issue #2).
 *
 * A decider is pure: `decide(command, state) → events` (throwing an AppError when the command does not fit the
 * state) and `evolve(state, event) → state`. `executeCommand` is the thin impure part: in one transaction it
 * loads, decides, appends with the expected version(s) and runs the inline projections; on a lost race
 * (StreamVersionConflict) it starts again from a fresh load, a bounded number of times.
 */
import type pg from 'pg';
import { withTransaction } from '../db/transaction.ts';
import type { DomainEvent } from '../events/catalog.ts';
import { StreamVersionConflict, type EventMetadata, type EventStore, type StoredEvent, type StreamAppend } from '../events/store.ts';
import type { Clock } from '../clock.ts';

export interface Decider<C, S, E> {
  readonly initialState: S;
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
}

/** Folds events into a state. */
export function fold<S, E>(decider: Pick<Decider<unknown, S, E>, 'initialState' | 'evolve'>, events: readonly E[]): S {
  return events.reduce(decider.evolve, decider.initialState);
}

export interface CommandDeps {
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly clock: Clock;
  /** Runs the inline projections over freshly appended events, in the same transaction. */
  readonly projectInline: (tx: pg.PoolClient, events: readonly StoredEvent[]) => Promise<void>;
}

/** What one attempt of a command decided: the appends to make and the answer to give. */
export interface Decision<R> {
  appends: StreamAppend[];
  result: R;
}

/**
 * Runs `attempt` (load + decide, with the transaction) and appends what it decided, retrying up to
 * `maxAttempts` times when another writer got in first. Errors thrown by `attempt` roll back and propagate.
 */
export async function executeCommand<R>(
  deps: CommandDeps,
  metadata: EventMetadata,
  attempt: (tx: pg.PoolClient) => Promise<Decision<R>>,
  maxAttempts = 5,
): Promise<R> {
  for (let i = 1; ; i++) {
    try {
      return await withTransaction(deps.pool, async (tx) => {
        const { appends, result } = await attempt(tx);
        const stored = await deps.store.append(tx, appends, metadata, deps.clock.now());
        await deps.projectInline(tx, stored);
        return result;
      });
    } catch (err) {
      if (!(err instanceof StreamVersionConflict) || i >= maxAttempts) throw err;
    }
  }
}

/** Loads a stream and folds it: the state and the version to expect when appending. */
export async function loadStream<S>(
  q: pg.PoolClient,
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<unknown, S, DomainEvent>, 'initialState' | 'evolve'>,
): Promise<{ state: S; version: number }> {
  const events = await store.readStream(q, streamId);
  return {
    state: fold(decider, events.map((e) => ({ type: e.type, data: e.data }) as DomainEvent)),
    version: events.length ? events[events.length - 1].streamVersion : 0,
  };
}
