/**
 * The embedded database's installation keeps its token key (auth/kept-secret.ts): with no JWT_SECRET a restart of
 * `npm start` keeps people signed in. The key file beside the data folder, 0600, the same key at every start; a token
 * handed out before a restart of the real service still works after it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { keptSecretPath, withKeptJwtSecret } from '../../src/auth/kept-secret.ts';

const dir = mkdtempSync(join(tmpdir(), 'kept-secret-'));
let server: ChildProcess | undefined;
afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('the kept token key', () => {
  it('is made at the first start beside the data folder, readable by its owner only, and read again after', () => {
    const dataDir = join(dir, 'unit', 'pglite');
    const first = withKeptJwtSecret(loadConfig({ PGLITE_DIR: dataDir }));
    const path = keptSecretPath(dataDir);
    expect(path).toBe(`${dataDir}.jwt-secret`);
    expect(first.jwtSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(first).toMatchObject({ jwtSecretGenerated: false, jwtSecretFile: path });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(withKeptJwtSecret(loadConfig({ PGLITE_DIR: dataDir })).jwtSecret).toBe(first.jwtSecret);
    // A file others may read is made the owner's only.
    chmodSync(path, 0o644);
    expect(withKeptJwtSecret(loadConfig({ PGLITE_DIR: dataDir })).jwtSecret).toBe(first.jwtSecret);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('is not made when JWT_SECRET is given, nor for PostgreSQL (a key per start there, outside production)', () => {
    const dataDir = join(dir, 'given', 'pglite');
    const given = withKeptJwtSecret(loadConfig({ PGLITE_DIR: dataDir, JWT_SECRET: 'from-the-environment' }));
    expect(given.jwtSecret).toBe('from-the-environment');
    expect(existsSync(keptSecretPath(dataDir))).toBe(false);
    const pg = loadConfig({ DATABASE_URL: 'postgres://x@h/db' });
    expect(withKeptJwtSecret(pg)).toBe(pg);
  });
});

/** Starts `npm start`'s command on `dataDir` with no JWT_SECRET; resolves with its port once it listens. */
async function start(dataDir: string): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', PGLITE_DIR: dataDir, LOG_LEVEL: 'warn' };
  for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'PGHOST', 'VITEST', 'WX_APPID', 'JWT_SECRET']) delete env[k];
  server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  return new Promise((resolve, reject) => {
    server!.once('exit', (code) => reject(new Error(`the service ended with ${code}`)));
    server!.on('message', (m: any) => m?.type === 'ready' && resolve(m.port));
  });
}

async function stop(): Promise<void> {
  const s = server!;
  s.removeAllListeners('exit');
  const done = new Promise((resolve) => s.once('exit', resolve));
  s.kill('SIGTERM');
  await done;
  server = undefined;
}

/** A console sign-in through the one-time link of the running server (`npm run cli -- console-link`). */
async function signIn(port: number, dataDir: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, PGLITE_DIR: dataDir, LOG_LEVEL: 'warn' };
  for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'PGHOST', 'VITEST', 'WX_APPID', 'JWT_SECRET']) delete env[k];
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'console-link', '13800138000', '王管理'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  const ticket = /#link=([A-Za-z0-9_-]+)/.exec(out)?.[1];
  expect(ticket, out).toBeDefined();
  const poll = (await (await fetch(`http://127.0.0.1:${port}/api/auth/web-login/${ticket}`)).json()) as { status: string; token: string };
  expect(poll.status).toBe('confirmed');
  return poll.token;
}

describe('a restart of the service', () => {
  it('keeps the console signed in: the token of the first start works after the second', async () => {
    const dataDir = join(dir, 'service', 'pglite');
    const port = await start(dataDir);
    const token = await signIn(port, dataDir);
    const me = (p: number) => fetch(`http://127.0.0.1:${p}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me(port)).status).toBe(200);
    const key = readFileSync(keptSecretPath(dataDir), 'utf8');
    await stop();

    const again = await start(dataDir);
    const r = await me(again);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ person: { phone: '13800138000', name: '王管理' }, role: 'admin' });
    expect(readFileSync(keptSecretPath(dataDir), 'utf8')).toBe(key);
    await stop();
  });
});
