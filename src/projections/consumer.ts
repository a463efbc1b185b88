/**
 * Asynchronous consumers (async projections and reactors) with exactly-once checkpoints.
 *
 * `runConsumerBatch(pool, store, consumer, limit)` runs one batch in one transaction: it locks the consumer's
 * checkpoint row (FOR UPDATE, so two runners can never apply the same events), reads the next page of events
 * with the store's commit-safe `readPageAfter` (payloads only of the types the consumer handles), lets the
 * consumer handle them with the same transaction, and moves the checkpoint past the whole page. Either all of it
 * commits or none. Returns the number of events read (0: caught up).
 */
import type pg from 'pg';
import { withTransaction } from '../db/transaction.ts';
import { compareCursors, type Cursor, type EventStore, type StoredEvent } from '../events/store.ts';
import type { Projection } from './projection.ts';
import { projectBatch } from './runner.ts';
import type { SharedPage } from './shared-page.ts';

export interface AsyncConsumer {
  readonly name: string;
  /** The event types it handles: the only ones it is given (the others are passed over without reading them). */
  readonly eventTypes: readonly string[];
  /** Handles a batch (events of `eventTypes` only, in commit-safe order) within transaction `tx`. */
  handle(tx: pg.PoolClient, events: readonly StoredEvent<any>[]): Promise<void>;
  /**
   * Work the leader's background loop does after each catch-up of this consumer (never a request's catch-up): a read
   * model filling what it keeps ahead of the readers (oee-days.ts). Bounded per call.
   */
  idle?(pool: pg.Pool): Promise<unknown>;
}

/** An async projection as a consumer. */
export function projectionConsumer(p: Projection): AsyncConsumer {
  return { name: p.name, eventTypes: p.eventTypes, handle: async (tx, events) => void (await projectBatch(tx, p, events)) };
}

/** Events read per batch (a page) unless a caller says otherwise. */
export const PAGE_ROWS = 1000;

const LOCK_CHECKPOINT = `SELECT transaction_id::text AS tx, global_position FROM projection_checkpoints WHERE name = $1 FOR UPDATE`;

/**
 * Reads the checkpoint of `name`, locked for this transaction; creates it (at the start) the first time. One round
 * trip when it exists (every batch but the first: the batches of requests waiting for a read model count them).
 */
export async function lockCheckpoint(tx: pg.PoolClient, name: string): Promise<Cursor> {
  let r = await tx.query(LOCK_CHECKPOINT, [name]);
  if (r.rows.length === 0) {
    await tx.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING`, [name]);
    r = await tx.query(LOCK_CHECKPOINT, [name]);
  }
  return { transactionId: r.rows[0].tx, globalPosition: Number(r.rows[0].global_position) };
}

/** Moves the checkpoint of consumer `name` to cursor `c` within `tx` (which holds its lock, see lockCheckpoint). */
export async function saveCheckpoint(tx: pg.PoolClient, name: string, c: Cursor): Promise<void> {
  await tx.query(
    `UPDATE projection_checkpoints SET transaction_id = $2::xid8, global_position = $3, updated_at = now() WHERE name = $1`,
    [name, c.transactionId, c.globalPosition],
  );
}

/**
 * Runs one batch of `consumer` (up to `limit` events, default PAGE_ROWS) with its checkpoint in one transaction (module
 * docstring). Returns the number of events read (0: caught up).
 */
export async function runConsumerBatch(pool: pg.Pool, store: EventStore, consumer: AsyncConsumer, limit = PAGE_ROWS): Promise<number> {
  return (await batchAt(pool, store, consumer, limit)).read;
}

/**
 * One batch as runConsumerBatch, returning also the checkpoint it committed (or found, when nothing was read) and
 * whether more may follow. With `shared`, the batch takes its events from that page when it holds the checkpoint
 * (shared-page.ts), and reads for itself otherwise.
 */
async function batchAt(
  pool: pg.Pool,
  store: EventStore,
  consumer: AsyncConsumer,
  limit: number,
  shared?: SharedPage,
): Promise<{ read: number; cursor: Cursor; more: boolean }> {
  return withTransaction(pool, async (tx) => {
    const cursor = await lockCheckpoint(tx, consumer.name);
    const part = shared?.after(cursor, consumer.eventTypes);
    const page = part
      ? { events: part.events, read: part.last ? part.events.length : 0, last: part.last, more: part.more }
      : await store.readPageAfter(tx, cursor, limit, consumer.eventTypes).then((p) => ({ ...p, more: p.read === limit }));
    if (!page.last) return { read: 0, cursor, more: page.more };
    if (page.events.length) await consumer.handle(tx, page.events);
    await saveCheckpoint(tx, consumer.name, page.last);
    return { read: page.read, cursor: page.last, more: page.more };
  });
}

/**
 * Runs batches until the consumer has handled every event committed before this call, waiting (polling every
 * 10 ms, at most `timeoutMs`) while an older transaction anywhere on the server is still open: the
 * commit-safe reader does not pass such a transaction. For read-your-writes on async read models (tests,
 * demo, CLI). Returns the number of events handled; throws when the deadline passes first.
 */
export async function catchUpToNow(pool: pg.Pool, store: EventStore, consumer: AsyncConsumer, timeoutMs = 30_000): Promise<number> {
  const r = await pool.query(
    `SELECT transaction_id::text AS tx, global_position FROM events ORDER BY events.transaction_id DESC, events.global_position DESC LIMIT 1`,
  );
  if (r.rows.length === 0) return 0;
  const target = { tx: BigInt(r.rows[0].tx), pos: Number(r.rows[0].global_position) };
  const deadline = Date.now() + timeoutMs;
  let total = 0;
  for (;;) {
    total += await catchUp(pool, store, consumer);
    const c = await pool.query(`SELECT transaction_id::text AS tx, global_position FROM projection_checkpoints WHERE name = $1`, [consumer.name]);
    const tx = BigInt(c.rows[0]?.tx ?? 0);
    if (tx > target.tx || (tx === target.tx && Number(c.rows[0].global_position) >= target.pos)) return total;
    if (Date.now() > deadline) throw new Error(`consumer ${consumer.name} did not catch up within ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 10));
  }
}

/** Runs batches until the consumer has caught up; returns the number of events handled. */
export async function catchUp(pool: pg.Pool, store: EventStore, consumer: AsyncConsumer, limit = PAGE_ROWS): Promise<number> {
  return (await catchUpAt(pool, store, consumer, limit)).read;
}

/**
 * Runs batches until the consumer has caught up (a batch read fewer than `limit` events); returns the number of
 * events read and the checkpoint the last batch left: every event below the commit-safe horizon of that batch's
 * snapshot is behind it (fresh-reads.ts compares it with the position a request waits for). With `shared` (a
 * background round's page, shared-page.ts) the first batch takes its events from that page when it can; the
 * checkpoint is then behind every event below the page's horizon.
 */
export async function catchUpAt(
  pool: pg.Pool,
  store: EventStore,
  consumer: AsyncConsumer,
  limit = PAGE_ROWS,
  shared?: SharedPage,
): Promise<{ read: number; cursor: Cursor }> {
  let read = 0;
  for (let page = shared; ; page = undefined) {
    const b = await batchAt(pool, store, consumer, limit, page);
    read += b.read;
    if (!b.more) return { read, cursor: b.cursor };
  }
}

/** True when cursor `a` is at or after `b` in the consumers' order (transaction id, then global position). */
export function reached(a: Cursor, b: Cursor): boolean {
  return compareCursors(a, b) >= 0;
}
