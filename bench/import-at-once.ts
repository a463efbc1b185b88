/**
 * Hostile uploads at the same moment: a million-row workbook of test/helpers/hostile-workbooks.ts (a
 * sheet declaring 1,048,576 rows; one holding 1,500,000 real rows) sent three times at once, and the answer times
 * of `/api/health` meanwhile, asked in a loop from a thread of its own (bench/service-process.ts). Beside it, in the
 * same run and on the same warmed-up service process, in turns within each round: the same loop with nothing sent
 * (the machine's own noise, the baseline) and the file sent alone. Each variant's p50, p95 and max over every round
 * (BENCH_ROUNDS, default 5), the CPU the service process used per upload (all its threads: the upload's reading,
 * the parse thread's start and work, the health answers meanwhile; with nothing sent, per second), and the answers
 * given. Target: three at once keep health within 50 ms, as one does.
 *
 * `BENCH_COMPARE=<dir>` measures another checkout's service (its own node_modules) in the same run, the two taking
 * turns round by round: the code before a change beside it.
 */
import { basename } from 'node:path';
import { fmt } from './db.ts';
import { healthDuring, latencies, processCpuMs, startServer, stopServer, uploadProducts, warmUp } from './service-process.ts';
import { HOSTILE_FILES } from '../test/helpers/hostile-workbooks.ts';

/** The million-row files: the declared range and the real rows. */
const FILES = ['dimension.xlsx', 'rows.xlsx'];
const AT_ONCE = 3;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TARGET_MS = 50;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Variant = 'nothing sent' | 'one at a time' | `${typeof AT_ONCE} at once`;
type Samples = Map<Variant, { samples: number[]; answers: Set<string>; cpuMs: number; uploads: number }>;

/**
 * One round of one file on the service process `pid` at `base` (module docstring): its health samples, answers and
 * the CPU the whole service process used meanwhile (all its threads, the parse thread and the health answers
 * included) added to `into`.
 */
async function round(service: { base: string; pid: number }, token: string, data: Buffer, fileName: string, into: Samples): Promise<void> {
  const add = async (v: Variant, uploads: number, run: () => Promise<string[]>) => {
    const cpu0 = processCpuMs(service.pid);
    const [answers, samples] = await healthDuring(service.base, run);
    const e = into.get(v) ?? { samples: [], answers: new Set<string>(), cpuMs: 0, uploads: 0 };
    e.samples.push(...samples);
    for (const a of answers) e.answers.add(a);
    e.cpuMs += processCpuMs(service.pid) - cpu0;
    e.uploads += uploads;
    into.set(v, e);
  };
  const upload = () => uploadProducts(service.base, token, data, fileName).then((a) => a.text);
  await add('nothing sent', 0, () => sleep(1000).then(() => []));
  await add('one at a time', 1, async () => [await upload()]);
  await sleep(300); // the idle parse thread stops: each upload starts it again, as the first upload of the day does
  await add(`${AT_ONCE} at once`, AT_ONCE, () => Promise.all(Array.from({ length: AT_ONCE }, upload)));
  await sleep(300);
}

/** Runs the comparison of the module docstring on database `url` as the administrator of `token`. */
export async function concurrentHostileUploads(url: string, token: string): Promise<void> {
  const services: { label: string; dir?: string }[] = [{ label: 'this checkout' }];
  if (process.env.BENCH_COMPARE) services.push({ label: basename(process.env.BENCH_COMPARE), dir: process.env.BENCH_COMPARE });
  console.log(`\nmillion-row workbooks sent ${AT_ONCE} at once, ${ROUNDS} rounds each on a fresh service process per file: /api/health answer times`);
  console.log(`${'file, service, variant'.padEnd(96)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'max'.padStart(8)} ${'n'.padStart(5)} ${'CPU/upload'.padStart(10)}  answers`);
  const worst = new Map<string, { atOnce: number; one: number; quiet: number }>();
  for (const fileName of FILES) {
    const file = HOSTILE_FILES.find((f) => f.fileName === fileName);
    if (!file) throw new Error(`no hostile file ${fileName}`);
    const data = file.build();
    // Every service runs meanwhile (an idle one costs nothing) and they take turns round by round, so that the
    // shared machine's drift falls on all of them.
    const running = await Promise.all(services.map(async (s) => ({ ...s, ...(await startServer(url, s.dir)), samples: new Map() as Samples })));
    try {
      for (const s of running) await warmUp(s.base, token);
      for (let r = 0; r < ROUNDS; r++) for (const s of running) await round({ base: s.base, pid: s.child.pid! }, token, data, fileName, s.samples);
      for (const service of running) {
        for (const [variant, { samples, answers, cpuMs, uploads }] of service.samples) {
          const l = latencies(samples);
          const label = `${file.name} (${fmt(data.length / 1024)} KB), ${service.label}: ${variant}`;
          const cpu = uploads ? `${fmt(cpuMs / uploads).padStart(5)} ms` : `${fmt(cpuMs / ROUNDS).padStart(5)} ms/s`;
          console.log(`${label.padEnd(96)} ${fmt(l.p50, 1).padStart(5)} ms ${fmt(l.p95, 1).padStart(5)} ms ${fmt(l.max, 1).padStart(5)} ms ${String(l.n).padStart(5)} ${cpu.padStart(10)}  ${[...answers].join(', ')}`);
          const w = worst.get(service.label) ?? { atOnce: 0, one: 0, quiet: 0 };
          if (variant === 'nothing sent') w.quiet = Math.max(w.quiet, l.max);
          else if (variant === 'one at a time') w.one = Math.max(w.one, l.max);
          else w.atOnce = Math.max(w.atOnce, l.max);
          worst.set(service.label, w);
        }
      }
    } finally {
      await Promise.all(running.map((s) => stopServer(s.child)));
    }
  }
  for (const [label, w] of worst) {
    console.log(
      `${label}: ${AT_ONCE} at once, health at most ${fmt(w.atOnce, 1)} ms (target ≤ ${TARGET_MS}); one at a time ${fmt(w.one, 1)} ms; ` +
        `nothing sent, the same loop: ${fmt(w.quiet, 1)} ms`,
    );
  }
}
