/**
 * The event store (issue #2) on the `events` table of migrations/001_event_store.sql.
 *
 * - `append(q, appends, metadata, recordedAt, options?)`: appends to one or several streams atomically, each with
 *   an expected version, in one statement, which can also check conditions and write inline projection rows
 *   (AppendOptions): a worker's command is one round trip. The unique index (stream_id, stream_version) is the
 *   arbiter: of two writers expecting the same version only one can insert the next one, so a lost race throws
 *   `StreamVersionConflict`, never a duplicate or a gap. Payloads are validated by the registry.
 * - `readStream(q, streamId, fromVersion)`: a stream's events in order, upcast to the current versions.
 * - `readAfter(q, cursor, limit)`: for asynchronous consumers. Only rows whose transaction is older than
 *   every transaction still running (`transaction_id < pg_snapshot_xmin(pg_current_snapshot())`), paged by
 *   (transaction_id, global_position): identity values commit out of order, and reading by position alone
 *   skips an event whose transaction commits after a later one (the loss Emmett fixed in its PR #336).
 *
 * Stream versions start at 1; expected version 0 means "the stream must not exist yet", 'any' skips the check.
 */
import type { Queryable } from '../db/transaction.ts';
import { GroupCommit } from '../db/group-commit.ts';
import { AppError } from '../errors.ts';
import { EventRegistry, domainRegistry } from './registry.ts';
import type { DomainEvent } from './catalog.ts';
import { columnsOf, rowWriteSql, type RowWrite, type TableChanges } from '../projections/runner.ts';

export interface EventMetadata {
  /** Phone of the person who caused the event; absent for system jobs. */
  actorPhone?: string;
  actorName?: string;
  role?: string;
  requestId?: string;
  /** Id of the command or event that caused this one. */
  causationId?: string;
  [key: string]: unknown;
}

export type ExpectedVersion = number | 'any';

export interface StreamAppend<E extends { type: string; data: unknown } = DomainEvent> {
  streamId: string;
  expectedVersion: ExpectedVersion;
  events: readonly E[];
}

/** An event as stored: `data` already upcast to the current version of its type. */
export interface StoredEvent<E extends { type: string; data: unknown } = DomainEvent> {
  globalPosition: number;
  streamId: string;
  streamVersion: number;
  type: E['type'];
  schemaVersion: number;
  data: E['data'];
  metadata: EventMetadata;
  recordedAt: Date;
  /** xid8 of the appending transaction, as decimal text. */
  transactionId: string;
}

/** Position of an async consumer: the last event it applied. */
export interface Cursor {
  transactionId: string;
  globalPosition: number;
}

export const START: Cursor = { transactionId: '0', globalPosition: 0 };

/**
 * AppError 409 CONCURRENT_MODIFICATION: an append found `streamId` at another version than `expectedVersion`
 * (a lost race).
 */
export class StreamVersionConflict extends AppError {
  constructor(
    readonly streamId: string,
    readonly expectedVersion: ExpectedVersion,
  ) {
    super(409, 'CONCURRENT_MODIFICATION', '数据刚被其他操作修改，请刷新后重试');
    this.name = 'StreamVersionConflict';
  }
}

// transaction_id is handed out as text (xid8 is 64-bit). ORDER BY must name events.transaction_id: the bare
// name would sort by this text alias, and "1000" < "999".
const COLUMNS =
  'global_position, stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at, transaction_id::text AS transaction_id';

/**
 * A fact a decision relied on besides the streams' versions (the person still holds the role, the device exists,
 * the products are as copied), checked by the append's own statement: `sql(placeholders)` gives a boolean SQL
 * expression over the placeholders of its `values`.
 */
export interface AppendCondition {
  /**
   * Names the condition's SQL shape: two conditions with the same key give the same `sql` for the same
   * placeholders and have as many values (the store keeps one statement text per shape).
   */
  readonly key: string;
  /** The values the SQL binds, in order. */
  readonly values: readonly unknown[];
  /** A boolean SQL expression over `placeholders` (one per value, in order). */
  sql(placeholders: readonly string[]): string;
}

/** What else the append's one statement does (AppendOptions). */
export interface AppendOptions {
  /** Facts that must all hold for anything to be appended or written; else AppendConditionFailed. */
  readonly conditions?: readonly AppendCondition[];
  /**
   * Read-model rows computed from the events before the append (inline projections, runner.ts applyInMemory),
   * written by the same statement if and only if it appends: a command appends and projects in one round trip.
   * Such rows cannot depend on the global position or transaction id, which the append assigns.
   */
  readonly rows?: ReadonlyMap<string, TableChanges>;
}

/**
 * Thrown by `append` when an AppendCondition did not hold (nothing was written). Internal: the command handler
 * loads the facts afresh and decides again, which names what changed.
 */
export class AppendConditionFailed extends Error {
  constructor() {
    super('a fact the decision relied on changed before the append');
    this.name = 'AppendConditionFailed';
  }
}

/** At most this many append statement shapes are kept (EventStore.statementText); others are built per call. */
const MAX_SHAPES = 500;

/** At most this many events are bound as typed parameters (appendSql); a larger append goes as one JSON array. */
const TYPED_EVENTS = 8;

/**
 * The append statement (module docstring): the streams' heads through the unique index, the checks (expected
 * versions and conditions) evaluated once in `ok`, then one INSERT of all events in order, and the projection
 * writes of `rows` as further data-modifying CTEs, all conditional on `ok`. A writer that raced past the check
 * meets the unique index on (stream_id, stream_version) and the whole statement fails (23505): nothing is half
 * written. The result has one row with the two checks, joined to the appended rows.
 * `counts` (events per stream) gives the shape; the statement's text depends on it only, never on values.
 * - Up to TYPED_EVENTS events (every command of the service): every value a typed parameter, so the plan is small
 *   and fixed (no JSON array to unpack and sort; measured: a clock command's PostgreSQL CPU −20 %). $1 metadata,
 *   $2 recorded at; stream i (from 0): $(3+2i) its id, $(4+2i) its expected version (null: any); then per event in
 *   order: type, schema version, payload.
 * - More: $1 the events as one JSON array of {s: stream, n: number within its stream (1…), t: type, v: schema
 *   version, d: payload, o: order}, $2 the streams, $3 their expected versions (null: any), $4 metadata, $5
 *   recorded at. The arrays are read through scalar sub-selects, which the planner does not fold: its estimates
 *   are then the same for every call, so PostgreSQL keeps one generic plan instead of planning every execution.
 * Conditions and rows follow these parameters.
 */
function appendSql(counts: readonly number[], conditions: string[], writes: string[]): string {
  const facts = conditions.length ? conditions.map((c) => `(${c})`).join(' AND ') : 'true';
  const tail = `${writes.map((w, i) => `, w${i} AS (${w})`).join('')}
  SELECT ok.versions_ok, ok.facts_ok, a.global_position, a.stream_id, a.stream_version, a.transaction_id
    FROM ok LEFT JOIN appended a ON true`;
  const insert = `INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)`;
  const returning = `RETURNING global_position, stream_id, stream_version, transaction_id::text AS transaction_id`;
  if (counts.reduce((x, y) => x + y, 0) <= TYPED_EVENTS) {
    const stream = (i: number) => `$${3 + 2 * i}`;
    const expected = (i: number) => `$${4 + 2 * i}::bigint`;
    let p = 3 + 2 * counts.length;
    let o = 0;
    const rows = counts.flatMap((count, i) =>
      Array.from({ length: count }, (_, k) => `(${stream(i)}::text, ok.v${i} + ${k + 1}, $${p++}::text, $${p++}::integer, $${p++}::jsonb, ${o++})`),
    );
    return `WITH ok AS (
    SELECT ${counts.map((_, i) => `h${i}.version AS v${i}`).join(', ')},
           ${counts.map((_, i) => `(${expected(i)} IS NULL OR h${i}.version = ${expected(i)})`).join(' AND ')} AS versions_ok,
           ${facts} AS facts_ok
      FROM ${counts.map((_, i) => `(SELECT COALESCE(max(e.stream_version), 0) AS version FROM events e WHERE e.stream_id = ${stream(i)}::text) h${i}`).join(', ')}
  ), appended AS (
    ${insert}
    SELECT x.s, x.n, x.t, x.v, x.d, $1::jsonb, $2::timestamptz
      FROM ok, LATERAL (VALUES ${rows.join(', ')}) AS x(s, n, t, v, d, o)
     WHERE ok.versions_ok AND ok.facts_ok
     ORDER BY x.o
    ${returning}
  )${tail}`;
  }
  return `WITH heads AS (
    SELECT s.stream_id, s.expected,
           COALESCE((SELECT max(e.stream_version) FROM events e WHERE e.stream_id = s.stream_id), 0) AS version
      FROM unnest((SELECT $2::text[]), (SELECT $3::bigint[])) AS s(stream_id, expected)
  ), ok AS (
    SELECT bool_and(h.expected IS NULL OR h.version = h.expected) AS versions_ok, ${facts} AS facts_ok
      FROM heads h
  ), appended AS (
    ${insert}
    SELECT u.s, h.version + u.n, u.t, u.v, u.d, $4::jsonb, $5
      FROM jsonb_to_recordset((SELECT $1::jsonb)) AS u(s text, n bigint, t text, v integer, d jsonb, o integer)
      JOIN heads h ON h.stream_id = u.s, ok
     WHERE ok.versions_ok AND ok.facts_ok
     ORDER BY u.o
    ${returning}
  )${tail}`;
}

/** An event to append, validated: its stream's append, its number within the stream (1…), its checked payload. */
interface FlatEvent {
  a: StreamAppend<{ type: string; data: unknown }>;
  e: { type: string; data: unknown };
  n: number;
  checked: { version: number; data: unknown };
}

/** The leading parameters of appendSql for `given` (events `flat`, in order). */
function appendParams(given: readonly StreamAppend<{ type: string; data: unknown }>[], flat: readonly FlatEvent[], metadata: EventMetadata, recordedAt: Date): unknown[] {
  const expected = (a: StreamAppend<{ type: string; data: unknown }>) => (a.expectedVersion === 'any' ? null : a.expectedVersion);
  if (flat.length <= TYPED_EVENTS) {
    return [
      JSON.stringify(metadata),
      recordedAt,
      ...given.flatMap((a) => [a.streamId, expected(a)]),
      ...flat.flatMap((f) => [f.e.type, f.checked.version, JSON.stringify(f.checked.data)]),
    ];
  }
  return [
    JSON.stringify(flat.map((f, o) => ({ s: f.a.streamId, n: f.n, t: f.e.type, v: f.checked.version, d: f.checked.data, o }))),
    given.map((a) => a.streamId),
    given.map(expected),
    JSON.stringify(metadata),
    recordedAt,
  ];
}

/**
 * The event store on the `events` table (module docstring): atomic appends with expected versions, stream reads,
 * and commit-safe or by-position reads for consumers and replay; payloads are validated and upcast through
 * `registry`. On PostgreSQL the connection class (PreparingClient) runs the append as a named prepared statement.
 */
export class EventStore {
  /** Append statement texts by shape (statementText). */
  private readonly statements = new Map<string, string>();

  constructor(readonly registry: EventRegistry = domainRegistry) {}

  /**
   * Appends each stream's events with its expected version, in one statement (so atomically, also outside a
   * transaction), through `q`: a pooled client inside the caller's transaction, the pool itself, or the group
   * commit (db/group-commit.ts; the statement's key is its first stream). With
   * `options`, the same statement checks the conditions and writes the projection rows (AppendOptions).
   * Returns the stored events in order. `recordedAt` is the time of the service's clock.
   * Throws StreamVersionConflict (a stream is at another version), AppendConditionFailed, EventValidationError.
   */
  async append<E extends { type: string; data: unknown }>(
    q: Queryable | GroupCommit,
    appends: readonly StreamAppend<E>[],
    metadata: EventMetadata,
    recordedAt: Date,
    options: AppendOptions = {},
  ): Promise<StoredEvent<E>[]> {
    const given = appends.filter((a) => a.events.length > 0);
    if (given.length === 0) return [];
    if (new Set(given.map((a) => a.streamId)).size !== given.length) throw new Error('append: a stream given twice');
    const flat: FlatEvent[] = given.flatMap((a) => a.events.map((e, i) => ({ a, e, n: i + 1, checked: this.registry.validate(e.type, e.data) })));
    const params = appendParams(given, flat, metadata, recordedAt);
    const counts = given.map((a) => a.events.length);
    const conditions = options.conditions ?? [];
    const writes: RowWrite[] = [];
    for (const t of options.rows?.values() ?? []) {
      const cols = columnsOf(q instanceof GroupCommit ? q.pool : q, t.spec.name);
      writes.push(...rowWriteSql(t, Array.isArray(cols) ? cols : await cols, { from: 'ok', condition: 'ok.versions_ok AND ok.facts_ok' }));
    }
    const text = this.statementText(params, counts, conditions, writes);
    let res;
    try {
      res = await (q instanceof GroupCommit ? q.query(text, params, given[0].streamId) : q.query(text, params));
    } catch (err) {
      if ((err as { constraint?: string }).constraint === 'events_stream_version_unique') {
        const streamId = /\(stream_id, stream_version\)=\((.*), \d+\)/.exec((err as { detail?: string }).detail ?? '')?.[1];
        const a = given.find((x) => x.streamId === streamId) ?? given[0];
        throw new StreamVersionConflict(a.streamId, a.expectedVersion);
      }
      throw err;
    }
    const head = res.rows[0];
    if (!head.versions_ok) {
      const a = given.find((x) => x.expectedVersion !== 'any') ?? given[0];
      throw new StreamVersionConflict(a.streamId, a.expectedVersion);
    }
    if (!head.facts_ok) throw new AppendConditionFailed();
    // Positions are given in the INSERT's order (ORDER BY the ordinal), which is the order of `flat`.
    const rows = res.rows.filter((r) => r.global_position !== null).sort((x, y) => Number(x.global_position) - Number(y.global_position));
    if (rows.length !== flat.length) throw new Error(`append: ${rows.length} rows appended for ${flat.length} events`);
    return flat.map((f, i) => ({
      globalPosition: Number(rows[i].global_position),
      streamId: f.a.streamId,
      streamVersion: Number(rows[i].stream_version),
      type: f.e.type,
      schemaVersion: f.checked.version,
      data: f.checked.data as E['data'],
      metadata,
      recordedAt,
      transactionId: rows[i].transaction_id,
    }));
  }

  /**
   * Pushes the values of `conditions` and `writes` onto `params` (after the leading ones) and returns the append's
   * statement text for this shape (appendSql). Texts are kept per shape (events per stream, condition keys, row
   * write keys; at most MAX_SHAPES): a command's statement is then the same string every time, built once, never
   * re-hashed by the prepared-statement cache, and no garbage per request (the text is several kB).
   */
  private statementText(params: unknown[], counts: readonly number[], conditions: readonly AppendCondition[], writes: readonly RowWrite[]): string {
    const key = `${counts.join(',')}|${conditions.map((c) => c.key).join(',')}|${writes.map((w) => w.key).join(',')}`;
    const known = this.statements.get(key);
    if (known !== undefined) {
      for (const c of conditions) params.push(...c.values);
      for (const w of writes) params.push(w.json);
      return known;
    }
    const param = (v: unknown) => `$${params.push(v)}`;
    const text = appendSql(
      counts,
      conditions.map((c) => c.sql(c.values.map(param))),
      writes.map((w) => w.sql(param(w.json))),
    );
    if (this.statements.size < MAX_SHAPES) this.statements.set(key, text);
    return text;
  }

  /** The events of one stream with version ≥ `fromVersion`, in order. An absent stream gives []. */
  async readStream<E extends { type: string; data: unknown } = DomainEvent>(
    q: Queryable,
    streamId: string,
    fromVersion = 1,
  ): Promise<StoredEvent<E>[]> {
    const r = await q.query(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version`,
      [streamId, fromVersion],
    );
    return r.rows.map((row) => this.toStored<E>(row));
  }

  /** Current version of a stream (0 when it does not exist). */
  async streamVersion(q: Queryable, streamId: string): Promise<number> {
    const r = await q.query(`SELECT COALESCE(max(stream_version), 0) AS version FROM events WHERE stream_id = $1`, [streamId]);
    return Number(r.rows[0].version);
  }

  /**
   * Up to `limit` events after `cursor` that no running transaction can still precede, in commit-safe order.
   * Every event type is returned; consumers skip the types they do not handle and move their cursor to the
   * last event read (`cursorOf`).
   */
  async readAfter<E extends { type: string; data: unknown } = DomainEvent>(
    q: Queryable,
    cursor: Cursor,
    limit: number,
  ): Promise<StoredEvent<E>[]> {
    const r = await q.query(
      `SELECT ${COLUMNS} FROM events
        WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY events.transaction_id, events.global_position -- the columns (xid8), not the text aliases
        LIMIT $3`,
      [cursor.transactionId, cursor.globalPosition, limit],
    );
    return r.rows.map((row) => this.toStored<E>(row));
  }

  /**
   * As `readAfter`, for a consumer that handles only `types`: reads the same page (up to `limit` rows after
   * `cursor`, commit-safe order), but payloads come back only for events of `types`. Returns those events, the
   * number of rows read and the cursor after the last row read (whatever its type), so the consumer moves past
   * the events it skips without fetching or parsing them.
   */
  async readPageAfter<E extends { type: string; data: unknown } = DomainEvent>(
    q: Queryable,
    cursor: Cursor,
    limit: number,
    types: readonly string[],
  ): Promise<{ events: StoredEvent<E>[]; read: number; last?: Cursor }> {
    const r = await q.query(
      `SELECT global_position, stream_id, stream_version, event_type, schema_version, recorded_at,
              transaction_id::text AS transaction_id, event_type = ANY($4::text[]) AS wanted,
              CASE WHEN event_type = ANY($4::text[]) THEN data END AS data,
              CASE WHEN event_type = ANY($4::text[]) THEN metadata END AS metadata
         FROM events
        WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY events.transaction_id, events.global_position -- the columns (xid8), not the text aliases
        LIMIT $3`,
      [cursor.transactionId, cursor.globalPosition, limit, types],
    );
    const rows = r.rows;
    const lastRow = rows[rows.length - 1];
    return {
      events: rows.filter((row) => row.wanted).map((row) => this.toStored<E>(row)),
      read: rows.length,
      last: lastRow && { transactionId: lastRow.transaction_id, globalPosition: Number(lastRow.global_position) },
    };
  }

  /**
   * Up to `limit` committed events with global position > `afterPosition` (optionally of `types` only), by
   * position. For replay under a table lock only: without the lock, out-of-order commits could be skipped.
   */
  async readByPosition<E extends { type: string; data: unknown } = DomainEvent>(
    q: Queryable,
    afterPosition: number,
    limit: number,
    types?: readonly string[],
  ): Promise<StoredEvent<E>[]> {
    const r = await q.query(
      `SELECT ${COLUMNS} FROM events
        WHERE global_position > $1 AND ($3::text[] IS NULL OR event_type = ANY($3::text[]))
        ORDER BY global_position LIMIT $2`,
      [afterPosition, limit, types ?? null],
    );
    return r.rows.map((row) => this.toStored<E>(row));
  }

  private toStored<E extends { type: string; data: unknown }>(row: any): StoredEvent<E> {
    return {
      globalPosition: Number(row.global_position),
      streamId: row.stream_id,
      streamVersion: Number(row.stream_version),
      type: row.event_type,
      schemaVersion: row.schema_version,
      data: this.registry.upcast(row.event_type, row.schema_version, row.data) as E['data'],
      metadata: row.metadata,
      recordedAt: row.recorded_at,
      transactionId: row.transaction_id,
    };
  }
}

/** The cursor just after `event`. */
export const cursorOf = (event: StoredEvent<any>): Cursor => ({
  transactionId: event.transactionId,
  globalPosition: event.globalPosition,
});

