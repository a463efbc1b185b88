/**
 * Every projection's table specs name exactly the columns the migrations create (src/projections/projection.ts
 * `TableSpec.columns`): row writes list the columns from the spec, so a column added by a migration and missing
 * from its spec (or the reverse) fails here, not in production; upserts conflict on the spec's key, which must
 * be a unique index.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { projections } from '../../src/projections/index.ts';
import { openTestDatabase } from '../helpers/db.ts';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  await runMigrations(db.pool);
});
afterAll(() => db.close());

it('each table spec lists the columns of its table, and its key is a unique index of it (upserts conflict on it)', async () => {
  const specs = projections.flatMap((p) => p.tables);
  expect(specs.length).toBeGreaterThanOrEqual(6);
  for (const spec of specs) {
    const cols = await db.pool.query(`SELECT column_name FROM information_schema.columns WHERE table_name = $1`, [spec.name]);
    expect({ table: spec.name, columns: [...spec.columns].sort() }).toEqual({ table: spec.name, columns: cols.rows.map((r) => r.column_name).sort() });
    const unique = await db.pool.query(
      `SELECT array_agg(a.attname::text ORDER BY a.attname) AS cols
         FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
        WHERE i.indrelid = $1::regclass AND i.indisunique GROUP BY i.indexrelid`,
      [spec.name],
    );
    expect({ table: spec.name, uniqueIndexes: unique.rows.map((r) => r.cols) }).toEqual({
      table: spec.name,
      uniqueIndexes: expect.arrayContaining([[...spec.key].sort()]),
    });
  }
});
