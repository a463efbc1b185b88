/**
 * Benchmark databases: a fresh PostgreSQL database per suite on BENCH_DATABASE_URL / DATABASE_URL / the local
 * server, dropped afterwards. `timed(fn)` gives seconds; `samples(n, fn)` milliseconds of n runs; `percentile(values,
 * p)`; `openBenchPool(url, workers)` a migrated database with workers in personnel; `rebuildBeside(pool, store,
 * projection, events)` a projection's rebuild rate beside the baseline of reading the same events alone.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { runMigrations } from '../src/db/migrate.ts';
import { withTransaction } from '../src/db/transaction.ts';
import { START, cursorOf, type EventStore } from '../src/events/store.ts';
import type { Projection } from '../src/projections/projection.ts';
import { replayProjection } from '../src/projections/replay.ts';

export const benchServerUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export async function withBenchDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const name = `shift_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: benchServerUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(benchServerUrl);
  u.pathname = `/${name}`;
  try {
    return await fn(u.toString());
  } finally {
    // BENCH_KEEP_DATABASE=1 keeps it for a look with EXPLAIN (dropped by hand: DROP DATABASE <name>).
    if (process.env.BENCH_KEEP_DATABASE) console.log(`database kept: ${name}`);
    else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e9;
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** Runs `count` tasks with `concurrency` workers; `task(i)` for i in 0..count-1. */
export async function runConcurrently(count: number, concurrency: number, task: (i: number, worker: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = next++; i < count; i = next++) await task(i, w);
    }),
  );
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Milliseconds of each of `n` runs of `fn(i)`, one after the other. */
export async function samples(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await timed(() => fn(i))) * 1000);
  return out;
}

export const ms = (v: number) => `${fmt(v, 2)} ms`;

/** A pool on `url` (migrated), with workers 1…`workers` in personnel as `138` + 8 digits, named 工人<n>. */
export async function openBenchPool(url: string, workers: number): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => {}); // the database is dropped with FORCE at the end
  await runMigrations(pool);
  await pool.query(
    `INSERT INTO personnel (phone, name, role) SELECT '138' || lpad(w::text, 8, '0'), '工人' || w, 'worker' FROM generate_series(1, $1::int) w`,
    [workers],
  );
  return pool;
}

/**
 * Rebuilds `projection` (replayProjection) and, as its baseline, reads every event through the store's commit-safe
 * reader without projecting; then ANALYZE. → the line to print (events/s of each, `events` being all there are)
 * with `detail` after the rebuild's figures.
 */
export async function rebuildBeside(pool: pg.Pool, store: EventStore, projection: Projection, events: number, detail: () => Promise<string>): Promise<string> {
  const read = await readEvents(pool, store);
  let applied = 0;
  const rebuild = await timed(async () => {
    applied = await replayProjection(pool, store, projection);
  });
  await pool.query('ANALYZE');
  return (
    `rebuild of the ${projection.name} projection: ${fmt(applied / rebuild)} events/s (${fmt(applied)} events, ${fmt(rebuild, 1)} s, ${await detail()})` +
    `   baseline, reading the same events only: ${fmt(events / read)} events/s`
  );
}

/** Seconds to read every event through the store's commit-safe reader, without projecting. */
function readEvents(pool: pg.Pool, store: EventStore): Promise<number> {
  return timed(() =>
    withTransaction(pool, async (tx) => {
      let cursor = START;
      for (;;) {
        const batch = await store.readAfter(tx, cursor, 5000);
        if (batch.length === 0) return;
        cursor = cursorOf(batch[batch.length - 1]);
      }
    }),
  );
}
