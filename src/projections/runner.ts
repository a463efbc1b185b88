/**
 * Runs projections over batches of events (see projection.ts for the contract), in three steps that can also be
 * used apart:
 * 1. load every touched row, one query per table (`projectBatch` only);
 * 2. `applyInMemory(projections, events, view)`: apply the events in order over the rows of `view` (pure) and
 *    collect the changed rows per table;
 * 3. `rowWriteSql(...)`: per table, a DELETE and an UPDATE (rows known to exist) or upsert, with the rows as JSON
 *    (`jsonb_populate_record(set)`, so any column types work), run on their own by `projectBatch`, or embedded in
 *    the append's statement by the event store (`AppendOptions.rows`), so that a command appends and projects
 *    inline in one round trip.
 */
import type { Queryable } from '../db/transaction.ts';
import type { StoredEvent } from '../events/store.ts';
import type { Projection, Row, RowView, TableSpec } from './projection.ts';

const columnCache = new Map<string, string[]>();
const columnReads = new Map<string, Promise<string[]>>();

/**
 * The column names of `table` (read once per process): the cached list itself once known (no promise to wait for
 * on the hot path), else a promise of it, shared by every caller until the one read answers (a burst of first
 * requests asks the database once, not once each).
 */
export function columnsOf(q: Queryable, table: string): string[] | Promise<string[]> {
  const cols = columnCache.get(table);
  if (cols) return cols;
  let read = columnReads.get(table);
  if (!read) {
    read = q.query(`SELECT * FROM ${ident(table)} LIMIT 0`).then(
      (r) => {
        const names = r.fields.map((f) => f.name);
        columnCache.set(table, names);
        columnReads.delete(table);
        return names;
      },
      (err) => {
        columnReads.delete(table);
        throw err;
      },
    );
    columnReads.set(table, read);
  }
  return read;
}

function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad identifier ${name}`);
  return name;
}

/** The identity of a row key inside a table (key values as JSON; Dates as ISO text). */
export const keyId = (key: readonly unknown[]) => JSON.stringify(key.map((k) => (k instanceof Date ? k.toISOString() : k)));

function keyRecord(spec: TableSpec, key: readonly unknown[]): Row {
  const rec: Row = {};
  spec.key.forEach((col, i) => (rec[col] = key[i]));
  return rec;
}

/**
 * The FROM item of rows given as JSON in `placeholder`: one row as `jsonb_populate_record` (estimated at one row,
 * so the plan looks it up by key), several as `jsonb_populate_recordset` (estimated at 100, which for one row made
 * the cached generic plan hash-join a sequential scan of the whole table). `json` is what the placeholder binds.
 */
function rowsFrom(table: string, rows: readonly Row[], alias: string): { json: string; from: (placeholder: string) => string } {
  if (rows.length === 1) return { json: JSON.stringify(rows[0]), from: (p) => `jsonb_populate_record(NULL::${table}, ${p}::jsonb) ${alias}` };
  return { json: JSON.stringify(rows), from: (p) => `jsonb_populate_recordset(NULL::${table}, ${p}::jsonb) ${alias}` };
}

function keyJoin(spec: TableSpec, alias: string): string {
  return spec.key.map((c) => `t.${ident(c)} = ${alias}.${ident(c)}`).join(' AND ');
}

/**
 * The rows of one table a batch changed, by key id: a full row to write, or null to delete; `existed` when the
 * view the batch was applied over held the row (so it is updated in place rather than upserted).
 */
export interface TableChanges {
  readonly spec: TableSpec;
  readonly changes: Map<string, { key: readonly unknown[]; row: Row | null; existed: boolean }>;
}

/**
 * Step 2 (pure): applies `events` in order to every projection of `projections` that handles them, reading
 * rows through `view` (and the rows earlier events of the batch wrote). Returns the changed rows per table.
 * Throws when a projection writes a table it does not own.
 */
export function applyInMemory(projections: readonly Projection[], events: readonly StoredEvent<any>[], view: RowView): Map<string, TableChanges> {
  const out = new Map<string, TableChanges>();
  for (const projection of projections) {
    const specs = new Map(projection.tables.map((t) => [t.name, t]));
    const written = new Map<string, Map<string, Row | null>>();
    const local: RowView = {
      get(table, key) {
        const w = written.get(table)?.get(keyId(key));
        return w !== undefined ? (w ?? undefined) : view.get(table, key);
      },
    };
    for (const e of events) {
      if (!projection.eventTypes.includes(e.type)) continue;
      for (const w of projection.apply(e, local)) {
        const spec = specs.get(w.table);
        if (!spec) throw new Error(`projection ${projection.name} does not own table ${w.table}`);
        const id = keyId(w.key);
        let t = out.get(w.table);
        if (!t) out.set(w.table, (t = { spec, changes: new Map() }));
        const existed = t.changes.get(id)?.existed ?? view.get(w.table, w.key) !== undefined;
        let m = written.get(w.table);
        if (!m) written.set(w.table, (m = new Map()));
        m.set(id, w.row);
        t.changes.set(id, { key: w.key, row: w.row, existed });
      }
    }
  }
  return out;
}

/**
 * One write statement of a table's changes: its rows as JSON, and its SQL given the placeholder bound to them.
 * `key` names the SQL's shape (table, statement kind, one row or several): the same key gives the same SQL for the
 * same placeholder within a process (a table's columns are read once per process).
 */
export interface RowWrite {
  readonly key: string;
  readonly json: string;
  sql(placeholder: string): string;
}

/**
 * Step 3: the statements writing `t`'s changes: a DELETE of the deleted keys, an UPDATE of the rows known to exist,
 * and an upsert (INSERT … ON CONFLICT DO UPDATE) of the others. `cols` are the table's columns (columnsOf).
 * `when` (optional): a `FROM` item and a condition on it that must hold for anything to be written (the append's
 * checks, when embedded in its statement).
 */
export function rowWriteSql(t: TableChanges, cols: readonly string[], when?: { from: string; condition: string }): RowWrite[] {
  const table = ident(t.spec.name);
  const all = [...t.changes.values()];
  const dels = all.filter((c) => c.row === null).map((c) => keyRecord(t.spec, c.key));
  const nonKey = cols.filter((c) => !t.spec.key.includes(c));
  const writes = all.filter((c) => c.row !== null);
  // UPDATE in place only when every written row exists: an UPDATE and an INSERT of one table are two
  // sub-statements whose order PostgreSQL does not promise, and a unique index may need the update first (a
  // worker's abandoned session closed before the new one opens); one upsert applies its rows in order.
  const inPlace = nonKey.length > 0 && writes.every((c) => c.existed);
  const updates = inPlace ? writes.map((c) => c.row!) : [];
  const ups = inPlace ? [] : writes.map((c) => c.row!);
  const from = when ? `, ${when.from}` : '';
  const out: RowWrite[] = [];
  if (dels.length) {
    const k = rowsFrom(table, dels, 'k');
    out.push({
      key: `${table}:delete:${dels.length === 1 ? 1 : 'n'}`,
      json: k.json,
      sql: (p) => `DELETE FROM ${table} t USING ${k.from(p)}${from} WHERE ${keyJoin(t.spec, 'k')}${when ? ` AND ${when.condition}` : ''}`,
    });
  }
  if (updates.length) {
    const r = rowsFrom(table, updates, 'r');
    out.push({
      key: `${table}:update:${updates.length === 1 ? 1 : 'n'}`,
      json: r.json,
      sql: (p) =>
        `UPDATE ${table} t SET ${nonKey.map((c) => `${ident(c)} = r.${ident(c)}`).join(', ')}
           FROM ${r.from(p)}${from}
          WHERE ${keyJoin(t.spec, 'r')}${when ? ` AND ${when.condition}` : ''}`,
    });
  }
  if (ups.length) {
    const onConflict = nonKey.length ? `DO UPDATE SET ${nonKey.map((c) => `${ident(c)} = EXCLUDED.${ident(c)}`).join(', ')}` : 'DO NOTHING';
    const r = rowsFrom(table, ups, 'r');
    out.push({
      key: `${table}:upsert:${ups.length === 1 ? 1 : 'n'}`,
      json: r.json,
      sql: (p) =>
        `INSERT INTO ${table} (${cols.map(ident).join(', ')})
         SELECT ${cols.map((c) => `r.${ident(c)}`).join(', ')} FROM ${r.from(p)}${from}
         ${when ? `WHERE ${when.condition}` : ''}
         ON CONFLICT (${t.spec.key.map(ident).join(', ')}) ${onConflict}`,
    });
  }
  return out;
}

/** Applies `events` (already filtered or not) to `projection`'s tables through `q`. Returns the rows written. */
export async function projectBatch(q: Queryable, projection: Projection, events: readonly StoredEvent<any>[]): Promise<number> {
  const relevant = events.filter((e) => projection.eventTypes.includes(e.type));
  if (relevant.length === 0) return 0;
  const specs = new Map(projection.tables.map((t) => [t.name, t]));

  // 1. Load the touched rows, one query per table.
  const wanted = new Map<string, Map<string, readonly unknown[]>>();
  for (const e of relevant) {
    for (const ref of projection.touches(e)) {
      if (!specs.has(ref.table)) throw new Error(`projection ${projection.name} does not own table ${ref.table}`);
      let m = wanted.get(ref.table);
      if (!m) wanted.set(ref.table, (m = new Map()));
      m.set(keyId(ref.key), ref.key);
    }
  }
  const loaded = new Map<string, Map<string, Row>>();
  for (const [table, keys] of wanted) {
    const s = specs.get(table)!;
    const k = rowsFrom(ident(table), [...keys.values()].map((key) => keyRecord(s, key)), 'k');
    const r = await q.query(`SELECT t.* FROM ${ident(table)} t JOIN ${k.from('$1')} ON ${keyJoin(s, 'k')}`, [k.json]);
    const c = new Map<string, Row>();
    // JSON round trip: loaded rows look exactly like rows the projection writes (timestamps as ISO text).
    for (const row of JSON.parse(JSON.stringify(r.rows)) as Row[]) c.set(keyId(s.key.map((col) => row[col])), row);
    loaded.set(table, c);
  }

  // 2. Apply in memory.
  const changed = applyInMemory([projection], relevant, { get: (table, key) => loaded.get(table)?.get(keyId(key)) });

  // 3. Write: deletes, then upserts, one statement per table.
  let written = 0;
  for (const t of changed.values()) {
    for (const w of rowWriteSql(t, await columnsOf(q, t.spec.name))) await q.query(w.sql('$1'), [w.json]);
    written += t.changes.size;
  }
  return written;
}
