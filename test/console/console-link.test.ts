/**
 * `npm run cli -- console-link <phone> [name]`: a one-time link into the console, valid 10 minutes,
 * that works while the server runs on the embedded database (the CLI asks it over the local control channel,
 * src/http/control-channel.ts) as well as when the CLI can open the database itself (PostgreSQL, or no server).
 * Run without the server's PGLITE_DIR it finds the running server (its registration in `data/run` of the
 * working directory) or refuses, saying why; it never creates a second embedded database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliCommands } from '../../src/cli/commands.ts';
import { CONTROL_HEADER, openControlChannel, readControlFile, registerRunningServer, RUN_DIR, runningServers } from '../../src/http/control-channel.ts';
import { loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/net.ts';

let app: TestApp;
let dir: string;
/** The service's port: the link names it (a free one, so that other test runs on the machine do not collide). */
let port: number;
const command = cliCommands['console-link'];

/** Runs `fn` with console.log and console.error captured; → [exit code, printed lines]. */
async function printed(fn: () => Promise<number>): Promise<[number, string]> {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a) => void lines.push(a.join(' ')));
  const err = vi.spyOn(console, 'error').mockImplementation((...a) => void lines.push(a.join(' ')));
  try {
    return [await fn(), lines.join('\n')];
  } finally {
    log.mockRestore();
    err.mockRestore();
  }
}

const ticketIn = (out: string) => /#link=([A-Za-z0-9_-]+)/.exec(out)?.[1];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'console-link-'));
  // The service's database is the harness's; PGLITE_DIR only names where the control file goes.
  port = await freePort();
  app = await startTestApp({ PGLITE_DIR: join(dir, 'pglite'), PORT: String(port) });
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('console-link, with the database at hand', () => {
  it('refuses an unknown phone, saying how to add the first administrator; with a name adds them while there is none', async () => {
    const [code, out] = await printed(() => command.run(app.service.ctx, ['13800138000']));
    expect(code).toBe(1);
    expect(out).toContain('console-link 13800138000 <姓名>');
    const [ok, link] = await printed(() => command.run(app.service.ctx, ['13800138000', '王管理']));
    expect(ok).toBe(0);
    // The office's first person gets both console roles: the review needs 管理员, the close and the scopes 经理.
    expect(link).toContain('已把 王管理（13800138000）添加为第一位管理员和经理');
    expect(link).toMatch(new RegExp(`http://localhost:${port}/console/login#link=[A-Za-z0-9_-]{43}`));
    expect(link).toContain('登录身份：王管理（13800138000），管理员');
    const poll = await app.request('GET', `/api/auth/web-login/${ticketIn(link)}`);
    expect(poll.body).toMatchObject({ status: 'confirmed', role: 'admin', person: { name: '王管理' } });
    expect((await app.request('GET', `/api/auth/web-login/${ticketIn(link)}`)).status).toBe(409);
    const me = await app.request('GET', '/api/auth/me', { token: poll.body.token });
    expect(me.body).toMatchObject({ role: 'admin', roles: ['admin', 'manager'] });
  });

  it('--roles gives the first person only the roles named; a wrong list is a usage error', async () => {
    const other = await startTestApp();
    try {
      const [ok, link] = await printed(() => cliCommands['console-link'].run(other.service.ctx, ['13800138001', '赵管理', '--roles', 'admin']));
      expect(ok, link).toBe(0);
      expect(link).toContain('已把 赵管理（13800138001）添加为第一位管理员。');
      expect((await other.service.ctx.db.pool.query(`SELECT role FROM personnel WHERE phone = '13800138001'`)).rows).toEqual([{ role: 'admin' }]);
      expect((await printed(() => cliCommands['console-link'].run(other.service.ctx, ['13800138001', '--roles', 'worker'])))[0]).toBe(2);
      expect((await printed(() => cliCommands['console-link'].run(other.service.ctx, ['13800138001', '--roles'])))[0]).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('never adds anyone once an administrator exists; a worker gets no link; a manager gets one as manager', async () => {
    await app.login('13700000001', 'worker', '张三');
    const [w, out] = await printed(() => command.run(app.service.ctx, ['13700000001', '张三']));
    expect(w).toBe(1);
    expect(out).toContain('不是管理员或经理');
    expect((await app.service.ctx.db.pool.query(`SELECT role FROM personnel WHERE phone = '13700000001'`)).rows).toEqual([{ role: 'worker' }]);
    await app.login('13900000002', 'manager', '李经理');
    const [m, link] = await printed(() => command.run(app.service.ctx, ['13900000002', '--role', 'manager']));
    expect(m).toBe(0);
    expect((await app.request('GET', `/api/auth/web-login/${ticketIn(link)}`)).body).toMatchObject({ status: 'confirmed', role: 'manager' });
    expect((await printed(() => command.run(app.service.ctx, ['13900000002', '--role', 'admin'])))[1]).toContain('没有「管理员」角色');
    expect((await printed(() => command.run(app.service.ctx, [])))[0]).toBe(2);
  });

  it('a link is valid 10 minutes', async () => {
    const [, link] = await printed(() => command.run(app.service.ctx, ['13800138000']));
    app.clock.advance(10 * 60_000);
    expect((await app.request('GET', `/api/auth/web-login/${ticketIn(link)}`)).body).toEqual({ status: 'expired' });
  });
});

describe('the control channel', () => {
  it('answers only the secret of this process’s control file, from loopback; the CLI finds the server by it', async () => {
    const path = `${join(dir, 'pglite')}.control`;
    const channel = openControlChannel(app.config, app.service.port);
    try {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const ask = (secret?: string) =>
        app.request('POST', '/api/auth/console-link', { body: { phone: '13800138000' }, headers: secret === undefined ? {} : { [CONTROL_HEADER]: secret } });
      expect((await ask()).body.error.code).toBe('CONTROL_SECRET_INVALID');
      expect((await ask('x'.repeat(43))).status).toBe(403);
      const ok = await ask(readControlFile(app.config)!.secret);
      expect(ok.status).toBe(201);
      expect(ok.body.path).toMatch(/^\/console\/login#link=/);
      const [code, out] = await printed(() => command.whileServerRuns!(app.config, ['13800138000']));
      expect(code).toBe(0);
      expect(out).toContain(`http://localhost:${app.service.port}/console/login#link=`);
      expect((await app.request('GET', `/api/auth/web-login/${ticketIn(out)}`)).body.status).toBe('confirmed');
    } finally {
      channel.close();
    }
    expect(existsSync(path)).toBe(false);
  });
});

describe('while `npm start` runs on the embedded database', () => {
  let server: ChildProcess | undefined;
  afterAll(() => server?.kill('SIGTERM'));

  it('the CLI, refused the database folder, gets the link from the running server', async () => {
    const data = join(dir, 'running');
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', PGLITE_DIR: data, LOG_LEVEL: 'warn' };
    for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'PGHOST', 'VITEST', 'WX_APPID']) delete env[k];
    server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: 'ignore' });
    const controlFile = `${data}.control`;
    for (let i = 0; i < 600 && !existsSync(controlFile); i++) await new Promise((r) => setTimeout(r, 100));
    const { port } = JSON.parse(readFileSync(controlFile, 'utf8'));

    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve, reject) => {
        const child = spawn('npx', ['tsx', 'src/cli.ts', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, out }));
      });
    const r = await run(['console-link', '13800138000', '王管理']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`http://localhost:${port}/console/login#link=`);
    const poll = await fetch(`http://127.0.0.1:${port}/api/auth/web-login/${ticketIn(r.out)}`);
    expect(await poll.json()).toMatchObject({ status: 'confirmed', role: 'admin', person: { phone: '13800138000', name: '王管理' } });

    const stopped = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await stopped;
    server = undefined;
    expect(existsSync(controlFile)).toBe(false);
  });
});

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Runs the service's `script` (src/main.ts, src/cli.ts) from the working directory `cwd`, as `npm` would from there. */
function node(cwd: string, script: string, args: string[], env: NodeJS.ProcessEnv) {
  return spawn(process.execPath, ['--import', TSX, join(ROOT, script), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The environment of a server or CLI on the embedded database, without PGLITE_DIR unless given. */
function embeddedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...extra };
  for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'PGHOST', 'VITEST', 'WX_APPID', ...(extra.PGLITE_DIR ? [] : ['PGLITE_DIR'])]) delete env[k];
  return env;
}

function cliIn(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((done, fail) => {
    const child = node(cwd, 'src/cli.ts', args, env);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, out }));
  });
}

describe('the running servers of a working directory (data/run)', () => {
  it('a server registers with its port and folder, is listed while it runs and holds its control file, and is forgotten when it is gone', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'run-registry-'));
    try {
      const config = loadConfig({ PGLITE_DIR: join(cwd, 'elsewhere', 'pglite') });
      mkdirSync(join(cwd, 'elsewhere'));
      expect(runningServers(cwd)).toEqual([]);
      const channel = openControlChannel(config, 4321);
      const entry = registerRunningServer(config, 4321, cwd);
      expect(statSync(join(cwd, RUN_DIR, `${process.pid}.json`)).mode & 0o777).toBe(0o600);
      expect(runningServers(cwd)).toEqual([{ pid: process.pid, port: 4321, dataDir: resolve(cwd, 'elsewhere', 'pglite') }]);
      // A process that is gone (its pid free) is forgotten, its entry removed.
      const dead = join(cwd, RUN_DIR, '999999999.json');
      writeFileSync(dead, JSON.stringify({ pid: 999999999, port: 1, dataDir: '/nowhere' }));
      expect(runningServers(cwd).map((s) => s.pid)).toEqual([process.pid]);
      expect(existsSync(dead)).toBe(false);
      channel.close();
      expect(runningServers(cwd)).toEqual([]); // its control file is gone: not a server to ask
      entry.close();
      expect(existsSync(join(cwd, RUN_DIR, `${process.pid}.json`))).toBe(false);
      expect(registerRunningServer(loadConfig({ DATABASE_URL: 'postgres://x@localhost/x' }), 1, cwd).close()).toBeUndefined();
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('with several servers and none on PGLITE_DIR, the CLI refuses and names each one’s folder', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'run-several-'));
    const here = process.cwd();
    const channels = ['a', 'b'].map((n) => openControlChannel(loadConfig({ PGLITE_DIR: join(cwd, n) }), 4000));
    mkdirSync(join(cwd, RUN_DIR), { recursive: true });
    // Two registrations of live processes holding their control files (this test process stands for both).
    for (const [i, n] of ['a', 'b'].entries()) writeFileSync(join(cwd, RUN_DIR, `${i}.json`), JSON.stringify({ pid: process.pid, port: 4000 + i, dataDir: join(cwd, n) }));
    try {
      process.chdir(cwd);
      const [code, out] = await printed(async () => (await command.beforeOpen!(loadConfig({}), ['13800138000'])) ?? -1);
      expect(code).toBe(1);
      expect(out).toContain('有 2 个服务在运行');
      expect(out).toContain(`数据目录 ${join(cwd, 'a')}`);
      expect(out).toContain(`数据目录 ${join(cwd, 'b')}`);
      expect(out).toContain('PGLITE_DIR=');
    } finally {
      process.chdir(here);
      channels.forEach((c) => c.close());
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe('run without the server’s PGLITE_DIR', () => {
  let server: ChildProcess | undefined;
  let cwd: string;
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'console-link-cwd-'));
  });
  afterAll(() => {
    server?.kill('SIGTERM');
    rmSync(cwd, { recursive: true, force: true });
  });

  it('with no server running and no database, refuses saying why and creates nothing', async () => {
    const r = await cliIn(cwd, ['console-link', '13800138000', '王管理'], embeddedEnv());
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain('没有正在运行的服务');
    expect(r.out).toContain('不会新建数据库');
    expect(r.out).not.toContain('#link=');
    expect(existsSync(join(cwd, 'data', 'pglite'))).toBe(false);
  });

  it('finds the one server running on another folder and gets the link from it', async () => {
    const data = join(cwd, 'srv', 'pglite');
    server = node(cwd, 'src/main.ts', [], embeddedEnv({ PGLITE_DIR: data }));
    const controlFile = `${data}.control`;
    for (let i = 0; i < 600 && !(existsSync(controlFile) && runningServers(cwd).length === 1); i++) await new Promise((r) => setTimeout(r, 100));
    const { port } = JSON.parse(readFileSync(controlFile, 'utf8'));
    expect(runningServers(cwd)).toEqual([{ pid: server.pid, port, dataDir: data }]);

    const r = await cliIn(cwd, ['console-link', '13800138000', '王管理'], embeddedEnv());
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`找到正在运行的服务（进程 ${server.pid}，端口 ${port}，数据目录 ${data}）`);
    expect(r.out).toContain(`http://localhost:${port}/console/login#link=`);
    const poll = await fetch(`http://127.0.0.1:${port}/api/auth/web-login/${ticketIn(r.out)}`);
    expect(await poll.json()).toMatchObject({ status: 'confirmed', role: 'admin', person: { phone: '13800138000', name: '王管理' } });
    expect(existsSync(join(cwd, 'data', 'pglite'))).toBe(false); // no second database

    const pid = server.pid;
    const stopped = new Promise((done) => server!.once('exit', done));
    server.kill('SIGTERM');
    await stopped;
    server = undefined;
    expect(existsSync(join(cwd, RUN_DIR, `${pid}.json`))).toBe(false); // a stopping server removes its entry
    expect(runningServers(cwd)).toEqual([]);

    // Stopped, its database is there: the link is written into it, saying the service must be started to use it.
    const later = await cliIn(cwd, ['console-link', '13800138000'], embeddedEnv({ PGLITE_DIR: data }));
    expect(later.code, later.out).toBe(0);
    expect(later.out).toContain('服务现在没有运行');
    expect(later.out).toContain('#link=');
  });
});
