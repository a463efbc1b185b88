/**
 * PreparingClient (src/db/database.ts): on PostgreSQL every parameterised query runs as a named prepared
 * statement, parsed once per connection; queries without parameters run as they are. PostgreSQL only: PGlite
 * connections are never given this client.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PreparingClient } from '../../src/db/database.ts';
import { createPgDatabase, onPostgres } from '../helpers/db.ts';

let db: { url: string; drop: () => Promise<void> } | undefined;
let client: PreparingClient;
beforeAll(async () => {
  if (!onPostgres) return;
  db = await createPgDatabase();
  client = new PreparingClient({ connectionString: db.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await db?.drop();
});

it.runIf(onPostgres)('prepares parameterised statements once per connection and leaves the others unnamed', async () => {
  const text = 'SELECT $1::int + 1 AS n';
  expect((await client.query(text, [1])).rows[0].n).toBe(2);
  expect((await client.query(text, [41])).rows[0].n).toBe(42);
  await client.query('SELECT 1');
  const prepared = await client.query(`SELECT statement FROM pg_prepared_statements ORDER BY statement`);
  expect(prepared.rows.map((r: { statement: string }) => r.statement)).toEqual([text]);
});
