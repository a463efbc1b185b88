/**
 * Clocking benchmark: 200 concurrent simulated workers, each repeating the cycle clock-in → switch
 * device → finish → draft → submit over HTTP against the whole service on real PostgreSQL. Beside it, measured
 * in the same run with the same 200 clients: the ceiling, a bare express 5 + pg endpoint doing one INSERT per
 * request. Both run in their own processes, BENCH_PROCESSES of each (default 1, see PROCESSES): the service as
 * `npm run start:high-load` runs it (src/main.ts with the high-load node flags and API_PROCESSES, background work included), the ceiling from
 * bench/clock-server.ts. This process only generates the load (bench/http-load.ts: one keep-alive connection per
 * client, as light as it can be, since it shares the cores with the servers).
 * Two measures, each for the service and the ceiling:
 * - saturation: every client sends its next request as soon as the previous answers (closed loop): the most
 *   requests per second, with the latency that queueing behind 200 clients gives;
 * - paced (open loop, requests spread evenly over the 200 clients): the latency a worker sees at a given load,
 *   measured from the intended send time (no coordinated omission), and the rate achieved; at the target rate
 *   (1,500 req/s) and at half the service's own saturation rate (a load it sustains). The clients are spread over
 *   the cycle (client i begins at step i mod 5), so every moment carries the cycle's mix of requests, as 200
 *   workers at different points of their shifts would. Reported apart, at the target rate: the clients in step,
 *   all 200 taking the same step within one 133 ms interval (200 submissions at once, then 200 clock-ins, …), a
 *   burst the service must absorb rather than a steady load. The phase at the target rate alternates between the
 *   service and the ceiling in five parts (PARTS), so that both meet the same moments of the shared machine; the
 *   p99 of each part is printed beside the other's.
 * CPU per request is measured in every phase one server runs alone (all but the alternating one); for the service,
 * the commands per commit show what the group commit (src/db/group-commit.ts) gathers at that load.
 * Target: ≥ 1,500 req/s and p99 ≤ 25 ms on 2 cores.
 * `BENCH_PROF=<dir>` writes V8 CPU profiles of every server process into <dir>/service and <dir>/baseline;
 * `BENCH_NODE_ARGS` (e.g. `--trace-gc`, `--import ./bench/probes/pauses.mjs`) are given to node for every server
 * process; `BENCH_PACED_CYCLES` sets the paced phases' length; `BENCH_DUMP=<file>` writes every request of the
 * service's paced phase at the target rate as JSON (see bench/probes/stalls.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runMigrations } from '../src/db/migrate.ts';
import { TokenService } from '../src/auth/tokens.ts';
import { fmt, percentile, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';
import { cpuMeter, processTree } from './cpu.ts';
import { HttpClient } from './http-load.ts';

export const WORKERS = 200;
/**
 * Processes of the service (API_PROCESSES) and of the ceiling alike. 1 by default: on 2 cores shared with
 * PostgreSQL and this load generator, a second API process costs more CPU per request than it brings (measured).
 */
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);
export const CYCLES = 8;
/** Cycles per client in each paced phase (BENCH_PACED_CYCLES, default 10: 10,000 requests per phase). */
export const PACED_CYCLES = Number(process.env.BENCH_PACED_CYCLES ?? 10);
const DEVICES = 20;
export const STEPS = ['start', 'switch-device', 'finish', 'draft', 'submit'] as const;
export const TARGET_RATE = 1500;

/** BENCH_NODE_ARGS split into node flags (none when unset), for every server process a benchmark starts. */
export const benchNodeArgs = (): string[] => process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

/**
 * The node arguments of a start script of package.json (`node <flags> --import tsx src/main.ts`) of the checkout in
 * `dir` (default this one): `start:high-load` by default (the high-load V8 flags of README "Production"; a checkout
 * that has no such script: `start`), so that the benchmark runs the service exactly as a busy factory does.
 */
export function startScriptArgs(script = 'start:high-load', dir = fileURLToPath(new URL('..', import.meta.url))): string[] {
  const scripts = (JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as { scripts: Record<string, string | undefined> }).scripts;
  const command = scripts[script] ?? scripts.start ?? '';
  const [node, ...args] = command.split(/\s+/);
  if (node !== 'node' || args.at(-1) !== 'src/main.ts') throw new Error(`bench: unexpected ${script} script "${command}"`);
  return args.slice(0, -1);
}

/**
 * Starts the service (`src/main.ts` with the node flags of `npm run start:high-load`: background work included, API_PROCESSES
 * processes) or the ceiling (bench/clock-server.ts, as many processes) on a fresh port; resolves when every
 * process listens. `options.env` adds environment variables; `options.dir` runs the service of another checkout
 * (its own src/main.ts, package.json and node_modules).
 */
export async function startServer(
  mode: 'service' | 'baseline',
  url: string,
  options: { env?: Record<string, string>; dir?: string } = {},
): Promise<{ base: string; child: ChildProcess }> {
  const nodeArgs = [
    ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}/${mode}`] : []),
    ...benchNodeArgs(),
  ];
  const script = options.dir ? `${options.dir}/src/main.ts` : fileURLToPath(new URL(mode === 'service' ? '../src/main.ts' : './clock-server.ts', import.meta.url));
  const args = mode === 'service' ? [...startScriptArgs('start:high-load', options.dir), script] : ['--import', 'tsx', script, url, String(PROCESSES)];
  const env = {
    ...process.env,
    DATABASE_URL: url,
    PORT: '0',
    API_PROCESSES: String(PROCESSES),
    JWT_SECRET: 'bench-secret',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    ...options.env,
  };
  const child = spawn(process.execPath, [...nodeArgs, ...args], { env, cwd: options.dir, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    child.on('message', (m: { type?: string; port?: number }) => m.type === 'ready' && resolve(m.port!));
  });
  return { base: `http://127.0.0.1:${port}`, child };
}

export async function stopServer(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** One connection per client and server (`${base} ${token}`), kept for the whole run. */
const clients = new Map<string, { http: HttpClient; headers: string }>();
const clientOf = (base: string, token: string) => {
  const key = `${base} ${token}`;
  let c = clients.get(key);
  if (!c) clients.set(key, (c = { http: new HttpClient(base), headers: `authorization: Bearer ${token}\r\n` }));
  return c;
};

/**
 * One request of the client holding `token`; `ms` is measured from `since` (default: the send time), in
 * milliseconds. `body` is the answer's text: parsed only where the flow needs it.
 */
async function call(base: string, method: string, path: string, token: string, body?: unknown, since?: bigint): Promise<{ status: number; body: string; ms: number }> {
  const t = since ?? process.hrtime.bigint();
  const c = clientOf(base, token);
  const r = await c.http.request(method, path, c.headers, body === undefined ? undefined : JSON.stringify(body));
  return { status: r.status, body: r.body, ms: Number(process.hrtime.bigint() - t) / 1e6 };
}

/**
 * Paces client `i` of `n` that together send `rate` requests per second: `next()` waits for the client's next
 * intended send time (every n/rate seconds, client i offset by i/n of that interval, so that sends are evenly
 * spread) and returns that time; with `rate` 0 it returns at once (closed loop).
 */
function pacer(rate: number, i: number, n: number) {
  const intervalMs = rate ? (1000 * n) / rate : 0;
  const offsetMs = (intervalMs * i) / n;
  const start = process.hrtime.bigint() + BigInt(Math.round(offsetMs * 1e6));
  let k = 0;
  return async (): Promise<bigint | undefined> => {
    if (intervalMs === 0) return undefined;
    const due = start + BigInt(Math.round(k++ * intervalMs * 1e6));
    const wait = Number(due - process.hrtime.bigint()) / 1e6;
    if (wait > 0) await sleep(wait);
    return due;
  };
}

export interface Figures {
  /** CPU milliseconds per request of the server's processes, of its PostgreSQL backends and of this load generator (phases one server runs alone). */
  cpu?: { server: number; database: number; generator: number };
  requests: number;
  seconds: number;
  all: number[];
  byStep: Map<string, number[]>;
  errors: number;
  /** The service's commands per commit (commitMeter). */
  perCommit?: number;
}

const line = (name: string, f: Figures, extra = '') =>
  console.log(
    `${name.padEnd(48)} ${fmt(f.requests / f.seconds).padStart(7)} req/s   p50 ${fmt(percentile(f.all, 50), 1).padStart(7)} ms   p99 ${fmt(percentile(f.all, 99), 1).padStart(7)} ms` +
      (f.cpu ? `   CPU/request: server ${fmt(f.cpu.server, 2)} ms, PostgreSQL ${fmt(f.cpu.database, 2)} ms, load generator ${fmt(f.cpu.generator, 2)} ms` : '') +
      (f.perCommit !== undefined ? `   ${fmt(f.perCommit, 2)} commands per commit` : '') +
      `${f.errors ? `   ${f.errors} unexpected answers` : ''}${extra}`,
  );

/** A connection of this process to the benchmark database (which is dropped at the end of the run). */
async function connect(url: string): Promise<pg.Client> {
  const db = new pg.Client({ connectionString: url });
  db.on('error', () => {});
  await db.connect();
  return db;
}

/**
 * The service's worker commands per commit since the previous `next()` (what the group commit, src/db/group-commit.ts,
 * gathers): among the events appended since then by HTTP requests (those with a request id), distinct request ids
 * over distinct transaction ids. `end()` closes its connection.
 */
async function commitMeter(url: string): Promise<{ next(): Promise<number>; end(): Promise<void> }> {
  const db = await connect(url);
  let after = 0;
  const next = async () => {
    const r = await db.query(
      `SELECT max(global_position) AS last, count(DISTINCT metadata->>'requestId') AS commands, count(DISTINCT transaction_id) AS commits
         FROM events WHERE global_position > $1 AND metadata ? 'requestId'`,
      [after],
    );
    after = r.rows[0].last ?? after;
    return Number(r.rows[0].commands) / Math.max(1, Number(r.rows[0].commits));
  };
  await next();
  return { next, end: () => db.end() };
}

/**
 * Waits (at most 30 s) until the service's asynchronous consumers have caught up with every event appended so far
 * (each checkpoint at the last event, in commit-safe order), so that a phase of the ceiling does not share the
 * machine with the projection of the service's previous phase.
 */
export async function consumersCaughtUp(url: string): Promise<void> {
  const db = await connect(url);
  try {
    for (const until = Date.now() + 30_000; Date.now() < until; await sleep(100)) {
      const r = await db.query(
        `SELECT count(*) AS behind FROM projection_checkpoints c,
                (SELECT transaction_id, global_position FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1) e
          WHERE (c.transaction_id, c.global_position) < (e.transaction_id, e.global_position)`,
      );
      if (Number(r.rows[0].behind) === 0) return;
    }
  } finally {
    await db.end();
  }
}

/**
 * Runs `phase` while measuring the CPU time of the server's process tree and of the PostgreSQL backends connected
 * to the benchmark database; returns its figures with `cpu` per request.
 */
export async function measured(url: string, server: ChildProcess, phase: () => Promise<Figures>): Promise<Figures> {
  const db = await connect(url);
  try {
    const backends = async () =>
      (await db.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)).rows.map((r) => r.pid as number);
    const serverCpu = await cpuMeter(() => processTree(server.pid!));
    const databaseCpu = await cpuMeter(backends);
    const generatorCpu = process.cpuUsage();
    const f = await phase();
    const generator = process.cpuUsage(generatorCpu);
    f.cpu = {
      server: (await serverCpu()) / f.requests,
      database: (await databaseCpu()) / f.requests,
      generator: (generator.user + generator.system) / 1000 / f.requests,
    };
    return f;
  } finally {
    await db.end();
  }
}

/**
 * Every worker in one of 20 teams of 2 workshops, each team on a day shift with lunch (a 24-hour
 * shift for every third team, so that sessions at any hour overlap a window), from 2000-01-01: the submission's
 * shift calendar is then a real look-up. Written straight into the read models (a bench shortcut, no events), and
 * only when this checkout's migrations made them.
 */
async function seedTeamsAndShifts(pool: pg.Pool, phones: string[]): Promise<void> {
  if (!(await pool.query(`SELECT to_regclass('team_shift_assignments') IS NOT NULL AS ok`)).rows[0].ok) return;
  await pool.query(`INSERT INTO workshops (code, name, updated_at) VALUES ('W1', '一车间', now()), ('W2', '二车间', now())`);
  await pool.query(
    `INSERT INTO teams (code, name, workshop_code, leaders, updated_at)
     SELECT 'T' || t, '班组' || t, CASE WHEN t <= 10 THEN 'W1' ELSE 'W2' END, ARRAY[$1::text], now() FROM generate_series(1, 20) t`,
    [phones[0]],
  );
  await pool.query(
    `INSERT INTO team_memberships (phone, valid_from, team_code, valid_to)
     SELECT p, DATE '2000-01-01', 'T' || (1 + (i % 20)), NULL FROM unnest($1::text[]) WITH ORDINALITY AS x(p, i)`,
    [phones],
  );
  await pool.query(
    `INSERT INTO shifts (shift_id, name, start_time, end_time, breaks, version, defined_at, changed_at) VALUES
       ('day', '白班', '08:00', '17:00', '[{"start":"12:00","end":"13:00"}]', 1, now(), now()),
       ('all', '全天', '00:00', '00:00', '[{"start":"12:00","end":"13:00"},{"start":"00:00","end":"00:30"}]', 1, now(), now())`,
  );
  await pool.query(
    `INSERT INTO team_shift_assignments (team_code, valid_from, rotation, days_each, assigned_at)
     SELECT 'T' || t, DATE '2000-01-01', CASE WHEN t % 3 = 0 THEN '["all"]' ELSE '["day"]' END::jsonb, 1, now() FROM generate_series(1, 20) t`,
  );
}

export async function seed(url: string): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  await runMigrations(pool);
  const phones = Array.from({ length: WORKERS }, (_, i) => `139${String(i).padStart(8, '0')}`);
  await pool.query(`INSERT INTO personnel (phone, name, role) SELECT p, '工人' || p, 'worker' FROM unnest($1::text[]) p`, [phones]);
  await pool.query(
    `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     SELECT 'P-' || d, '产品' || k, '冲床 ' || lpad(d::text, 2, '0'), '冲压', 10 + k, floor(28800 / (10 + k))
       FROM generate_series(1, ${DEVICES}) d, generate_series(1, 3) k`,
  );
  await seedTeamsAndShifts(pool, phones);
  await pool.end();
  return phones;
}

const device = (n: number) => `冲床 ${String((n % DEVICES) + 1).padStart(2, '0')}`;

/** One simulated worker: its token, its two devices, and what its current cycle has carried so far. */
interface SimWorker {
  token: string;
  devices: [string, string];
  sessionId: string;
  lines: { productId: number; finishedQty: number; defectiveQty: number }[];
}

/**
 * Takes step `k` of the cycle (STEPS[k % 5]) for `w`, sent at `since` (default now); returns the answer and the
 * status the step expects.
 */
async function takeStep(base: string, w: SimWorker, k: number, since?: bigint): Promise<{ step: string; r: { status: number; ms: number }; ok: number }> {
  const step = STEPS[k % STEPS.length];
  const [d1, d2] = w.devices;
  switch (step) {
    case 'start': {
      const r = await call(base, 'POST', '/api/clock/start', w.token, { deviceNo: d1 }, since);
      w.sessionId = r.status === 200 ? (JSON.parse(r.body).sessionId as string) : 'none';
      return { step, r, ok: 200 };
    }
    case 'switch-device':
      return { step, r: await call(base, 'POST', '/api/clock/switch-device', w.token, { deviceNo: d2 }, since), ok: 200 };
    case 'finish':
      return { step, r: await call(base, 'POST', '/api/clock/finish', w.token, { deviceNo: d2 }, since), ok: 200 };
    case 'draft': {
      const r = await call(base, 'GET', `/api/reports/draft?sessionId=${w.sessionId}`, w.token, undefined, since);
      const candidates = r.status === 200 ? (JSON.parse(r.body).candidates as { productId: number }[]) : [];
      w.lines = candidates.slice(0, 2).map((p, i) => ({ productId: p.productId, finishedQty: 100 + i, defectiveQty: i }));
      return { step, r, ok: 200 };
    }
    case 'submit':
      return { step, r: await call(base, 'POST', '/api/reports', w.token, { sessionId: w.sessionId, lines: w.lines }, since), ok: 201 };
  }
}

/** Empty figures, with a latency list for each step of the cycle. */
const newFigures = (): Figures => ({ requests: 0, seconds: 0, all: [], byStep: new Map(STEPS.map((s) => [s, []])), errors: 0 });

/** Counts one answer in `f`: its latency `r.ms` (also under `step`, when given), an error unless `r.status` is `ok`. */
function record(f: Figures, r: { status: number; ms: number }, ok: number, step?: string): void {
  f.requests++;
  f.all.push(r.ms);
  if (step) f.byStep.get(step)!.push(r.ms);
  if (r.status !== ok) f.errors++;
}

/** Adds the requests of `part` to `total` (same phase, measured in parts; both from newFigures). */
function absorb(total: Figures, part: Figures): void {
  total.requests += part.requests;
  total.seconds += part.seconds;
  total.errors += part.errors;
  total.all.push(...part.all);
  for (const [step, ms] of part.byStep) total.byStep.get(step)!.push(...ms);
}

/**
 * The simulated workers and the step each takes next. By default client i's measured steps begin at step i mod 5
 * (`begin` takes the steps before it, unmeasured): at every moment the load carries the cycle's mix, as workers
 * at different points of their shifts do. `inStep`: every client begins at clock-in, so that all take the same
 * step within one pacing interval (200 submissions within 133 ms at 1,500 req/s): a burst, reported apart.
 * `run` continues from where the clients stand, so a phase can be measured in parts; `end` takes, unmeasured,
 * the steps that close every client's current cycle.
 */
export class Fleet {
  private readonly workers: SimWorker[];
  private readonly next: number[];

  constructor(
    private readonly base: string,
    tokens: string[],
    private readonly inStep = false,
  ) {
    this.workers = tokens.map((token, i) => ({ token, devices: [device(i), device(i + 7)], sessionId: 'none', lines: [] }));
    this.next = tokens.map(() => 0);
  }

  /** Takes, unmeasured and unpaced, client i's next steps k while `more(i, k)`. */
  private unmeasured(more: (i: number, k: number) => boolean): Promise<unknown> {
    return Promise.all(
      this.workers.map(async (w, i) => {
        while (more(i, this.next[i])) await takeStep(this.base, w, this.next[i]++);
      }),
    );
  }

  begin(): Promise<unknown> {
    return this.unmeasured((i, k) => k < (this.inStep ? 0 : i % STEPS.length));
  }

  end(): Promise<unknown> {
    return this.unmeasured((_, k) => k % STEPS.length !== 0);
  }

  /**
   * Every client takes `steps` measured steps; `rate` > 0 paces the clients to that many requests per second in
   * all (pacer). Returns their figures; with `dump`, every request is also pushed there as [answered at (epoch
   * ms), latency (ms), step].
   */
  async run(steps: number, rate = 0, dump?: [number, number, string][]): Promise<Figures> {
    const f = newFigures();
    const n = this.workers.length;
    const t = process.hrtime.bigint();
    await Promise.all(
      this.workers.map(async (w, i) => {
        const paced = pacer(rate, i, n);
        for (let s = 0; s < steps; s++) {
          const { step, r, ok } = await takeStep(this.base, w, this.next[i]++, await paced());
          dump?.push([Date.now(), r.ms, step]);
          record(f, r, ok, step);
        }
      }),
    );
    f.seconds = Number(process.hrtime.bigint() - t) / 1e9;
    return f;
  }
}

/** `cycles` whole cycles of every client (Fleet: begin, run, end); `rate` and `inStep` as there. */
export async function clockCycles(base: string, tokens: string[], cycles: number, rate = 0, inStep = false): Promise<Figures> {
  const fleet = new Fleet(base, tokens, inStep);
  await fleet.begin();
  const f = await fleet.run(cycles * STEPS.length, rate);
  await fleet.end();
  return f;
}

/** Every client sends `perClient` single-INSERT requests; `rate` as in Fleet.run. */
async function baseline(base: string, tokens: string[], perClient: number, rate = 0): Promise<Figures> {
  const f = newFigures();
  const t = process.hrtime.bigint();
  await Promise.all(
    tokens.map(async (token, i) => {
      const next = pacer(rate, i, tokens.length);
      for (let c = 0; c < perClient; c++) {
        record(f, await call(base, 'POST', '/insert', token, { deviceNo: device(i), n: c }, await next()), 200);
      }
    }),
  );
  f.seconds = Number(process.hrtime.bigint() - t) / 1e9;
  return f;
}

/** Parts of the paced phase at the target rate: the service's and the ceiling's alternate, part by part. */
const PARTS = 5;

async function run(): Promise<void> {
  await withBenchDatabase(async (url) => {
    const phones = await seed(url);
    const tokens = phones.map((phone) => new TokenService('bench-secret', '1d').issue({ phone, role: 'worker' }));

    // Both servers stay up, so that the paced phase at the target rate can alternate between them part by part:
    // the service and the ceiling then meet the same moments of a shared machine. The idle one costs little: the
    // service's background consumers poll a few times a second and, during a ceiling part, project the events of
    // the service part before it (a load the ceiling's part bears, not the service's).
    const svc = await startServer('service', url);
    await clockCycles(svc.base, tokens, 1); // warm-up
    const commits = await commitMeter(url);
    const cMax = await measured(url, svc.child, () => clockCycles(svc.base, tokens, CYCLES));
    cMax.perCommit = await commits.next();
    const sustained = Math.round((cMax.requests / cMax.seconds) / 2);
    const ceiling = await startServer('baseline', url);
    await baseline(ceiling.base, tokens, 2); // warm-up
    await consumersCaughtUp(url);
    const bMax = await measured(url, ceiling.child, () => baseline(ceiling.base, tokens, CYCLES * STEPS.length));

    const dump: [number, number, string][] | undefined = process.env.BENCH_DUMP ? [] : undefined;
    const [cTarget, bTarget] = [newFigures(), newFigures()];
    const partsP99: [number, number][] = [];
    const fleet = new Fleet(svc.base, tokens);
    await fleet.begin();
    await commits.next();
    const partSteps = (PACED_CYCLES * STEPS.length) / PARTS;
    for (let k = 0; k < PARTS; k++) {
      const c = await fleet.run(partSteps, TARGET_RATE, dump);
      const b = await baseline(ceiling.base, tokens, partSteps, TARGET_RATE);
      absorb(cTarget, c);
      absorb(bTarget, b);
      partsP99.push([percentile(c.all, 99), percentile(b.all, 99)]);
    }
    cTarget.perCommit = await commits.next();
    await fleet.end();
    if (dump) writeFileSync(process.env.BENCH_DUMP!, JSON.stringify(dump));
    await commits.next();
    const cInStep = await measured(url, svc.child, () => clockCycles(svc.base, tokens, PACED_CYCLES, TARGET_RATE, true));
    cInStep.perCommit = await commits.next();
    const cHalf = await measured(url, svc.child, () => clockCycles(svc.base, tokens, PACED_CYCLES, sustained));
    cHalf.perCommit = await commits.next();
    await commits.end();
    await consumersCaughtUp(url);
    const bHalf = await measured(url, ceiling.child, () => baseline(ceiling.base, tokens, PACED_CYCLES * STEPS.length, sustained));
    await stopServer(svc.child);
    await stopServer(ceiling.child);

    console.log(`${WORKERS} clients over HTTP on PostgreSQL, ${PROCESSES} server processes each (API_PROCESSES); cycle = ${STEPS.join(' → ')}`);
    console.log(`saturation (closed loop, ${fmt(CYCLES * STEPS.length * WORKERS)} requests):`);
    line('  ceiling: bare express + pg, one INSERT', bMax);
    line('  clock cycle', cMax, `   = ${fmt((100 * cMax.requests) / cMax.seconds / (bMax.requests / bMax.seconds))} % of the ceiling; target ≥ 1,500 req/s`);
    const paced = (title: string, b: Figures, c: Figures, extra: string) => {
      console.log(title);
      line('  ceiling: bare express + pg, one INSERT', b);
      line('  clock cycle', c, extra);
      for (const [step, ms] of c.byStep) {
        console.log(`    ${step.padEnd(44)} ${' '.repeat(13)}   p50 ${fmt(percentile(ms, 50), 1).padStart(7)} ms   p99 ${fmt(percentile(ms, 99), 1).padStart(7)} ms`);
      }
    };
    const n = fmt(PACED_CYCLES * STEPS.length * WORKERS);
    paced(`paced at ${fmt(TARGET_RATE)} req/s offered (open loop, ${n} requests, latency from the intended send time; clients spread over the cycle):`, bTarget, cTarget, '   target p99 ≤ 25 ms');
    const partSize = fmt(partSteps * WORKERS);
    console.log(`    p99 by part (${partSize} requests of the service, then ${partSize} of the ceiling): ${partsP99.map(([c, b]) => `${fmt(c, 1)} / ${fmt(b, 1)}`).join(' · ')} ms`);
    paced(`paced at ${fmt(TARGET_RATE)} req/s, clients in step (all 200 take the same step within ${fmt((1000 * WORKERS) / TARGET_RATE)} ms: a burst of each step in turn):`, bTarget, cInStep, '');
    paced(`paced at ${fmt(sustained)} req/s offered (half the saturation rate, ${n} requests; clients spread over the cycle):`, bHalf, cHalf, '');
  });
  closeClients();
}

/** Closes every client connection of the run (servers stopped, or the run over). */
export function closeClients(): void {
  for (const c of clients.values()) c.http.close();
  clients.clear();
}

export const clockBench: BenchSuite = { name: 'clock', run };
