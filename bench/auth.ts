/**
 * Login and authentication benchmark, whole service in this process on real PostgreSQL with the
 * platform simulator on a loopback port, 50 concurrent clients over HTTP:
 * - baseline: `GET /api/health` (one `SELECT 1`), measured in the same run;
 * - `GET /api/auth/me`: JWT verification + the per-request personnel check + the roles query;
 * - `POST /api/auth/platform-login`: code → session (simulator), phone credential (simulator, cached access
 *   token), openid attempt count, personnel match, openid upsert, token.
 * Figures: requests per second and p50/p99 latency; the load generator shares the process (and the 2 cores).
 */
import { loadConfig } from '../src/config.ts';
import { startService } from '../src/app.ts';
import { fmt, percentile, runConcurrently, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';

const CONCURRENCY = 50;
const PEOPLE = 500;

interface Figures {
  ms: number[];
  seconds: number;
  errors: number;
}

async function measure(count: number, task: (i: number) => Promise<number>, expected: number): Promise<Figures> {
  const f: Figures = { ms: [], seconds: 0, errors: 0 };
  const t0 = process.hrtime.bigint();
  await runConcurrently(count, CONCURRENCY, async (i) => {
    const t = process.hrtime.bigint();
    const status = await task(i);
    f.ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (status !== expected) f.errors++;
  });
  f.seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return f;
}

const line = (name: string, f: Figures, base?: Figures) =>
  console.log(
    `${name.padEnd(40)} ${fmt(f.ms.length / f.seconds).padStart(7)} req/s   p50 ${fmt(percentile(f.ms, 50), 1).padStart(5)} ms   p99 ${fmt(percentile(f.ms, 99), 1).padStart(6)} ms` +
      (base ? `   = ${fmt((100 * f.ms.length) / f.seconds / (base.ms.length / base.seconds))} % of baseline` : '') +
      (f.errors ? `   ${f.errors} unexpected answers` : ''),
  );

async function run(): Promise<void> {
  await withBenchDatabase(async (url) => {
    const config = loadConfig({ DATABASE_URL: url, PORT: '0', JWT_SECRET: 'bench-secret', LOG_LEVEL: 'silent' });
    const service = await startService(config, { background: false });
    try {
      const base = `http://127.0.0.1:${service.port}`;
      const phones = Array.from({ length: PEOPLE }, (_, i) => `138${String(i).padStart(8, '0')}`);
      await service.ctx.db.pool.query(`INSERT INTO personnel (phone, name, role) SELECT p, '工人' || p, 'worker' FROM unnest($1::text[]) p`, [phones]);
      const tokens = phones.map((phone) => service.ctx.tokens.issue({ phone, role: 'worker' }));
      const get = (path: string, token?: string) =>
        fetch(base + path, { headers: token ? { authorization: `Bearer ${token}` } : {} }).then(async (r) => (await r.arrayBuffer(), r.status));
      let n = 0;
      const login = (i: number) =>
        fetch(base + '/api/auth/platform-login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code: `sim:bench-${i}#${++n}`, phoneCode: `sim:${phones[i % PEOPLE]}#${n}` }),
        }).then(async (r) => (await r.arrayBuffer(), r.status));

      await measure(500, () => get('/api/health'), 200); // warm-up
      const health = await measure(5000, () => get('/api/health'), 200);
      await measure(500, (i) => get('/api/auth/me', tokens[i % PEOPLE]), 200);
      const me = await measure(5000, (i) => get('/api/auth/me', tokens[i % PEOPLE]), 200);
      await measure(200, (i) => login(i), 200);
      const logins = await measure(2000, (i) => login(i), 200);

      console.log(`${CONCURRENCY} concurrent clients over HTTP, PostgreSQL, platform simulator, one process`);
      line('baseline: GET /api/health', health);
      line('GET /api/auth/me', me, health);
      line('POST /api/auth/platform-login (simulator)', logins, health);
    } finally {
      await service.close();
    }
  });
}

export const authBench: BenchSuite = { name: 'auth', run };
