/**
 * Migrations over data written by an earlier release (migrations are never edited once released, so a new one
 * must carry existing rows): a database at migration 005 with a report's audit rows keyed by global position is
 * brought to the latest schema, and the rows keep their order under the new key (006: report stream version); an
 * import preview of 008 is split into parts (009); reports and dashboard rows of 009 get no plausibility flags (010).
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate } from 'postgres-migrations';
import type { Database } from '../../src/db/database.ts';
import { MIGRATIONS_DIR, runMigrations } from '../../src/db/migrate.ts';
import { openTestDatabase } from '../helpers/db.ts';

let db: Database;
let dir: string;

beforeAll(async () => {
  db = await openTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'migrations-005-'));
  for (const f of readdirSync(MIGRATIONS_DIR).filter((f) => f <= '005_~')) cpSync(join(MIGRATIONS_DIR, f), join(dir, f));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await db?.close();
});

it('006 keys existing audit rows by their report stream version, keeping their order', async () => {
  const client = await db.pool.connect();
  try {
    await migrate({ client }, dir, { logger: () => {} });
  } finally {
    client.release();
  }
  const report = '6f1c1f0e-8a39-4c3e-9d0b-3f5f0d3f8e21';
  const stream = `report-${report}`;
  // Two events of the report (versions 1, 2) with an unrelated event between them (a higher global position).
  const pos = async (s: string, v: number, type: string) =>
    Number(
      (await db.pool.query(`INSERT INTO events (stream_id, stream_version, event_type, data) VALUES ($1, $2, $3, '{}') RETURNING global_position`, [s, v, type]))
        .rows[0].global_position,
    );
  const submitted = await pos(stream, 1, 'ReportSubmitted');
  await pos('worker-13800000001', 1, 'ClockedIn');
  const approved = await pos(stream, 2, 'ReportApproved');
  const audit = (p: number, seq: number, action: string) =>
    db.pool.query(`INSERT INTO report_audit_logs (event_position, seq, report_id, action, at) VALUES ($1, $2, $3, $4, now())`, [p, seq, report, action]);
  await audit(submitted, 0, 'submitted');
  await audit(approved, 0, 'corrected');
  await audit(approved, 1, 'approved');

  const applied = await runMigrations(db.pool);
  expect(applied[0]).toBe('audit_log_by_stream_version');
  const rows = (await db.pool.query(`SELECT stream_version, seq, action FROM report_audit_logs WHERE report_id = $1 ORDER BY stream_version, seq`, [report])).rows;
  expect(rows.map((r) => [Number(r.stream_version), r.seq, r.action])).toEqual([
    [1, 0, 'submitted'],
    [2, 0, 'corrected'],
    [2, 1, 'approved'],
  ]);
  const key = await db.pool.query(
    `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = 'report_audit_logs'::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
  );
  expect(key.rows.map((r) => r.attname)).toEqual(['report_id', 'stream_version', 'seq']);
});

/** A fresh database brought to migration `last` (e.g. '008') only; `close()` drops it and its folder. */
async function databaseAt(last: string): Promise<{ db: Database; close(): Promise<void> }> {
  const db = await openTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), `migrations-${last}-`));
  for (const f of readdirSync(MIGRATIONS_DIR).filter((f) => f <= `${last}_~`)) cpSync(join(MIGRATIONS_DIR, f), join(dir, f));
  const client = await db.pool.connect();
  try {
    await migrate({ client }, dir, { logger: () => {} });
  } finally {
    client.release();
  }
  return {
    db,
    async close() {
      rmSync(dir, { recursive: true, force: true });
      await db.close();
    },
  };
}

it('009 moves the rows of open import previews into parts, and such a preview still confirms', async () => {
  const at008 = await databaseAt('008');
  const old = at008.db;
  try {
    const id = '3d8f6a2c-1b4e-4f7a-9c5d-0e2f4a6b8c1d';
    const rows = { create: [{ row: 2, phone: '13800000002' }], update: [], unchanged: [{ row: 3, phone: '13800000003' }] };
    await old.pool.query(
      `INSERT INTO import_previews (import_id, kind, created_by, created_at, expires_at, fingerprint, counts, rows)
       VALUES ($1, 'people', NULL, now(), now() + interval '30 minutes', 'x', '{}', $2)`,
      [id, JSON.stringify(rows)],
    );
    expect((await runMigrations(old.pool))[0]).toBe('import_preview_parts');
    const parts = await old.pool.query(`SELECT part, list, rows FROM import_preview_rows WHERE import_id = $1 ORDER BY part`, [id]);
    expect(parts.rows).toEqual([
      { part: 0, list: 'create', rows: rows.create },
      { part: 1, list: 'update', rows: [] },
      { part: 2, list: 'unchanged', rows: rows.unchanged },
    ]);
  } finally {
    await at008.close();
  }
});

it('010 gives the reports and dashboard rows written before it no plausibility flags, as their events say', async () => {
  const at009 = await databaseAt('009');
  const old = at009.db;
  try {
    await old.pool.query(
      `INSERT INTO reports (report_id, session_id, employee_phone, report_date, status, clock_in_at, clock_out_at, break_minutes, devices, lines, submitted_at, updated_at)
       VALUES (gen_random_uuid(), gen_random_uuid(), '13800000001', '2026-03-02', 'pending', now(), now(), 0, '{}', '[]', now(), now())`,
    );
    await old.pool.query(
      `INSERT INTO dashboard_daily (report_date, employee_phone, report_count, effective_ms, finished_qty, defective_qty, output_qty, cycle_output_milli, standard_workload)
       VALUES ('2026-03-02', '13800000001', 1, 0, 0, 0, 0, 0, 0)`,
    );
    expect(await runMigrations(old.pool)).toContain('plausibility_flags');
    expect((await old.pool.query(`SELECT flags FROM reports`)).rows).toEqual([{ flags: [] }]);
    expect((await old.pool.query(`SELECT flagged FROM dashboard_daily`)).rows).toEqual([{ flagged: [] }]);
  } finally {
    await at009.close();
  }
});
