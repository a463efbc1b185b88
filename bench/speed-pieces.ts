/**
 * Speed pieces (item 7): what each of the group commit, the lean dispatcher, the facts cache,
 * typed-parameter appends and per-connection prepared statements brings, measured in one run with the service
 * whole and with each piece turned off (SPEED_PIECES_OFF, src/config.ts); with `BENCH_COMPARE=<dir>[,<dir>…]` (a checkout
 * of another commit with its node_modules, e.g. `git worktree add /tmp/before d510a85`), that checkout's service
 * beside them.
 *
 * Each variant runs the clock benchmark's cycle with its 200 clients (bench/clock.ts) on a fresh database, started
 * as `npm start` starts it: saturation (closed loop) with CPU per request, then paced at 1,500 req/s (open loop,
 * clients spread over the cycle) for its p99. In each round (`BENCH_ROUNDS`, default 3) every variant's service runs
 * at once, each on its own database, and the saturation is measured in PARTS turns (one cycle of every client each):
 * variant by variant, in the opposite order every other turn (A B, B A, …), the idle ones waiting meanwhile (each
 * turn followed, unmeasured, by its consumers catching up, so that no work of one runs in another's turn), so that
 * the shared machine's drift — its speed moved by up to half within a minute here — falls on all alike within
 * seconds rather than minutes; a variant's saturation is its requests over its seconds summed over its turns, its
 * CPU per request likewise. Then each variant's p99 paced, one after the other (in the round's order). Each figure
 * is the median of the rounds, with their range, and each variant's saturation is also given as the median of its
 * per-round ratios to the whole service's.
 * `BENCH_PIECES=lean,facts-cache` measures only those pieces (beside the whole service). A piece earns its place
 * with ≥ 10 % on saturation or on p99 at 1,500 req/s (bench/README.md).
 */
import { TokenService } from '../src/auth/tokens.ts';
import { SPEED_PIECES } from '../src/config.ts';
import { CYCLES, Fleet, consumersCaughtUp, PACED_CYCLES, STEPS, TARGET_RATE, clockCycles, closeClients, measured, seed, startServer, stopServer } from './clock.ts';
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

/** Saturation turns per round (each one cycle of every client; CYCLES in all). */
const PARTS = CYCLES;

/** A variant's service started on its fresh database, with its clients' tokens. */
interface Running {
  v: Variant;
  url: string;
  base: string;
  child: Awaited<ReturnType<typeof startServer>>['child'];
  tokens: string[];
}

/** Runs `fn` with one fresh database per variant (created before, dropped after, even on failure). */
function withDatabases<T>(variants: readonly Variant[], fn: (urls: string[]) => Promise<T>, urls: string[] = []): Promise<T> {
  if (urls.length === variants.length) return fn(urls);
  return withBenchDatabase((url) => withDatabases(variants, fn, [...urls, url]));
}

/**
 * One round (module docstring): every variant's service at once, the saturation measured in turns, then each one's
 * p99 paced at the target rate.
 */
async function measureRound(variants: readonly Variant[], reversed: boolean): Promise<Map<string, Sample>> {
  return withDatabases(variants, async (urls) => {
    const running: Running[] = [];
    try {
      for (const [i, v] of variants.entries()) {
        const phones = await seed(urls[i]);
        const tokens = phones.map((phone) => new TokenService('bench-secret', '1d').issue({ phone, role: 'worker' }));
        const svc = await startServer('service', urls[i], { env: v.env, dir: v.dir });
        running.push({ v, url: urls[i], base: svc.base, child: svc.child, tokens });
      }
      for (const r of running) await clockCycles(r.base, r.tokens, 1); // warm-up
      const fleets = running.map((r) => new Fleet(r.base, r.tokens));
      for (const f of fleets) await f.begin();
      const sums = running.map(() => ({ requests: 0, seconds: 0, server: 0, database: 0, errors: 0 }));
      for (let part = 0; part < PARTS; part++) {
        const order = [...running.keys()];
        if ((part % 2 === 1) !== reversed) order.reverse();
        for (const i of order) {
          const f = await measured(running[i].url, running[i].child, () => fleets[i].run(STEPS.length));
          // Unmeasured: the turn's last events taken in by its consumers, so that none of its work runs in another's turn.
          await consumersCaughtUp(running[i].url);
          const t = sums[i];
          t.requests += f.requests;
          t.seconds += f.seconds;
          t.errors += f.errors;
          t.server += (f.cpu?.server ?? NaN) * f.requests;
          t.database += (f.cpu?.database ?? NaN) * f.requests;
        }
      }
      for (const f of fleets) await f.end();
      const out = new Map<string, Sample>();
      const pacedOrder = reversed ? [...running.keys()].reverse() : [...running.keys()];
      for (const i of pacedOrder) {
        const r = running[i];
        const paced = await clockCycles(r.base, r.tokens, PACED_CYCLES, TARGET_RATE);
        const t = sums[i];
        out.set(r.v.name, {
          saturation: t.requests / t.seconds,
          serverCpu: t.server / t.requests,
          databaseCpu: t.database / t.requests,
          p99: percentile(paced.all, 99),
          stepsP99: [...paced.byStep].map(([step, ms]) => `${step} ${fmt(percentile(ms, 99), 1)}`).join(', '),
          errors: t.errors + paced.errors,
        });
      }
      return out;
    } finally {
      for (const r of running) await stopServer(r.child);
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
    const measuredRound = await measureRound(variants, round % 2 === 0);
    for (const v of variants) {
      const s = measuredRound.get(v.name)!;
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
