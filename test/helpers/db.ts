/**
 * A fresh database per test file: a new PostgreSQL database on the server of TEST_DATABASE_URL (or
 * DATABASE_URL) when set, otherwise an in-memory PGlite behind its socket. `close()` drops it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { runMigrations } from '../../src/db/migrate.ts';

export const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || '';
export const onPostgres = serverUrl !== '';

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Creates an empty database and returns its connection string (PostgreSQL only). */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `shift_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: withDatabase(serverUrl, name),
    async drop() {
      const a = new pg.Client({ connectionString: serverUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

export async function openTestDatabase(): Promise<Database & { url?: string }> {
  if (!onPostgres) return openDatabase({ kind: 'pglite' });
  const { url, drop } = await createPgDatabase();
  const db = await openDatabase({ kind: 'postgres', connectionString: url, max: 20 });
  return {
    ...db,
    url,
    async close() {
      await db.close();
      await drop();
    },
  };
}

/**
 * For a test file: a fresh database (openTestDatabase) with the migrations run, opened before its tests and closed
 * after them, `tables` emptied before each test. Returns the database (defined once the file's beforeAll ran).
 */
export function useMigratedDatabase(tables: readonly string[]): () => Database {
  let db: Database | undefined;
  beforeAll(async () => {
    db = await openTestDatabase();
    await runMigrations(db.pool);
  });
  afterAll(() => db?.close());
  beforeEach(async () => {
    if (tables.length) await db!.pool.query(`TRUNCATE ${tables.join(', ')}`);
  });
  return () => db!;
}
