/**
 * Test harness: the whole service on a fresh database with a ManualClock, listening on a free port, plus a
 * small HTTP client and token helpers. Background consumers are not started: tests call `catchUpAll()`.
 * Every answer the service gives under /api/ is checked against the API document as it goes (contract-guard.ts):
 * `close()` throws the list of the answers that differ from it, so every test is a contract test too.
 */
import { ManualClock } from '../../src/clock.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { startService, type Service } from '../../src/app.ts';
import { catchUpToNow } from '../../src/projections/consumer.ts';
import type { Role } from '../../src/auth/roles.ts';
import type { Logger } from '../../src/logger.ts';
import type { PlatformSimulator } from '../../src/platform/simulator.ts';
import { openDatabase } from '../../src/db/database.ts';
import { openTestDatabase } from './db.ts';
import { guardContract } from './contract-guard.ts';

export interface TestApp {
  service: Service;
  clock: ManualClock;
  config: Config;
  url: string;
  /** The platform simulator the service talks to (`service.ctx.platform` is the real client against it). */
  simulator: PlatformSimulator;
  /** Adds (or keeps) a person with `role` and returns a valid token for them. */
  login(phone: string, role: Role, name?: string): Promise<string>;
  /** Runs every async consumer until it has handled every event committed so far. */
  catchUpAll(): Promise<void>;
  request(method: string, path: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<TestResponse>;
  /** The answers so far that differ from the API document (contract-guard.ts). */
  contractDeviations(): string[];
  /** Stops the service; throws when any of its answers differed from the API document. */
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  body: any;
  headers: Headers;
}

/**
 * Starts the service (module docstring) with `env` over the test defaults, its clock at `start`; `opts.log` replaces
 * its root logger (a test that reads what the service logs).
 */
export async function startTestApp(env: Record<string, string> = {}, start = '2026-03-02T08:00:00+08:00', opts: { log?: Logger } = {}): Promise<TestApp> {
  const config = loadConfig({ JWT_SECRET: 'test-secret', PORT: '0', LOG_LEVEL: 'silent', ...env });
  const clock = new ManualClock(start);
  const db = await openTestDatabase();
  const service = await startService(config, { db, clock, background: false, ...(opts.log ? { log: opts.log } : {}) });
  const guard = guardContract(service.server);
  const url = `http://127.0.0.1:${service.port}`;
  const app: TestApp = {
    service,
    clock,
    config,
    url,
    simulator: service.ctx.simulator!,
    async login(phone, role, name = `测试${phone.slice(-4)}`) {
      await service.ctx.db.pool.query(
        `INSERT INTO personnel (phone, name, role) VALUES ($1, $2, $3) ON CONFLICT (phone, role) DO NOTHING`,
        [phone, name, role],
      );
      return service.ctx.tokens.issue({ phone, role });
    },
    async catchUpAll() {
      for (const c of service.ctx.consumers) await catchUpToNow(service.ctx.db.pool, service.ctx.store, c);
    },
    request: httpClient(url),
    contractDeviations: () => guard.deviations(),
    async close() {
      await service.close();
      const deviations = guard.deviations();
      if (deviations.length) throw new Error(`answers that differ from the API document:\n${deviations.slice(0, 40).join('\n')}`);
    },
  };
  return app;
}

/** The small HTTP client of TestApp.request for the service at `base` (JSON bodies, Bearer token). */
export function httpClient(base: string): TestApp['request'] {
  return async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    }
    const res = await fetch(base + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, body: parsed, headers: res.headers };
  };
}

/**
 * Runs `fn` with a second API instance of the service on `app`'s database (same config, clock and token secret;
 * no background work), closed afterwards. PostgreSQL only: an in-memory PGlite is private to the first instance.
 */
export async function withSecondInstance(app: TestApp, fn: (second: { url: string; request: TestApp['request'] }) => Promise<void>): Promise<void> {
  const url = (app.service.ctx.db as { url?: string }).url;
  if (!url) throw new Error('a second API instance needs PostgreSQL');
  const second = await startService(app.config, {
    db: await openDatabase({ kind: 'postgres', connectionString: url, max: 10 }),
    clock: app.clock,
    background: false,
  });
  try {
    const base = `http://127.0.0.1:${second.port}`;
    await fn({ url: base, request: httpClient(base) });
  } finally {
    await second.close();
  }
}
