/**
 * Checks of what the service depends on, for the start (src/main.ts) and `npm run cli -- doctor`:
 *
 * - `probeDatabase(config)`: one connection to PostgreSQL and `SELECT now()`; the answer says whether a failure
 *   may pass by itself (server down or starting, name not resolvable yet) or needs a person (password, database
 *   name, pg_hba.conf).
 * - `waitForDatabase(config, log)`: probes until PostgreSQL answers, retrying passing failures with backoff (1, 2,
 *   4, 8, 15, 15 … s) for up to DATABASE_WAIT_SECONDS, each retry logged in one Chinese + English line: a database
 *   that comes up a little after the service is normal under a process manager. Throws StartupError otherwise.
 * - `probePlatform(config)`: one `stable_token` call with WX_APPID and WX_SECRET; a wrong secret would otherwise
 *   only show as every worker's login failing with 502.
 * Nothing here applies migrations or changes data.
 */
import pg from 'pg';
import { systemClock } from './clock.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import { WxPlatformClient } from './platform/client.ts';
import { PlatformError } from './platform/types.ts';

/** A start that cannot go on; the message is the Chinese + English line to print. */
export class StartupError extends Error {}

export type Probe = { ok: true; detail: string } | { ok: false; retryable: boolean; detail: string };

/** Connection failures that pass by themselves: the server is down, starting, or its name is not resolvable yet. */
const PASSING = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', '57P03']);

/** Why PostgreSQL refused, for a person (SQLSTATE of the login). */
const REFUSALS: Record<string, string> = {
  '28P01': '密码错误 / password authentication failed',
  '28000': '不允许这个用户从这台机器登录（pg_hba.conf）/ no pg_hba.conf entry for this user and host',
  '3D000': '数据库不存在，请先创建 / the database does not exist: create it first',
};

/** Where the service connects, without the password: `host:port/database`. */
export function databaseTarget(config: Config): string {
  if (config.database.kind === 'pglite') return `嵌入式数据库 / embedded database ${config.database.dataDir}`;
  const url = config.database.connectionString;
  if (url) {
    const u = new URL(url);
    return `${u.hostname || process.env.PGHOST || 'localhost'}:${u.port || '5432'}${u.pathname || ''}`;
  }
  return `${process.env.PGHOST ?? 'localhost'}:${process.env.PGPORT ?? '5432'}/${process.env.PGDATABASE ?? process.env.PGUSER ?? ''}`;
}

/** One connection to the configured PostgreSQL (module docstring); the embedded database is always ok here. */
export async function probeDatabase(config: Config, timeoutMs = 5000): Promise<Probe & { now?: Date }> {
  if (config.database.kind === 'pglite') return { ok: true, detail: databaseTarget(config) };
  const client = new pg.Client({ connectionString: config.database.connectionString, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {}); // a connection lost after the answer: nothing to do
  try {
    await client.connect();
    const r = await client.query('SELECT now() AS now, current_setting($1) AS version', ['server_version']);
    return { ok: true, detail: `${databaseTarget(config)}（PostgreSQL ${r.rows[0].version}）`, now: r.rows[0].now };
  } catch (err) {
    const e = err as { code?: string; message?: string };
    const code = e.code ?? '';
    const refusal = REFUSALS[code];
    if (refusal) return { ok: false, retryable: false, detail: `${databaseTarget(config)}：${refusal}` };
    const passing = PASSING.has(code) || /timeout|terminated/i.test(e.message ?? '');
    return { ok: false, retryable: passing, detail: `${databaseTarget(config)}：${code || e.message}` };
  } finally {
    await client.end().catch(() => {});
  }
}

const BACKOFF_SECONDS = [1, 2, 4, 8, 15];

/**
 * Resolves once the configured database answers (module docstring). Throws StartupError when it refuses for a
 * reason a person must fix, or when it is still unreachable after `config.databaseWaitSeconds`.
 */
export async function waitForDatabase(config: Config, log: Logger, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<void> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    const p = await probeDatabase(config);
    if (p.ok) return;
    const waited = (Date.now() - started) / 1000;
    const delay = BACKOFF_SECONDS[Math.min(attempt - 1, BACKOFF_SECONDS.length - 1)];
    if (!p.retryable) throw new StartupError(`数据库拒绝连接 / the database refused the connection: ${p.detail}`);
    if (waited + delay > config.databaseWaitSeconds) {
      throw new StartupError(
        `数据库无法连接，已等待 ${Math.round(waited)} 秒 / cannot reach the database after ${Math.round(waited)} s: ${p.detail}（DATABASE_WAIT_SECONDS=${config.databaseWaitSeconds}）`,
      );
    }
    log.warn({ attempt, retryInSeconds: delay, database: databaseTarget(config) }, `数据库暂时无法连接，${delay} 秒后重试 / database not reachable yet (${p.detail}); retrying in ${delay} s`);
    await sleep(delay * 1000);
  }
}

/** What a person does about a platform errcode of `stable_token`. */
const PLATFORM_HINTS: Record<number, string> = {
  40013: 'WX_APPID 不是有效的小程序 AppID / WX_APPID is not a valid AppID',
  40125: 'WX_SECRET 不正确（小程序后台“开发管理 → 开发设置”可重置）/ WX_SECRET is wrong (reset it in the mini-program console)',
  40164: '服务器的出口 IP 不在小程序后台的 IP 白名单中 / the server\'s outgoing IP is not on the mini-program\'s IP whitelist',
  41004: '缺少 WX_SECRET / WX_SECRET is missing',
};

/** One `stable_token` call with the configured credentials (module docstring); skipped (ok) for the simulator. */
export async function probePlatform(config: Config, log: Logger): Promise<Probe> {
  if (!config.platform) return { ok: true, detail: '未设置 WX_APPID：使用内置模拟器（仅开发）/ WX_APPID unset: the built-in simulator (development only)' };
  const client = new WxPlatformClient({ ...config.platform, clock: systemClock, log: log.child({ component: 'platform' }), timeZone: config.timeZone, retryDelaysMs: [], timeoutMs: 5000 });
  try {
    await client.accessToken();
    return { ok: true, detail: `AppID ${config.platform.appId}：stable_token 正常 / stable_token works (${config.platform.apiBase})` };
  } catch (err) {
    if (err instanceof PlatformError) {
      const hint = PLATFORM_HINTS[err.errcode] ?? (err.errcode === -1 ? `无法连接 ${config.platform.apiBase} / cannot reach ${config.platform.apiBase}` : `errcode ${err.errcode}`);
      return { ok: false, retryable: err.errcode === -1, detail: `${hint}（${err.errcode} ${err.errmsg}）` };
    }
    return { ok: false, retryable: false, detail: String((err as Error).message ?? err) };
  } finally {
    await client.close();
  }
}
