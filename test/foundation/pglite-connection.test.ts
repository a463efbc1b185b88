/**
 * The embedded database (src/db/database.ts): PGlite is one backend behind a socket, so the named statements its
 * pool connection prepares (PreparingClient, the group commit) outlive that connection. When the connection is
 * replaced, the new one starts by dropping them, and the same statements (an append through the group commit)
 * work again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { EventStore } from '../../src/events/store.ts';
import { testRegistry, type CountedEvent } from '../helpers/test-events.ts';

let db: Database;
const store = new EventStore(testRegistry);
const at = new Date('2026-03-02T00:00:00Z');
const ev = (n: number): CountedEvent => ({ type: 'Counted', data: { n, label: 'x' } });

beforeAll(async () => {
  db = await openDatabase({ kind: 'pglite' });
  await runMigrations(db.pool);
});
afterAll(() => db.close());

it('prepared statements survive the pool connection being replaced', async () => {
  await store.append(db.writes, [{ streamId: 'p-1', expectedVersion: 0, events: [ev(1)] }], {}, at);
  const prepared = async () => Number((await db.pool.query(`SELECT count(*) AS n FROM pg_prepared_statements`)).rows[0].n);
  expect(await prepared()).toBeGreaterThan(0);
  // The pool's one connection goes away (a failure); the next one is new.
  const client = await db.pool.connect();
  client.release(new Error('dropped on purpose'));
  await store.append(db.writes, [{ streamId: 'p-1', expectedVersion: 1, events: [ev(2)] }], {}, at);
  await store.append(db.writes, [{ streamId: 'p-2', expectedVersion: 0, events: [ev(3)] }], {}, at);
  const read = await store.readStream<CountedEvent>(db.pool, 'p-1');
  expect(read.map((e) => e.data.n)).toEqual([1, 2]);
});
