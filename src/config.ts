/**
 * Configuration from environment variables (decisions.md "Runtime and configuration"; checked at
 * start, every variable named with a Chinese and an English line).
 *
 * Every setting of the service is read here and nowhere else. `loadConfig(env)` is pure: it takes an
 * environment object (default `process.env`) and returns a frozen `Config`, or throws `ConfigError` listing every
 * problem found (not only the first), each `{variable, zh, en}`. Values of secrets are never repeated in a problem.
 * The variables, their meaning and defaults: README "Configuration" and deploy/.env.example.
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import jwt from 'jsonwebtoken';
import { LOG_LEVELS } from './logger.ts';
import { TEMPLATE_FIELDS, templateConfigs } from './notifications/templates.ts';
import { CREW_SPLIT_MODES, type CrewSplitMode } from './domain/crew-split.ts';

/** One wrong setting: the variable (with its value when not secret) and what is wrong, in Chinese and English. */
export interface ConfigProblem {
  readonly variable: string;
  readonly zh: string;
  readonly en: string;
}

/** The configuration is wrong; `problems` lists every wrong variable, the message one line per problem. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(problems.map(problemLine).join('\n'));
    this.name = 'ConfigError';
  }
}

/** `VARIABLE: 中文 / English` */
export const problemLine = (p: ConfigProblem) => `${p.variable}: ${p.zh} / ${p.en}`;

/** The shortest JWT_SECRET accepted in production, in bytes (HS256 wants a key of at least its 256-bit output). */
export const MIN_SECRET_BYTES = 32;

/**
 * The speed pieces that can be turned off, to measure what each brings (bench/README.md "Speed pieces").
 * `fresh-reads` is the wait of the async read models' readers (projections/fresh-reads.ts): off, they answer from the
 * model as it is, possibly older than a write just made — only for the benchmark's baseline of that wait.
 */
export const SPEED_PIECES = ['group-commit', 'lean', 'facts-cache', 'typed-appends', 'prepared-statements', 'fresh-reads'] as const;
export type SpeedPiece = (typeof SPEED_PIECES)[number];

export interface Config {
  readonly production: boolean;
  /** 'postgres' when DATABASE_URL or PGHOST is set, otherwise the embedded PGlite. */
  readonly database:
    | { readonly kind: 'postgres'; readonly connectionString?: string }
    | { readonly kind: 'pglite'; readonly dataDir: string };
  /** How long a start waits for an unreachable PostgreSQL, retrying with backoff, in seconds (DATABASE_WAIT_SECONDS). */
  readonly databaseWaitSeconds: number;
  readonly port: number;
  /** API processes sharing the port (node:cluster, src/cluster.ts); more than 1 needs PostgreSQL. */
  readonly apiProcesses: number;
  readonly jwtSecret: string;
  /** True when JWT_SECRET was not given and a random key was made for this start. */
  readonly jwtSecretGenerated: boolean;
  /** The file the key was read from when JWT_SECRET was not given and the embedded database keeps it (auth/kept-secret.ts). */
  readonly jwtSecretFile?: string;
  /** jsonwebtoken `expiresIn` value, e.g. "7d". */
  readonly tokenTtl: string;
  /** IANA zone of the factory; every local date (report_date, filters) is computed in it. */
  readonly timeZone: string;
  /** Report filling validity in milliseconds (REPORT_WINDOW_MINUTES, decimals allowed). */
  readonly reportWindowMs: number;
  /** Age in milliseconds after which an active session is closed as abandoned. */
  readonly sessionMaxMs: number;
  /** Break interval in whole minutes a new report starts with. */
  readonly defaultBreakMinutes: number;
  /**
   * READ_MODEL_WAIT_SECONDS, in milliseconds: how long a read of the wages, the dashboard or the months waits for its
   * read model to take in what was committed when it came (projections/fresh-reads.ts) before answering 503
   * READ_MODEL_BEHIND. Default 2 s.
   */
  readonly readModelWaitMs: number;
  /**
   * PLAUSIBLE_MIN_CYCLE_RATIO: a report whose actual cycle time is below this share of its standard
   * cycle time is flagged (0–1, at most 3 decimals; 0: never). Default 0.5.
   */
  readonly plausibleMinCycleRatio: number;
  /**
   * PLAUSIBLE_MAX_WORKLOAD_RATIO: a report whose output exceeds this multiple of its lines' standard
   * workload for the time worked is flagged (0: never, else 1–1000, at most 3 decimals). Default 2.
   */
  readonly plausibleMaxWorkloadRatio: number;
  /**
   * DEFECT_REASONS_REQUIRED (`true` | `false`, default false): when true, a report line's defect reasons must cover
   * every defective piece (commands/report-lines.ts, DEFECTS_SUM_MISMATCH).
   */
  readonly defectReasonsRequired: boolean;
  /**
   * WORK_ORDER_FLOW_TOLERANCE (whole pieces, default 0): an operation of a work order whose 成品 + 不良 exceed the
   * previous operation's 成品 by more than this is flagged EXCEEDS_PREVIOUS_OPERATION (domain/work-order-flow.ts).
   */
  readonly workOrderFlowTolerance: number;
  /**
   * WORK_ORDER_OVERRUN_RATIO (0–10, at most 3 decimals, default 0.05): an operation of a work order whose 成品 exceed
   * plannedQty × (1 + this) is flagged OVER_PLANNED (domain/work-order-flow.ts).
   */
  readonly workOrderOverrunRatio: number;
  /**
   * CREW_SPLIT (`presence` | `coefficient` | `equal`, default presence): how a crew line (班组报工) is split among its
   * members (domain/crew-split.ts): by seconds on the device, by seconds × each member's coefficient (系数), or
   * equally.
   */
  readonly crewSplit: CrewSplitMode;
  /** Platform credentials; undefined means the built-in simulator is used. */
  readonly platform?: { readonly appId: string; readonly secret: string; readonly apiBase: string };
  readonly wxEnvVersion: 'release' | 'trial' | 'develop';
  /** Mini-program page the web console's sign-in code opens (WX_WEB_LOGIN_PAGE). */
  readonly wxWebLoginPage: string;
  /** `WX_TEMPLATE_<NAME>` values, keyed by NAME (e.g. REVIEW_RESULT). */
  readonly templates: Readonly<Record<string, string>>;
  /** Origin used to build absolute addresses (device code images); empty means relative addresses. */
  readonly publicBaseUrl: string;
  readonly logLevel: string;
  /** express `trust proxy`: the proxies whose X-Forwarded-For gives the client address (TRUST_PROXY). */
  readonly trustProxy: string | number | boolean;
  /** Speed pieces turned off (SPEED_PIECES_OFF, a comma-separated list; for the benchmark's comparisons). */
  readonly speedPiecesOff: ReadonlySet<SpeedPiece>;
}

export const WX_REAL_API_BASE = 'https://api.weixin.qq.com';

const ENV_VERSIONS = ['release', 'trial', 'develop'] as const;
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Reads `env`, recording problems instead of stopping at the first. */
class EnvReader {
  readonly problems: ConfigProblem[] = [];
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** The trimmed value of `name`, or undefined when unset or blank. */
  text(name: string): string | undefined {
    const v = this.env[name]?.trim();
    return v ? v : undefined;
  }

  /** Records a problem with `name` (its value shown unless `secret`). */
  bad(name: string, zh: string, en: string, secret = false): void {
    const v = this.env[name];
    this.problems.push({ variable: secret || v === undefined ? name : `${name}="${v}"`, zh, en });
  }

  /** A number in [min, max] (an integer when `integer`), `fallback` when unset. */
  number(
    name: string,
    fallback: number,
    rule: { min: number; max?: number; integer?: boolean; above?: boolean; decimals?: number },
    zh: string,
    en: string,
  ): number {
    const v = this.text(name);
    if (v === undefined) return fallback;
    const n = Number(v);
    const ok =
      /^[+]?\d+(\.\d+)?$/.test(v) &&
      Number.isFinite(n) &&
      (rule.above ? n > rule.min : n >= rule.min) &&
      (rule.max === undefined || n <= rule.max) &&
      (!rule.integer || Number.isInteger(n)) &&
      (rule.decimals === undefined || (v.split('.')[1] ?? '').length <= rule.decimals);
    if (!ok) {
      this.bad(name, zh, en);
      return fallback;
    }
    return n;
  }

  /** An http(s) URL, or undefined. */
  url(name: string, zh: string): string | undefined {
    const v = this.text(name);
    if (v === undefined) return undefined;
    try {
      const u = new URL(v);
      if (u.protocol === 'http:' || u.protocol === 'https:') return v;
    } catch {
      // reported below
    }
    this.bad(name, `${zh}应为 http:// 或 https:// 开头的地址`, 'must be an http:// or https:// URL');
    return undefined;
  }
}

/**
 * The lifetime of a token signed as TokenService signs it (`expiresIn` = `ttl`, a string), in seconds, or undefined
 * when jsonwebtoken refuses it.
 */
function tokenLifetimeSeconds(ttl: string): number | undefined {
  try {
    const token = jwt.sign({}, 'probe', { expiresIn: ttl as jwt.SignOptions['expiresIn'] });
    const c = jwt.decode(token) as { exp?: number; iat?: number };
    return c.exp !== undefined && c.iat !== undefined ? c.exp - c.iat : undefined;
  } catch {
    return undefined;
  }
}

/** The `trust proxy` setting for TRUST_PROXY: a hop count, true/false, or names and addresses separated by commas. */
function trustProxyOf(r: EnvReader): string | number | boolean {
  const v = r.text('TRUST_PROXY');
  if (v === undefined) return 'loopback';
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^\d+$/.test(v)) return Number(v);
  const parts = v.split(',').map((p) => p.trim());
  const ok = parts.every((p) => PROXY_NAMES.has(p) || isIP(p.split('/')[0]) !== 0);
  if (!ok) {
    r.bad(
      'TRUST_PROXY',
      '应为代理的地址（如 127.0.0.1、10.0.0.0/8）、loopback、uniquelocal，或跳数',
      'must be proxy addresses (e.g. 127.0.0.1, 10.0.0.0/8), loopback, uniquelocal, or a hop count',
    );
    return 'loopback';
  }
  return parts.join(',');
}

/** Reads and checks the environment (module docstring). Throws ConfigError listing every faulty variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const r = new EnvReader(env);
  const production = env.NODE_ENV === 'production';

  const databaseUrl = r.text('DATABASE_URL');
  if (databaseUrl !== undefined) {
    let ok = false;
    try {
      ok = ['postgres:', 'postgresql:'].includes(new URL(databaseUrl).protocol);
    } catch {
      ok = false;
    }
    // The URL may hold a password: never repeated.
    if (!ok) r.bad('DATABASE_URL', '应为 postgres://用户:密码@主机:端口/数据库 形式的地址', 'must be a URL like postgres://user:password@host:5432/database', true);
  }
  r.number('PGPORT', 5432, { min: 1, max: 65535, integer: true }, 'PostgreSQL 端口应为 1–65535 的整数', 'must be a port number 1–65535');
  const usePostgres = Boolean(databaseUrl || r.text('PGHOST'));
  const databaseWaitSeconds = r.number(
    'DATABASE_WAIT_SECONDS',
    60,
    { min: 0, max: 3600, integer: true },
    '启动时等待数据库的秒数应为 0–3600 的整数',
    'seconds to wait for the database at start must be a whole number 0–3600',
  );

  const port = r.number('PORT', 3000, { min: 0, max: 65535, integer: true }, 'HTTP 端口应为 0–65535 的整数', 'must be a port number 0–65535');
  const apiProcesses = r.number(
    'API_PROCESSES',
    1,
    { min: 1, max: 256, integer: true },
    'API 进程数应为 1 以上的整数',
    'must be a whole number of processes, at least 1',
  );
  if (apiProcesses > 1 && !usePostgres) {
    r.bad('API_PROCESSES', '多个 API 进程需要 PostgreSQL（设置 DATABASE_URL）：嵌入式数据库只能由一个进程使用', 'more than 1 needs PostgreSQL (set DATABASE_URL): the embedded database serves one process');
  }

  const jwtSecret = r.text('JWT_SECRET');
  if (production && !jwtSecret) {
    r.bad('JWT_SECRET', '生产环境（NODE_ENV=production）必须设置令牌签名密钥', 'is required when NODE_ENV=production', true);
  } else if (production && Buffer.byteLength(jwtSecret!, 'utf8') < MIN_SECRET_BYTES) {
    r.bad(
      'JWT_SECRET',
      `生产环境的令牌签名密钥至少 ${MIN_SECRET_BYTES} 字节（例如 openssl rand -hex 32 的输出）`,
      `must be at least ${MIN_SECRET_BYTES} bytes in production (e.g. the output of openssl rand -hex 32)`,
      true,
    );
  }

  const tokenTtl = r.text('TOKEN_TTL') ?? '7d';
  const lifetime = tokenLifetimeSeconds(tokenTtl);
  // Digits alone are milliseconds to jsonwebtoken ("3600" is 3.6 s): a unit is required, and at least a minute.
  if (lifetime === undefined || lifetime < 60 || /^\d+$/.test(tokenTtl)) {
    r.bad('TOKEN_TTL', '令牌有效期应为带单位的时长，至少 1 分钟，例如 7d、12h、90m', 'must be a duration with a unit, at least a minute, such as 7d, 12h or 90m');
  }

  const timeZone = r.text('APP_TIMEZONE') ?? 'Asia/Shanghai';
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone });
  } catch {
    r.bad('APP_TIMEZONE', '不是已知的时区，例如 Asia/Shanghai', 'is not a known IANA time zone, e.g. Asia/Shanghai');
  }
  const reportWindowMinutes = r.number('REPORT_WINDOW_MINUTES', 30, { min: 0, above: true }, '报工填写时限应为大于 0 的分钟数', 'must be a positive number of minutes');
  const sessionMaxHours = r.number('SESSION_MAX_HOURS', 16, { min: 0, above: true }, '最长上班时长应为大于 0 的小时数', 'must be a positive number of hours');
  const defaultBreakMinutes = r.number(
    'DEFAULT_BREAK_MINUTES',
    60,
    { min: 0, integer: true },
    '默认休息时间应为不小于 0 的整数分钟',
    'must be a whole number of minutes, 0 or more',
  );
  const readModelWaitSeconds = r.number(
    'READ_MODEL_WAIT_SECONDS',
    2,
    { min: 0, above: true, max: 60, decimals: 3 },
    '统计数据（工资、看板）跟上最新操作的最长等待时间应为大于 0、不超过 60 的秒数（最多 3 位小数），例如 2',
    'must be a number of seconds above 0 and at most 60, with at most 3 decimals, e.g. 2',
  );

  const plausibleMinCycleRatio = r.number(
    'PLAUSIBLE_MIN_CYCLE_RATIO',
    0.5,
    { min: 0, max: 1, decimals: 3 },
    '异常报工的节拍下限应为 0–1 之间的小数（最多 3 位小数），例如 0.5 表示快于标准节拍的一半即标为异常；0 表示不检查',
    'must be a ratio 0–1 with at most 3 decimals, e.g. 0.5 (faster than half the standard cycle time is flagged); 0 turns the check off',
  );
  const plausibleMaxWorkloadRatio = r.number(
    'PLAUSIBLE_MAX_WORKLOAD_RATIO',
    2,
    { min: 0, max: 1000, decimals: 3 },
    '异常报工的工作量上限应为 0，或 1–1000 之间的倍数（最多 3 位小数），例如 2 表示超过这段时间标准工作量的 2 倍即标为异常',
    'must be 0 (no check) or a multiple 1–1000 with at most 3 decimals, e.g. 2 (more than twice the standard workload for the time worked is flagged)',
  );
  if (plausibleMaxWorkloadRatio > 0 && plausibleMaxWorkloadRatio < 1) {
    r.bad(
      'PLAUSIBLE_MAX_WORKLOAD_RATIO',
      '异常报工的工作量上限不能小于 1（小于标准工作量不算异常）；0 表示不检查',
      'must not be below 1 (output under the standard is not implausible); 0 turns the check off',
    );
  }

  const workOrderFlowTolerance = r.number(
    'WORK_ORDER_FLOW_TOLERANCE',
    0,
    { min: 0, max: 1_000_000_000, integer: true },
    '工单工序流转的容差应为不小于 0 的整数件数，例如 0 表示本道工序的成品加不良超过上道工序的成品即标为异常',
    'must be a whole number of pieces, 0 or more, e.g. 0 (any piece beyond the previous operation\'s output is flagged)',
  );
  const workOrderOverrunRatio = r.number(
    'WORK_ORDER_OVERRUN_RATIO',
    0.05,
    { min: 0, max: 10, decimals: 3 },
    '工单超计划的比例应为 0–10 之间的小数（最多 3 位小数），例如 0.05 表示某道工序的成品超过计划数量的 105% 即标为异常',
    'must be a ratio 0–10 with at most 3 decimals, e.g. 0.05 (more than 105 % of the planned quantity is flagged)',
  );

  const defectReasonsText = r.text('DEFECT_REASONS_REQUIRED') ?? 'false';
  if (defectReasonsText !== 'true' && defectReasonsText !== 'false') {
    r.bad('DEFECT_REASONS_REQUIRED', '是否必须填写不良原因应为 true 或 false', 'must be true or false');
  }

  const crewSplit = r.text('CREW_SPLIT') ?? 'presence';
  if (!(CREW_SPLIT_MODES as readonly string[]).includes(crewSplit)) {
    r.bad('CREW_SPLIT', '班组报工的分配方式应为 presence（按在机时间）、coefficient（在机时间 × 系数）或 equal（平均）', 'must be presence, coefficient or equal');
  }

  const appId = r.text('WX_APPID');
  const secret = r.text('WX_SECRET');
  if (production && !appId) {
    r.bad('WX_APPID', '生产环境必须设置小程序 AppID 与 AppSecret（模拟器只用于开发）', 'WX_APPID and WX_SECRET are required when NODE_ENV=production (the simulator is for development)');
  }
  if (appId && !secret) r.bad('WX_SECRET', '设置了 WX_APPID 时必须设置小程序的 AppSecret', 'is required when WX_APPID is set', true);
  const apiBase = r.url('WX_API_BASE', '微信接口地址');
  const envVersion = r.text('WX_ENV_VERSION') ?? 'release';
  if (!(ENV_VERSIONS as readonly string[]).includes(envVersion)) {
    r.bad('WX_ENV_VERSION', '小程序码版本应为 release、trial 或 develop', 'must be release, trial or develop');
  }
  const wxWebLoginPage = r.text('WX_WEB_LOGIN_PAGE') ?? 'pages/login/confirm';
  if (!/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/.test(wxWebLoginPage)) {
    r.bad('WX_WEB_LOGIN_PAGE', '扫码登录确认页应为小程序页面路径，例如 pages/login/confirm', 'must be a page path such as pages/login/confirm');
  }
  const templates: Record<string, string> = {};
  const known = new Set(Object.keys(TEMPLATE_FIELDS).flatMap((n) => [n, `${n}_KEYS`]));
  for (const [k, v] of Object.entries(env)) {
    if (!k.startsWith('WX_TEMPLATE_') || !v) continue;
    const name = k.slice('WX_TEMPLATE_'.length);
    if (!known.has(name)) {
      r.bad(k, `不是本服务的通知模板，可用：${Object.keys(TEMPLATE_FIELDS).map((n) => `WX_TEMPLATE_${n}`).join('、')}`, 'is not a notification template of this service');
      continue;
    }
    templates[name] = v;
  }
  try {
    templateConfigs(templates);
  } catch (err) {
    const [name, ...rest] = (err as Error).message.split(': ');
    r.bad(name, '字段映射应为 字段=键 的列表，用逗号分隔，例如 result=phrase1,reportDate=date2', rest.join(': '));
  }

  const publicBaseUrl = r.url('PUBLIC_BASE_URL', '对外地址') ?? '';
  const logLevel = r.text('LOG_LEVEL') ?? (env.VITEST ? 'silent' : 'info');
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    r.bad('LOG_LEVEL', `日志级别应为 ${LOG_LEVELS.join('、')} 之一`, `must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const trustProxy = trustProxyOf(r);
  const speedPiecesOff = new Set((r.text('SPEED_PIECES_OFF') ?? '').split(',').map((n) => n.trim()).filter(Boolean));
  for (const name of speedPiecesOff) {
    if (!(SPEED_PIECES as readonly string[]).includes(name)) {
      r.bad('SPEED_PIECES_OFF', `可关闭的只有：${SPEED_PIECES.join('、')}（仅用于性能对比）`, `only ${SPEED_PIECES.join(', ')} can be turned off (for the benchmark's comparisons)`);
    }
  }

  if (r.problems.length) throw new ConfigError(r.problems);
  return Object.freeze({
    production,
    database: usePostgres
      ? { kind: 'postgres' as const, connectionString: databaseUrl }
      : { kind: 'pglite' as const, dataDir: r.text('PGLITE_DIR') ?? './data/pglite' },
    databaseWaitSeconds,
    port,
    apiProcesses,
    jwtSecret: jwtSecret ?? randomBytes(32).toString('hex'),
    jwtSecretGenerated: !jwtSecret,
    tokenTtl,
    timeZone,
    reportWindowMs: Math.round(reportWindowMinutes * 60_000),
    sessionMaxMs: Math.round(sessionMaxHours * 3_600_000),
    defaultBreakMinutes,
    readModelWaitMs: Math.round(readModelWaitSeconds * 1000),
    plausibleMinCycleRatio,
    plausibleMaxWorkloadRatio,
    defectReasonsRequired: defectReasonsText === 'true',
    workOrderFlowTolerance,
    workOrderOverrunRatio,
    crewSplit: crewSplit as CrewSplitMode,
    platform: appId && secret ? { appId, secret, apiBase: apiBase ?? WX_REAL_API_BASE } : undefined,
    wxEnvVersion: envVersion as Config['wxEnvVersion'],
    wxWebLoginPage,
    templates: Object.freeze(templates),
    publicBaseUrl: publicBaseUrl.replace(/\/$/, ''),
    logLevel,
    trustProxy,
    speedPiecesOff: speedPiecesOff as ReadonlySet<SpeedPiece>,
  });
}
