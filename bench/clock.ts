/**
 * Clocking benchmark (issue #5): 200 concurrent simulated workers, each repeating the cycle clock-in → switch
 * device → finish → draft → submit over HTTP against the whole service on real PostgreSQL; requests per
 * second and p50/p99 latency, overall and per step. Beside it, measured in the same run with the same 200
 * concurrent clients: the ceiling, a bare express 5 + pg endpoint doing one INSERT per request.
 * Both servers run in a child process (bench/clock-server.ts); this process only generates the load.
 * Target: ≥ 1,500 req/s and p99 ≤ 25 ms on 2 cores.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runMigrations } from '../src/db/migrate.ts';
import { TokenService } from '../src/auth/tokens.ts';
import { fmt, percentile, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';

const WORKERS = 200;
const CYCLES = 8;
const DEVICES = 20;
const STEPS = ['start', 'switch-device', 'finish', 'draft', 'submit'] as const;

async function startServer(mode: 'service' | 'baseline', url: string): Promise<{ base: string; child: ChildProcess }> {
  const script = fileURLToPath(new URL('./clock-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, mode, url], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    lines.once('line', (l) => resolve(JSON.parse(l).port));
  });
  return { base: `http://127.0.0.1:${port}`, child };
}

async function stopServer(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function call(base: string, method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any; ms: number }> {
  const t = process.hrtime.bigint();
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  return { status: res.status, body: json, ms: Number(process.hrtime.bigint() - t) / 1e6 };
}

interface Figures {
  requests: number;
  seconds: number;
  all: number[];
  byStep: Map<string, number[]>;
  errors: number;
}

const line = (name: string, f: { requests: number; seconds: number; all: number[] }, extra = '') =>
  console.log(
    `${name.padEnd(44)} ${fmt(f.requests / f.seconds).padStart(7)} req/s   p50 ${fmt(percentile(f.all, 50), 1).padStart(5)} ms   p99 ${fmt(percentile(f.all, 99), 1).padStart(6)} ms${extra}`,
  );

async function seed(url: string): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  await runMigrations(pool);
  const phones = Array.from({ length: WORKERS }, (_, i) => `139${String(i).padStart(8, '0')}`);
  await pool.query(`INSERT INTO personnel (phone, name, role) SELECT p, '工人' || p, 'worker' FROM unnest($1::text[]) p`, [phones]);
  await pool.query(
    `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     SELECT 'P-' || d, '产品' || k, '冲床 ' || lpad(d::text, 2, '0'), '冲压', 10 + k, floor(28800 / (10 + k))
       FROM generate_series(1, ${DEVICES}) d, generate_series(1, 3) k`,
  );
  await pool.end();
  return phones;
}

const device = (n: number) => `冲床 ${String((n % DEVICES) + 1).padStart(2, '0')}`;

async function clockCycles(base: string, tokens: string[], cycles: number): Promise<Figures> {
  const f: Figures = { requests: 0, seconds: 0, all: [], byStep: new Map(STEPS.map((s) => [s, []])), errors: 0 };
  const record = (step: string, r: { status: number; ms: number }, ok: number) => {
    f.requests++;
    f.all.push(r.ms);
    f.byStep.get(step)!.push(r.ms);
    if (r.status !== ok) f.errors++;
  };
  const t = process.hrtime.bigint();
  await Promise.all(
    tokens.map(async (token, i) => {
      const d1 = device(i);
      const d2 = device(i + 7);
      for (let c = 0; c < cycles; c++) {
        const s = await call(base, 'POST', '/api/clock/start', token, { deviceNo: d1 });
        record('start', s, 200);
        record('switch-device', await call(base, 'POST', '/api/clock/switch-device', token, { deviceNo: d2 }), 200);
        record('finish', await call(base, 'POST', '/api/clock/finish', token, { deviceNo: d2 }), 200);
        const draft = await call(base, 'GET', `/api/reports/draft?sessionId=${s.body.sessionId}`, token);
        record('draft', draft, 200);
        const lines = (draft.body.candidates ?? []).slice(0, 2).map((p: any, k: number) => ({ productId: p.productId, finishedQty: 100 + k, defectiveQty: k }));
        record('submit', await call(base, 'POST', '/api/reports', token, { sessionId: s.body.sessionId, lines }), 201);
      }
    }),
  );
  f.seconds = Number(process.hrtime.bigint() - t) / 1e9;
  return f;
}

async function baseline(base: string, tokens: string[], perClient: number): Promise<Figures> {
  const f: Figures = { requests: 0, seconds: 0, all: [], byStep: new Map(), errors: 0 };
  const t = process.hrtime.bigint();
  await Promise.all(
    tokens.map(async (token, i) => {
      for (let c = 0; c < perClient; c++) {
        const r = await call(base, 'POST', '/insert', token, { deviceNo: device(i), n: c });
        f.requests++;
        f.all.push(r.ms);
        if (r.status !== 200) f.errors++;
      }
    }),
  );
  f.seconds = Number(process.hrtime.bigint() - t) / 1e9;
  return f;
}

async function run(): Promise<void> {
  await withBenchDatabase(async (url) => {
    const phones = await seed(url);
    const tokens = phones.map((phone) => new TokenService('bench-secret', '1d').issue({ phone, role: 'worker' }));

    const ceiling = await startServer('baseline', url);
    await baseline(ceiling.base, tokens, 2); // warm-up
    const b = await baseline(ceiling.base, tokens, CYCLES * STEPS.length);
    await stopServer(ceiling.child);

    const svc = await startServer('service', url);
    await clockCycles(svc.base, tokens, 1); // warm-up
    const c = await clockCycles(svc.base, tokens, CYCLES);
    await stopServer(svc.child);

    console.log(`${WORKERS} concurrent clients over HTTP, PostgreSQL, server in a child process`);
    line('ceiling: bare express + pg, one INSERT', b, b.errors ? `   ${b.errors} errors` : '');
    line(`clock cycle (${STEPS.join(' → ')})`, c, `   = ${fmt((100 * c.requests) / c.seconds / (b.requests / b.seconds))} % of ceiling; target ≥ 1,500 req/s, p99 ≤ 25 ms`);
    for (const [step, ms] of c.byStep) {
      console.log(`  ${step.padEnd(42)} ${' '.repeat(13)}   p50 ${fmt(percentile(ms, 50), 1).padStart(5)} ms   p99 ${fmt(percentile(ms, 99), 1).padStart(6)} ms`);
    }
    if (c.errors) console.log(`  ${c.errors} unexpected answers in the clock cycle`);
  });
}

export const clockBench: BenchSuite = { name: 'clock', run };
