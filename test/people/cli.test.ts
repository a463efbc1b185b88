/**
 * The command line (decisions.md "Command line"): `people:add`, `products:import [--confirm]`, and the
 * refusal to open the embedded database while another process holds its folder. The CLI runs as a separate
 * process (`npx tsx src/cli.ts …`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPgDatabase, onPostgres } from '../helpers/db.ts';
import { EXPECTED, FIXTURES } from '../products/support.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string>): Promise<Run> {
  const base = { ...process.env };
  for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'PGHOST', 'PGLITE_DIR']) delete base[k];
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'src/cli.ts', ...args], { env: { ...base, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('command line', () => {
  it('with the embedded database, refuses clearly while another live process holds the data folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cli-lock-'));
    const dir = join(root, 'pglite');
    // This test process is alive: its pid in the lock file stands for a running server.
    writeFileSync(`${dir}.lock`, String(process.pid));
    try {
      const r = await cli(['people:add', '13800138000', '张三', 'admin'], { PGLITE_DIR: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('正被进程');
      expect(r.stderr).toContain(String(process.pid));
      expect(r.stdout).not.toContain('已添加');
      expect(existsSync(dir)).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  // PostgreSQL only: the test and the CLI process must share one database, which the in-process PGlite of the
  // test harness cannot offer (its folder lock is exactly what the test above checks).
  it.runIf(onPostgres)('people:add adds the first administrator; products:import previews, then writes with --confirm', async () => {
    const { url, drop } = await createPgDatabase();
    const db = new pg.Client({ connectionString: url });
    try {
      const add = await cli(['people:add', '138-0013-8000', '张三', '管理员'], { DATABASE_URL: url });
      expect(add.code, add.stderr).toBe(0);
      expect(add.stdout).toContain('已添加：13800138000 张三');

      const bad = await cli(['people:add', '13800138000', '张三', '门卫'], { DATABASE_URL: url });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('PERSON_INVALID');

      const file = `${FIXTURES}/products-merged.xlsx`;
      const exp = EXPECTED['products-merged.xlsx'];
      const dry = await cli(['products:import', file], { DATABASE_URL: url });
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toContain(`新增 ${exp.valid}，更新 0，不变 0，错误 ${exp.errors.length}`);
      expect(dry.stdout).toContain('第 24 行  [text_cycle]');
      expect(dry.stdout).toContain('未写入');

      await db.connect();
      expect((await db.query('SELECT count(*)::int AS n FROM products')).rows[0].n).toBe(0);

      const wet = await cli(['products:import', file, '--confirm'], { DATABASE_URL: url });
      expect(wet.code, wet.stderr).toBe(0);
      expect(wet.stdout).toContain(`已写入：新增 ${exp.valid}`);
      expect((await db.query('SELECT count(*)::int AS n FROM products')).rows[0].n).toBe(exp.valid);
      expect((await db.query(`SELECT name, role FROM personnel WHERE phone = '13800138000'`)).rows).toEqual([{ name: '张三', role: 'admin' }]);

      const notSheet = await cli(['products:import', `${FIXTURES}/EXPECTED.json`], { DATABASE_URL: url });
      expect(notSheet.code).toBe(1);
      expect(notSheet.stderr).toContain('NOT_A_SPREADSHEET');
    } finally {
      await db.end().catch(() => {});
      await drop();
    }
  });
});
