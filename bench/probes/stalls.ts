/**
 * Lines up the slow requests of a clock benchmark run with the server's pauses:
 * `BENCH_DUMP=/tmp/dump.json BENCH_NODE_ARGS="--import ./bench/probes/pauses.mjs" npm run bench -- clock 2> /tmp/pauses.log`,
 * then `npx tsx bench/probes/stalls.ts /tmp/dump.json /tmp/pauses.log [threshold ms, default 25]`.
 * Prints, per 100 ms of send time, the requests over the threshold (count, worst, step) and the pauses (garbage
 * collection, event-loop blocks) within 150 ms of it. Slow requests with no pause nearby point outside the
 * process (PostgreSQL, the machine).
 */
import { readFileSync } from 'node:fs';

const [dumpFile, pauseFile, thresholdArg] = process.argv.slice(2);
const threshold = Number(thresholdArg ?? 25);
const requests = JSON.parse(readFileSync(dumpFile, 'utf8')) as [number, number, string][];
const pauses = readFileSync(pauseFile, 'utf8')
  .split('\n')
  .filter((l) => l.startsWith('PAUSE '))
  .map((l) => {
    const [, what, at, ms, kind] = l.split(' ');
    return { what, at: Number(at), ms: Number(ms), kind };
  });
const t0 = Math.min(...requests.map(([at, ms]) => at - ms));
const slow = new Map<number, { n: number; worst: number; step: string }>();
for (const [at, ms, step] of requests) {
  if (ms <= threshold) continue;
  const bucket = Math.floor((at - ms - t0) / 100);
  const b = slow.get(bucket) ?? { n: 0, worst: 0, step };
  b.n++;
  b.worst = Math.max(b.worst, ms);
  slow.set(bucket, b);
}
const total = [...slow.values()].reduce((x, b) => x + b.n, 0);
console.log(`${requests.length} requests, ${total} over ${threshold} ms (${((100 * total) / requests.length).toFixed(2)} %)`);
for (const [bucket, b] of [...slow].sort((x, y) => x[0] - y[0])) {
  const sent = t0 + bucket * 100;
  const near = pauses.filter((p) => p.at >= sent - 150 && p.at <= sent + 250);
  console.log(
    `+${(bucket / 10).toFixed(1)} s  ${String(b.n).padStart(4)} slow, worst ${b.worst.toFixed(0).padStart(4)} ms (${b.step})  ` +
      (near.length ? near.map((p) => `${p.what}${p.kind ? `/${p.kind}` : ''} ${p.ms} ms @+${((p.at - t0) / 1000).toFixed(2)} s`).join(', ') : 'no pause nearby'),
  );
}
