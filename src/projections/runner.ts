/**
 * Runs projections over batches of events (see projection.ts for the contract):
 * - `applyInMemory(projections, events, view)` (pure): applies the events in order over the rows of `view` and
 *   collects the changed rows per table; inline projection (inline.ts) uses it alone;
 * - `projectBatch(q, projection, events)`: loads every touched row (one query per table), applies the batch in
 *   memory and writes the changed rows (row-writes.ts): async catch-up and replay.
 */
import type { Queryable } from '../db/transaction.ts';
import type { StoredEvent } from '../events/store.ts';
import type { ProjectedEvent, Projection, Row, RowView } from './projection.ts';
import { ident, keyId, keyJoin, keyRecord, rowsFrom, writeChanges, type TableChanges } from './row-writes.ts';

/**
 * Applies `events` in order to every projection of `projections` that handles them, reading rows through `view`
 * (and the rows earlier events of the batch wrote). Returns the changed rows per table. Pure. Throws when a
 * projection writes a table it does not own.
 */
export function applyInMemory(projections: readonly Projection[], events: readonly ProjectedEvent[], view: RowView): Map<string, TableChanges> {
  const out = new Map<string, { spec: TableChanges['spec']; changes: Map<string, { key: readonly unknown[]; row: Row | null; existed: boolean }> }>();
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

  // 2. Apply in memory. 3. Write: deletes, then updates or upserts, one statement per table.
  const changed = applyInMemory([projection], relevant, { get: (table, key) => loaded.get(table)?.get(keyId(key)) });
  return writeChanges(q, changed.values());
}
