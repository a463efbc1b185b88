/**
 * Runs projections over batches of events (see projection.ts for the contract).
 *
 * `projectBatch(q, projection, events)`: loads every touched row with one query per table, applies the events
 * in order in memory, then deletes and upserts the changed rows with one statement per table
 * (`jsonb_populate_recordset`, so any column types work). Runs inside the caller's transaction.
 */
import type { Queryable } from '../db/transaction.ts';
import type { StoredEvent } from '../events/store.ts';
import type { Projection, Row, RowView, TableSpec } from './projection.ts';

const columnCache = new Map<string, string[]>();

async function columnsOf(q: Queryable, table: string): Promise<string[]> {
  let cols = columnCache.get(table);
  if (!cols) {
    const r = await q.query(`SELECT * FROM ${ident(table)} LIMIT 0`);
    cols = r.fields.map((f) => f.name);
    columnCache.set(table, cols);
  }
  return cols;
}

function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad identifier ${name}`);
  return name;
}

const keyId = (key: readonly unknown[]) => JSON.stringify(key.map((k) => (k instanceof Date ? k.toISOString() : k)));

function keyRecord(spec: TableSpec, key: readonly unknown[]): Row {
  const rec: Row = {};
  spec.key.forEach((col, i) => (rec[col] = key[i]));
  return rec;
}

function keyJoin(spec: TableSpec, alias: string): string {
  return spec.key.map((c) => `t.${ident(c)} = ${alias}.${ident(c)}`).join(' AND ');
}

/** Applies `events` (already filtered or not) to `projection`'s tables through `q`. Returns the rows written. */
export async function projectBatch(q: Queryable, projection: Projection, events: readonly StoredEvent<any>[]): Promise<number> {
  const relevant = events.filter((e) => projection.eventTypes.includes(e.type));
  if (relevant.length === 0) return 0;
  const specs = new Map(projection.tables.map((t) => [t.name, t]));
  const spec = (table: string) => {
    const s = specs.get(table);
    if (!s) throw new Error(`projection ${projection.name} does not own table ${table}`);
    return s;
  };

  // 1. Load the touched rows, one query per table.
  const wanted = new Map<string, Map<string, readonly unknown[]>>();
  for (const e of relevant) {
    for (const ref of projection.touches(e)) {
      spec(ref.table);
      let m = wanted.get(ref.table);
      if (!m) wanted.set(ref.table, (m = new Map()));
      m.set(keyId(ref.key), ref.key);
    }
  }
  const cache = new Map<string, Map<string, Row | null>>();
  for (const t of projection.tables) cache.set(t.name, new Map());
  for (const [table, keys] of wanted) {
    const s = spec(table);
    const recs = [...keys.values()].map((k) => keyRecord(s, k));
    const r = await q.query(
      `SELECT t.* FROM ${ident(table)} t
         JOIN jsonb_populate_recordset(NULL::${ident(table)}, $1::jsonb) k ON ${keyJoin(s, 'k')}`,
      [JSON.stringify(recs)],
    );
    const c = cache.get(table)!;
    // JSON round trip: loaded rows look exactly like rows the projection writes (timestamps as ISO text).
    for (const row of JSON.parse(JSON.stringify(r.rows)) as Row[]) c.set(keyId(s.key.map((col) => row[col])), row);
  }

  // 2. Apply in memory.
  const dirty = new Map<string, Map<string, { key: readonly unknown[]; row: Row | null }>>();
  const view: RowView = {
    get(table, key) {
      spec(table);
      return cache.get(table)!.get(keyId(key)) ?? undefined;
    },
  };
  for (const e of relevant) {
    for (const w of projection.apply(e, view)) {
      spec(w.table);
      const id = keyId(w.key);
      cache.get(w.table)!.set(id, w.row);
      let d = dirty.get(w.table);
      if (!d) dirty.set(w.table, (d = new Map()));
      d.set(id, { key: w.key, row: w.row });
    }
  }

  // 3. Write: deletes, then upserts, one statement per table.
  let written = 0;
  for (const [table, changes] of dirty) {
    const s = spec(table);
    const all = [...changes.values()];
    const dels = all.filter((c) => c.row === null).map((c) => keyRecord(s, c.key));
    const ups = all.filter((c) => c.row !== null).map((c) => c.row!);
    if (dels.length) {
      await q.query(
        `DELETE FROM ${ident(table)} t USING jsonb_populate_recordset(NULL::${ident(table)}, $1::jsonb) k WHERE ${keyJoin(s, 'k')}`,
        [JSON.stringify(dels)],
      );
    }
    if (ups.length) {
      const cols = await columnsOf(q, table);
      const nonKey = cols.filter((c) => !s.key.includes(c));
      const onConflict = nonKey.length
        ? `DO UPDATE SET ${nonKey.map((c) => `${ident(c)} = EXCLUDED.${ident(c)}`).join(', ')}`
        : 'DO NOTHING';
      await q.query(
        `INSERT INTO ${ident(table)} (${cols.map(ident).join(', ')})
         SELECT ${cols.map(ident).join(', ')} FROM jsonb_populate_recordset(NULL::${ident(table)}, $1::jsonb)
         ON CONFLICT (${s.key.map(ident).join(', ')}) ${onConflict}`,
        [JSON.stringify(ups)],
      );
    }
    written += dels.length + ups.length;
  }
  return written;
}
