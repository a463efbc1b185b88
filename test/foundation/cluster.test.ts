/**
 * API_PROCESSES > 1 (src/cluster.ts), PostgreSQL only: `npm start`'s entry point runs a primary and two API
 * processes on one port; the primary reports `ready` over IPC once both listen; a login through the one shared
 * simulator gives a token (signed with the key the primary made) that both processes accept; a worker's whole
 * clock cycle works across them (one stream per worker whatever process answers); the primary replaces a
 * process that is killed, and SIGTERM stops everything cleanly.
 * The embedded database refuses the setting (config test).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createPgDatabase, onPostgres } from '../helpers/db.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

it('refuses API_PROCESSES > 1 on the embedded database, and a fraction', () => {
  expect(() => loadConfig({ API_PROCESSES: '2' })).toThrow(ConfigError);
  expect(() => loadConfig({ API_PROCESSES: '1.5', DATABASE_URL: 'postgres://x/y' })).toThrow(/API_PROCESSES/);
  expect(loadConfig({ API_PROCESSES: '2', DATABASE_URL: 'postgres://x/y' }).apiProcesses).toBe(2);
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

// The API processes among the children (not the compiler's helper process); ps exits with 1 when there are none.
const workersOf = (pid: number) =>
  spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((l) => l.includes('src/main.ts'))
    .map((l) => Number(l.trim().split(/\s+/)[0]));

let primary: ChildProcess | undefined;
let db: { url: string; drop: () => Promise<void> } | undefined;
let base = '';

beforeAll(async () => {
  if (!onPostgres) return;
  db = await createPgDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  primary = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, DATABASE_URL: db.url, PORT: String(port), API_PROCESSES: '2', JWT_SECRET: '', LOG_LEVEL: 'fatal', VITEST: '' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  // The primary says so over the IPC channel once every process listens.
  const ready = await new Promise<{ type: string; port: number }>((resolve, reject) => {
    primary!.once('exit', (code) => reject(new Error(`the service ended with ${code}`)));
    primary!.on('message', (m: { type: string; port: number }) => m.type === 'ready' && resolve(m));
  });
  expect(ready.port).toBe(port);
  expect(workersOf(primary.pid!)).toHaveLength(2);
}, 60_000);

afterAll(async () => {
  if (primary && primary.exitCode === null) primary.kill('SIGKILL');
  await db?.drop();
});

it.runIf(onPostgres)('two API processes on one port: a clock cycle across them, a dead one replaced, SIGTERM stops all', async () => {
  const pool = new pg.Pool({ connectionString: db!.url, max: 2 });
  try {
    const phone = '13800000777';
    await pool.query(`INSERT INTO personnel (phone, name, role) VALUES ($1, '集群', 'worker')`, [phone]);
    await pool.query(
      `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
       VALUES ('P-1', '件', 'K-1', '冲压', 10, 2880)`,
    );
    // A new connection per request (no keep-alive), so the primary hands them to both processes in turn.
    let token = '';
    const call = (method: string, path: string, body?: unknown) =>
      fetch(base + path, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), connection: 'close', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

    // Login through the one simulator the primary runs; the token (signed with the key the primary made, no
    // JWT_SECRET set) works on both processes, and the used phone code is refused whichever process is asked.
    const login = await call('POST', '/api/auth/platform-login', { code: 'sim:cluster-1', phoneCode: `sim:${phone}#1` });
    expect(login.status).toBe(200);
    token = login.body.token;
    for (let i = 0; i < 4; i++) expect((await call('GET', '/api/auth/me')).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const again = await call('POST', '/api/auth/platform-login', { code: `sim:cluster-${i + 2}`, phoneCode: `sim:${phone}#1` });
      expect([again.status, again.body.error.code]).toEqual([401, 'PHONE_CODE_INVALID']);
    }

    const start = await call('POST', '/api/clock/start', { deviceNo: 'K-1' });
    expect(start.status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await call('POST', '/api/clock/start', { deviceNo: 'K-1' })).body.sessionId).toBe(start.body.sessionId);
    expect((await call('POST', '/api/clock/finish', { deviceNo: 'K-1' })).status).toBe(200);
    const draft = await call('GET', `/api/reports/draft?sessionId=${start.body.sessionId}`);
    expect(draft.status).toBe(200);
    const submit = await call('POST', '/api/reports', { sessionId: start.body.sessionId, lines: [{ productId: draft.body.candidates[0].productId, finishedQty: 9, defectiveQty: 1 }] });
    expect(submit.status).toBe(201);
    const events = await pool.query(`SELECT event_type FROM events WHERE stream_id = $1 ORDER BY stream_version`, [`worker-${phone}`]);
    expect(events.rows.map((r) => r.event_type)).toEqual(['ClockedIn', 'ClockedOut', 'SessionReported']);

    // A process that dies is replaced.
    const [victim] = workersOf(primary!.pid!);
    process.kill(victim, 'SIGKILL');
    let replaced = false;
    for (let i = 0; i < 100 && !replaced; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const now = workersOf(primary!.pid!);
      replaced = now.length === 2 && !now.includes(victim);
    }
    expect(replaced).toBe(true);
    const health = await fetch(`${base}/api/health`);
    expect([health.status, ((await health.json()) as { status: string }).status]).toEqual([200, 'ok']);

    // SIGTERM: the primary and its processes end.
    const workers = workersOf(primary!.pid!);
    const exited = new Promise<number | null>((resolve) => primary!.once('exit', (code) => resolve(code)));
    primary!.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  } finally {
    await pool.end();
  }
}, 60_000);
