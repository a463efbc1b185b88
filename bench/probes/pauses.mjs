/**
 * A probe for the clock benchmark's servers (`BENCH_NODE_ARGS="--import ./bench/probes/pauses.mjs"`): writes to
 * stderr one line per garbage-collection pause over 2 ms (`PAUSE gc <epoch ms> <ms> <kind>`, kind as
 * perf_hooks gives it: 1 minor, 4 major, 8 incremental, 16 weak callbacks) and per event-loop block over 15 ms
 * (`PAUSE loop <epoch ms> <ms>`), times in milliseconds since the epoch so that `bench/probes/stalls.ts` can line
 * them up with the slow requests of BENCH_DUMP.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';

const at = (t) => Math.round(performance.timeOrigin + t);
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.duration > 2) process.stderr.write(`PAUSE gc ${at(e.startTime)} ${e.duration.toFixed(1)} ${e.detail?.kind ?? ''}\n`);
}).observe({ entryTypes: ['gc'] });

let last = performance.now();
setInterval(() => {
  const now = performance.now();
  if (now - last > 20) process.stderr.write(`PAUSE loop ${at(last)} ${(now - last - 5).toFixed(1)}\n`);
  last = now;
}, 5).unref();
