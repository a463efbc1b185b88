/**
 * The SQL that writes a projection's changed rows (one definition for every way rows are
 * written). Per table: a DELETE of the deleted keys, then an UPDATE of rows known to exist or an upsert (INSERT … ON
 * CONFLICT DO UPDATE) of the others (for a table of sums always an upsert adding to the stored values), with the rows bound as JSON (`jsonb_populate_record(set)`, so any column type
 * works). Written either
 * - as standalone statements (`writeChanges(q, changes)`: async catch-up and replay, runner.ts), or
 * - as writes of a guarded write (`addRowWrites(w, changes)`): an inline projection's rows, written by the
 *   command's own append statement only when its guards hold (db/guarded-write.ts).
 */
import type { GuardedWrite, WhenGuardsHold } from '../db/guarded-write.ts';
import type { Queryable } from '../db/transaction.ts';
import type { Row, TableSpec } from './projection.ts';

/**
 * The rows of one table a batch changed, by key id (keyId): a full row to write, or null to delete; `existed`
 * when the view the batch was applied over held the row (so it is updated in place rather than upserted).
 */
export interface TableChanges {
  readonly spec: TableSpec;
  readonly changes: ReadonlyMap<string, { readonly key: readonly unknown[]; readonly row: Row | null; readonly existed: boolean }>;
}

/** One write of a table's changes: its rows as JSON, and its SQL given the placeholder bound to them. */
interface RowStatement {
  readonly json: string;
  sql(placeholder: string, when?: WhenGuardsHold): string;
}

/** `name` when it is a plain SQL identifier (table and column names come from code, never from input). */
export function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad identifier ${name}`);
  return name;
}

/**
 * The identity of a row key inside a table (key values as JSON; Dates as ISO text). A key of one text value (most
 * tables: a session, a report, a stream) is that text after a control character no JSON text starts with, without
 * the JSON round (the inline projections ask this for every row of every command).
 */
export const keyId = (key: readonly unknown[]): string =>
  key.length === 1 && typeof key[0] === 'string' ? `\u0001${key[0]}` : JSON.stringify(key.map((k) => (k instanceof Date ? k.toISOString() : k)));

/** The key of `spec` as a row (column → value). */
export function keyRecord(spec: TableSpec, key: readonly unknown[]): Row {
  const rec: Row = {};
  spec.key.forEach((col, i) => (rec[col] = key[i]));
  return rec;
}

/**
 * The FROM item of rows given as JSON in `placeholder`: one row as `jsonb_populate_record` (estimated at one row,
 * so the plan looks it up by key), several as `jsonb_populate_recordset` (estimated at 100, which for one row made
 * the cached generic plan hash-join a sequential scan of the whole table). `json` is what the placeholder binds.
 */
export function rowsFrom(table: string, rows: readonly Row[], alias: string): { json: string; from: (placeholder: string) => string } {
  if (rows.length === 1) return { json: JSON.stringify(rows[0]), from: (p) => `jsonb_populate_record(NULL::${table}, ${p}::jsonb) ${alias}` };
  return { json: JSON.stringify(rows), from: (p) => `jsonb_populate_recordset(NULL::${table}, ${p}::jsonb) ${alias}` };
}

/** The join condition of table alias `t` with the rows of `alias` on the key of `spec`. */
export const keyJoin = (spec: TableSpec, alias: string): string => spec.key.map((c) => `t.${ident(c)} = ${alias}.${ident(c)}`).join(' AND ');

type WriteKind = 'delete' | 'update' | 'upsert';

/**
 * The SQL of one write kind of `spec`'s table, for one row or several (`many`), its rows bound to placeholder `p`,
 * and, in a guarded write, `when` added. A pure function of exactly these arguments (the rows are a parameter, never
 * part of the text), kept per table: the same arguments give the same string, built once.
 */
function writeSql(spec: TableSpec, kind: WriteKind, many: boolean, p: string, when?: WhenGuardsHold): string {
  let bySpec = sqlCache.get(spec);
  if (!bySpec) sqlCache.set(spec, (bySpec = new Map()));
  const key = `${kind} ${many} ${p} ${when?.from ?? ''} ${when?.condition ?? ''}`;
  let sql = bySpec.get(key);
  if (sql === undefined) bySpec.set(key, (sql = buildWriteSql(spec, kind, many, p, when)));
  return sql;
}
const sqlCache = new WeakMap<TableSpec, Map<string, string>>();

function buildWriteSql(spec: TableSpec, kind: WriteKind, many: boolean, p: string, when?: WhenGuardsHold): string {
  const table = ident(spec.name);
  const cols = spec.columns;
  const nonKey = cols.filter((c) => !spec.key.includes(c));
  const alias = kind === 'delete' ? 'k' : 'r';
  const rows = `${many ? 'jsonb_populate_recordset' : 'jsonb_populate_record'}(NULL::${table}, ${p}::jsonb) ${alias}`;
  const from = when ? `, ${when.from}` : '';
  const and = when ? ` AND ${when.condition}` : '';
  switch (kind) {
    case 'delete':
      return `DELETE FROM ${table} t USING ${rows}${from} WHERE ${keyJoin(spec, 'k')}${and}`;
    case 'update':
      return `UPDATE ${table} t SET ${nonKey.map((c) => `${ident(c)} = r.${ident(c)}`).join(', ')}
           FROM ${rows}${from}
          WHERE ${keyJoin(spec, 'r')}${and}`;
    case 'upsert': {
      // A table of sums adds the row's values to those stored (projection.ts TableSpec.sums).
      const set = (c: string) => (spec.sums ? `${ident(c)} = ${table}.${ident(c)} + EXCLUDED.${ident(c)}` : `${ident(c)} = EXCLUDED.${ident(c)}`);
      const onConflict = nonKey.length ? `DO UPDATE SET ${nonKey.map(set).join(', ')}` : 'DO NOTHING';
      return `INSERT INTO ${table} (${cols.map(ident).join(', ')})
         SELECT ${cols.map((c) => `r.${ident(c)}`).join(', ')} FROM ${rows}${from}
         ${when ? `WHERE ${when.condition}` : ''}
         ON CONFLICT (${spec.key.map(ident).join(', ')}) ${onConflict}`;
    }
  }
}

/**
 * The writes of `t`'s changes (module docstring): a DELETE of the deleted keys, then an UPDATE of rows known to
 * exist or an upsert of the others, each with its rows as JSON (one row or several: see rowsFrom).
 */
function statementsOf(t: TableChanges): RowStatement[] {
  const all = [...t.changes.values()];
  const dels = all.filter((c) => c.row === null).map((c) => keyRecord(t.spec, c.key));
  const writes = all.flatMap((c) => (c.row === null ? [] : [{ row: c.row, existed: c.existed }]));
  // UPDATE in place only when every written row exists: an UPDATE and an INSERT of one table are two
  // sub-statements whose order PostgreSQL does not promise, and a unique index may need the update first (a
  // worker's abandoned session closed before the new one opens); one upsert applies its rows in order.
  const nonKey = t.spec.columns.length > t.spec.key.length;
  const inPlace = nonKey && !t.spec.sums && writes.every((c) => c.existed);
  const out: RowStatement[] = [];
  const add = (kind: WriteKind, rows: readonly Row[]) => {
    const many = rows.length !== 1;
    out.push({ json: JSON.stringify(many ? rows : rows[0]), sql: (p, when) => writeSql(t.spec, kind, many, p, when) });
  };
  if (dels.length) add('delete', dels);
  if (writes.length) add(inPlace ? 'update' : 'upsert', writes.map((c) => c.row));
  return out;
}

/** Writes `changes` through `q`, one statement per kind and table. Returns the number of rows changed. */
export async function writeChanges(q: Queryable, changes: Iterable<TableChanges>): Promise<number> {
  let written = 0;
  for (const t of changes) {
    for (const s of statementsOf(t)) await q.query(s.sql('$1'), [s.json]);
    written += t.changes.size;
  }
  return written;
}

/** Adds the writes of `changes` to the guarded write `w`: they run only when its guards hold. */
export function addRowWrites(w: GuardedWrite, changes: Iterable<TableChanges>): void {
  for (const t of changes) {
    for (const s of statementsOf(t)) {
      const p = w.param(s.json);
      w.write((when) => s.sql(p, when));
    }
  }
}
