import pg from 'pg';
import fs from 'node:fs';
import { runMigrations } from '../src/db/migrate.ts';
import { withBenchDatabase } from '../bench/db.ts';
const { text, values } = JSON.parse(fs.readFileSync('/tmp/submit.json', 'utf8'));
await withBenchDatabase(async (url) => {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => {});
  await c.connect();
  try {
  { const pool = new pg.Pool({ connectionString: url, max: 1 }); await runMigrations(pool); await pool.end(); }
  const name = 'sub';
  for (let i = 0; i < 8; i++) {
    const t = process.hrtime.bigint();
    await c.query({ name, text, values });
    console.log('exec', i, Number(process.hrtime.bigint() - t) / 1e6, 'ms');
  }
  // EXPLAIN EXECUTE via a SQL-level prepared statement with the same text
  const lit = (v: any) => (v === null ? 'NULL' : `'${String(v instanceof Date ? v.toISOString() : typeof v === 'string' && v.startsWith('"') ? v : v).replace(/'/g, "''")}'`);
  await c.query(`PREPARE p2 AS ${text}`);
  const args = values.map((v: any) => (v === null ? 'NULL' : typeof v === 'object' && !(typeof v === 'string') ? lit(JSON.stringify(v)) : lit(v))).join(', ');
  for (let i = 0; i < 7; i++) await c.query(`EXECUTE p2(${args})`);
  const r = await c.query(`EXPLAIN EXECUTE p2(${args})`);
  console.log(r.rows.map((x: any) => x['QUERY PLAN']).slice(0, 12).join('\n'));
  const s = await c.query(`SELECT name, generic_plans, custom_plans FROM pg_prepared_statements`);
  console.log(s.rows);
  } catch (e) { console.log('ERR', (e as Error).message); }
  await c.end();
});
