/**
 * The service in a process of its own for the import benchmarks (bench/import.ts, bench/import-at-once.ts): started
 * on a fresh port with the node flags of `npm start`, so that its peak RSS is the service's alone, and a probe that
 * asks its `/api/health` in a loop from a thread of its own.
 *
 * - `startServer(url)` → `{child, base}` once `/api/health` answers (throws when it does not within 30 s);
 *   `stopServer(child)` ends it with SIGTERM and waits for its exit.
 * - `peakRssMb(pid)`, `rssMb(pid)` (Linux VmHWM, VmRSS, in MB), `resetPeakRss(pid)` (peak := current) and
 *   `processCpuMs(pid)` (CPU used so far, all threads).
 * - `warmUp(base, token)` and `uploadProducts(base, token, data, fileName)`: the import's first costs paid, one upload.
 * - `health(base)` → one answer time in ms; `healthDuring(base, run)` → `run()`'s result and every health answer
 *   time (ms) while it ran, from a probe warmed up first; `latencies(samples)` → p50, p95 and max of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { benchNodeArgs, startScriptArgs } from './clock.ts';
import { percentile } from './db.ts';
import { xlsxOf } from '../test/helpers/hostile-workbooks.ts';

/** Peak resident set size of a process so far (Linux VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Resident set size of a process now (Linux VmRSS), in MB. */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** CPU time a process has used so far, all its threads (ended ones included), in ms (Linux /proc/<pid>/stat). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
}

/** Resets the peak RSS of a process to its current RSS (Linux ≥ 4.0, writing 5 to /proc/<pid>/clear_refs). */
export function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The service (`src/main.ts`) on database `url` in its own process (module docstring); `dir`: the service of another
 * checkout (its own src/main.ts, package.json and node_modules), this one's by default.
 */
export async function startServer(url: string, dir = fileURLToPath(new URL('..', import.meta.url))): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  // BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) are given to node as well.
  const child = spawn(process.execPath, [...startScriptArgs('start', dir), ...benchNodeArgs(), `${dir}/src/main.ts`], {
    cwd: dir,
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), JWT_SECRET: 'bench', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
    if (ok) return { child, base };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('the service did not start');
}

/** Ends a service started by startServer and waits for its exit. */
export async function stopServer(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** `/api/health` of the service at `base` once → its answer time in milliseconds. */
export async function health(base: string): Promise<number> {
  const t = process.hrtime.bigint();
  const r = await fetch(`${base}/api/health`);
  await r.arrayBuffer();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

// The health loop runs in a thread of its own, so that what the benchmark's own event loop does (sending a
// 5 MB upload) never counts as the service's delay. It warms up first (the thread's first requests open the
// connection and compile the client: tens of milliseconds that are not the service's), then says it is ready.
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
let stop = false;
parentPort.on('message', () => (stop = true));
const once = async () => { const r = await fetch(workerData.url); await r.arrayBuffer(); };
(async () => {
  for (let i = 0; i < 20; i++) await once();
  parentPort.postMessage('ready');
  const samples = [];
  while (!stop) {
    const t = performance.now();
    await once();
    samples.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 2));
  }
  parentPort.postMessage(samples);
})();`;

/** Starts the warmed-up health loop (module docstring) → `stop()` gives every answer time (ms) since it was ready. */
async function healthProbe(base: string): Promise<{ stop(): Promise<number[]> }> {
  const worker = new Worker(PROBE, { eval: true, workerData: { url: `${base}/api/health` } });
  const messages: unknown[] = [];
  let wake: (() => void) | undefined;
  worker.on('message', (m) => {
    messages.push(m);
    wake?.();
  });
  const next = async () => {
    while (!messages.length) await new Promise<void>((r) => (wake = r));
    return messages.shift();
  };
  await next(); // 'ready'
  return {
    async stop() {
      worker.postMessage('stop');
      const samples = (await next()) as number[];
      await worker.terminate();
      return samples;
    },
  };
}

/** `run()`'s result and every `/api/health` answer time (ms) while it ran, from a warmed-up probe. */
export async function healthDuring<T>(base: string, run: () => Promise<T>): Promise<[T, number[]]> {
  const probe = await healthProbe(base);
  const out = await run().catch((err) => {
    void probe.stop();
    throw err;
  });
  return [out, await probe.stop()];
}

/** p50, p95 and max of answer times (ms); zeros when there are none. */
export function latencies(samples: readonly number[]): { p50: number; p95: number; max: number; n: number } {
  if (!samples.length) return { p50: 0, p95: 0, max: 0, n: 0 };
  return { p50: percentile([...samples], 50), p95: percentile([...samples], 95), max: Math.max(...samples), n: samples.length };
}

/**
 * Warms a freshly started service: first requests, then one small import (busboy, the parse thread, the preview's
 * statements cost once), more requests, and 300 ms of rest (the idle parse thread stops).
 */
export async function warmUp(base: string, token: string): Promise<void> {
  for (let i = 0; i < 20; i++) await health(base);
  await uploadProducts(base, token, xlsxOf({}), 'warm.xlsx');
  for (let i = 0; i < 20; i++) await health(base);
  await new Promise((r) => setTimeout(r, 300));
}

/** One product-list upload → its time in seconds, whether it was refused, and `200 (n new rows)` or `<status> <code>`. */
export async function uploadProducts(base: string, token: string, data: Buffer, fileName: string): Promise<{ seconds: number; refused: boolean; text: string }> {
  const body = new FormData();
  body.append('file', new Blob([data]), fileName);
  const t = process.hrtime.bigint();
  const res = await fetch(`${base}/api/products/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });
  const json: any = await res.json();
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  return { seconds, refused: res.status !== 200, text: res.status === 200 ? `200 (${json.counts.create} new rows)` : `${res.status} ${json.error.code}` };
}
