/**
 * Rebuilding a read model from the events (`npm run cli -- replay [projection]`).
 *
 * Everything happens in one transaction, so readers see the old model until the new one commits:
 * - inline projection: its tables are locked (ACCESS EXCLUSIVE) so no append can project meanwhile (an
 *   appender waits at its inline step and projects onto the rebuilt table after the commit); then truncated and
 *   rebuilt from every committed event, by position.
 * - async projection: its checkpoint row is locked (the live consumer waits), the tables truncated, and the
 *   events replayed with the commit-safe reader; the checkpoint ends where the replay ended.
 * Returns the number of events applied.
 */
import type pg from 'pg';
import { withTransaction } from '../db/transaction.ts';
import { cursorOf, START, type EventStore } from '../events/store.ts';
import { lockCheckpoint, saveCheckpoint } from './consumer.ts';
import type { Projection } from './projection.ts';
import { projectBatch } from './runner.ts';

/**
 * Rebuilds projection `p` from the events in one transaction (module docstring), reading `batchSize` events at a
 * time (default 20 000). Returns the number of events of `p`'s types applied.
 */
export async function replayProjection(pool: pg.Pool, store: EventStore, p: Projection, batchSize = 20000): Promise<number> {
  const tables = p.tables.map((t) => t.name).join(', ');
  return withTransaction(pool, async (tx) => {
    let applied = 0;
    if (p.mode === 'inline') {
      await tx.query(`LOCK TABLE ${tables} IN ACCESS EXCLUSIVE MODE`);
      await tx.query(`TRUNCATE ${tables}`);
      let after = 0;
      for (;;) {
        const events = await store.readByPosition(tx, after, batchSize, p.eventTypes);
        if (events.length === 0) break;
        await projectBatch(tx, p, events);
        applied += events.length;
        after = events[events.length - 1].globalPosition;
      }
      return applied;
    }
    await lockCheckpoint(tx, p.name);
    await tx.query(`TRUNCATE ${tables}`);
    let cursor = START;
    for (;;) {
      const events = await store.readAfter(tx, cursor, batchSize);
      if (events.length === 0) break;
      await projectBatch(tx, p, events);
      applied += events.filter((e) => p.eventTypes.includes(e.type)).length;
      cursor = cursorOf(events[events.length - 1]);
    }
    await saveCheckpoint(tx, p.name, cursor);
    return applied;
  });
}
