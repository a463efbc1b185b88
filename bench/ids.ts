/**
 * Time-ordered ids (src/ids.ts) against random ones: what a new row's id costs the B-tree index keyed by it once the
 * index is larger than PostgreSQL's shared buffers, as the sessions' and reports' indexes of a factory's years are.
 * Two tables of the sessions' key shape (`uuid PRIMARY KEY` and a payload), each prefilled with BENCH_IDS_ROWS rows
 * (default 4,000,000: an index of ~120 MB, about the default `shared_buffers` of 128 MB, with the table beside it)
 * whose ids are random (version 4, as `crypto.randomUUID`) in one and time-ordered (version 7, the rows' instants
 * one millisecond apart, older than now) in the other; then, per table, BENCH_IDS_INSERTS single-row INSERTs through
 * 8 connections with ids of the same kind (new ones: the service's `timeOrderedId` of now, or `randomUUID`),
 * measured: inserts per second, and the shared buffers an insert reads from outside PostgreSQL's cache and hits in it
 * (table and index; EXPLAIN (ANALYZE, BUFFERS) of SAMPLED more inserts after each turn). The two are measured in
 * turns of 2,000 inserts each, so that the machine's drift falls on both alike. Not a target of the issue that brought it: the figure that earns the ids their place.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { timeOrderedId } from '../src/ids.ts';
import { fmt, runConcurrently, timed, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';

const ROWS = Number(process.env.BENCH_IDS_ROWS ?? 4_000_000);
const INSERTS = Number(process.env.BENCH_IDS_INSERTS ?? 20_000);
const TURN = 2000;
const WRITERS = 8;
/** Inserts of each turn run under EXPLAIN (ANALYZE, BUFFERS), one at a time, after the timed ones. */
const SAMPLED = 100;

/** SQL of a version 7 UUID for instant `ms` (bigint milliseconds) with random bits, as src/ids.ts makes them. */
const V7_SQL = (ms: string) =>
  `(lpad(to_hex(${ms}), 12, '0') || '7' || substr(md5(random()::text), 1, 3) || to_hex(8 + floor(random() * 4)::int) || substr(md5(random()::text), 1, 15))::uuid`;

const KINDS = [
  { table: 'ids_random', fill: 'gen_random_uuid()', next: () => randomUUID() },
  { table: 'ids_ordered', fill: V7_SQL(`(extract(epoch FROM now()) * 1000)::bigint - ${ROWS} + g`), next: () => timeOrderedId(new Date()) },
];

async function run(): Promise<void> {
  await withBenchDatabase(async (url) => {
    const pool = new pg.Pool({ connectionString: url, max: WRITERS });
    pool.on('error', () => {}); // the database is dropped at the end (WITH FORCE)
    try {
      const load = await timed(async () => {
        for (const k of KINDS) {
          await pool.query(`CREATE TABLE ${k.table} (id uuid PRIMARY KEY, at timestamptz NOT NULL, payload text NOT NULL)`);
          await pool.query(`INSERT INTO ${k.table} SELECT ${k.fill}, now(), repeat('x', 60) FROM generate_series(1, ${ROWS}) g`);
          await pool.query(`VACUUM ANALYZE ${k.table}`);
        }
      });
      const size = (await pool.query(`SELECT pg_size_pretty(pg_relation_size('ids_random_pkey')) AS r, pg_size_pretty(pg_relation_size('ids_ordered_pkey')) AS o, current_setting('shared_buffers') AS sb`)).rows[0];
      console.log(`${fmt(ROWS)} rows in each table (loaded in ${fmt(load, 1)} s); primary key ${size.r} (random) / ${size.o} (ordered); shared_buffers ${size.sb}`);
      // The shared buffers an insert reads (from the OS) and hits, as EXPLAIN (ANALYZE, BUFFERS) counts them.
      const buffers = async (k: (typeof KINDS)[number]) => {
        const r = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) INSERT INTO ${k.table} (id, at, payload) VALUES ($1, now(), $2)`, [k.next(), 'y'.repeat(60)]);
        const plan = r.rows[0]['QUERY PLAN'][0].Plan;
        return { read: Number(plan['Shared Read Blocks']), hit: Number(plan['Shared Hit Blocks']) };
      };
      const totals = KINDS.map(() => ({ n: 0, seconds: 0, read: 0, hit: 0, sampled: 0 }));
      for (let done = 0; done < INSERTS; done += TURN) {
        const order = (done / TURN) % 2 ? [...KINDS.keys()].reverse() : [...KINDS.keys()];
        for (const i of order) {
          const k = KINDS[i];
          const seconds = await timed(() =>
            runConcurrently(TURN, WRITERS, async () => {
              await pool.query(`INSERT INTO ${k.table} (id, at, payload) VALUES ($1, now(), $2)`, [k.next(), 'y'.repeat(60)]);
            }),
          );
          const t = totals[i];
          t.n += TURN;
          t.seconds += seconds;
          for (let j = 0; j < SAMPLED; j++) {
            const b = await buffers(k);
            t.read += b.read;
            t.hit += b.hit;
            t.sampled++;
          }
        }
      }
      for (const [i, k] of KINDS.entries()) {
        const t = totals[i];
        console.log(
          `  ${k.table === 'ids_random' ? 'random (version 4)      ' : 'time-ordered (version 7)'} ${fmt(t.n / t.seconds).padStart(7)} inserts/s   buffers per insert: read ${fmt(t.read / t.sampled, 2)}, hit ${fmt(t.hit / t.sampled, 2)}`,
        );
      }
    } finally {
      await pool.end();
    }
  });
}

export const idsBench: BenchSuite = { name: 'ids', run };
