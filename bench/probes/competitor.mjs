/**
 * A CPU competitor for the clock benchmark, standing in for a busy neighbour on a shared machine: burns the given
 * share of one core (default 0.6) in 10 ms periods (busy `share × 10` ms, then idle) until killed.
 * `node bench/probes/competitor.mjs 0.85 & npm run bench -- clock; kill %1`
 */
const share = Math.min(1, Math.max(0, Number(process.argv[2] ?? 0.6)));
const PERIOD_MS = 10;
function period() {
  const end = Date.now() + PERIOD_MS * share;
  while (Date.now() < end) {
    // busy
  }
  setTimeout(period, PERIOD_MS * (1 - share));
}
period();
