/**
 * The systemd unit runs the command of `npm start`, and the service
 * started the way the unit starts it (its ExecStart in its WorkingDirectory, with the settings of
 * deploy/.env.example as its EnvironmentFile, production mode) answers its health check and stops cleanly on the
 * unit's KillSignal within TimeoutStopSec. .env.example names every variable the service reads; the nginx site's
 * body limits are the service's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.ts';
import { JSON_BODY_LIMIT } from '../../src/http/pipeline.ts';
import { MAX_UPLOAD_BYTES } from '../../src/imports/limits.ts';
import { PlatformSimulator } from '../../src/platform/simulator.ts';
import { createPgDatabase, onPostgres } from '../helpers/db.ts';
import { freePort } from '../helpers/net.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** `Key=Value` lines of a systemd unit's [Service] section. */
function unitSettings(text: string): Map<string, string> {
  const section = text.split(/^\[Service\]$/m)[1].split(/^\[/m)[0];
  return new Map(
    section
      .split('\n')
      .filter((l) => /^[A-Za-z]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as [string, string]),
  );
}

/** The variables of an EnvironmentFile (`KEY=value` lines, `#` comments), as systemd reads them. */
function environmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2];
  }
  return env;
}

const unit = unitSettings(read('deploy/shift-reporting.service'));
const example = environmentFile(read('deploy/.env.example'));

describe('the systemd unit', () => {
  it('runs the command of npm start', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start.split(/\s+/);
    const exec = unit.get('ExecStart')!.split(/\s+/);
    expect(exec[0]).toMatch(/\/node$/);
    expect(exec.slice(1)).toEqual(start.slice(1));
    expect(start[0]).toBe('node');
    expect(unit.get('KillSignal')).toBe('SIGTERM');
  });

  let simulator: PlatformSimulator;
  let apiBase = '';
  const cleanups: (() => Promise<void> | void)[] = [];
  beforeAll(async () => {
    simulator = new PlatformSimulator({ clock: systemClock, appId: 'wxdeploy00000001', secret: 'deploy-secret' });
    apiBase = await simulator.start();
  });
  afterAll(async () => {
    for (const c of cleanups) await c();
    await simulator.close();
  });

  it('starts the service as the unit does: healthy, then stopped by its KillSignal within TimeoutStopSec', async () => {
    const port = await freePort();
    let database: Record<string, string>;
    if (onPostgres) {
      const db = await createPgDatabase();
      cleanups.push(db.drop);
      database = { DATABASE_URL: db.url };
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'deploy-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      database = { DATABASE_URL: '', PGLITE_DIR: join(dir, 'pglite') };
    }
    // The EnvironmentFile as shipped, with what a site fills in: its secrets, its database, its port.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      ...example,
      ...database,
      PORT: String(port),
      JWT_SECRET: 'f'.repeat(64),
      WX_APPID: simulator.appId,
      WX_SECRET: simulator.secret,
      WX_API_BASE: apiBase,
    };
    const [node, ...args] = unit.get('ExecStart')!.split(/\s+/);
    expect(node).toMatch(/node$/);
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    let health: { status: number; body: any } | undefined;
    for (let i = 0; i < 600 && child.exitCode === null && !health; i++) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/api/health`);
        health = { status: r.status, body: await r.json() };
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(health, output).toEqual({ status: 200, body: { status: 'ok', database: { kind: onPostgres ? 'postgres' : 'pglite', ok: true } } });
    // The production start checked the platform credentials (right here: no error logged).
    await new Promise((r) => setTimeout(r, 500));
    expect(output).not.toContain('platform credential check failed');

    const stopping = Date.now();
    child.kill(unit.get('KillSignal') as NodeJS.Signals);
    expect(await exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(Number(unit.get('TimeoutStopSec')) * 1000);
  });
});

describe('deploy/.env.example', () => {
  it('names every variable the service reads', () => {
    const source = read('src/config.ts');
    const read_ = new Set([...source.matchAll(/r\.(?:text|number|url|bad)\('([A-Z_]+)'/g)].map((m) => m[1]));
    for (const v of ['NODE_ENV', 'PGHOST', 'PGPORT', 'PGUSER', 'PGPASSWORD', 'PGDATABASE', 'WX_TEMPLATE_REVIEW_RESULT', 'WX_TEMPLATE_NEW_REPORT']) read_.add(v);
    expect(read_.size).toBeGreaterThan(20);
    expect([...read_].filter((v) => !(v in example)).sort()).toEqual([]);
  });
});

describe('the nginx site', () => {
  const site = read('deploy/nginx/shift-reporting.conf');
  it("limits bodies as the service does and passes the client's address", () => {
    const limits = [...site.matchAll(/client_max_body_size (\d+)k;/g)].map((m) => Number(m[1]) * 1024);
    expect(limits).toEqual([JSON_BODY_LIMIT, MAX_UPLOAD_BYTES + 64 * 1024]);
    expect(site).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
    expect(site).toMatch(/listen 443 ssl/);
  });
});
