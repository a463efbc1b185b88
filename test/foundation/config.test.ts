/**
 * The configuration is checked at start, every wrong variable named with a
 * Chinese and an English line and no stack trace; an unreachable database is waited for with backoff (a database
 * that comes up a little later is normal under a process manager), and a start that cannot go on says why in one
 * line.
 */
import { spawn } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, MIN_SECRET_BYTES, loadConfig } from '../../src/config.ts';
import { createPgDatabase, onPostgres } from '../helpers/db.ts';
import { freePort } from '../helpers/net.ts';
import { systemClock } from '../../src/clock.ts';
import { PlatformSimulator } from '../../src/platform/simulator.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** The problems loadConfig finds in `env`, as `VARIABLE` → its line. */
function problems(env: Record<string, string>): Map<string, string> {
  try {
    loadConfig(env);
    return new Map();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return new Map((err as ConfigError).problems.map((p) => [p.variable.split('=')[0], `${p.zh} / ${p.en}`]));
  }
}

describe('the configuration check', () => {
  it('names every wrong variable at once, each with a Chinese and an English line', () => {
    const found = problems({
      TOKEN_TTL: 'forever',
      LOG_LEVEL: 'verbose',
      PORT: '99999',
      DATABASE_URL: 'mysql://root:hunter2@db/x',
      APP_TIMEZONE: 'Mars/Base',
      REPORT_WINDOW_MINUTES: '0',
      DEFAULT_BREAK_MINUTES: '1.5',
      WX_ENV_VERSION: 'beta',
      WX_API_BASE: 'ftp://x',
      PUBLIC_BASE_URL: 'factory.example',
      WX_TEMPLATE_REVIEW_RESUTL: 'tpl',
      TRUST_PROXY: 'everyone',
      DATABASE_WAIT_SECONDS: '-1',
    });
    expect([...found.keys()].sort()).toEqual(
      [
        'TOKEN_TTL',
        'LOG_LEVEL',
        'PORT',
        'DATABASE_URL',
        'APP_TIMEZONE',
        'REPORT_WINDOW_MINUTES',
        'DEFAULT_BREAK_MINUTES',
        'WX_ENV_VERSION',
        'WX_API_BASE',
        'PUBLIC_BASE_URL',
        'WX_TEMPLATE_REVIEW_RESUTL',
        'TRUST_PROXY',
        'DATABASE_WAIT_SECONDS',
      ].sort(),
    );
    for (const [name, line] of found) {
      const [zh, en] = [line.slice(0, line.indexOf(' / ')), line.slice(line.indexOf(' / ') + 3)];
      expect(zh, name).toMatch(/[\u4e00-\u9fff]/);
      expect(en, name).toMatch(/^[a-zA-Z0-9 ,.;:'()=+_\-/@<>|…–]+$/);
    }
  });

  it('never repeats a secret or a database password', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'short-secret', WX_APPID: 'wx1', DATABASE_URL: 'mysql://root:hunter2@db/x' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('JWT_SECRET');
    expect(message).toContain('WX_SECRET');
    expect(message).not.toContain('short-secret');
    expect(message).not.toContain('hunter2');
  });

  it(`requires a JWT_SECRET of at least ${MIN_SECRET_BYTES} bytes in production, and a token lifetime with a unit`, () => {
    const prod = { NODE_ENV: 'production', WX_APPID: 'wx1', WX_SECRET: 's' };
    expect(problems({ ...prod, JWT_SECRET: 'x' }).get('JWT_SECRET')).toContain(String(MIN_SECRET_BYTES));
    expect(problems({ ...prod, JWT_SECRET: 'x'.repeat(MIN_SECRET_BYTES) }).size).toBe(0);
    expect(problems({ JWT_SECRET: 'x' }).size).toBe(0); // development: any key
    for (const ttl of ['forever', '3600', '-1d', '0s', '30s']) expect(problems({ TOKEN_TTL: ttl }).has('TOKEN_TTL'), ttl).toBe(true);
    for (const ttl of ['7d', '12h', '90m', '2 days']) expect(problems({ TOKEN_TTL: ttl }).size, ttl).toBe(0);
  });

  it('reads the bounds of the plausibility flags: defaults 0.5 and 2; a ratio of 0 turns a check off', () => {
    expect(loadConfig({})).toMatchObject({ plausibleMinCycleRatio: 0.5, plausibleMaxWorkloadRatio: 2 });
    expect(loadConfig({ PLAUSIBLE_MIN_CYCLE_RATIO: '0.667', PLAUSIBLE_MAX_WORKLOAD_RATIO: '1.5' })).toMatchObject({
      plausibleMinCycleRatio: 0.667,
      plausibleMaxWorkloadRatio: 1.5,
    });
    expect(loadConfig({ PLAUSIBLE_MIN_CYCLE_RATIO: '0', PLAUSIBLE_MAX_WORKLOAD_RATIO: '0' })).toMatchObject({ plausibleMinCycleRatio: 0, plausibleMaxWorkloadRatio: 0 });
    for (const v of ['1.5', '-0.1', '0.1234', 'half', '50%']) expect(problems({ PLAUSIBLE_MIN_CYCLE_RATIO: v }).has('PLAUSIBLE_MIN_CYCLE_RATIO'), v).toBe(true);
    for (const v of ['0.5', '1001', '2.0001', 'twice']) expect(problems({ PLAUSIBLE_MAX_WORKLOAD_RATIO: v }).has('PLAUSIBLE_MAX_WORKLOAD_RATIO'), v).toBe(true);
    expect(problems({ PLAUSIBLE_MAX_WORKLOAD_RATIO: '0.5' }).get('PLAUSIBLE_MAX_WORKLOAD_RATIO')).toContain('不能小于 1');
  });

  it('reads READ_MODEL_WAIT_SECONDS: how long a read waits for the wages and the dashboard to catch up, default 2 s', () => {
    expect(loadConfig({}).readModelWaitMs).toBe(2000);
    expect(loadConfig({ READ_MODEL_WAIT_SECONDS: '0.25' }).readModelWaitMs).toBe(250);
    expect(loadConfig({ READ_MODEL_WAIT_SECONDS: '60' }).readModelWaitMs).toBe(60_000);
    for (const v of ['0', '-1', '61', '0.0001', 'soon', '2s']) expect(problems({ READ_MODEL_WAIT_SECONDS: v }).has('READ_MODEL_WAIT_SECONDS'), v).toBe(true);
  });

  it('reads TRUST_PROXY, DATABASE_WAIT_SECONDS and the log level', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5' }).trustProxy).toBe('10.0.0.0/8,192.168.1.5');
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ DATABASE_WAIT_SECONDS: '5' }).databaseWaitSeconds).toBe(5);
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
  });
});

/** Runs `src/main.ts` with `env` until it exits (or `untilReady`: until it says it is ready); its stderr and code. */
function start(
  env: Record<string, string>,
  untilReady = false,
  onStdout: (text: string) => void = () => {},
): Promise<{ code: number | null; stderr: string; stdout: string; ready: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      env: { ...process.env, VITEST: '', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let stderr = '';
    let stdout = '';
    let ready = false;
    child.stderr!.on('data', (d) => (stderr += d));
    child.stdout!.on('data', (d) => {
      stdout += d;
      onStdout(stdout);
    });
    child.on('message', (m: { type?: string }) => {
      if (m.type !== 'ready') return;
      ready = true;
      if (untilReady) child.kill('SIGTERM');
    });
    child.once('exit', (code) => resolve({ code, stderr, stdout, ready }));
  });
}

describe('the start', () => {
  it('stops on a wrong configuration with one line per variable and no stack trace', async () => {
    const r = await start({ TOKEN_TTL: 'forever', LOG_LEVEL: 'verbose', PORT: '99999' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('配置错误 / configuration error');
    for (const v of ['TOKEN_TTL="forever"', 'LOG_LEVEL="verbose"', 'PORT="99999"']) expect(r.stderr).toContain(v);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('waits for an unreachable database with backoff, then stops with one clear line', async () => {
    const port = await freePort();
    const r = await start({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/x`, DATABASE_WAIT_SECONDS: '4', LOG_LEVEL: 'warn' });
    expect(r.code).toBe(1);
    const retries = r.stdout.split('\n').filter((l) => l.includes('retrying in'));
    expect(retries.map((l) => JSON.parse(l).retryInSeconds)).toEqual([1, 2]);
    expect(r.stderr.trim()).toMatch(/^数据库无法连接，已等待 \d+ 秒 \/ cannot reach the database after \d+ s: 127\.0\.0\.1:\d+\/x：ECONNREFUSED/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('in production, logs a clear error when the platform refuses the credentials (every login would fail)', async () => {
    const simulator = new PlatformSimulator({ clock: systemClock });
    const apiBase = await simulator.start();
    try {
      const port = await freePort();
      const r = await start({
        NODE_ENV: 'production',
        JWT_SECRET: 'k'.repeat(32),
        WX_APPID: simulator.appId,
        WX_SECRET: 'not-the-secret',
        WX_API_BASE: apiBase,
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/x`,
        DATABASE_WAIT_SECONDS: '2',
        LOG_LEVEL: 'warn',
      });
      const line = r.stdout.split('\n').find((l) => l.includes('platform credential check failed'));
      expect(line, r.stdout).toBeTruthy();
      expect(JSON.parse(line!).msg).toMatch(/^微信平台凭证检查失败.*WX_SECRET 不正确/);
    } finally {
      await simulator.close();
    }
  });

  // A real PostgreSQL behind a port that opens only after the service started: needs the server of TEST_DATABASE_URL.
  it.runIf(onPostgres)('starts once a database that comes up a little later answers', async () => {
    const db = await createPgDatabase();
    const port = await freePort();
    const target = new URL(db.url);
    const sockets = new Set<Socket>();
    let proxy: Server | undefined;
    // The port opens once the service has said that it waits for the database.
    const open = (stdout: string) => {
      if (proxy || !stdout.includes('retrying in')) return;
      proxy = createServer((socket) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [socket, upstream]) {
          sockets.add(s);
          s.on('error', () => {});
          s.on('close', () => sockets.delete(s));
        }
        socket.pipe(upstream).pipe(socket);
      }).listen(port, '127.0.0.1');
    };
    try {
      const url = new URL(db.url);
      url.host = `127.0.0.1:${port}`;
      const r = await start({ DATABASE_URL: url.toString(), DATABASE_WAIT_SECONDS: '30', LOG_LEVEL: 'warn' }, true, open);
      expect(r.ready, r.stderr).toBe(true);
      expect(r.stdout).toContain('retrying in 1 s');
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
      await db.drop();
    }
  });
});
