/**
 * Hostile uploads at the same moment (issue #20): a million-row workbook of test/helpers/hostile-workbooks.ts (a
 * sheet declaring 1,048,576 rows; one holding 1,500,000 real rows) sent three times at once, and the answer times
 * of `/api/health` meanwhile, asked in a loop from a thread of its own (bench/service-process.ts). Beside it, in the
 * same run and on the same warmed-up service process, rounds taking turns: the same loop with nothing sent (the
 * machine's own noise, the baseline) and the file sent alone. Each variant's p50, p95 and max over every round
 * (BENCH_ROUNDS, default 5), and the answers given. Target: three at once keep health within 50 ms, as one does.
 *
 * `BENCH_COMPARE=<dir>` measures another checkout's service (its own node_modules) in the same run, file by file
 * after this one's: the code before a change beside it.
 */
import { basename } from 'node:path';
import { fmt } from './db.ts';
import { healthDuring, latencies, startServer, stopServer, uploadProducts, warmUp } from './service-process.ts';
import { HOSTILE_FILES } from '../test/helpers/hostile-workbooks.ts';

/** The million-row files: the declared range and the real rows. */
const FILES = ['dimension.xlsx', 'rows.xlsx'];
const AT_ONCE = 3;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TARGET_MS = 50;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Variant = 'nothing sent' | 'one at a time' | `${typeof AT_ONCE} at once`;

/** The rounds of one file on one service (module docstring) → health samples and answers per variant. */
async function rounds(base: string, token: string, data: Buffer, fileName: string): Promise<Map<Variant, { samples: number[]; answers: Set<string> }>> {
  const out = new Map<Variant, { samples: number[]; answers: Set<string> }>();
  const add = (v: Variant, samples: number[], answers: string[]) => {
    const e = out.get(v) ?? { samples: [], answers: new Set<string>() };
    e.samples.push(...samples);
    for (const a of answers) e.answers.add(a);
    out.set(v, e);
  };
  for (let r = 0; r < ROUNDS; r++) {
    add('nothing sent', (await healthDuring(base, () => sleep(1000)))[1], []);
    const [one, s1] = await healthDuring(base, () => uploadProducts(base, token, data, fileName));
    add('one at a time', s1, [one.text]);
    await sleep(300); // the idle parse thread stops: each round starts it again, as a first upload of the day does
    const [many, s3] = await healthDuring(base, () => Promise.all(Array.from({ length: AT_ONCE }, () => uploadProducts(base, token, data, fileName))));
    add(`${AT_ONCE} at once`, s3, many.map((a) => a.text));
    await sleep(300);
  }
  return out;
}

/** Runs the comparison of the module docstring on database `url` as the administrator of `token`. */
export async function concurrentHostileUploads(url: string, token: string): Promise<void> {
  const services: { label: string; dir?: string }[] = [{ label: 'this checkout' }];
  if (process.env.BENCH_COMPARE) services.push({ label: basename(process.env.BENCH_COMPARE), dir: process.env.BENCH_COMPARE });
  console.log(`\nmillion-row workbooks sent ${AT_ONCE} at once, ${ROUNDS} rounds each on a fresh service process: /api/health answer times`);
  console.log(`${'file, service, variant'.padEnd(96)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'max'.padStart(8)} ${'n'.padStart(5)}  answers`);
  const worst = new Map<string, { atOnce: number; quiet: number }>();
  for (const fileName of FILES) {
    const file = HOSTILE_FILES.find((f) => f.fileName === fileName);
    if (!file) throw new Error(`no hostile file ${fileName}`);
    const data = file.build();
    for (const service of services) {
      const { child, base } = await startServer(url, service.dir);
      try {
        await warmUp(base, token);
        for (const [variant, { samples, answers }] of await rounds(base, token, data, fileName)) {
          const l = latencies(samples);
          const label = `${file.name} (${fmt(data.length / 1024)} KB), ${service.label}: ${variant}`;
          console.log(`${label.padEnd(96)} ${fmt(l.p50, 1).padStart(5)} ms ${fmt(l.p95, 1).padStart(5)} ms ${fmt(l.max, 1).padStart(5)} ms ${String(l.n).padStart(5)}  ${[...answers].join(', ')}`);
          const w = worst.get(service.label) ?? { atOnce: 0, quiet: 0 };
          if (variant === 'nothing sent') w.quiet = Math.max(w.quiet, l.max);
          else if (variant !== 'one at a time') w.atOnce = Math.max(w.atOnce, l.max);
          worst.set(service.label, w);
        }
      } finally {
        await stopServer(child);
      }
    }
  }
  for (const [label, w] of worst) {
    console.log(`${label}: ${AT_ONCE} at once, health at most ${fmt(w.atOnce, 1)} ms (target ≤ ${TARGET_MS}; nothing sent, the same loop: up to ${fmt(w.quiet, 1)} ms)`);
  }
}
