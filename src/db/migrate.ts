/**
 * Schema migrations with postgres-migrations from the top-level `migrations/` folder (files
 * `NNN_name.sql`, consecutive numbers, never edited once released). Run at every start and by
 * `npm run cli -- migrate`; safe under several instances (the library takes an advisory lock).
 */
import { fileURLToPath } from 'node:url';
import { migrate } from 'postgres-migrations';
import type pg from 'pg';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

/** Applies the pending migrations; returns the names of those applied now. */
export async function runMigrations(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  try {
    const applied = await migrate({ client }, MIGRATIONS_DIR, { logger: () => {} });
    return applied.map((m) => m.name);
  } finally {
    client.release();
  }
}
