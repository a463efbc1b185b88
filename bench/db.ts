/**
 * Benchmark databases: a fresh PostgreSQL database per suite on BENCH_DATABASE_URL / DATABASE_URL / the local
 * server, dropped afterwards. `timed(fn)` gives seconds; `percentile(values, p)`.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const benchServerUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export async function withBenchDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const name = `shift_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: benchServerUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(benchServerUrl);
  u.pathname = `/${name}`;
  try {
    return await fn(u.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e9;
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** Runs `count` tasks with `concurrency` workers; `task(i)` for i in 0..count-1. */
export async function runConcurrently(count: number, concurrency: number, task: (i: number, worker: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = next++; i < count; i = next++) await task(i, w);
    }),
  );
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
