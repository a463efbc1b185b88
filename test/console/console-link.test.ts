/**
 * `npm run cli -- console-link <phone> [name]` (issue #17): a one-time link into the console, valid 10 minutes,
 * that works while the server runs on the embedded database (the CLI asks it over the local control channel,
 * src/http/control-channel.ts) as well as when the CLI can open the database itself (PostgreSQL, or no server).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliCommands } from '../../src/cli/commands.ts';
import { CONTROL_HEADER, openControlChannel, readControlFile } from '../../src/http/control-channel.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
let dir: string;
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
  app = await startTestApp({ PGLITE_DIR: join(dir, 'pglite'), PORT: '3999' });
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
    expect(link).toContain('已把 王管理（13800138000）添加为第一位管理员');
    expect(link).toMatch(/http:\/\/localhost:3999\/console\/login#link=[A-Za-z0-9_-]{43}/);
    expect(link).toContain('登录身份：王管理（13800138000），管理员');
    const poll = await app.request('GET', `/api/auth/web-login/${ticketIn(link)}`);
    expect(poll.body).toMatchObject({ status: 'confirmed', role: 'admin', person: { name: '王管理' } });
    expect((await app.request('GET', `/api/auth/web-login/${ticketIn(link)}`)).status).toBe(409);
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
