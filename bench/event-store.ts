/**
 * Event store benchmark: appends per second with 16 concurrent writers, one event per command,
 * (a) each command opening a new stream (expected version 0) and (b) each writer appending to its own stream
 * with the expected version; beside the baseline: the same rows INSERTed directly, with 16 writers, into a table
 * of the same shape and indexes (`LIKE events INCLUDING ALL`), i.e. the cost of the store's own logic. Both use
 * the service's connection class (every parameterised query a named prepared statement). Then the rebuild
 * rate of a projection over 200,000 events.
 * Targets: append ≥ 70 % of the raw INSERT rate; rebuild ≥ 50,000 events/s.
 */
import pg from 'pg';
import { z } from 'zod';
import { runMigrations } from '../src/db/migrate.ts';
import { PreparingClient } from '../src/db/database.ts';
import { defineEvent } from '../src/events/define.ts';
import { EventRegistry } from '../src/events/registry.ts';
import { EventStore } from '../src/events/store.ts';
import { replayProjection } from '../src/projections/replay.ts';
import type { Projection } from '../src/projections/projection.ts';
import { fmt, runConcurrently, timed, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';

const Tick = defineEvent({ type: 'Tick', schema: z.object({ sessionId: z.string(), deviceNo: z.string(), at: z.string(), n: z.number() }) });
const registry = new EventRegistry([Tick]);
const payload = (n: number) => ({ sessionId: '6f1c1f0e-8a39-4c3e-9d0b-3f5f0d3f8e21', deviceNo: 'JC-01', at: '2026-03-02T08:00:00.000Z', n });
const WRITERS = 16;
const N = 8000;

const perStream: Projection = {
  name: 'bench_per_stream',
  mode: 'inline',
  tables: [{ name: 'bench_per_stream', key: ['stream_id'], columns: ['stream_id', 'events', 'total', 'last_at'] }],
  eventTypes: ['Tick'],
  touches: (e) => [{ table: 'bench_per_stream', key: [e.streamId] }],
  apply(e, view) {
    const row = view.get('bench_per_stream', [e.streamId]) ?? { stream_id: e.streamId, events: 0, total: 0, last_at: null };
    return [{ table: 'bench_per_stream', key: [e.streamId], row: { ...row, events: Number(row.events) + 1, total: Number(row.total) + (e.data as any).n, last_at: (e.data as any).at } }];
  },
};

async function run(): Promise<void> {
  await withBenchDatabase(async (url) => {
    // As the service connects (src/db/database.ts): parameterised queries as named prepared statements.
    const pool = new pg.Pool({ connectionString: url, max: WRITERS, Client: PreparingClient });
    pool.on('error', () => {}); // connections ended by the final DROP DATABASE
    await runMigrations(pool);
    // The baseline writes the very same rows into a table of the same shape and indexes, without the store.
    await pool.query(`CREATE TABLE raw_events (LIKE events INCLUDING ALL)`);
    await pool.query(`CREATE TABLE bench_per_stream (stream_id text PRIMARY KEY, events integer, total bigint, last_at timestamptz)`);
    const store = new EventStore(registry);
    const meta = { actorPhone: '13800138000', role: 'worker', requestId: 'bench' };
    const now = new Date();

    const raw = await timed(() =>
      runConcurrently(N, WRITERS, (i) =>
        pool.query(`INSERT INTO raw_events (stream_id, stream_version, event_type, data, metadata, recorded_at) VALUES ($1, 1, 'Tick', $2, $3, $4)`, [`r-${i}`, JSON.stringify(payload(i)), JSON.stringify(meta), now]).then(() => {}),
      ),
    );
    const fresh = await timed(() =>
      runConcurrently(N, WRITERS, (i) =>
        store.append(pool, [{ streamId: `new-${i}`, expectedVersion: 0, events: [{ type: 'Tick', data: payload(i) }] }], meta, now).then(() => {}),
      ),
    );
    const versions = new Array(WRITERS).fill(0);
    const same = await timed(() =>
      runConcurrently(N, WRITERS, (i, w) =>
        store.append(pool, [{ streamId: `w-${w}`, expectedVersion: versions[w], events: [{ type: 'Tick', data: payload(i) }] }], meta, now).then(() => {
          versions[w]++;
        }),
      ),
    );
    const rawRate = N / raw;
    console.log(`raw INSERT (baseline, 16 writers):        ${fmt(rawRate)} rows/s`);
    console.log(`append, new stream each (16 writers):     ${fmt(N / fresh)} events/s = ${fmt((100 * N) / fresh / rawRate)} % of raw (target ≥ 70 %)`);
    console.log(`append, own stream + expected version:    ${fmt(N / same)} events/s = ${fmt((100 * N) / same / rawRate)} % of raw (target ≥ 70 %)`);

    // Rebuild: 200,000 events over 2,000 streams.
    await pool.query(`TRUNCATE events`);
    await pool.query(
      `INSERT INTO events (stream_id, stream_version, event_type, data, recorded_at)
       SELECT 's-' || (g % 2000), g / 2000 + 1, 'Tick', jsonb_build_object('sessionId', 'x', 'deviceNo', 'JC-01', 'at', '2026-03-02T08:00:00.000Z', 'n', g), now()
         FROM generate_series(0, 199999) g`,
    );
    const rebuild = await timed(() => replayProjection(pool, store, perStream));
    console.log(`rebuild of a projection, 200,000 events:  ${fmt(200_000 / rebuild)} events/s in ${fmt(rebuild, 2)} s (target ≥ 50,000/s)`);
    await pool.end();
  });
}

export const eventStoreBench: BenchSuite = { name: 'event-store', run };
