/**
 * withTransaction (src/db/transaction.ts) when the server ends the connection between two statements (a restart,
 * a terminated backend): the transaction fails with an error, the process does not crash on an unhandled
 * 'error' event of the checked-out client, and the pool goes on with a new connection. PostgreSQL only (PGlite
 * cannot terminate a backend).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import type { Database } from '../../src/db/database.ts';
import { withTransaction } from '../../src/db/transaction.ts';
import { onPostgres, openTestDatabase } from '../helpers/db.ts';

let db: Database & { url?: string };

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db?.close());

it.runIf(onPostgres)('a connection ended mid-transaction fails the transaction, not the process; the pool recovers', async () => {
  const other = new pg.Client({ connectionString: db.url });
  await other.connect();
  try {
    const attempt = withTransaction(db.pool, async (tx) => {
      const pid = (await tx.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await other.query('SELECT pg_terminate_backend($1)', [pid]);
      // Let the server's notice and the socket's end arrive while no statement is running.
      await new Promise((r) => setTimeout(r, 200));
      await tx.query('SELECT 1');
    });
    await expect(attempt).rejects.toThrow();
    expect((await db.pool.query('SELECT 41 + 1 AS n')).rows[0].n).toBe(42);
  } finally {
    await other.end();
  }
});
