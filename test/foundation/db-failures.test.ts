/**
 * A database connection that dies without a goodbye (a crash, a broken TCP link) makes `pg`
 * report "Connection terminated unexpectedly" with no code; such a request answers 503 DATABASE_UNAVAILABLE, on
 * the express routes and on the worker's lean path (whose append goes through the group commit on PostgreSQL),
 * and the next request is served. The link is broken by a proxy in front of the test database
 * (test/helpers/cut-proxy.ts), on PGlite and PostgreSQL alike; on PostgreSQL a backend ended by
 * `pg_terminate_backend` is tested as well.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { connectionFailed } from '../../src/db/failures.ts';
import { httpClient, type TestApp } from '../helpers/app.ts';
import { proxiedTestDatabase, type CutProxy } from '../helpers/cut-proxy.ts';
import { onPostgres } from '../helpers/db.ts';

let service: Service;
let proxy: CutProxy;
let request: TestApp['request'];
let admin: string;
let worker: string;

beforeAll(async () => {
  const opened = await proxiedTestDatabase();
  proxy = opened.proxy;
  const config = loadConfig({ JWT_SECRET: 'test-secret', PORT: '0', LOG_LEVEL: 'silent' });
  service = await startService(config, { db: opened.db, clock: new ManualClock('2026-03-02T08:00:00+08:00'), background: false });
  request = httpClient(`http://127.0.0.1:${service.port}`);
  const pool = service.ctx.db.pool;
  await pool.query(`INSERT INTO personnel (phone, name, role) VALUES ('13900000017', '管理', 'admin'), ('13900000018', '工人', 'worker')`);
  await pool.query(
    `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     VALUES ('P1', '产品', 'JC-01', '落料', 12.5, 2304)`,
  );
  admin = service.ctx.tokens.issue({ phone: '13900000017', role: 'admin' });
  worker = service.ctx.tokens.issue({ phone: '13900000018', role: 'worker' });
});
afterAll(() => service?.close());

describe('connectionFailed (src/db/failures.ts)', () => {
  it('is true for a link cut under a statement, false for a statement the server refuses or any other error', async () => {
    const refused = await service.ctx.db.pool.query('SELEC 1').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(pg.DatabaseError);
    expect(connectionFailed(refused)).toBe(false);
    const client = new pg.Client(clientConfig());
    client.on('error', () => {});
    await client.connect();
    const cut = proxy.cutWhen(() => true);
    const lost = await client.query('SELECT 1').catch((e: unknown) => e);
    await cut;
    expect((lost as Error).message).toMatch(/^Connection terminated/);
    expect(connectionFailed(lost)).toBe(true);
    const again = await client.query('SELECT 1').catch((e: unknown) => e);
    expect(connectionFailed(again)).toBe(true);

    expect(connectionFailed(new TypeError('x is undefined'))).toBe(false);
    expect(connectionFailed(Object.assign(new Error('no such file'), { code: 'ENOENT', syscall: 'open' }))).toBe(false);
    expect(connectionFailed(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
  });
});

/** The pool's connection settings (through the proxy). */
function clientConfig(): pg.ClientConfig {
  const o = service.ctx.db.pool.options as pg.PoolConfig;
  return { host: o.host, port: o.port, user: o.user, database: o.database, connectionString: o.connectionString };
}

describe('a request whose connection dies without a goodbye', () => {
  it('an express route: 503 DATABASE_UNAVAILABLE, then the next request is served', async () => {
    expect((await request('GET', '/api/people', { token: admin })).status).toBe(200);
    const cut = proxy.cutWhen(() => true);
    const r = await request('GET', '/api/people', { token: admin });
    await cut;
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('DATABASE_UNAVAILABLE');
    expect((await request('GET', '/api/people', { token: admin })).status).toBe(200);
  });

  it("the worker's append on the lean path (through the group commit on PostgreSQL): 503, then served", async () => {
    expect((await request('GET', '/api/clock/state?deviceNo=JC-01', { token: worker })).status).toBe(200);
    const cut = proxy.cutWhen((c) => c.includes('INSERT INTO events'));
    const r = await request('POST', '/api/clock/start', { token: worker, body: { deviceNo: 'JC-01' } });
    await cut;
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('DATABASE_UNAVAILABLE');
    const again = await request('POST', '/api/clock/start', { token: worker, body: { deviceNo: 'JC-01' } });
    expect(again.status).toBe(200);
    expect((await request('GET', '/api/health')).status).toBe(200);
  });
});

// pg_terminate_backend needs a server with several backends (PGlite is one backend in the test's process).
it.runIf(onPostgres)('a backend ended by pg_terminate_backend mid-statement: 503, then the next request is served', async () => {
  const locker = new pg.Client(clientConfig());
  const killer = new pg.Client(clientConfig());
  await locker.connect();
  await killer.connect();
  try {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE personnel IN ACCESS EXCLUSIVE MODE');
    const pending = request('GET', '/api/people', { token: admin });
    let victim: number | undefined;
    for (let i = 0; i < 200 && victim === undefined; i++) {
      const r = await killer.query(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      );
      victim = r.rows[0]?.pid;
      if (victim === undefined) await new Promise((res) => setTimeout(res, 20));
    }
    expect(victim).toBeDefined();
    await killer.query('SELECT pg_terminate_backend($1)', [victim]);
    const r = await pending;
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('DATABASE_UNAVAILABLE');
  } finally {
    await locker.query('ROLLBACK').catch(() => {});
    await locker.end();
    await killer.end();
  }
  expect((await request('GET', '/api/people', { token: admin })).status).toBe(200);
});
