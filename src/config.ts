/**
 * Configuration from environment variables (decisions.md, "Runtime and configuration").
 *
 * Every setting of the service is read here and nowhere else. `loadConfig(env)` is pure: it takes an
 * environment object (default `process.env`) and returns a frozen `Config`, or throws `ConfigError` with a
 * message naming the variable that is wrong.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/** A missing or invalid environment variable; the message names the variable. */
export class ConfigError extends Error {}

const positiveNumber = (name: string, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a positive number, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const nonNegativeInt = (name: string, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a non-negative integer, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const envSchema = z.object({
  NODE_ENV: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  PGHOST: z.string().optional(),
  PGLITE_DIR: z.string().optional(),
  PORT: nonNegativeInt('PORT', 3000),
  API_PROCESSES: positiveNumber('API_PROCESSES', 1),
  JWT_SECRET: z.string().optional(),
  TOKEN_TTL: z.string().optional(),
  APP_TIMEZONE: z.string().optional(),
  REPORT_WINDOW_MINUTES: positiveNumber('REPORT_WINDOW_MINUTES', 30),
  SESSION_MAX_HOURS: positiveNumber('SESSION_MAX_HOURS', 16),
  DEFAULT_BREAK_MINUTES: nonNegativeInt('DEFAULT_BREAK_MINUTES', 60),
  WX_APPID: z.string().optional(),
  WX_SECRET: z.string().optional(),
  WX_API_BASE: z.string().optional(),
  WX_ENV_VERSION: z.enum(['release', 'trial', 'develop']).optional(),
  WX_WEB_LOGIN_PAGE: z.string().regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/, 'WX_WEB_LOGIN_PAGE must be a page path such as pages/login/confirm').optional(),
  PUBLIC_BASE_URL: z.string().optional(),
  LOG_LEVEL: z.string().optional(),
});

export interface Config {
  readonly production: boolean;
  /** 'postgres' when DATABASE_URL or PGHOST is set, otherwise the embedded PGlite. */
  readonly database:
    | { readonly kind: 'postgres'; readonly connectionString?: string }
    | { readonly kind: 'pglite'; readonly dataDir: string };
  readonly port: number;
  /** API processes sharing the port (node:cluster, src/cluster.ts); more than 1 needs PostgreSQL. */
  readonly apiProcesses: number;
  readonly jwtSecret: string;
  /** True when JWT_SECRET was not given and a random key was made for this start. */
  readonly jwtSecretGenerated: boolean;
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
  /** Platform credentials; undefined means the built-in simulator is used. */
  readonly platform?: { readonly appId: string; readonly secret: string; readonly apiBase: string };
  readonly wxEnvVersion: 'release' | 'trial' | 'develop';
  /** Mini-program page the web console's sign-in code opens (WX_WEB_LOGIN_PAGE; issue #17). */
  readonly wxWebLoginPage: string;
  /** `WX_TEMPLATE_<NAME>` values, keyed by NAME (e.g. REVIEW_RESULT). */
  readonly templates: Readonly<Record<string, string>>;
  /** Origin used to build absolute addresses (device code images); empty means relative addresses. */
  readonly publicBaseUrl: string;
  readonly logLevel: string;
}

export const WX_REAL_API_BASE = 'https://api.weixin.qq.com';

/** Reads and validates the environment. Throws ConfigError naming the faulty variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const timeZone = e.APP_TIMEZONE || 'Asia/Shanghai';
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone });
  } catch {
    throw new ConfigError(`APP_TIMEZONE: unknown time zone "${timeZone}"`);
  }
  if (production && !e.JWT_SECRET) throw new ConfigError('JWT_SECRET is required when NODE_ENV=production');
  if (production && !e.WX_APPID) {
    throw new ConfigError('WX_APPID and WX_SECRET are required when NODE_ENV=production (the simulator is for development)');
  }
  if (e.WX_APPID && !e.WX_SECRET) throw new ConfigError('WX_SECRET is required when WX_APPID is set');
  const templates: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (k.startsWith('WX_TEMPLATE_') && v) templates[k.slice('WX_TEMPLATE_'.length)] = v;
  }
  const usePostgres = Boolean(e.DATABASE_URL || e.PGHOST);
  if (!Number.isInteger(e.API_PROCESSES)) throw new ConfigError(`API_PROCESSES must be a whole number, got "${env.API_PROCESSES}"`);
  if (e.API_PROCESSES > 1 && !usePostgres) {
    throw new ConfigError('API_PROCESSES > 1 needs PostgreSQL (set DATABASE_URL): the embedded database serves one process');
  }
  return Object.freeze({
    production,
    database: usePostgres
      ? { kind: 'postgres' as const, connectionString: e.DATABASE_URL || undefined }
      : { kind: 'pglite' as const, dataDir: e.PGLITE_DIR || './data/pglite' },
    port: e.PORT,
    apiProcesses: e.API_PROCESSES,
    jwtSecret: e.JWT_SECRET || randomBytes(32).toString('hex'),
    jwtSecretGenerated: !e.JWT_SECRET,
    tokenTtl: e.TOKEN_TTL || '7d',
    timeZone,
    reportWindowMs: Math.round(e.REPORT_WINDOW_MINUTES * 60_000),
    sessionMaxMs: Math.round(e.SESSION_MAX_HOURS * 3_600_000),
    defaultBreakMinutes: e.DEFAULT_BREAK_MINUTES,
    platform: e.WX_APPID
      ? { appId: e.WX_APPID, secret: e.WX_SECRET!, apiBase: e.WX_API_BASE || WX_REAL_API_BASE }
      : undefined,
    wxEnvVersion: e.WX_ENV_VERSION ?? 'release',
    wxWebLoginPage: e.WX_WEB_LOGIN_PAGE || 'pages/login/confirm',
    templates: Object.freeze(templates),
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? '').replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL || (env.VITEST ? 'silent' : 'info'),
  });
}
