/**
 * `npm run cli -- doctor` passes on a good configuration and names each bad one: configuration, database
 * (reachable, migrations current), platform credentials (`stable_token` against the simulator, which checks them
 * as the platform does), time zone and server clock; exit code 1 on a failure. Checked in-process (`runDoctor`) and
 * once through the command line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/cli/doctor.ts';
import { withKeptJwtSecret } from '../../src/auth/kept-secret.ts';
import { loadConfig } from '../../src/config.ts';
import { systemClock } from '../../src/clock.ts';
import { openDatabase } from '../../src/db/database.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { PlatformSimulator } from '../../src/platform/simulator.ts';
import { createPgDatabase, onPostgres } from '../helpers/db.ts';

let simulator: PlatformSimulator;
let apiBase = '';
const dirs: string[] = [];
beforeAll(async () => {
  simulator = new PlatformSimulator({ clock: systemClock, appId: 'wxdoctor0000001', secret: 'the-right-secret' });
  apiBase = await simulator.start();
});
afterAll(async () => {
  await simulator.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function doctor(env: Record<string, string>): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runDoctor({ LOG_LEVEL: 'silent', ...env }, (l) => lines.push(l));
  return { code, lines };
}

/** A production configuration whose platform is the simulator (right credentials) and whose database is `db`. */
const production = (db: Record<string, string>) => ({
  NODE_ENV: 'production',
  JWT_SECRET: 'a'.repeat(64),
  WX_APPID: 'wxdoctor0000001',
  WX_SECRET: 'the-right-secret',
  WX_API_BASE: apiBase,
  ...db,
});

/** A migrated database: PostgreSQL when the suite runs on it, else an embedded folder. */
async function migratedDatabase(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  if (onPostgres) {
    const { url, drop } = await createPgDatabase();
    const db = await openDatabase({ kind: 'postgres', connectionString: url });
    await runMigrations(db.pool);
    await db.close();
    return { env: { DATABASE_URL: url }, drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'doctor-'));
  dirs.push(dir);
  const dataDir = join(dir, 'pglite');
  const db = await openDatabase({ kind: 'pglite', dataDir });
  await runMigrations(db.pool);
  await db.close();
  return { env: { PGLITE_DIR: dataDir }, drop: async () => {} };
}

describe('npm run cli -- doctor', () => {
  it('passes on a good production configuration, every check named', async () => {
    const db = await migratedDatabase();
    try {
      const r = await doctor(production(db.env));
      expect(r.code, r.lines.join('\n')).toBe(0);
      for (const name of ['配置 / configuration', '数据库 / database', '数据库结构 / migrations', '微信平台 / platform', '时区 / time zone', '服务器时钟 / server clock']) {
        expect(r.lines.some((l) => l.includes(name)), name).toBe(true);
      }
      expect(r.lines.filter((l) => l.startsWith('✗'))).toEqual([]);
      expect(r.lines.find((l) => l.includes('微信平台'))).toMatch(/^✓ .*stable_token/);
      expect(r.lines.find((l) => l.includes('数据库结构'))).toMatch(/^✓ /);
      // The release and the last migration: what CHANGELOG.md's newest entry is about.
      const release = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
      const lastMigration = readdirSync(new URL('../../migrations/', import.meta.url)).filter((f) => f.endsWith('.sql')).sort().at(-1)!.replace(/\.sql$/, '');
      expect(r.lines[0]).toBe(`✓ 版本 / version: ${release}（本版本最后一个迁移 ${lastMigration}）/ release ${release}, last migration shipped ${lastMigration}`);
      expect(r.lines.find((l) => l.includes('数据库结构'))).toContain(`最后一个迁移 ${lastMigration}`);
      expect(readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8')).toContain(`## [${release}]`);
      expect(r.lines.find((l) => l.includes('异常报工'))).toContain(
        '✓ 异常报工 / plausibility flags: 有效工作时间为 0 却有产出、实际节拍不到标准节拍的 50%、产出超过这段时间标准工作量的 2 倍、上班到下班超过 15 小时的报工单标为异常',
      );
      expect(r.lines.at(-1)).toBe('✓ 检查通过 / all checks passed');
    } finally {
      await db.drop();
    }
  });

  it('without JWT_SECRET on the embedded database, says where the kept token key is (made by the first start, not by doctor)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doctor-key-'));
    dirs.push(dir);
    const dataDir = join(dir, 'pglite');
    const before = await doctor({ PGLITE_DIR: dataDir, WX_API_BASE: apiBase });
    expect(before.lines).toContain(`✓ 令牌密钥 / token key: 未设置 JWT_SECRET，首次启动时生成密钥并保存在 ${dataDir}.jwt-secret（仅所有者可读）/ the first start keeps a key in ${dataDir}.jwt-secret`);
    expect(existsSync(`${dataDir}.jwt-secret`)).toBe(false);
    withKeptJwtSecret(loadConfig({ PGLITE_DIR: dataDir }));
    const after = await doctor({ PGLITE_DIR: dataDir, WX_API_BASE: apiBase });
    expect(after.lines.find((l) => l.includes('令牌密钥'))).toBe(`✓ 令牌密钥 / token key: 未设置 JWT_SECRET，使用保存在 ${dataDir}.jwt-secret 的密钥（仅所有者可读），重启后仍保持登录 / the key kept in ${dataDir}.jwt-secret is used`);
  });

  it('names each wrong variable and skips the other checks', async () => {
    const r = await doctor({ TOKEN_TTL: 'forever', PORT: '99999', LOG_LEVEL: 'verbose' });
    expect(r.code).toBe(1);
    const failed = r.lines.filter((l) => l.startsWith('✗'));
    expect(failed).toHaveLength(3);
    for (const v of ['TOKEN_TTL', 'PORT', 'LOG_LEVEL']) expect(failed.some((l) => l.includes(v)), v).toBe(true);
  });

  it('names a wrong plausibility bound; a bound of 0 is a warning that its check is off', async () => {
    const wrong = await doctor({ PLAUSIBLE_MIN_CYCLE_RATIO: '2' });
    expect(wrong.code).toBe(1);
    expect(wrong.lines.filter((l) => l.startsWith('✗'))).toEqual([expect.stringContaining('PLAUSIBLE_MIN_CYCLE_RATIO')]);
    const off = await doctor({ PLAUSIBLE_MAX_WORKLOAD_RATIO: '0' });
    expect(off.lines.find((l) => l.includes('异常报工'))).toMatch(/^! .*实际节拍不到标准节拍的 50%、上班到下班超过 15 小时.*a ratio of 0 turns its check off/);
  });

  it('fails on a wrong WX_SECRET, naming it (every login would answer 502 otherwise)', async () => {
    const db = await migratedDatabase();
    try {
      const r = await doctor(production({ ...db.env, WX_SECRET: 'a-wrong-secret' }));
      expect(r.code).toBe(1);
      expect(r.lines.find((l) => l.startsWith('✗'))).toMatch(/微信平台 \/ platform: WX_SECRET 不正确.*40125/);
    } finally {
      await db.drop();
    }
  });

  it('fails on an unreachable database', async () => {
    const r = await doctor(production({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }));
    expect(r.code).toBe(1);
    expect(r.lines.find((l) => l.startsWith('✗'))).toMatch(/数据库 \/ database: 无法连接 .*127\.0\.0\.1:1\/none/);
  });

  // Migration states of a PostgreSQL database made for the test.
  it.runIf(onPostgres)('warns of pending migrations and fails on migrations this version does not know', async () => {
    const { url, drop } = await createPgDatabase();
    try {
      const pending = await doctor(production({ DATABASE_URL: url }));
      expect(pending.code).toBe(0);
      expect(pending.lines.find((l) => l.includes('数据库结构'))).toMatch(/^! .*待执行/);
      const db = await openDatabase({ kind: 'postgres', connectionString: url });
      await runMigrations(db.pool);
      await db.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`INSERT INTO migrations (id, name, hash) VALUES (999, 'from_a_newer_version', 'x')`);
      await client.end();
      const ahead = await doctor(production({ DATABASE_URL: url }));
      expect(ahead.code).toBe(1);
      expect(ahead.lines.find((l) => l.includes('数据库结构'))).toMatch(/^✗ .*999/);
    } finally {
      await drop();
    }
  });

  it('exits 1 from the command line on a failure', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, TOKEN_TTL: 'forever', LOG_LEVEL: 'silent' };
    for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'PGHOST']) delete env[k];
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'doctor'], { env, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('✗ 配置 / configuration TOKEN_TTL');
  });
});
