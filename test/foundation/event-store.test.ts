import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { withTransaction } from '../../src/db/transaction.ts';
import { GuardFailed } from '../../src/db/guarded-write.ts';
import { EventStore, START, StreamVersionConflict, cursorOf, type Cursor, type StoredEvent } from '../../src/events/store.ts';
import { EventValidationError } from '../../src/events/registry.ts';
import { onPostgres, openTestDatabase } from '../helpers/db.ts';
import { testRegistry, type CountedEvent } from '../helpers/test-events.ts';

let db: Database;
const store = new EventStore(testRegistry);
const now = new Date('2026-03-02T00:00:00Z');
const ev = (n: number): CountedEvent => ({ type: 'Counted', data: { n, label: 'x' } });
const append = (streamId: string, expectedVersion: number | 'any', ...ns: number[]) =>
  withTransaction(db.pool, (tx) => store.append(tx, [{ streamId, expectedVersion, events: ns.map(ev) }], { actorPhone: '13800138000' }, now));

beforeAll(async () => {
  db = await openTestDatabase();
  await runMigrations(db.pool);
});
afterAll(() => db.close());

describe('event store', () => {
  it('appends with versions from 1 and reads the stream back in order with metadata', async () => {
    const stored = await append('s-1', 0, 1, 2);
    expect(stored.map((e) => e.streamVersion)).toEqual([1, 2]);
    await append('s-1', 2, 3);
    const read = await store.readStream<CountedEvent>(db.pool as any, 's-1');
    expect(read.map((e) => [e.streamVersion, e.data.n])).toEqual([[1, 1], [2, 2], [3, 3]]);
    expect(read[0].metadata.actorPhone).toBe('13800138000');
    expect(read[0].recordedAt.toISOString()).toBe(now.toISOString());
    expect(await store.streamVersion(db.pool as any, 's-1')).toBe(3);
  });

  it('refuses a stale, a too-high or a "new" expected version with a typed conflict and writes nothing', async () => {
    await append('s-2', 0, 1);
    await expect(append('s-2', 0, 9)).rejects.toBeInstanceOf(StreamVersionConflict);
    await expect(append('s-2', 5, 9)).rejects.toBeInstanceOf(StreamVersionConflict);
    await append('s-2', 1, 2);
    await expect(append('s-2', 1, 9)).rejects.toBeInstanceOf(StreamVersionConflict);
    const read = await store.readStream<CountedEvent>(db.pool as any, 's-2');
    expect(read.map((e) => e.data.n)).toEqual([1, 2]);
  });

  it('lets exactly one of many concurrent writers with the same expected version win', async () => {
    await append('s-3', 0, 0);
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => append('s-3', 1, 100 + i)));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StreamVersionConflict);
    const read = await store.readStream(db.pool as any, 's-3');
    expect(read.map((e) => e.streamVersion)).toEqual([1, 2]);
  });

  it("appends to several streams atomically: one stream's conflict rolls back the other", async () => {
    await append('s-4a', 0, 1);
    await expect(
      withTransaction(db.pool, (tx) =>
        store.append(
          tx,
          [
            { streamId: 's-4b', expectedVersion: 0, events: [ev(1)] },
            { streamId: 's-4a', expectedVersion: 0, events: [ev(2)] },
          ],
          {},
          now,
        ),
      ),
    ).rejects.toBeInstanceOf(StreamVersionConflict);
    expect(await store.readStream(db.pool as any, 's-4b')).toEqual([]);
    expect(await store.streamVersion(db.pool as any, 's-4b')).toBe(0);
  });

  it('appends alike whether the events go as typed parameters (up to 8) or as one JSON array (more)', async () => {
    for (const [tag, total] of [['typed', 5], ['json', 13]] as const) {
      const a = `s-shape-${tag}-a`;
      const b = `s-shape-${tag}-b`;
      await append(a, 0, 0);
      const first = Math.ceil(total / 2);
      const ns = Array.from({ length: total }, (_, i) => i + 1);
      const appends = [
        { streamId: a, expectedVersion: 1, events: ns.slice(0, first).map(ev) },
        { streamId: b, expectedVersion: 0, events: ns.slice(first).map(ev) },
      ];
      const meta = { actorPhone: '13800138000', requestId: tag };
      const stored = await withTransaction(db.pool, (tx) => store.append(tx, appends, meta, now));
      // In the given order: stream a's events (versions 2…), then b's (1…), positions increasing in that order.
      expect(stored.map((e) => [e.streamId, e.streamVersion, e.data.n])).toEqual([
        ...ns.slice(0, first).map((n, i) => [a, i + 2, n]),
        ...ns.slice(first).map((n, i) => [b, i + 1, n]),
      ]);
      for (let i = 1; i < stored.length; i++) expect(stored[i].globalPosition).toBeGreaterThan(stored[i - 1].globalPosition);
      expect(new Set(stored.map((e) => e.transactionId)).size).toBe(1);
      const read = [...(await store.readStream<CountedEvent>(db.pool as any, a)), ...(await store.readStream<CountedEvent>(db.pool as any, b))];
      expect(read.map((e) => [e.streamId, e.streamVersion, e.data, e.metadata, e.recordedAt.toISOString(), e.globalPosition])).toEqual([
        [a, 1, { n: 0, label: 'x' }, { actorPhone: '13800138000' }, now.toISOString(), read[0].globalPosition],
        ...stored.map((e) => [e.streamId, e.streamVersion, e.data, meta, now.toISOString(), e.globalPosition]),
      ]);
      // A stale expected version on either stream writes nothing of either shape.
      await expect(withTransaction(db.pool, (tx) => store.append(tx, appends, meta, now))).rejects.toBeInstanceOf(StreamVersionConflict);
      expect(await store.streamVersion(db.pool as any, a)).toBe(first + 1);
      expect(await store.streamVersion(db.pool as any, b)).toBe(total - first);
    }
  });

  it('runs what the caller adds to its statement: the guard decides for the whole append, the writes run only then', async () => {
    await db.pool.query(`CREATE TABLE IF NOT EXISTS extension_log (n integer NOT NULL)`);
    const attempt = (n: number, expectedVersion: number) =>
      withTransaction(db.pool, (tx) =>
        store.append(tx, [{ streamId: 's-cond', expectedVersion, events: [ev(n)] }], {}, now, (w) => {
          const p = w.param(n);
          w.guard('even', `${p}::int % 2 = 0`);
          w.write((when) => `INSERT INTO extension_log (n) SELECT ${p}::int FROM ${when.from} WHERE ${when.condition}`);
        }),
      );
    await attempt(2, 0);
    await expect(attempt(3, 1)).rejects.toBeInstanceOf(GuardFailed);
    await attempt(4, 1);
    await expect(attempt(5, 2)).rejects.toBeInstanceOf(GuardFailed);
    // A stale expected version writes nothing either, though the caller's guard holds.
    await expect(attempt(6, 1)).rejects.toBeInstanceOf(StreamVersionConflict);
    const read = await store.readStream<CountedEvent>(db.pool as any, 's-cond');
    expect(read.map((e) => [e.streamVersion, e.data.n])).toEqual([[1, 2], [2, 4]]);
    expect((await db.pool.query(`SELECT n FROM extension_log ORDER BY n`)).rows.map((r) => r.n)).toEqual([2, 4]);
  });

  it('reads a section from the last event of a type', async () => {
    await append('s-section', 0, 1, 2);
    await append('s-section', 2, 3);
    const all = await store.readStream<CountedEvent>(db.pool as any, 's-section', { lastOf: 'Counted' });
    expect(all.map((e) => e.streamVersion)).toEqual([3]);
    expect((await store.readStream(db.pool as any, 's-section', { lastOf: 'Nothing' })).map((e) => e.streamVersion)).toEqual([1, 2, 3]);
    expect((await store.readStream(db.pool as any, 's-section', 2)).map((e) => e.streamVersion)).toEqual([2, 3]);
  });

  it("'any' appends after whatever is there", async () => {
    await append('s-5', 'any', 1);
    await append('s-5', 'any', 2, 3);
    expect((await store.readStream(db.pool as any, 's-5')).map((e) => e.streamVersion)).toEqual([1, 2, 3]);
  });

  it('validates payloads on append', async () => {
    await expect(
      withTransaction(db.pool, (tx) => store.append(tx, [{ streamId: 's-6', expectedVersion: 0, events: [{ type: 'Counted', data: { n: 'x' } }] }], {}, now)),
    ).rejects.toBeInstanceOf(EventValidationError);
    await expect(
      withTransaction(db.pool, (tx) => store.append(tx, [{ streamId: 's-6', expectedVersion: 0, events: [{ type: 'Nope', data: {} }] }], {}, now)),
    ).rejects.toThrow(/unknown event type/);
  });

  it('upcasts old payload versions when reading', async () => {
    await db.pool.query(
      `INSERT INTO events (stream_id, stream_version, event_type, schema_version, data) VALUES ('s-7', 1, 'Counted', 1, '{"n": 7}')`,
    );
    const [e] = await store.readStream<CountedEvent>(db.pool as any, 's-7');
    expect(e.data).toEqual({ n: 7, label: 'v1' });
    expect(e.schemaVersion).toBe(1);
  });

  /** Reads after `cursor` in pages of `page` until `count` events came (other databases' open transactions may hold the reader back a moment). */
  async function readUntil(cursor: Cursor, count: number, page = 3) {
    const seen: StoredEvent[] = [];
    const deadline = Date.now() + 20_000;
    while (seen.length < count && Date.now() < deadline) {
      const batch = await store.readAfter(db.pool as any, cursor, page);
      if (batch.length === 0) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      seen.push(...(batch as StoredEvent[]));
      cursor = cursorOf(batch[batch.length - 1]);
    }
    return seen;
  }

  it('reads everything after a cursor in (transaction, position) order, once', async () => {
    const all = await db.pool.query('SELECT global_position FROM events ORDER BY transaction_id, global_position');
    const seen = await readUntil(START, all.rows.length);
    expect(seen.map((e) => e.globalPosition)).toEqual(all.rows.map((r) => r.global_position));
    expect(await store.readAfter(db.pool as any, cursorOf(seen[seen.length - 1]), 10)).toEqual([]);
  });

  it('orders by transaction id as a number, not as text (xid 10 after xid 9)', async () => {
    await db.pool.query(`TRUNCATE events`);
    await db.pool.query(
      `INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, transaction_id)
       VALUES ('x-10', 1, 'Counted', 2, '{"n": 10, "label": ""}', '10'), ('x-9', 1, 'Counted', 2, '{"n": 9, "label": ""}', '9'),
              ('x-100', 1, 'Counted', 2, '{"n": 100, "label": ""}', '100')`,
    );
    const first = await store.readAfter<CountedEvent>(db.pool as any, START, 2);
    expect(first.map((e) => e.data.n)).toEqual([9, 10]);
    const rest = await store.readAfter<CountedEvent>(db.pool as any, cursorOf(first[1]), 10);
    expect(rest.map((e) => e.data.n)).toEqual([100]);
  });

  it('reads a page for a consumer of some types: their payloads only, and the cursor past the whole page', async () => {
    await db.pool.query(`TRUNCATE events`);
    await db.pool.query(
      `INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, transaction_id)
       VALUES ('p-5', 1, 'Other', 1, '{"big": "x"}', '5'), ('p-6', 1, 'Counted', 2, '{"n": 6, "label": ""}', '6'),
              ('p-7', 1, 'Other', 1, '{}', '7'), ('p-8', 1, 'Other', 1, '{}', '8')`,
    );
    const first = await store.readPageAfter<CountedEvent>(db.pool as any, START, 2, ['Counted']);
    expect(first.events.map((e) => [e.type, e.data.n])).toEqual([['Counted', 6]]);
    expect([first.read, first.last?.transactionId]).toEqual([2, '6']);
    const second = await store.readPageAfter<CountedEvent>(db.pool as any, first.last!, 10, ['Counted']);
    expect([second.events, second.read, second.last?.transactionId]).toEqual([[], 2, '8']);
    expect(await store.readPageAfter(db.pool as any, second.last!, 10, ['Counted'])).toEqual({ events: [], read: 0, last: undefined });
  });

  // PGlite is one backend: its transactions cannot overlap, so this can only happen on PostgreSQL.
  it.runIf(onPostgres)('does not hand out events of a transaction still open, nor anything committed after it began', async () => {
    const before = await store.readAfter(db.pool as any, START, 10_000);
    const last = cursorOf(before[before.length - 1]);
    const slow = await db.pool.connect();
    await slow.query('BEGIN');
    await store.append(slow, [{ streamId: 's-8', expectedVersion: 0, events: [ev(1)] }], {}, now);
    await append('s-9', 0, 2); // commits while s-8's transaction is still open
    expect(await store.readAfter(db.pool as any, last, 100)).toEqual([]);
    await slow.query('COMMIT');
    slow.release();
    const after = await readUntil(last, 2, 100);
    expect(after.map((e) => e.streamId)).toEqual(['s-8', 's-9']);
  });
});
