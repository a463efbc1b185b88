/**
 * `npm run cli -- doctor`: checks a deployment before (or while) it runs, one line per check, and
 * exits 1 when any check fails (0 when all pass, warnings included). Nothing is changed: no migration is applied,
 * no embedded database folder is created.
 *
 * Checks, in order (each `✓` ok, `!` warning, `✗` failure, with a Chinese / English line), after a first line with
 * the release (package.json's `version`, see CHANGELOG.md) and the last migration it ships:
 * 1. configuration: every variable (src/config.ts); a wrong one is named and the other checks are skipped; without
 *    JWT_SECRET, where the token key comes from (auth/kept-secret.ts); the bounds of the plausibility flags (a warning
 *    when a ratio of 0 turns a check off);
 * 2. database: PostgreSQL reachable (src/startup-checks.ts), or the embedded folder's state;
 * 3. migrations: those of `migrations/` against those applied (pending: a warning, the start applies them;
 *    applied ones this version does not know, i.e. code rolled back past a migration: a failure; up to date: the
 *    last one's name);
 * 4. platform: a `stable_token` call with WX_APPID and WX_SECRET;
 * 5. time zone: APP_TIMEZONE and the factory's local time now;
 * 6. server clock: against the database's clock, and the platform's `Date` header (over 5 s: a warning, over
 *    60 s: a failure: report dates and the 30-minute window follow the server clock).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { createLogger } from '../logger.ts';
import { MIGRATIONS_DIR } from '../db/migrate.ts';
import { openDatabase } from '../db/database.ts';
import { databaseTarget, probeDatabase, probePlatform } from '../startup-checks.ts';
import { toZonedIso } from '../time.ts';
import { keptSecretPath, readKeptSecret } from '../auth/kept-secret.ts';
import { boundsText, plausibilityBounds } from '../domain/plausibility.ts';
import pg from 'pg';

export type CheckStatus = 'ok' | 'warn' | 'fail';
export interface CheckLine {
  status: CheckStatus;
  name: string;
  detail: string;
}

const MARK: Record<CheckStatus, string> = { ok: '✓', warn: '!', fail: '✗' };
/** The printed form of a check. */
export const formatCheck = (c: CheckLine) => `${MARK[c.status]} ${c.name}: ${c.detail}`;

const WARN_SKEW_S = 5;
const FAIL_SKEW_S = 60;

/** The migrations of this version: `[{id, name}]` from the files `NNN_name.sql`. */
function migrationFiles(): { id: number; name: string }[] {
  return readdirSync(MIGRATIONS_DIR)
    .map((f) => /^(\d+)[_-](.+)\.sql$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ id: Number(m[1]), name: m[2] }))
    .sort((a, b) => a.id - b.id);
}

/** The release (`version` of package.json, see CHANGELOG.md) and the last migration it ships. */
function versionCheck(): CheckLine {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const last = migrationFiles().at(-1);
  const shipped = last ? `${String(last.id).padStart(3, '0')}_${last.name}` : '无 / none';
  return { status: 'ok', name: '版本 / version', detail: `${pkg.version}（本版本最后一个迁移 ${shipped}）/ release ${pkg.version}, last migration shipped ${shipped}` };
}

/** Where the token key comes from when JWT_SECRET is not set (auth/kept-secret.ts); read only, nothing made. */
function tokenKeyCheck(config: Config): CheckLine {
  const name = '令牌密钥 / token key';
  if (config.database.kind !== 'pglite') {
    return { status: 'warn', name, detail: '未设置 JWT_SECRET：每次启动随机生成，重启后所有人需重新登录 / JWT_SECRET is not set: a key per start, a restart signs everyone out' };
  }
  const path = keptSecretPath(config.database.dataDir);
  return readKeptSecret(path)
    ? { status: 'ok', name, detail: `未设置 JWT_SECRET，使用保存在 ${path} 的密钥（仅所有者可读），重启后仍保持登录 / the key kept in ${path} is used` }
    : { status: 'ok', name, detail: `未设置 JWT_SECRET，首次启动时生成密钥并保存在 ${path}（仅所有者可读）/ the first start keeps a key in ${path}` };
}

/** Compares the applied migrations (`applied` ids; undefined: none ever) with this version's files. */
function migrationsCheck(applied: number[] | undefined): CheckLine {
  const name = '数据库结构 / migrations';
  const files = migrationFiles();
  const last = files.at(-1)?.id ?? 0;
  const done = new Set(applied ?? []);
  const unknown = (applied ?? []).filter((id) => id > 0 && !files.some((f) => f.id === id));
  if (unknown.length) {
    return {
      status: 'fail',
      name,
      detail: `数据库有本版本没有的迁移 ${unknown.join('、')}（代码回退到了旧版本？）/ the database has migrations this version does not know: ${unknown.join(', ')} (code rolled back past a migration?)`,
    };
  }
  const pending = files.filter((f) => !done.has(f.id));
  if (pending.length) {
    return {
      status: 'warn',
      name,
      detail: `有 ${pending.length} 个迁移待执行（${pending.map((f) => `${String(f.id).padStart(3, '0')}_${f.name}`).join('、')}），启动时自动执行 / ${pending.length} pending, applied at the next start`,
    };
  }
  const lastName = files.at(-1) ? `${String(last).padStart(3, '0')}_${files.at(-1)!.name}` : '无 / none';
  return { status: 'ok', name, detail: `已是最新，最后一个迁移 ${lastName} / up to date, last migration ${lastName}` };
}

/** The applied migration ids of a database, or undefined when it was never migrated. */
async function appliedMigrations(q: { query(sql: string): Promise<{ rows: { id: number }[] }> }): Promise<number[] | undefined> {
  try {
    return (await q.query('SELECT id FROM migrations ORDER BY id')).rows.map((r) => Number(r.id));
  } catch (err) {
    if ((err as { code?: string }).code === '42P01') return undefined;
    throw err;
  }
}

/** Checks 2 and 3 for PostgreSQL, and the database's clock for check 6. */
async function postgresChecks(config: Config): Promise<{ lines: CheckLine[]; dbNow?: Date }> {
  const probe = await probeDatabase(config);
  if (!probe.ok) return { lines: [{ status: 'fail', name: '数据库 / database', detail: `无法连接 / cannot connect: ${probe.detail}` }] };
  const client = new pg.Client({ connectionString: config.database.kind === 'postgres' ? config.database.connectionString : undefined });
  await client.connect();
  try {
    return { lines: [{ status: 'ok', name: '数据库 / database', detail: probe.detail }, migrationsCheck(await appliedMigrations(client))], dbNow: probe.now };
  } finally {
    await client.end();
  }
}

/** Checks 2 and 3 for the embedded database, without creating its folder or disturbing the running service. */
async function embeddedChecks(config: Config & { database: { kind: 'pglite'; dataDir: string } }): Promise<CheckLine[]> {
  const name = '数据库 / database';
  const dir = config.database.dataDir;
  const lockFile = `${dir.replace(/\/$/, '')}.lock`;
  const warn = (detail: string): CheckLine[] => [{ status: 'warn', name, detail }];
  if (!existsSync(dir)) return warn(`嵌入式数据库 ${dir} 尚未创建（首次启动时创建）/ embedded database not created yet (the first start creates it)`);
  if (existsSync(lockFile)) {
    const pid = readFileSync(lockFile, 'utf8').trim();
    return warn(`嵌入式数据库 ${dir} 正被进程 ${pid} 使用（服务在运行），未检查迁移 / in use by process ${pid} (the service runs); migrations not checked`);
  }
  const db = await openDatabase({ kind: 'pglite', dataDir: dir });
  try {
    return [
      { status: 'warn', name, detail: `嵌入式数据库 ${dir}：只适合单台、小规模使用，生产请用 PostgreSQL / embedded database: for one small installation; use PostgreSQL in production` },
      migrationsCheck(await appliedMigrations(db.pool)),
    ];
  } finally {
    await db.close();
  }
}

/** Check 6 (module docstring): the difference between this server's clock and `reference`, in seconds. */
function clockCheck(what: string, reference: Date, localAtReference: number): CheckLine {
  const skew = (localAtReference - reference.getTime()) / 1000;
  const status: CheckStatus = Math.abs(skew) > FAIL_SKEW_S ? 'fail' : Math.abs(skew) > WARN_SKEW_S ? 'warn' : 'ok';
  const sign = skew >= 0 ? '快' : '慢';
  return {
    status,
    name: '服务器时钟 / server clock',
    detail: `比${what}${sign} ${Math.abs(skew).toFixed(1)} 秒 / ${Math.abs(skew).toFixed(1)} s ${skew >= 0 ? 'ahead of' : 'behind'} the ${what === '数据库' ? 'database' : 'platform'}${status === 'ok' ? '' : '：请开启 NTP 时间同步 / enable NTP time sync'}`,
  };
}

/** The `Date` header of the platform's API origin, or undefined when it cannot be read. */
async function platformDate(apiBase: string): Promise<{ date: Date; localMs: number } | undefined> {
  try {
    const started = Date.now();
    const res = await fetch(apiBase, { method: 'HEAD', signal: AbortSignal.timeout(5000) });
    const header = res.headers.get('date');
    const localMs = (started + Date.now()) / 2;
    return header ? { date: new Date(header), localMs } : undefined;
  } catch {
    return undefined;
  }
}

/** Runs every check on `env` (module docstring), printing each line with `print`; resolves with the exit code. */
export async function runDoctor(env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<number> {
  const lines: CheckLine[] = [];
  const say = (c: CheckLine) => {
    lines.push(c);
    print(formatCheck(c));
  };
  say(versionCheck());
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const p of err.problems) say({ status: 'fail', name: `配置 / configuration ${p.variable}`, detail: `${p.zh} / ${p.en}` });
    print('配置有误，其余检查未执行 / the configuration is wrong; the other checks were skipped');
    return 1;
  }
  say({
    status: config.production ? 'ok' : 'warn',
    name: '配置 / configuration',
    detail: config.production
      ? `NODE_ENV=production，端口 ${config.port}，${databaseTarget(config)} / all variables valid`
      : `各变量有效，但 NODE_ENV 不是 production（开发模式：可用模拟器、随机密钥）/ all variables valid, but NODE_ENV is not production (development mode)`,
  });

  if (config.jwtSecretGenerated) say(tokenKeyCheck(config));

  const bounds = plausibilityBounds(config);
  say({
    status: bounds.minCycleRatio > 0 && bounds.maxWorkloadRatio > 0 ? 'ok' : 'warn',
    name: '异常报工 / plausibility flags',
    detail:
      `${boundsText(bounds)}（PLAUSIBLE_MIN_CYCLE_RATIO=${config.plausibleMinCycleRatio}，PLAUSIBLE_MAX_WORKLOAD_RATIO=${config.plausibleMaxWorkloadRatio}，` +
      `SESSION_MAX_HOURS 减 1 小时）/ bounds of the plausibility flags${bounds.minCycleRatio > 0 && bounds.maxWorkloadRatio > 0 ? '' : ' (a ratio of 0 turns its check off)'}`,
  });

  let dbNow: Date | undefined;
  if (config.database.kind === 'postgres') {
    const localBefore = Date.now();
    const r = await postgresChecks(config);
    r.lines.forEach(say);
    if (r.dbNow) dbNow = new Date(r.dbNow.getTime() + (Date.now() - localBefore) / 2);
  } else {
    (await embeddedChecks(config as Config & { database: { kind: 'pglite'; dataDir: string } })).forEach(say);
  }

  const platform = await probePlatform(config, createLogger('silent'));
  say({
    status: platform.ok ? (config.platform ? 'ok' : config.production ? 'fail' : 'warn') : 'fail',
    name: '微信平台 / platform',
    detail: platform.detail,
  });

  const now = new Date();
  say({
    status: 'ok',
    name: '时区 / time zone',
    detail: `APP_TIMEZONE=${config.timeZone}，工厂时间 ${toZonedIso(now, config.timeZone)}（系统时区 ${Intl.DateTimeFormat().resolvedOptions().timeZone}，不影响计算）/ factory time`,
  });

  if (dbNow) say(clockCheck('数据库', dbNow, Date.now()));
  if (config.platform) {
    const d = await platformDate(config.platform.apiBase);
    if (d) say(clockCheck('微信平台', d.date, d.localMs));
  }
  if (!dbNow && !config.platform) say({ status: 'warn', name: '服务器时钟 / server clock', detail: '没有可比较的时钟（嵌入式数据库、模拟器）/ nothing to compare with' });

  const failed = lines.filter((l) => l.status === 'fail').length;
  print(failed ? `✗ ${failed} 项检查未通过 / ${failed} check(s) failed` : '✓ 检查通过 / all checks passed');
  return failed ? 1 : 0;
}
