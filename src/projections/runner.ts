/**
 * Runs projections over batches of events (see projection.ts for the contract):
 * - `applyInMemory(projections, events, view)` (pure): applies the events in order over the rows of `view` and
 *   collects the changed rows per table; inline projection (inline.ts) uses it alone;
 * - `projectBatch(q, projection, events)`: loads every touched row (or the batch's `ahead`; one query per table), applies the batch in
 *   memory and writes the changed rows (row-writes.ts): async catch-up and replay. For a projection with `needs`
 *   (rows found through other rows, and scans), it first loads what the events need as seen before the
 *   batch, in rounds, then, event by event, whatever an event still needs given what the earlier events of the
 *   batch wrote; a scan's rows are those loaded by it with the batch's writes laid over them.
 */
import type { Queryable } from '../db/transaction.ts';
import type { StoredEvent } from '../events/store.ts';
import type { ProjectedEvent, Projection, Row, RowRef, RowScan, RowView, ScanCondition, TableSpec } from './projection.ts';
import { ident, keyId, keyJoin, keyRecord, rowsFrom, writeChanges, type TableChanges } from './row-writes.ts';

type Changes = Map<string, { spec: TableSpec; changes: Map<string, { key: readonly unknown[]; row: Row | null; existed: boolean }> }>;

/** Whether `row` meets every condition of `where` (compared as text: projection.ts ScanCondition). */
export function meets(row: Row, where: RowScan['where']): boolean {
  for (const [col, c] of Object.entries(where)) {
    const v = row[col] === null || row[col] === undefined ? undefined : String(row[col]);
    if (v === undefined) return false;
    if ('eq' in c) {
      if (v !== String(c.eq)) return false;
    } else if ('in' in c) {
      if (!c.in.some((x) => String(x) === v)) return false;
    } else if ((c.gte !== undefined && v < c.gte) || (c.lt !== undefined && v >= c.lt)) return false;
  }
  return true;
}

/** A scan's identity. */
const scanId = (s: RowScan) => JSON.stringify([s.table, Object.entries(s.where).sort(([a], [b]) => (a < b ? -1 : 1))]);
const isScan = (n: RowRef | RowScan): n is RowScan => 'where' in n;

/**
 * The events of a batch applied one by one to projections, over `base` (the rows before the batch), with what
 * each wrote laid over it: `view` is what the next event sees, `changes` what the batch writes.
 */
class BatchApply {
  readonly changes: Changes = new Map();
  private readonly written = new Map<string, Map<string, Row | null>>();

  constructor(
    /** The tables written, by name. */
    private readonly specs: ReadonlyMap<string, TableSpec>,
    private readonly base: RowView,
    /** The rows a scan may find before the batch, by table (the loaded ones). */
    private readonly baseRows?: (table: string) => Iterable<Row>,
  ) {}

  readonly view: RowView = {
    get: (table, key) => {
      const w = this.written.get(table)?.get(keyId(key));
      return w !== undefined ? (w ?? undefined) : this.base.get(table, key);
    },
    scan: (table, where) => {
      if (!this.baseRows) throw new Error(`no scans here (${table})`);
      const out: Row[] = [];
      const written = this.written.get(table);
      for (const row of this.baseRows(table)) {
        if (written?.has(this.idOf(table, row))) continue;
        if (meets(row, where)) out.push(row);
      }
      for (const row of written?.values() ?? []) if (row && meets(row, where)) out.push(row);
      return out;
    },
  };

  private idOf(table: string, row: Row): string {
    return keyId(this.specs.get(table)!.key.map((c) => row[c]));
  }

  /** Whether the batch has written (or deleted) the row of `table` with key id `id`. */
  wrote(table: string, id: string): boolean {
    return this.written.get(table)?.has(id) ?? false;
  }

  /** Applies `event` to `projection` (if it handles it). Throws when the projection writes a table it does not own. */
  apply(projection: Projection, event: ProjectedEvent): void {
    if (!projection.eventTypes.includes(event.type)) return;
    for (const w of projection.apply(event, this.view)) {
      const spec = this.specs.get(w.table);
      if (!spec) throw new Error(`projection ${projection.name} does not own table ${w.table}`);
      const id = keyId(w.key);
      let t = this.changes.get(w.table);
      if (!t) this.changes.set(w.table, (t = { spec, changes: new Map() }));
      const existed = t.changes.get(id)?.existed ?? this.base.get(w.table, w.key) !== undefined;
      let m = this.written.get(w.table);
      if (!m) this.written.set(w.table, (m = new Map()));
      const row = spec.sums ? addedUp(spec, t.changes.get(id)?.row ?? null, w.row) : w.row;
      m.set(id, row);
      t.changes.set(id, { key: w.key, row, existed });
    }
  }
}

/**
 * Two increments of a `sums` table's row (projection.ts TableSpec.sums) as one: the key's columns, every other column
 * the sum of both. Throws on a deletion (sums are never deleted).
 */
function addedUp(spec: TableSpec, before: Row | null, increment: Row | null): Row {
  if (!increment) throw new Error(`${spec.name}: rows of sums are never deleted`);
  if (!before) return increment;
  const row: Row = { ...before };
  for (const c of spec.columns) if (!spec.key.includes(c)) row[c] = Number(before[c] ?? 0) + Number(increment[c] ?? 0);
  return row;
}

/**
 * Applies `events` in order to every projection of `projections` that handles them, reading rows through `view`
 * (and the rows earlier events of the batch wrote). Returns the changed rows per table. Pure. Throws when a
 * projection writes a table it does not own.
 */
export function applyInMemory(projections: readonly Projection[], events: readonly ProjectedEvent[], view: RowView): Map<string, TableChanges> {
  const out: Changes = new Map();
  for (const projection of projections) {
    // Only the projections that handle one of the events (most of the inline ones handle none of a command's).
    if (!events.some((e) => projection.eventTypes.includes(e.type))) continue;
    // Each projection sees its own writes only (it owns its tables).
    const batch = new BatchApply(specsOf(projection), view);
    for (const e of events) batch.apply(projection, e);
    for (const [table, t] of batch.changes) out.set(table, t);
  }
  return out;
}

/** The tables of `projection` by name (built once per projection). */
function specsOf(projection: Projection): ReadonlyMap<string, TableSpec> {
  let specs = tableSpecs.get(projection);
  if (!specs) tableSpecs.set(projection, (specs = new Map(projection.tables.map((t) => [t.name, t]))));
  return specs;
}
const tableSpecs = new WeakMap<Projection, ReadonlyMap<string, TableSpec>>();

/** The SELECT list of `spec`'s columns as rows are loaded: exact columns as text (projection.ts TableSpec.exact). */
function selectList(spec: TableSpec): string {
  return spec.columns.map((c) => (spec.exact?.includes(c) ? `t.${ident(c)}::text AS ${ident(c)}` : `t.${ident(c)}`)).join(', ');
}

/** The SQL condition of a scan over alias `t`, its values appended to `params`. */
function scanSql(s: RowScan, params: unknown[]): string {
  const conds = Object.entries<ScanCondition>(s.where).flatMap(([col, c]) => {
    const p = (v: unknown) => `$${params.push(v)}`;
    if ('eq' in c) return [`t.${ident(col)} = ${p(c.eq)}`];
    if ('in' in c) return [`t.${ident(col)}::text = ANY(${p(c.in.map(String))}::text[])`];
    return [...(c.gte !== undefined ? [`t.${ident(col)} >= ${p(c.gte)}`] : []), ...(c.lt !== undefined ? [`t.${ident(col)} < ${p(c.lt)}`] : [])];
  });
  return conds.length ? conds.join(' AND ') : 'true';
}

/** The rows of one projection's tables loaded from the database (as before the batch), by key and by scan. */
class LoadedRows {
  /** Per table: key id → the row, or null when loaded as absent. */
  private readonly rows = new Map<string, Map<string, Row | null>>();
  private readonly scans = new Set<string>();

  constructor(private readonly specs: ReadonlyMap<string, TableSpec>) {}

  /** The loaded rows; a scan finds the loaded rows meeting it (all of them once that scan is loaded). */
  readonly view: RowView = {
    get: (table, key) => this.rows.get(table)?.get(keyId(key)) ?? undefined,
    scan: (table, where) => [...this.of(table)].filter((r) => meets(r, where)),
  };

  /** The present rows loaded of `table`. */
  *of(table: string): Iterable<Row> {
    for (const r of this.rows.get(table)?.values() ?? []) if (r) yield r;
  }

  private spec(table: string, projection: string): TableSpec {
    const s = this.specs.get(table);
    if (!s) throw new Error(`projection ${projection} does not own table ${table}`);
    return s;
  }

  /** Of `needs`, those neither loaded nor (for keys) written by `batch`. */
  missing(needs: readonly (RowRef | RowScan)[], batch?: BatchApply): (RowRef | RowScan)[] {
    return needs.filter((n) => {
      if (isScan(n)) return !this.scans.has(scanId(n));
      const id = keyId(n.key);
      return !this.rows.get(n.table)?.has(id) && !batch?.wrote(n.table, id);
    });
  }

  /** Loads `needs` through `q`: keys one query per table, each scan one query. */
  async load(q: Queryable, needs: readonly (RowRef | RowScan)[], projection: string): Promise<void> {
    const keys = new Map<string, Map<string, readonly unknown[]>>();
    for (const n of needs) {
      this.spec(n.table, projection);
      if (isScan(n)) {
        const id = scanId(n);
        if (this.scans.has(id)) continue;
        const params: unknown[] = [];
        const spec = this.spec(n.table, projection);
        const r = await q.query(`SELECT ${selectList(spec)} FROM ${ident(n.table)} t WHERE ${scanSql(n, params)}`, params);
        this.keep(spec, r.rows, false);
        this.scans.add(id);
        continue;
      }
      let m = keys.get(n.table);
      if (!m) keys.set(n.table, (m = new Map()));
      m.set(keyId(n.key), n.key);
    }
    for (const [table, wanted] of keys) {
      const spec = this.spec(table, projection);
      const k = rowsFrom(ident(table), [...wanted.values()].map((key) => keyRecord(spec, key)), 'k');
      const r = await q.query(`SELECT ${selectList(spec)} FROM ${ident(table)} t JOIN ${k.from('$1')} ON ${keyJoin(spec, 'k')}`, [k.json]);
      this.keep(spec, r.rows, true);
      // Keys asked and not found are known to be absent.
      const m = this.rows.get(table)!;
      for (const id of wanted.keys()) if (!m.has(id)) m.set(id, null);
    }
  }

  private keep(spec: TableSpec, rows: readonly Row[], replace: boolean): void {
    let m = this.rows.get(spec.name);
    if (!m) this.rows.set(spec.name, (m = new Map()));
    // JSON round trip: loaded rows look exactly like rows the projection writes (timestamps as ISO text).
    for (const row of JSON.parse(JSON.stringify(rows)) as Row[]) {
      const id = keyId(spec.key.map((c) => row[c]));
      if (replace || !m.get(id)) m.set(id, row);
    }
  }
}

/** Rounds of loading ahead of a batch (a projection's needs seldom go deeper than three). */
const PREFETCH_ROUNDS = 4;

/** Applies `events` (already filtered or not) to `projection`'s tables through `q`. Returns the rows written. */
export async function projectBatch(q: Queryable, projection: Projection, events: readonly StoredEvent<any>[]): Promise<number> {
  const relevant = events.filter((e) => projection.eventTypes.includes(e.type));
  if (relevant.length === 0) return 0;
  const specs = specsOf(projection);
  const loaded = new LoadedRows(specs);

  // 1. Load the touched rows, one query per table; then what the events need, as seen before the batch.
  await loaded.load(q, projection.ahead ? projection.ahead(relevant) : relevant.flatMap((e) => projection.touches(e)), projection.name);
  const needs = projection.needs?.bind(projection);
  for (let round = 0; needs && round < PREFETCH_ROUNDS; round++) {
    const missing = loaded.missing(relevant.flatMap((e) => needs(e, loaded.view)));
    if (missing.length === 0) break;
    await loaded.load(q, missing, projection.name);
  }

  // 2. Apply in memory, loading whatever an event still needs given the batch's writes before it.
  const batch = new BatchApply(specs, loaded.view, (table) => loaded.of(table));
  for (const e of relevant) {
    for (let missing = needs ? loaded.missing(needs(e, batch.view), batch) : []; missing.length; missing = loaded.missing(needs!(e, batch.view), batch)) {
      await loaded.load(q, missing, projection.name);
    }
    batch.apply(projection, e);
  }

  // 3. Write: deletes, then updates or upserts, one statement per table.
  return writeChanges(q, batch.changes.values());
}
