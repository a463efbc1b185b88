/**
 * Speed pieces (item 7): what each of the group commit, the lean dispatcher, the facts cache,
 * typed-parameter appends and per-connection prepared statements brings, measured in one run with the service
 * whole and with each piece turned off (SPEED_PIECES_OFF, src/config.ts); with `BENCH_COMPARE=<dir>[,<dir>…]` (a checkout
 * of another commit with its node_modules, e.g. `git worktree add /tmp/before d510a85`), that checkout's service
 * beside them.
 *
 * Each variant runs the clock benchmark's cycle with its 200 clients (bench/clock.ts) on a fresh database, started
 * as `npm start` starts it: saturation (closed loop) with CPU per request, then paced at 1,500 req/s (open loop,
 * clients spread over the cycle) for its p99. Variants take turns round by round (`BENCH_ROUNDS`, default 3), so
 * that the shared machine's drift falls on all alike, in the opposite order every other round (A B, B A, …: no
 * variant always runs first after the other's database was dropped); each figure is the median of the rounds, with
 * their range, and each variant's saturation is also given as the median of its per-round ratios to the whole
 * service's (the rounds' pairs measured minutes apart, so the machine's slower drift cancels out).
 * `BENCH_PIECES=lean,facts-cache` measures only those pieces (beside the whole service). A piece earns its place
 * with ≥ 10 % on saturation or on p99 at 1,500 req/s (bench/README.md).
 */
import { TokenService } from '../src/auth/tokens.ts';
import { SPEED_PIECES } from '../src/config.ts';
import { CYCLES, PACED_CYCLES, TARGET_RATE, clockCycles, closeClients, measured, seed, startServer, stopServer, type Figures } from './clock.ts';
import { fmt, percentile, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Variant {
  name: string;
  env?: Record<string, string>;
  dir?: string;
}

interface Sample {
  saturation: number;
  serverCpu: number;
  databaseCpu: number;
  p99: number;
  /** p99 of each step of the cycle at the target rate, ms. */
  stepsP99: string;
  errors: number;
}

/** One measurement of `v` on a fresh database: saturation with CPU per request, then p99 paced at the target rate. */
async function measure(v: Variant): Promise<Sample> {
  return withBenchDatabase(async (url) => {
    const phones = await seed(url);
    const tokens = phones.map((phone) => new TokenService('bench-secret', '1d').issue({ phone, role: 'worker' }));
    const svc = await startServer('service', url, { env: v.env, dir: v.dir });
    try {
      await clockCycles(svc.base, tokens, 1); // warm-up
      const max: Figures = await measured(url, svc.child, () => clockCycles(svc.base, tokens, CYCLES));
      const paced = await clockCycles(svc.base, tokens, PACED_CYCLES, TARGET_RATE);
      return {
        saturation: max.requests / max.seconds,
        serverCpu: max.cpu?.server ?? NaN,
        databaseCpu: max.cpu?.database ?? NaN,
        p99: percentile(paced.all, 99),
        stepsP99: [...paced.byStep].map(([step, ms]) => `${step} ${fmt(percentile(ms, 99), 1)}`).join(', '),
        errors: max.errors + paced.errors,
      };
    } finally {
      await stopServer(svc.child);
      closeClients();
    }
  });
}

const median = (xs: number[]) => percentile(xs, 50);
const range = (xs: number[], digits: number) => `${fmt(Math.min(...xs), digits)}–${fmt(Math.max(...xs), digits)}`;

async function run(): Promise<void> {
  const only = process.env.BENCH_PIECES?.split(',').map((p) => p.trim());
  const variants: Variant[] = [
    { name: 'whole service' },
    // fresh-reads is a wait of office reads the clock cycle never makes: measured by its own suite (bench/fresh-reads.ts).
    ...SPEED_PIECES.filter((p) => p !== 'fresh-reads' && (!only || only.includes(p))).map((p) => ({ name: `without ${p}`, env: { SPEED_PIECES_OFF: p } })),
    // Several checkouts, comma-separated (the commit before the issue and part A's alone).
    ...(process.env.BENCH_COMPARE ?? '')
      .split(',')
      .filter(Boolean)
      .map((dir) => ({ name: `checkout ${dir}`, dir })),
  ];
  const samples = new Map<string, Sample[]>(variants.map((v) => [v.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const v of round % 2 ? variants : [...variants].reverse()) {
      const s = await measure(v);
      samples.get(v.name)!.push(s);
      console.log(`  round ${round}  ${v.name.padEnd(40)} ${fmt(s.saturation).padStart(6)} req/s   p99 at ${fmt(TARGET_RATE)} ${fmt(s.p99, 1).padStart(6)} ms (${s.stepsP99})${s.errors ? `   ${s.errors} unexpected answers` : ''}`);
    }
  }
  const whole = samples.get('whole service')!;
  const [wSat, wP99] = [median(whole.map((s) => s.saturation)), median(whole.map((s) => s.p99))];
  console.log(`\nmedian of ${ROUNDS} rounds (range), 200 clients, cycle start → switch → finish → draft → submit; vs the whole service:`);
  for (const v of variants) {
    const xs = samples.get(v.name)!;
    const sat = xs.map((s) => s.saturation);
    const p99 = xs.map((s) => s.p99);
    const cpu = `CPU/request server ${fmt(median(xs.map((s) => s.serverCpu)), 2)} + PostgreSQL ${fmt(median(xs.map((s) => s.databaseCpu)), 2)} ms`;
    const paired = xs.map((s, i) => (100 * s.saturation) / whole[i].saturation);
    const vs =
      v.name === 'whole service'
        ? ''
        : `   saturation ${fmt((100 * median(sat)) / wSat)} % (round by round: median ${fmt(median(paired))} %, ${range(paired, 0)} %), p99 ${fmt((100 * median(p99)) / wP99)} %`;
    console.log(`  ${v.name.padEnd(40)} saturation ${fmt(median(sat)).padStart(6)} req/s (${range(sat, 0)})   p99 at ${fmt(TARGET_RATE)} ${fmt(median(p99), 1).padStart(6)} ms (${range(p99, 1)})   ${cpu}${vs}`);
  }
}

export const speedPiecesBench: BenchSuite = { name: 'speed-pieces', run };
