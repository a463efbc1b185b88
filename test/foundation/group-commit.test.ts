/**
 * The group commit (src/db/group-commit.ts) and its statement batch (src/db/statement-batch.ts), on PostgreSQL:
 * statements that wait together commit in one transaction; a failing statement costs the others nothing but a
 * run alone; a key never runs in two batches at once; a connection lost mid-batch runs its statements again.
 * Then the event store's appends through it. PostgreSQL only: on PGlite appends go through the pool.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { GroupCommit } from '../../src/db/group-commit.ts';
import { PreparingClient } from '../../src/db/preparing-client.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { EventStore, StreamVersionConflict } from '../../src/events/store.ts';
import { createPgDatabase, onPostgres } from '../helpers/db.ts';
import { testRegistry, type CountedEvent } from '../helpers/test-events.ts';

let db: { url: string; drop: () => Promise<void> } | undefined;
let admin: pg.Pool;
let tearingDown = false;
const pools: pg.Pool[] = [];
const poolOf = (max: number, Client: typeof pg.Client = PreparingClient) => {
  const p = new pg.Pool({ connectionString: db!.url, max, Client });
  // An idle connection's error fails the test, except while the database is dropped at the end.
  p.on('error', (err) => {
    if (!tearingDown) throw err;
  });
  pools.push(p);
  return p;
};

const INSERT = `INSERT INTO g (id, note) VALUES ($1, $2) RETURNING id, pg_current_xact_id()::text AS tx`;
const BUMP = `UPDATE g SET n = n + 1 WHERE id = $1 RETURNING n, pg_current_xact_id()::text AS tx`;
const settled = <T>(p: Promise<T>) => p.then((v) => ({ ok: true as const, v }), (e) => ({ ok: false as const, e }));

/** Resolves once a backend of this database waits for a lock (the statement under test is blocked). */
async function someoneWaitsForALock(): Promise<number> {
  for (let i = 0; i < 500; i++) {
    const r = await admin.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
    if (r.rows.length) return r.rows[0].pid;
    await new Promise((res) => setTimeout(res, 10));
  }
  throw new Error('no backend is waiting for a lock');
}

beforeAll(async () => {
  if (!onPostgres) return;
  db = await createPgDatabase();
  admin = poolOf(3, pg.Client);
  await admin.query(`CREATE TABLE g (id int PRIMARY KEY, note text, n int NOT NULL DEFAULT 0)`);
});
beforeEach(async () => {
  if (onPostgres) await admin.query(`TRUNCATE g`);
});
afterAll(async () => {
  tearingDown = true;
  for (const p of pools) await p.end();
  await db?.drop();
});

describe.runIf(onPostgres)('group commit', () => {
  it('statements that wait together commit in one transaction, each with its own result', async () => {
    const group = new GroupCommit(poolOf(1), { maxInFlight: 1 });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => group.query({ text: INSERT, values: [i, `n${i}`], key: `k${i}` })));
    expect(results.map((r) => r.rows[0].id)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // The first runs alone (which prepares the statement on the connection), the other 19 in one batch.
    expect(group.stats).toEqual({ statements: 20, commits: 2, reruns: 0 });
    expect(new Set(results.slice(1).map((r) => r.rows[0].tx)).size).toBe(1);
    expect(results[0].rows[0].tx).not.toBe(results[1].rows[0].tx);
    expect((await admin.query(`SELECT count(*)::int AS n FROM g`)).rows[0].n).toBe(20);
  });

  it("a batch runs its statements in the order of their keys, one key's in the order they came", async () => {
    await admin.query(`CREATE TABLE IF NOT EXISTS h (seq bigserial PRIMARY KEY, id int NOT NULL)`);
    const group = new GroupCommit(poolOf(1), { maxInFlight: 1 });
    const text = `INSERT INTO h (id) VALUES ($1) RETURNING seq`;
    await group.query({ text: text, values: [0], key: 'warm' }); // prepares the statement
    const keys = ['worker-c', 'worker-a', 'worker-b', 'worker-a', 'worker-c'];
    const seqs = await Promise.all(keys.map((k, i) => group.query({ text, values: [i + 1], key: k }).then((r) => Number(r.rows[0].seq))));
    expect(group.stats.commits).toBe(2);
    const ran = keys.map((_, i) => i + 1).sort((x, y) => seqs[x - 1] - seqs[y - 1]);
    expect(ran).toEqual([2, 4, 3, 1, 5]);
  });

  it('one failing statement: the others run again alone and commit; it gets its own error', async () => {
    const group = new GroupCommit(poolOf(1), { maxInFlight: 1 });
    await group.query({ text: INSERT, values: [1, 'prepares the statement'], key: 'k' });
    await admin.query(`INSERT INTO g (id, note) VALUES (105, 'already there')`);
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => settled(group.query({ text: INSERT, values: [100 + i, 'batch'], key: `k${i}` }))));
    outcomes.forEach((o, i) => {
      if (i === 5) expect(!o.ok && (o.e as pg.DatabaseError).code).toBe('23505');
      else expect(o.ok && o.v.rows[0].id).toBe(100 + i);
    });
    // The batch was rolled back whole; each of the ten ran again alone, nine committed, nothing twice.
    expect(group.stats).toEqual({ statements: 10, commits: 10, reruns: 10 });
    expect(new Set(outcomes.filter((o) => o.ok).map((o) => (o.ok ? o.v.rows[0].tx : '')))).toHaveProperty('size', 9);
    const rows = await admin.query(`SELECT id, note FROM g WHERE id >= 100 ORDER BY id`);
    expect(rows.rows).toEqual(Array.from({ length: 10 }, (_, i) => ({ id: 100 + i, note: i === 5 ? 'already there' : 'batch' })));
  });

  it('a key never runs in two batches at once; other keys go on meanwhile', async () => {
    const group = new GroupCommit(poolOf(2), { maxInFlight: 2 });
    await admin.query(`INSERT INTO g (id) VALUES (1)`);
    await group.query({ text: BUMP, values: [1], key: 'a' }); // prepared on one connection at least
    const lock = await admin.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('SELECT * FROM g WHERE id = 1 FOR UPDATE');
      const order: string[] = [];
      const a = group.query({ text: BUMP, values: [1], key: 'a' }).then((r) => (order.push('a'), r));
      await someoneWaitsForALock();
      const b = group.query({ text: INSERT, values: [200, 'b'], key: 'a' }).then((r) => (order.push('b'), r));
      const c = await group.query({ text: INSERT, values: [201, 'c'], key: 'c' });
      order.push('c');
      expect(c.rows[0].id).toBe(201);
      // b waits behind a (same key), although a connection is free: not a row of it is written yet.
      await new Promise((res) => setTimeout(res, 100));
      expect(order).toEqual(['c']);
      expect((await admin.query(`SELECT count(*)::int AS n FROM g WHERE id = 200`)).rows[0].n).toBe(0);
      await lock.query('COMMIT');
      expect((await a).rows[0].n).toBe(2);
      expect((await b).rows[0].id).toBe(200);
      expect(order).toEqual(['c', 'a', 'b']);
    } finally {
      lock.release();
    }
  });

  it('a connection lost mid-batch: every statement of the batch runs again, once, on a new connection (a pool of one)', async () => {
    const group = new GroupCommit(poolOf(1), { maxInFlight: 1 });
    await admin.query(`INSERT INTO g (id) VALUES (1)`);
    await Promise.all([group.query({ text: INSERT, values: [2, 'warm'], key: 'w' }), group.query({ text: BUMP, values: [1], key: 'w' })]); // both prepared on the connection
    await admin.query(`UPDATE g SET n = 0 WHERE id = 1`);
    const lock = await admin.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('SELECT * FROM g WHERE id = 1 FOR UPDATE');
      const before = { ...group.stats };
      const batch = [group.query({ text: INSERT, values: [300, 'x'], key: 'x' }), group.query({ text: BUMP, values: [1], key: 'y' }), group.query({ text: INSERT, values: [301, 'z'], key: 'z' })].map(settled);
      const blocked = await someoneWaitsForALock();
      await admin.query(`SELECT pg_terminate_backend($1)`, [blocked]);
      await lock.query('COMMIT');
      const outcomes = await Promise.all(batch);
      expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
      expect(group.stats.statements - before.statements).toBe(3);
      expect(group.stats.commits - before.commits).toBe(3); // each alone
      expect(group.stats.reruns - before.reruns).toBe(3); // after the batch of the three failed
    } finally {
      lock.release();
    }
    const rows = await admin.query(`SELECT id, n FROM g WHERE id IN (1, 300, 301) ORDER BY id`);
    expect(rows.rows).toEqual([
      { id: 1, n: 1 },
      { id: 300, n: 0 },
      { id: 301, n: 0 },
    ]);
  });
});

describe.runIf(onPostgres)('event store appends through the group commit', () => {
  const store = new EventStore(testRegistry);
  const now = new Date('2026-03-02T00:00:00Z');
  const ev = (n: number): CountedEvent => ({ type: 'Counted', data: { n, label: 'x' } });
  let group: GroupCommit;
  beforeAll(async () => {
    const pool = poolOf(4);
    await runMigrations(pool);
    group = new GroupCommit(pool);
  });

  it('many streams at once: fewer commits than appends, every event stored once at its version', async () => {
    const before = { ...group.stats };
    const stored = await Promise.all(
      Array.from({ length: 60 }, (_, i) => store.append(group, [{ streamId: `gc-${i}`, expectedVersion: 0, events: [ev(i), ev(i + 1000)] }], {}, now)),
    );
    expect(stored.map((s) => s.map((e) => [e.streamId, e.streamVersion, e.data.n]))).toEqual(
      Array.from({ length: 60 }, (_, i) => [
        [`gc-${i}`, 1, i],
        [`gc-${i}`, 2, i + 1000],
      ]),
    );
    expect(group.stats.statements - before.statements).toBe(60);
    expect(group.stats.commits - before.commits).toBeLessThan(60);
    const count = await group.pool.query(`SELECT count(*)::int AS n, count(DISTINCT transaction_id)::int AS tx FROM events WHERE stream_id LIKE 'gc-%'`);
    expect(count.rows[0].n).toBe(120);
    expect(count.rows[0].tx).toBeLessThan(60);
  });

  it('concurrent appends with the same expected version, in one batch: exactly one wins', async () => {
    await store.append(group, [{ streamId: 'gc-race', expectedVersion: 0, events: [ev(0)] }], {}, now);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => store.append(group, [{ streamId: 'gc-race', expectedVersion: 1, events: [ev(100 + i)] }], {}, now)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StreamVersionConflict);
    expect((await store.readStream(group.pool, 'gc-race')).map((e) => e.streamVersion)).toEqual([1, 2]);
  });
});
