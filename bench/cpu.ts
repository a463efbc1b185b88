/**
 * CPU time of processes (Linux /proc), for benchmarks on a shared machine: CPU milliseconds per request vary far
 * less with the neighbours' load than requests per second do.
 *
 * `cpuMeter(pids)`: a function giving the CPU time (user + system, ms) the processes `pids()` used since the meter
 * was made (processes that appear later count from their start; `pids` is asked again at every reading).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);

/** CPU time (ms) of process `pid` so far, or undefined when it is gone. */
function cpuOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS; // utime, stime
  } catch {
    return undefined;
  }
}

/** `pid` and its descendants. */
export function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    // ps exits with 1 when there are none
    const kids = spawnSync('ps', ['-o', 'pid=', '--ppid', String(out[i])], { encoding: 'utf8' }).stdout.split('\n').map(Number).filter(Boolean);
    out.push(...kids);
  }
  return out;
}

/** Starts measuring the CPU time of the processes `pids()` (module docstring). */
export async function cpuMeter(pids: () => number[] | Promise<number[]>): Promise<() => Promise<number>> {
  const start = new Map<number, number>();
  for (const pid of await pids()) start.set(pid, cpuOf(pid) ?? 0);
  return async () => {
    let total = 0;
    for (const pid of await pids()) total += (cpuOf(pid) ?? 0) - (start.get(pid) ?? 0);
    return total;
  };
}
