// Scratch: PostgreSQL backend CPU per step of the clock cycle, sequential (no contention).
import pg from 'pg';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { runMigrations } from '../src/db/migrate.ts';
import { loadConfig } from '../src/config.ts';
import { startService } from '../src/app.ts';
import { withBenchDatabase } from '../bench/db.ts';
import { TokenService } from '../src/auth/tokens.ts';
import { HttpClient } from '../bench/http-load.ts';

const TICK = 10;
const cpuOf = (pid: number) => { const s = readFileSync(`/proc/${pid}/stat`, 'utf8'); const f = s.slice(s.lastIndexOf(')') + 2).split(' '); return (Number(f[11]) + Number(f[12])) * TICK; };
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
  const backends = async () => (await pool.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)).rows.map((r) => r.pid as number);
  const steps = ['start', 'switch', 'finish', 'draft', 'submit'];
  const cpu = new Map(steps.map((s) => [s, 0]));
  const srv = new Map(steps.map((s) => [s, 0]));
  const cycles = Number(process.env.CYCLES ?? 100);
  let perf: any; let perfOut = '';
  for (let round = 0; round < 2; round++) {
    for (const s of steps) { cpu.set(s, 0); srv.set(s, 0); }
    if (round === 1) {
      const pids = await backends();
      perf = spawn('perf', ['stat', '-x,', '-e', 'instructions:u,instructions:k', '-p', [...pids, process.pid].join(',')], { stdio: ['ignore', 'ignore', 'pipe'] });
      perf.stderr.on('data', (d: Buffer) => (perfOut += d));
      await new Promise((r) => setTimeout(r, 300));
    }
    for (let c = 0; c < cycles; c++) {
      for (let w = 0; w < W; w++) {
        const h = `authorization: Bearer ${tokens[w]}\r\n`;
        const dev = `冲床 ${String((w % 20) + 1).padStart(2, '0')}`;
        const dev2 = `冲床 ${String(((w + 7) % 20) + 1).padStart(2, '0')}`;
        let sessionId = '';
        let lines: unknown[] = [];
        const run = async (step: string, f: () => Promise<{ status: number; body: string }>) => {
          const pids = await backends();
          const before = pids.map(cpuOf);
          const u0 = process.cpuUsage();
          const r = await f();
          const u = process.cpuUsage(u0);
          cpu.set(step, cpu.get(step)! + pids.map(cpuOf).reduce((a, x, i) => a + x - before[i], 0));
          srv.set(step, srv.get(step)! + (u.user + u.system) / 1000);
          if (r.status >= 300) throw new Error(`${step} ${r.status} ${r.body}`);
          return r;
        };
        const s = await run('start', () => clients[w].request('POST', '/api/clock/start', h, JSON.stringify({ deviceNo: dev })));
        sessionId = JSON.parse(s.body).sessionId;
        await run('switch', () => clients[w].request('POST', '/api/clock/switch-device', h, JSON.stringify({ deviceNo: dev2 })));
        await run('finish', () => clients[w].request('POST', '/api/clock/finish', h, JSON.stringify({ deviceNo: dev2 })));
        const d = await run('draft', () => clients[w].request('GET', `/api/reports/draft?sessionId=${sessionId}`, h));
        lines = JSON.parse(d.body).candidates.slice(0, 2).map((p: any, k: number) => ({ productId: p.productId, finishedQty: 100 + k, defectiveQty: k }));
        await run('submit', () => clients[w].request('POST', '/api/reports', h, JSON.stringify({ sessionId, lines })));
      }
    }
  }
  perf.kill('SIGINT');
  await new Promise((r) => perf.on('exit', r));
  const n = cycles * W;
  console.log(perfOut.trim().split('\n').map((l) => { const f = l.split(','); return `${f[2]}: ${(Number(f[0]) / n / 1e6).toFixed(3)} M per cycle`; }).join('\n'));
  let tp = 0, ts = 0;
  for (const s of steps) { tp += cpu.get(s)!; ts += srv.get(s)!; console.log(`${s.padEnd(8)} PG ${(cpu.get(s)! / n).toFixed(3)} ms   process(client+server) ${(srv.get(s)! / n).toFixed(3)} ms`); }
  console.log(`per request: PG ${(tp / n / 5).toFixed(3)} ms, process ${(ts / n / 5).toFixed(3)} ms`);
  for (const c of clients) c.close();
  await svc.close();
  await pool.end();
});
