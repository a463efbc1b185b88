/**
 * Reads that wait for their read model (src/projections/fresh-reads.ts): what the wait adds to the reads of the wages,
 * the dashboard and the months while 200 workers clock, and how far the asynchronous projections lag under that load.
 *
 * Each variant runs the service as `npm run start:high-load` does (bench/clock.ts `startServer`) on a fresh database
 * seeded as the clock benchmark's (200 workers, 60 products). The 200 clients take the clock cycle (start → switch →
 * finish → draft → submit), paced at BENCH_FRESH_RATE req/s (default 1,500), clients spread over the cycle; every
 * submission is an event the wages and the dashboard take in, though not one a read waits for (Projection.shownBy).
 * An administrator approves the oldest pending report every BENCH_FRESH_APPROVAL_MS (default 1,000 ms): each
 * approval makes the reads that follow it wait until the models have taken it in. READERS office readers each send,
 * one after another, the eight reads that wait (wages list, a worker's statement, the worker's own, the payroll
 * workbook, the dashboard's rows, summary and workbook, the months). A sampler reads every 100 ms how far each
 * projection's checkpoint is behind: the events after it and the age of the oldest of them (by `recorded_at`).
 *
 * Two services, each on a fresh database of its own and both up for the whole run: the service (reads wait), and the
 * same service with SPEED_PIECES_OFF=fresh-reads (the same reads answered from the model as it is: the baseline).
 * They take the load in turns, part by part (BENCH_FRESH_PARTS parts each, default 6, of 4 cycles of the 200 clients:
 * 4,000 clock requests; the order reversed every other part, after one unmeasured part each), so that both meet the
 * same moments of the shared machine. The figure is the reads' p50 and p99 beside the baseline's, the difference being what the wait adds
 * (target: p99 ≤ 20 ms added), also part by part; the clock cycle's p99 and the projections' lag are printed for both.
 */
import pg from 'pg';
import { TokenService } from '../src/auth/tokens.ts';
import { WORKERS, clockCycles, closeClients, seed, startServer, stopServer, type Figures } from './clock.ts';
import { fmt, percentile, withBenchDatabase } from './db.ts';
import { HttpClient } from './http-load.ts';
import type { BenchSuite } from './suites.ts';

/** Parts per service (BENCH_FRESH_PARTS, default 6) of PART_CYCLES clock cycles each; the services take turns part by part. */
const PARTS = Number(process.env.BENCH_FRESH_PARTS ?? 6);
const PART_CYCLES = 4;
const RATE = Number(process.env.BENCH_FRESH_RATE ?? 1500);
const READERS = 4;
/** Milliseconds between two approvals of the administrator (BENCH_FRESH_APPROVAL_MS, default 1000: a reviewer's pace). */
const APPROVAL_MS = Number(process.env.BENCH_FRESH_APPROVAL_MS ?? 1000);
const ADMIN = '13900000001';
const MANAGER = '13900000002';

interface Sample {
  reads: number[];
  readErrors: number;
  clock: Figures;
  approvals: number;
  /** Per projection: events behind its checkpoint and the age (ms) of the oldest of them, one entry per sample. */
  lag: Map<string, { events: number[]; ageMs: number[] }>;
}

/** Today's local date in the service's default zone (APP_TIMEZONE Asia/Shanghai). */
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());

/** Runs `fn` again and again until `done()`. */
async function loop(done: () => boolean, fn: () => Promise<void>): Promise<void> {
  while (!done()) await fn();
}

/** A service under test: its reads, its clients' tokens, its database; `part(cycles)` measures one part of the load. */
interface Running {
  part(cycles: number): Promise<Sample>;
  stop(): Promise<void>;
}

/** The service with `env` on the fresh database `url`, seeded and warmed up (module docstring). */
async function setUp(url: string, env: Record<string, string>): Promise<Running> {
  const phones = await seed(url);
  const tokens = new TokenService('bench-secret', '1d');
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query(`INSERT INTO personnel (phone, name, role) VALUES ($1, '审核员', 'admin'), ($2, '经理', 'manager')`, [ADMIN, MANAGER]);
  const workerTokens = phones.map((phone) => tokens.issue({ phone, role: 'worker' }));
  const [admin, manager, worker] = [tokens.issue({ phone: ADMIN, role: 'admin' }), tokens.issue({ phone: MANAGER, role: 'manager' }), workerTokens[0]];
  const svc = await startServer('service', url, { env });
  const date = today();
  const month = date.slice(0, 7);
  const range = `startDate=${date}&endDate=${date}`;
  const READS: [string, string][] = [
    [manager, `/api/wages?month=${month}`],
    [manager, `/api/wages/${phones[0]}?month=${month}`],
    [worker, `/api/wages/mine?month=${month}`],
    [manager, `/api/wages.xlsx?month=${month}`],
    [manager, `/api/dashboard/reports?${range}`],
    [manager, `/api/dashboard/summary?${range}`],
    [manager, `/api/dashboard/reports.xlsx?${range}`],
    [manager, '/api/periods'],
  ];
  await clockCycles(svc.base, workerTokens, 1); // warm-up: a cycle, then each read once
  const warm = new HttpClient(svc.base);
  for (const [token, path] of READS) await warm.request('GET', path, `authorization: Bearer ${token}\r\n`);
  warm.close();

  async function part(cycles: number): Promise<Sample> {
    const sample: Sample = { reads: [], readErrors: 0, clock: undefined!, approvals: 0, lag: new Map() };
    let done = false;
    const reader = async (i: number) => {
      const http = new HttpClient(svc.base);
      let k = i;
      await loop(() => done, async () => {
        const [token, path] = READS[k++ % READS.length];
        const t = process.hrtime.bigint();
        const r = await http.request('GET', path, `authorization: Bearer ${token}\r\n`);
        sample.reads.push(Number(process.hrtime.bigint() - t) / 1e6);
        if (r.status !== 200) sample.readErrors++;
      });
      http.close();
    };
    const approver = async () => {
      const http = new HttpClient(svc.base);
      const auth = `authorization: Bearer ${admin}\r\n`;
      await loop(() => done, async () => {
        const r = await http.request('GET', '/api/reviews/pending?pageSize=1', auth);
        const id = r.status === 200 ? (JSON.parse(r.body).items[0]?.reportId as string | undefined) : undefined;
        if (id && (await http.request('POST', `/api/reviews/${id}/approve`, auth, '{}')).status === 200) sample.approvals++;
        await new Promise((resolve) => setTimeout(resolve, APPROVAL_MS));
      });
      http.close();
    };
    const sampler = async () => {
      await loop(() => done, async () => {
        const r = await db.query(
          `SELECT c.name, count(e.global_position) AS events, COALESCE(extract(epoch FROM clock_timestamp() - min(e.recorded_at)) * 1000, 0) AS age_ms
             FROM projection_checkpoints c
             LEFT JOIN events e ON (e.transaction_id, e.global_position) > (c.transaction_id, c.global_position)
            WHERE c.name IN ('wages', 'dashboard') GROUP BY c.name`,
        );
        for (const row of r.rows) {
          const l = sample.lag.get(row.name) ?? { events: [], ageMs: [] };
          l.events.push(Number(row.events));
          l.ageMs.push(Number(row.age_ms));
          sample.lag.set(row.name, l);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      });
    };
    const side = [...Array.from({ length: READERS }, (_, i) => reader(i)), approver(), sampler()];
    sample.clock = await clockCycles(svc.base, workerTokens, cycles, RATE);
    done = true;
    await Promise.all(side);
    return sample;
  }

  return {
    part,
    async stop() {
      await stopServer(svc.child);
      await db.end();
    },
  };
}

const VARIANTS: { name: string; env: Record<string, string> }[] = [
  { name: 'reads wait for their model', env: {} },
  { name: 'baseline: the model as it is', env: { SPEED_PIECES_OFF: 'fresh-reads' } },
];

async function run(): Promise<void> {
  const results = new Map<string, Sample[]>(VARIANTS.map((v) => [v.name, []]));
  await withBenchDatabase((urlA) =>
    withBenchDatabase(async (urlB) => {
      const running: Running[] = [];
      try {
        for (const [i, v] of VARIANTS.entries()) running.push(await setUp([urlA, urlB][i], v.env));
        for (const r of running) await r.part(1); // warm-up, unmeasured: the load's first part once both are up
        for (let k = 1; k <= PARTS; k++) {
          for (const i of k % 2 ? [0, 1] : [1, 0]) {
            const v = VARIANTS[i];
            const s = await running[i].part(PART_CYCLES);
            results.get(v.name)!.push(s);
            console.log(
              `  part ${k}  ${v.name.padEnd(30)} reads p50 ${fmt(percentile(s.reads, 50), 1)} ms, p99 ${fmt(percentile(s.reads, 99), 1)} ms (${fmt(s.reads.length)} reads, ${s.readErrors} not 200); clock p99 ${fmt(percentile(s.clock.all, 99), 1)} ms; ${s.approvals} approvals`,
            );
          }
        }
      } finally {
        for (const r of running) await r.stop();
        closeClients();
      }
    }),
  );
  const all = (name: string) => results.get(name)!;
  const reads = (name: string) => all(name).flatMap((s) => s.reads);
  const [wait, base] = VARIANTS.map((v) => v.name);
  console.log(
    `\n${WORKERS} workers clocking at ${fmt(RATE)} req/s offered, ${READERS} office readers, an administrator approving every ${fmt(APPROVAL_MS)} ms; ${PARTS} parts of ${fmt(PART_CYCLES * 5 * WORKERS)} clock requests each, the two services in turns:`,
  );
  for (const name of [wait, base]) {
    const xs = reads(name);
    const clock = all(name).flatMap((s) => s.clock.all);
    console.log(
      `  ${name.padEnd(30)} reads p50 ${fmt(percentile(xs, 50), 1).padStart(6)} ms   p99 ${fmt(percentile(xs, 99), 1).padStart(6)} ms   (${fmt(xs.length)} reads, ${all(name).reduce((n, s) => n + s.readErrors, 0)} not 200)   clock cycle p99 ${fmt(percentile(clock, 99), 1)} ms, ${all(name).reduce((n, s) => n + s.clock.errors, 0)} unexpected`,
    );
    for (const model of ['wages', 'dashboard']) {
      const lag = all(name).map((s) => s.lag.get(model) ?? { events: [], ageMs: [] });
      const events = lag.flatMap((l) => l.events);
      const age = lag.flatMap((l) => l.ageMs);
      console.log(
        `    ${model.padEnd(28)} lag: events behind p50 ${fmt(percentile(events, 50))}, p99 ${fmt(percentile(events, 99))}, max ${fmt(Math.max(0, ...events))}; oldest unconsumed p50 ${fmt(percentile(age, 50))} ms, p99 ${fmt(percentile(age, 99))} ms, max ${fmt(Math.max(0, ...age))} ms`,
      );
    }
  }
  const added = (p: number) => percentile(reads(wait), p) - percentile(reads(base), p);
  const byPart = all(wait).map((s, k) => `${fmt(percentile(s.reads, 99) - percentile(all(base)[k].reads, 99), 1)}`);
  console.log(`  the wait adds p50 ${fmt(added(50), 1)} ms, p99 ${fmt(added(99), 1)} ms (target p99 ≤ 20 ms added); p99 added part by part: ${byPart.join(' · ')} ms`);
}

export const freshReadsBench: BenchSuite = { name: 'fresh-reads', run };
