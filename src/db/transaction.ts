/**
 * Transactions. `withTransaction(pool, fn)` runs `fn` with a client inside BEGIN … COMMIT, rolling back on
 * any error (which is re-thrown). Inside `fn`, use only the given client: on PGlite the pool has a single
 * connection, so asking the pool for another one there would wait forever.
 */
import type pg from 'pg';

/** What runs SQL: the pool, a pooled client (inside a transaction), or the group commit (group-commit.ts). */
export type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * One parameterised statement as a pg query config: its text, its values, and, for a single-statement write, the
 * `key` of the rows it writes (the stream it appends to). A pool or client ignores the key; the group commit
 * (group-commit.ts) never runs two statements of one key at once and takes keys in order.
 */
export interface Statement extends pg.QueryConfig {
  text: string;
  values: unknown[];
  key?: string;
}

/** Anything that runs a Statement: the pool, a pooled client, the group commit. */
export interface StatementRunner {
  query(statement: Statement): Promise<pg.QueryResult>;
}

/**
 * `runner` as a Queryable for code written against one (`q.query(text, values)`): each statement goes with `key`,
 * so that a group commit may batch it (Database.reads). Only the `(text, values)` form is supported.
 */
export function keyedQueryable(runner: StatementRunner, key: string): Queryable {
  const query = (text: string, values: unknown[] = []) => runner.query({ text, values, key });
  return { query } as unknown as Queryable;
}

/**
 * Runs `fn` with one pooled client inside BEGIN … COMMIT and returns its result; on any error rolls back and
 * re-throws it. The client is always released. Use only `tx` inside `fn` (module docstring).
 */
export async function withTransaction<T>(pool: pg.Pool, fn: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A checked-out client has no error listener of the pool's: a connection the server ends between two
  // statements (restart, terminated backend) would emit an unhandled 'error' and end the process. The next
  // statement fails instead, the transaction is given up, and the client is released as broken.
  let broken: Error | undefined;
  const onError = (err: Error) => (broken = err);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}
