/**
 * The database connection: PostgreSQL from the environment, or embedded PGlite served over a private Unix
 * socket so that the rest of the service talks to both through the same `pg` code path.
 *
 * PGlite is a single backend: its socket server multiplexes connections message by message, so unnamed
 * extended-protocol statements of two connections could interleave. The pool is therefore one connection
 * on PGlite (every query and transaction runs in turn; it alone prepares statements, which are then the backend's
 * only named ones); `dedicatedClient()` gives extra connections for
 * simple-protocol work only (advisory-lock leadership).
 */
import { mkdtempSync, mkdirSync, openSync, writeSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import type { Logger } from '../logger.ts';
import { PreparingClient } from './preparing-client.ts';
import { GroupCommit } from './group-commit.ts';
import type { StatementRunner } from './transaction.ts';

export { PreparingClient };

export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly pool: pg.Pool;
  /**
   * Where single-statement writes outside transactions go (the commands' appends): the group commit over `pool`
   * (group-commit.ts), on PGlite too (one batch at a time on its one connection), so that every test runs the
   * write path production runs.
   */
  readonly writes: StatementRunner;
  /**
   * Where the worker's hot single-statement reads go (the clock state of a scan and the report draft,
   * queries/clock-state.ts and queries/report-draft.ts): a group commit of their own over `pool` (group-commit.ts),
   * so that reads waiting together share one round trip and one implicit transaction (nothing to commit: what they
   * share is the protocol, the system calls and the backend's wake-up and transaction start and end). Its own
   * instance, so a read never waits behind the appends' batches. The pool itself when the group commit is off.
   */
  readonly reads: StatementRunner;
  /** A new connection outside the pool (caller ends it); for session-level advisory locks. */
  dedicatedClient(): Promise<pg.Client>;
  /** Ends the pool and, for PGlite, the socket server, the database and the folder lock. */
  close(): Promise<void>;
}

export type DatabaseOptions =
  | {
      kind: 'postgres';
      connectionString?: string;
      max?: number;
      /** Group commit of single-statement writes (default true; group-commit.ts). */
      groupCommit?: boolean;
      /** Every parameterised query as a named prepared statement (default true; preparing-client.ts). */
      preparedStatements?: boolean;
    }
  /** dataDir undefined: in memory (tests). */
  | { kind: 'pglite'; dataDir?: string };

// timestamptz as Date, bigint (int8) as number where safe: positions and sums stay far below 2^53.
pg.types.setTypeParser(20, (v: string) => Number(v));
pg.types.setTypeParser(1700, (v: string) => Number(v)); // numeric
pg.types.setTypeParser(1082, (v: string) => v); // date stays `YYYY-MM-DD`, never a local-midnight Date

/** Thrown by openDatabase when the PGlite data folder is held by another live process or cannot be locked. */
export class DataDirLockedError extends Error {}

/** Opens the database described by `opts`. Throws DataDirLockedError when another process holds PGlite's folder. */
export async function openDatabase(opts: DatabaseOptions, log?: Logger): Promise<Database> {
  if (opts.kind === 'postgres') {
    const config: pg.PoolConfig = { max: opts.max ?? 10, ...(opts.preparedStatements === false ? {} : { Client: PreparingClient }) };
    if (opts.connectionString) config.connectionString = opts.connectionString;
    const pool = new pg.Pool(config);
    pool.on('error', (err) => log?.error({ err }, 'idle database connection failed'));
    const grouped = () => (opts.groupCommit === false ? pool : new GroupCommit(pool));
    return {
      kind: 'postgres',
      pool,
      writes: grouped(),
      reads: grouped(),
      async dedicatedClient() {
        const c = new pg.Client(opts.connectionString ? { connectionString: opts.connectionString } : {});
        await c.connect();
        return c;
      },
      close: () => pool.end(),
    };
  }
  return openPglite(opts.dataDir, log);
}

async function openPglite(dataDir: string | undefined, log?: Logger): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const releaseLock = dataDir ? lockDataDir(resolve(dataDir)) : () => {};
  try {
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    const db = await PGlite.create(dataDir ? { dataDir } : undefined);
    const sockDir = mkdtempSync(join(tmpdir(), 'pglite-'));
    const server = new PGLiteSocketServer({ db, path: join(sockDir, '.s.PGSQL.5432'), maxConnections: 32 });
    await server.start();
    const clientConfig = { host: sockDir, port: 5432, user: 'postgres', database: 'postgres' };
    // The one connection is kept (no idle timeout); a new one (after a failure) first drops the named statements
    // its predecessor prepared in the shared backend, so that it can prepare them again.
    const pool = new pg.Pool({ ...clientConfig, max: 1, idleTimeoutMillis: 0, Client: PreparingClient });
    pool.on('connect', (client) => void client.query('DEALLOCATE ALL').catch(() => {}));
    pool.on('error', (err) => log?.error({ err }, 'idle database connection failed'));
    return {
      kind: 'pglite',
      pool,
      writes: new GroupCommit(pool, { maxInFlight: 1 }),
      reads: new GroupCommit(pool, { maxInFlight: 1 }),
      async dedicatedClient() {
        const c = new pg.Client(clientConfig);
        await c.connect();
        return c;
      },
      async close() {
        await pool.end();
        await server.stop();
        await db.close();
        rmSync(sockDir, { recursive: true, force: true });
        releaseLock();
      },
    };
  } catch (err) {
    releaseLock();
    throw err;
  }
}

/**
 * Takes the PGlite data folder for this process (a `<dir>.lock` file holding the pid), so that the CLI never
 * opens the folder while the server has it. A lock left by a dead process is taken over.
 */
function lockDataDir(dir: string): () => void {
  const lockPath = `${dir}.lock`;
  mkdirSync(dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(lockPath, 'utf8').trim());
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(
          `嵌入式数据库目录 ${dir} 正被进程 ${pid} 使用（服务是否正在运行？）。` +
            `The embedded database folder is in use by process ${pid}: stop the server first, ` +
            `or set DATABASE_URL to use PostgreSQL, which allows several processes.`,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
