// Scratch: WAL bytes per step of the clock cycle (sequential, background off).
import pg from 'pg';
import { runMigrations } from '../src/db/migrate.ts';
import { loadConfig } from '../src/config.ts';
import { startService } from '../src/app.ts';
import { withBenchDatabase } from '../bench/db.ts';
import { TokenService } from '../src/auth/tokens.ts';
import { HttpClient } from '../bench/http-load.ts';

await withBenchDatabase(async (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  await runMigrations(pool);
  const W = 20;
  const phones = Array.from({ length: W }, (_, i) => `139${String(i).padStart(8, '0')}`);
  await pool.query(`INSERT INTO personnel (phone, name, role) SELECT p, '工人' || p, 'worker' FROM unnest($1::text[]) p`, [phones]);
  await pool.query(`INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     SELECT 'P-' || d, '产品' || k, '冲床 ' || lpad(d::text, 2, '0'), '冲压', 10 + k, floor(28800 / (10 + k)) FROM generate_series(1, 20) d, generate_series(1, 3) k`);
  const svc = await startService(loadConfig({ DATABASE_URL: url, PORT: '0', JWT_SECRET: 's', LOG_LEVEL: 'silent' }), { background: false });
  const base = `http://127.0.0.1:${svc.port}`;
  const tokens = phones.map((phone) => new TokenService('s', '1d').issue({ phone, role: 'worker' }));
  const clients = tokens.map(() => new HttpClient(base));
  const lsn = async () => (await pool.query(`SELECT pg_current_wal_insert_lsn() AS l`)).rows[0].l as string;
  const diff = async (a: string, b: string) => Number((await pool.query(`SELECT pg_wal_lsn_diff($2, $1) AS d`, [a, b])).rows[0].d);
  const steps = ['start', 'switch', 'finish', 'draft', 'submit'];
  const wal = new Map(steps.map((s) => [s, 0]));
  const cycles = Number(process.env.CYCLES ?? 20);
  for (let c = 0; c < cycles; c++) {
    for (let w = 0; w < W; w++) {
      const h = `authorization: Bearer ${tokens[w]}\r\n`;
      const dev = `冲床 ${String((w % 20) + 1).padStart(2, '0')}`;
      const dev2 = `冲床 ${String(((w + 7) % 20) + 1).padStart(2, '0')}`;
      const run = async (step: string, f: () => Promise<{ status: number; body: string }>) => {
        const a = await lsn();
        const r = await f();
        if (c > 0) wal.set(step, wal.get(step)! + (await diff(a, await lsn())));
        if (r.status >= 300) throw new Error(`${step} ${r.status} ${r.body}`);
        return r;
      };
      const s = await run('start', () => clients[w].request('POST', '/api/clock/start', h, JSON.stringify({ deviceNo: dev })));
      const sessionId = JSON.parse(s.body).sessionId;
      await run('switch', () => clients[w].request('POST', '/api/clock/switch-device', h, JSON.stringify({ deviceNo: dev2 })));
      await run('finish', () => clients[w].request('POST', '/api/clock/finish', h, JSON.stringify({ deviceNo: dev2 })));
      const d = await run('draft', () => clients[w].request('GET', `/api/reports/draft?sessionId=${sessionId}`, h));
      const lines = JSON.parse(d.body).candidates.slice(0, 2).map((p: any, k: number) => ({ productId: p.productId, finishedQty: 100 + k, defectiveQty: k }));
      await run('submit', () => clients[w].request('POST', '/api/reports', h, JSON.stringify({ sessionId, lines })));
    }
  }
  const n = (cycles - 1) * W;
  for (const s of steps) console.log(`${s.padEnd(8)} WAL ${(wal.get(s)! / n).toFixed(0)} bytes`);
  for (const c of clients) c.close();
  await svc.close();
  await pool.end();
});
