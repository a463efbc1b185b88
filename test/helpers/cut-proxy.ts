/**
 * A TCP proxy in front of the test database that can break its links without a goodbye, as a crash or a broken
 * network does: `cutWhen(match)` destroys every link, both sides, as soon as the client sends
 * bytes that `match` accepts (those bytes are never forwarded), so the statement is in flight when its connection
 * dies. New connections after a cut are forwarded again.
 *
 * `proxiedTestDatabase()` opens the test database (PostgreSQL or PGlite, test/helpers/db.ts) and returns a
 * Database whose pool connects through such a proxy, with the proxy.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { GroupCommit } from '../../src/db/group-commit.ts';
import { PreparingClient, type Database } from '../../src/db/database.ts';
import { openTestDatabase } from './db.ts';

export interface CutProxy {
  port: number;
  /** Links cut so far. */
  readonly cuts: number;
  /** Cuts every link when the client next sends bytes `match` accepts (once). */
  cutWhen(match: (chunk: Buffer) => boolean): Promise<void>;
  close(): Promise<void>;
}

/** A proxy on a free loopback port to `target` (`{port, host}` or `{path}` of a Unix socket). */
export async function startCutProxy(target: { port: number; host: string } | { path: string }): Promise<CutProxy> {
  const links = new Set<[Socket, Socket]>();
  let trigger: { match: (c: Buffer) => boolean; done: () => void } | undefined;
  let cuts = 0;
  const cutAll = () => {
    for (const [a, b] of links) {
      a.destroy();
      b.destroy();
    }
    links.clear();
    cuts++;
  };
  const server: Server = createServer((client) => {
    const upstream = 'path' in target ? connect(target.path) : connect(target.port, target.host);
    const link: [Socket, Socket] = [client, upstream];
    links.add(link);
    client.on('data', (c: Buffer) => {
      if (trigger?.match(c)) {
        const t = trigger;
        trigger = undefined;
        cutAll();
        t.done();
        return;
      }
      upstream.write(c);
    });
    upstream.on('data', (c: Buffer) => client.write(c));
    const end = () => {
      links.delete(link);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    get cuts() {
      return cuts;
    },
    cutWhen(match) {
      return new Promise<void>((done) => (trigger = { match, done }));
    },
    close() {
      cutAll();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The test database with its pool behind a CutProxy (module docstring). */
export async function proxiedTestDatabase(): Promise<{ db: Database; proxy: CutProxy }> {
  const inner = await openTestDatabase();
  const opts = inner.pool.options as pg.PoolConfig & { host?: string; port?: number };
  let proxy: CutProxy;
  let pool: pg.Pool;
  if (inner.kind === 'postgres') {
    const u = new URL(inner.url!);
    proxy = await startCutProxy({ host: u.hostname, port: Number(u.port || 5432) });
    u.hostname = '127.0.0.1';
    u.port = String(proxy.port);
    pool = new pg.Pool({ connectionString: u.toString(), max: 10, Client: PreparingClient });
  } else {
    proxy = await startCutProxy({ path: `${opts.host}/.s.PGSQL.${opts.port ?? 5432}` });
    pool = new pg.Pool({ host: '127.0.0.1', port: proxy.port, user: 'postgres', database: 'postgres', max: 1 });
  }
  pool.on('error', () => {});
  const db: Database = {
    kind: inner.kind,
    pool,
    writes: inner.kind === 'postgres' ? new GroupCommit(pool) : pool,
    reads: inner.kind === 'postgres' ? new GroupCommit(pool) : pool,
    dedicatedClient: () => inner.dedicatedClient(),
    async close() {
      await pool.end();
      await proxy.close();
      await inner.close();
    },
  };
  return { db, proxy };
}
