/**
 * The two-phase spreadsheet import (decisions.md "Spreadsheet import"), the same for products and
 * people, over the HTTP upload and the command line.
 *
 * `previewImport(ctx, kind, file, actor)` parses and checks the file and compares it with the stored data, writing
 * nothing but the preview itself (tables `import_previews` and, in parts of 2,000 rows, `import_preview_rows`, so any
 * API instance can confirm it). Answer:
 * `{importId, expiresAt, counts: {create, update, unchanged, errors}, create, update, unchanged, errors}`.
 *
 * `confirmImport(ctx, kind, importId, actor)` writes every create and update row of the preview in one
 * transaction and answers `{importId, confirmedAt, counts: {created, updated, unchanged, errors}}`. It locks
 * the table, recomputes the fingerprint of the stored records the preview's rows touch and refuses when it
 * differs, so nothing the user did not see is written.
 *
 * Errors: 422 EMPTY_FILE and the file errors of the reader (src/spreadsheet/table.ts); 404 IMPORT_NOT_FOUND
 * (unknown id, another kind, another uploader), 404 IMPORT_EXPIRED, 409 IMPORT_ALREADY_CONFIRMED,
 * 409 IMPORT_STALE.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/transaction.ts';
import { withTransaction } from '../db/transaction.ts';
import { conflict, notFound, unprocessable } from '../errors.ts';
import { nextTurn, SLICE } from '../shared/turns.ts';
import { toZonedIso } from '../time.ts';
import type { ClassifyContext, ImportKind } from './kind.ts';
import type { CommandActor } from '../commands/command.ts';
import { localDate } from '../time.ts';
import type { ErrorRow } from './problems.ts';
import { MAX_IMPORT_ROWS, PREVIEW_RETENTION_MS, PREVIEW_TTL_MS } from './limits.ts';
import { organizationCatalog } from '../queries/organization.ts';

export interface ImportCounts {
  create: number;
  update: number;
  unchanged: number;
  errors: number;
}

export interface PreviewAnswer<TRow> {
  importId: string;
  /** ISO 8601 with offset; confirming after it is refused. */
  expiresAt: string;
  counts: ImportCounts;
  create: TRow[];
  update: TRow[];
  unchanged: TRow[];
  errors: ErrorRow[];
}

export interface ConfirmAnswer {
  importId: string;
  confirmedAt: string;
  counts: { created: number; updated: number; unchanged: number; errors: number };
}

interface StoredRows<TRow> {
  create: TRow[];
  update: TRow[];
  unchanged: TRow[];
}

/** Rows of a preview stored per statement (migrations/009): small enough that no statement holds the event loop. */
const PART_ROWS = SLICE;
const LISTS = ['create', 'update', 'unchanged'] as const;

/** Stores `rows` of preview `importId` in parts of PART_ROWS rows, one statement each, inside `tx`. */
async function writeRowParts<TRow>(tx: Queryable, importId: string, rows: StoredRows<TRow>): Promise<void> {
  let part = 0;
  for (const list of LISTS) {
    for (let i = 0; i < rows[list].length; i += PART_ROWS) {
      await tx.query(`INSERT INTO import_preview_rows (import_id, part, list, rows) VALUES ($1, $2, $3, $4)`, [
        importId,
        part++,
        list,
        JSON.stringify(rows[list].slice(i, i + PART_ROWS)),
      ]);
    }
  }
}

/** The rows of preview `importId`, put back together from its parts. */
async function readRowParts<TRow>(tx: Queryable, importId: string): Promise<StoredRows<TRow>> {
  const out: StoredRows<TRow> = { create: [], update: [], unchanged: [] };
  const r = await tx.query<{ list: (typeof LISTS)[number]; rows: TRow[] }>(
    `SELECT list, rows FROM import_preview_rows WHERE import_id = $1 ORDER BY part`,
    [importId],
  );
  for (const p of r.rows) out[p.list].push(...p.rows);
  return out;
}

/** Who uploads or confirms: a phone, or null for the command line. A preview is confirmed by its uploader. */
export type Actor = string | null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function fingerprint<TRow extends { row: number }, TStored>(
  q: Queryable,
  kind: ImportKind<TRow, TStored>,
  rows: readonly TRow[],
  timeZone: string,
): Promise<{ stored: Map<string, TStored>; hash: string }> {
  const stored = await kind.loadStored(q, rows, timeZone);
  const h = createHash('sha256');
  const keys = [...stored.keys()].sort();
  for (let i = 0; i < keys.length; i += SLICE) {
    if (i > 0) await nextTurn();
    for (const key of keys.slice(i, i + SLICE)) h.update(JSON.stringify([key, kind.canonical(stored.get(key)!)])).update('\n');
  }
  return { stored, hash: h.digest('hex') };
}

/**
 * Today, the closed months (a rate may not start in a closed month) and the organization (a
 * personnel list's 车间 and 班组).
 */
async function classifyContext(q: Queryable, today: string): Promise<ClassifyContext> {
  const r = await q.query(`SELECT month FROM periods WHERE status = 'closed' ORDER BY month`);
  return { today, closedMonths: r.rows.map((x) => x.month), organization: await organizationCatalog(q) };
}

/**
 * Phase one of an import (module docstring): parses and checks `file` (at most MAX_IMPORT_ROWS rows), classifies the
 * rows against the stored data and stores the preview for `actor`, valid PREVIEW_TTL_MS (30 minutes); writes no
 * records. `expiresAt` is ISO 8601 in APP_TIMEZONE. Throws AppError 422 EMPTY_FILE and the reader's 422s.
 */
export async function previewImport<TRow extends { row: number }, TStored>(
  ctx: AppContext,
  kind: ImportKind<TRow, TStored>,
  file: { buffer: Uint8Array; fileName?: string },
  actor: Actor,
): Promise<PreviewAnswer<TRow>> {
  if (file.buffer.length === 0) throw unprocessable('EMPTY_FILE', '上传的文件是空的，请选择要导入的 Excel 文件');
  const parsed = await kind.parse(file.buffer, MAX_IMPORT_ROWS);
  const tz = ctx.config.timeZone;
  const now = ctx.clock.now();
  const { stored, hash: hashOfAll } = await fingerprint(ctx.db.pool, kind, parsed.valid, tz);
  const c = kind.classify(parsed.valid, stored, await classifyContext(ctx.db.pool, localDate(now, tz)));
  // The confirmation fingerprints the rows it keeps (create, update, unchanged): when the classification refused rows
  // that have stored records, the preview's fingerprint is of the kept rows too, or every such preview were stale.
  const hash = c.errors.length ? (await fingerprint(ctx.db.pool, kind, [...c.create, ...c.update, ...c.unchanged], tz)).hash : hashOfAll;
  const errors = [...parsed.errors, ...c.errors].sort((a, b) => a.row - b.row);
  const counts: ImportCounts = { create: c.create.length, update: c.update.length, unchanged: c.unchanged.length, errors: errors.length };
  const expiresAt = new Date(now.getTime() + PREVIEW_TTL_MS);
  const importId = randomUUID();
  const rows: StoredRows<TRow> = { create: c.create, update: c.update, unchanged: c.unchanged };
  await ctx.db.pool.query(`DELETE FROM import_previews WHERE expires_at < $1`, [new Date(now.getTime() - PREVIEW_RETENTION_MS)]);
  await withTransaction(ctx.db.pool, async (tx) => {
    await tx.query(
      `INSERT INTO import_previews (import_id, kind, created_by, file_name, created_at, expires_at, fingerprint, counts)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [importId, kind.name, actor, file.fileName ?? null, now, expiresAt, hash, JSON.stringify(counts)],
    );
    await writeRowParts(tx, importId, rows);
  });
  return { importId, expiresAt: toZonedIso(expiresAt, tz), counts, create: c.create, update: c.update, unchanged: c.unchanged, errors };
}

/**
 * Phase two: writes the create and update rows of preview `importId` in one transaction, once, for the actor who
 * uploaded it (`by` records the events the write makes: a product's rates); `confirmedAt` is ISO 8601 in
 * APP_TIMEZONE. Throws AppError 404 IMPORT_NOT_FOUND, 404 IMPORT_EXPIRED, 409 IMPORT_ALREADY_CONFIRMED, 409
 * IMPORT_STALE (the stored records changed since the preview), and the domain errors of the events written
 * (PERIOD_CLOSED: a month was closed since the preview).
 */
export async function confirmImport<TRow extends { row: number }, TStored>(
  ctx: AppContext,
  kind: ImportKind<TRow, TStored>,
  importId: string,
  actor: Actor,
  by: CommandActor,
): Promise<ConfirmAnswer> {
  const unknown = () => notFound('IMPORT_NOT_FOUND', '没有找到这次导入预览，请重新上传文件');
  if (!UUID.test(importId)) throw unknown();
  const tz = ctx.config.timeZone;
  return withTransaction(ctx.db.pool, async (tx) => {
    const r = await tx.query<{
      created_by: string | null;
      expires_at: Date;
      confirmed_at: Date | null;
      fingerprint: string;
      counts: ImportCounts;
    }>(
      `SELECT created_by, expires_at, confirmed_at, fingerprint, counts FROM import_previews
        WHERE import_id = $1 AND kind = $2 FOR UPDATE`,
      [importId, kind.name],
    );
    const p = r.rows[0];
    if (!p || p.created_by !== actor) throw unknown();
    if (p.confirmed_at) {
      throw conflict('IMPORT_ALREADY_CONFIRMED', `这次导入已在 ${toZonedIso(p.confirmed_at, tz)} 确认过，不会重复写入`);
    }
    const now = ctx.clock.now();
    if (now.getTime() >= p.expires_at.getTime()) {
      throw notFound('IMPORT_EXPIRED', `导入预览已过期（${PREVIEW_TTL_MS / 60_000} 分钟内有效），请重新上传文件`);
    }
    await kind.lock(tx);
    const rows = await readRowParts<TRow>(tx, importId);
    const all = [...rows.create, ...rows.update, ...rows.unchanged];
    const { hash } = await fingerprint(tx, kind, all, tz);
    if (hash !== p.fingerprint) {
      throw conflict('IMPORT_STALE', '预览之后数据已被修改（有人导入或编辑过），为避免覆盖，请重新上传文件预览后再确认');
    }
    await kind.write(tx, rows.create, rows.update, now, { commands: ctx.commands, actor: by, timeZone: tz });
    await tx.query(`UPDATE import_previews SET confirmed_at = $2 WHERE import_id = $1`, [importId, now]);
    return {
      importId,
      confirmedAt: toZonedIso(now, tz),
      counts: { created: rows.create.length, updated: rows.update.length, unchanged: rows.unchanged.length, errors: p.counts.errors },
    };
  });
}
