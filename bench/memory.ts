/**
 * Memory benchmark: the resident memory (RSS) of one API process started as `npm start` starts it,
 * beside the same process started as `npm run start:high-load` (the clock benchmark's V8 flags), in the same run.
 * On PostgreSQL: right after start, right after a load of 50 workers × 10 clock cycles (2,500 requests), and after
 * 20 s idle. Target: `npm start` idle under 200 MB. Then what the embedded database adds: `npm start` on a fresh
 * PGlite folder (its first start creates the cluster) and on the same folder again.
 * Figures from `ps -o rss` of the server process (the compiler's helper process of tsx not counted).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TARGET_MB = 200;
const SECRET = 'bench-memory-secret';

/** The node arguments of a package.json script `node <flags> --import tsx src/main.ts`. */
function scriptArgs(name: string): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [node, ...args] = pkg.scripts[name].split(/\s+/);
  if (node !== 'node') throw new Error(`bench: unexpected script ${name}`);
  return args;
}

const rssMb = (pid: number) => Number(spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim()) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts src/main.ts with the flags of `script` and `env`; resolves with the child and its port once ready. */
async function start(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, scriptArgs(script), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', JWT_SECRET: SECRET, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
    child.on('message', (m: { type?: string; port?: number }) => m.type === 'ready' && resolve(m.port!));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** 50 workers × 10 full clock cycles (start, switch, finish, draft, submit) against `base` on database `url`. */
async function clockLoad(base: string, url: string): Promise<number> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query(
    `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     VALUES ('P', 'A', 'D1', '冲压', 10, 2880), ('P', 'B', 'D2', '冲压', 10, 2880)`,
  );
  const productId = Number((await db.query(`SELECT id FROM products WHERE device_no = 'D1'`)).rows[0].id);
  const tokens: string[] = [];
  for (let i = 0; i < 50; i++) {
    const phone = `139${String(i).padStart(8, '0')}`;
    await db.query(`INSERT INTO personnel (phone, name, role) VALUES ($1, $2, 'worker')`, [phone, `员工${i}`]);
    tokens.push(jwt.sign({ role: 'worker' }, SECRET, { subject: phone, expiresIn: '1h' }));
  }
  await db.end();
  let failed = 0;
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const r = await fetch(base + path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (r.status >= 300) failed++;
    return (await r.json()) as Record<string, any>;
  };
  await Promise.all(
    tokens.map(async (t) => {
      for (let c = 0; c < 10; c++) {
        const s = await call(t, 'POST', '/api/clock/start', { deviceNo: 'D1' });
        await call(t, 'POST', '/api/clock/switch-device', { deviceNo: 'D2' });
        await call(t, 'POST', '/api/clock/finish', { deviceNo: 'D2' });
        await call(t, 'GET', `/api/reports/draft?sessionId=${s.sessionId}`);
        await call(t, 'POST', '/api/reports', { sessionId: s.sessionId, lines: [{ productId, finishedQty: 1, defectiveQty: 0 }] });
      }
    }),
  );
  return failed;
}

export const memoryBench: BenchSuite = {
  name: 'memory',
  async run() {
    console.log('RSS of one API process on PostgreSQL (MB): after start / after 2,500 clock requests / after 20 s idle');
    for (const script of ['start', 'start:high-load']) {
      await withBenchDatabase(async (url) => {
        const { child, base } = await start(script, { DATABASE_URL: url });
        await sleep(5000);
        const idle = rssMb(child.pid!);
        const failed = await clockLoad(base, url);
        const loaded = rssMb(child.pid!);
        await sleep(20_000);
        const after = rssMb(child.pid!);
        await stop(child);
        const verdict = script === 'start' ? `   target idle < ${TARGET_MB} MB: ${after < TARGET_MB ? 'met' : 'NOT met'}` : '   (baseline: the benchmark\'s flags)';
        console.log(`npm ${script === 'start' ? 'start' : 'run start:high-load'}`.padEnd(28) + `${idle.toFixed(0).padStart(5)} ${loaded.toFixed(0).padStart(5)} ${after.toFixed(0).padStart(5)}${failed ? `   ${failed} failed requests` : ''}${verdict}`);
      });
    }
    const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
    try {
      const sizes: number[] = [];
      for (let i = 0; i < 2; i++) {
        const { child } = await start('start', { PGLITE_DIR: join(dir, 'pglite'), DATABASE_URL: '', PGHOST: '' });
        await sleep(5000);
        sizes.push(rssMb(child.pid!));
        await stop(child);
      }
      console.log(`npm start, embedded database: first start (creates the cluster) ${sizes[0].toFixed(0)} MB, next starts ${sizes[1].toFixed(0)} MB`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
