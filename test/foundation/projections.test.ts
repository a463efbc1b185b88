import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { withTransaction } from '../../src/db/transaction.ts';
import { EventStore } from '../../src/events/store.ts';
import { projectBatch } from '../../src/projections/runner.ts';
import { catchUp, catchUpToNow, projectionConsumer, runConsumerBatch } from '../../src/projections/consumer.ts';
import { replayProjection } from '../../src/projections/replay.ts';
import { Leadership, runExclusive } from '../../src/projections/leader.ts';
import { onPostgres, openTestDatabase } from '../helpers/db.ts';
import { testRegistry } from '../helpers/test-events.ts';
import { TEST_TOTALS_DDL, totalsProjection } from '../helpers/test-projection.ts';

let db: Database;
const store = new EventStore(testRegistry);
const at = new Date('2026-03-02T00:00:00Z');

beforeAll(async () => {
  db = await openTestDatabase();
  await runMigrations(db.pool);
  await db.pool.query(TEST_TOTALS_DDL);
});
afterAll(() => db.close());
beforeEach(async () => {
  await db.pool.query(`TRUNCATE events, projection_checkpoints, test_totals`);
});

const totals = async () => (await db.pool.query(`SELECT stream_id, total, count, last_at FROM test_totals ORDER BY stream_id`)).rows;

/** Appends `ns` to `streamId` and runs `inline` (if given) in the same transaction. */
async function write(streamId: string, ns: number[], inline?: ReturnType<typeof totalsProjection>, fail = false) {
  await withTransaction(db.pool, async (tx) => {
    const stored = await store.append(tx, [{ streamId, expectedVersion: 'any', events: ns.map((n) => ({ type: 'Counted', data: { n, label: '' } })) }], {}, at);
    if (inline) await projectBatch(tx, inline, stored);
    if (fail) throw new Error('boom');
  });
}

describe('projections', () => {
  it('inline: the read model commits and rolls back with the append', async () => {
    const p = totalsProjection('inline');
    await write('a', [1, 2, 3], p);
    await write('b', [10], p);
    await expect(write('a', [100], p, true)).rejects.toThrow('boom');
    expect(await totals()).toEqual([
      { stream_id: 'a', total: 6, count: 3, last_at: at },
      { stream_id: 'b', total: 10, count: 1, last_at: at },
    ]);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM events')).rows[0].n).toBe(4);
  });

  it('a batch applies events in order, including deletes and re-creation of a row', async () => {
    const p = totalsProjection('inline');
    await write('a', [5, -1, 7, 1], p);
    expect(await totals()).toEqual([{ stream_id: 'a', total: 8, count: 2, last_at: at }]);
    await write('a', [-1], p);
    expect(await totals()).toEqual([]);
  });

  it('replay of an inline projection rebuilds exactly what incremental projection built', async () => {
    const p = totalsProjection('inline');
    for (let i = 0; i < 40; i++) await write(`s${i % 7}`, [i, i % 5 === 0 ? -1 : 2], p);
    const incremental = await totals();
    await db.pool.query(`UPDATE test_totals SET total = -999`); // damage it
    const n = await replayProjection(db.pool, store, p, 7);
    expect(n).toBe(80);
    expect(await totals()).toEqual(incremental);
  });

  it('async: a consumer catches up once, with a checkpoint, and replay gives the same table', async () => {
    const p = totalsProjection('async');
    for (let i = 0; i < 25; i++) await write(`s${i % 4}`, [i, 1]);
    const consumer = projectionConsumer(p);
    expect(await catchUpToNow(db.pool, store, consumer)).toBe(50);
    const once = await totals();
    expect(once.reduce((s, r) => s + r.count, 0)).toBe(50);
    expect(await catchUp(db.pool, store, consumer, 10)).toBe(0); // nothing twice
    await write('s9', [5]);
    expect(await catchUpToNow(db.pool, store, consumer)).toBe(1);
    const incremental = await totals();
    expect(await replayProjection(db.pool, store, p, 6)).toBe(51);
    expect(await totals()).toEqual(incremental);
    expect(await catchUp(db.pool, store, consumer, 10)).toBe(0); // the checkpoint moved with the replay
  });

  it('async: concurrent runners never apply an event twice (checkpoint row lock)', async () => {
    const p = totalsProjection('async');
    for (let i = 0; i < 30; i++) await write(`s${i % 3}`, [1]);
    const consumer = projectionConsumer(p);
    await Promise.all(Array.from({ length: 6 }, () => runConsumerBatch(db.pool, store, consumer, 4)));
    await Promise.all(Array.from({ length: 4 }, () => catchUp(db.pool, store, consumer, 4)));
    await catchUpToNow(db.pool, store, consumer);
    const rows = await totals();
    expect(rows.map((r) => [r.stream_id, r.total])).toEqual([
      ['s0', 10],
      ['s1', 10],
      ['s2', 10],
    ]);
  });

  it('a failing async batch rolls back its read-model writes and its checkpoint', async () => {
    const p = totalsProjection('async');
    await write('a', [1, 2]);
    let calls = 0;
    const flaky = {
      name: p.name,
      eventTypes: p.eventTypes,
      handle: async (tx: any, events: any) => {
        await projectionConsumer(p).handle(tx, events);
        if (++calls === 1) throw new Error('crash after writing');
      },
    };
    await expect(catchUpToNow(db.pool, store, flaky)).rejects.toThrow('crash');
    expect(await totals()).toEqual([]);
    expect(await catchUpToNow(db.pool, store, flaky)).toBe(2);
    expect((await totals())[0].total).toBe(3);
  });

  // Advisory locks are per backend; PGlite has one backend, so two holders cannot be told apart there.
  it.runIf(onPostgres)('leadership: one holder at a time; it passes on when the holder lets go', async () => {
    const a = new Leadership(db, 99);
    const b = new Leadership(db, 99);
    expect(await a.tryAcquire()).toBe(true);
    expect(await b.tryAcquire()).toBe(false);
    expect(await a.tryAcquire()).toBe(true);
    await a.release(); // as when the holder's process dies: its connection ends
    expect(await b.tryAcquire()).toBe(true);
    expect(await a.tryAcquire()).toBe(false);
    await b.release();
  });

  it.runIf(onPostgres)('runExclusive: a job runs in one instance at a time', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const first = runExclusive(db.pool, 98, async () => {
      started();
      await gate;
    });
    await running;
    expect(await runExclusive(db.pool, 98, async () => {})).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(await runExclusive(db.pool, 98, async () => {})).toBe(true);
  });
});
