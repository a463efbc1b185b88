/**
 * The service started exactly as `npm start` starts it (a child
 * process, on a fresh embedded database, or a fresh PostgreSQL database when the suite runs on one) gets each
 * hostile case — a multipart upload cut before its closing boundary (which used to end the process), zip
 * bombs, workbooks beyond the reader's limits, a body that does not inflate, broken percent-escapes, lone
 * surrogates, prototype names, headers over the limit, garbage instead of HTTP, a connection dropped
 * mid-upload — and after each one `/api/health` must still answer 200 from the same process. A small honest
 * import is previewed too: the parse thread starts under `npm start` (tsx loaded into the worker).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TokenService } from '../../src/auth/tokens.ts';
import { createPgDatabase, onPostgres } from '../helpers/db.ts';
import { HOSTILE_FILES, xlsxOf } from '../helpers/hostile-workbooks.ts';
import { multipart, rawRequest, type RawResponse } from '../helpers/raw-http.ts';

const SECRET = 'process-test-secret';
const ADMIN = '13800138014';
let child: ChildProcess;
let port: number;
let token: string;
let cleanup: () => Promise<void> = async () => {};
let output = '';

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, args, { env, stdio: 'ignore' });
    c.on('error', reject);
    c.on('exit', resolve);
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

beforeAll(async () => {
  port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), JWT_SECRET: SECRET, LOG_LEVEL: 'warn', NODE_ENV: 'development' };
  for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'PGHOST', 'PGLITE_DIR']) delete env[k];
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let dir: string | undefined;
  if (onPostgres) {
    db = await createPgDatabase();
    env.DATABASE_URL = db.url;
  } else {
    dir = mkdtempSync(join(tmpdir(), 'process14-'));
    env.PGLITE_DIR = join(dir, 'pglite');
    // The embedded database belongs to one process: the administrator is added before the service starts.
    expect(await run('npx', ['tsx', 'src/cli.ts', 'people:add', ADMIN, '管理员', 'admin'], env)).toBe(0);
  }
  child = spawn('npm', ['start'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout!.on('data', (d) => (output = (output + d).slice(-4000)));
  child.stderr!.on('data', (d) => (output = (output + d).slice(-4000)));
  for (let i = 0; i < 600 && !(await healthy()); i++) await new Promise((r) => setTimeout(r, 100));
  expect(await healthy()).toBe(true);
  if (db) {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query(`INSERT INTO personnel (phone, name, role) VALUES ($1, '管理员', 'admin')`, [ADMIN]);
    await c.end();
  }
  token = new TokenService(SECRET, '1h').issue({ phone: ADMIN, role: 'admin' });
  cleanup = async () => {
    if (child.exitCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}, 180_000);
afterAll(() => cleanup());

async function healthy(): Promise<boolean> {
  const r = await rawRequest(port, 'GET /api/health HTTP/1.1\r\nHost: x').catch(() => undefined);
  return r?.status === 200;
}

const send = (head: string, body?: Buffer | string) => rawRequest(port, head, body);
const authed = (line: string, type: string) => `${line} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${type}`;

/** Sends a file as the multipart upload of the product import. */
function uploadFile(data: Buffer, opts: { close?: boolean } = {}): Promise<RawResponse> {
  const m = multipart('file', 'list.xlsx', data, opts);
  return send(authed('POST /api/products/import', m.contentType), m.body);
}

const cases: [string, () => Promise<RawResponse | void>][] = [
  ['a product upload cut before its closing boundary', () => uploadFile(Buffer.from('PK\x03\x04 half'), { close: false })],
  ['a people upload cut before its closing boundary', () => {
    const m = multipart('file', 'p.xlsx', Buffer.alloc(3000, 1), { close: false });
    return send(authed('POST /api/people/import', m.contentType), m.body);
  }],
  ['a client dropping the connection mid-upload', () =>
    new Promise<void>((resolve) => {
      const m = multipart('file', 'list.xlsx', Buffer.alloc(100_000, 3));
      const s = connect(port, '127.0.0.1', () => {
        s.write(`${authed('POST /api/products/import', m.contentType)}\r\nContent-Length: ${m.body.length}\r\n\r\n`);
        s.write(m.body.subarray(0, 40_000), () => setTimeout(() => s.destroy(), 20));
      });
      s.on('error', () => {});
      s.on('close', () => resolve());
    })],
  ...HOSTILE_FILES.filter((f) => /bomb|4,000,000 cells|entit|loops|merged ranges|shared strings|cut in half/.test(f.name)).map(
    (f): [string, () => Promise<RawResponse>] => [`the hostile workbook: ${f.name}`, () => uploadFile(f.build())],
  ),
  ['gzip that does not inflate', () => send(authed('POST /api/products', 'application/json') + '\r\nContent-Encoding: gzip', Buffer.from('not gzip'))],
  ['a gzip bomb of JSON', () => send(authed('POST /api/products', 'application/json') + '\r\nContent-Encoding: gzip', gzipSync(`{"a":"${'x'.repeat(20_000_000)}"}`))],
  ['a broken percent-escape in a path parameter', () => send(`POST /api/reviews/%E0%A4%A/approve HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}`)],
  ['a broken percent-escape without a token', () => send('GET /api/device-codes/%E0%A4%A HTTP/1.1\r\nHost: x')],
  ['a lone surrogate in a JSON body', () => send(authed('POST /api/products', 'application/json'), '{"projectNo": "\\ud800", "productName": "x", "deviceNo": "d", "processName": "p", "standardCycleSeconds": 1}')],
  ['a role named constructor', () => send(authed('POST /api/people', 'application/json'), '{"phone": "13800138000", "name": "x", "role": "constructor"}')],
  ['headers of 90 kB', () => send(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(90_000)}`)],
  ['garbage instead of HTTP', () => send('\x16\x03\x01 not http at all')],
];

it.each(cases)('%s: the process goes on answering', async (_, hostile) => {
  const res = await hostile();
  if (res) expect(res.status, output).toBeLessThan(500);
  expect(child.exitCode, output).toBeNull();
  expect(await healthy(), output).toBe(true);
});

it('an honest upload is previewed by the parse thread under npm start', async () => {
  const r = await uploadFile(xlsxOf({}));
  expect(r.status, output).toBe(200);
  expect(r.json.counts.create).toBe(3);
  expect(child.exitCode).toBeNull();
});
