/**
 * The event store on the `events` table of migrations/001_event_store.sql: a boundary that knows
 * streams, events, expected versions and reading, and nothing of commands, projections or HTTP.
 *
 * - `append(runner, appends, metadata, recordedAt, extend?)`: appends to one or several streams atomically, each
 *   with an expected version, in ONE statement (a guarded write, db/guarded-write.ts), through whatever runs
 *   statements (a transaction's client, the pool, the group commit: the store does not know which). `extend` lets
 *   the caller add guards and writes to the same statement (a command's facts and inline read-model rows). The
 *   unique index (stream_id, stream_version) is the arbiter: of two writers expecting the same version only one
 *   can insert the next one, so a lost race throws `StreamVersionConflict`, never a duplicate or a gap.
 *   Payloads are validated by the registry.
 * - `readStream(q, streamId, from)`: a stream's events in order (from a version, or from the last event of a
 *   type: a section), upcast to the current versions.
 * - `readAfter(q, cursor, limit)`: for asynchronous consumers. Only rows whose transaction is older than
 *   every transaction still running (`transaction_id < pg_snapshot_xmin(pg_current_snapshot())`), paged by
 *   (transaction_id, global_position): identity values commit out of order, and reading by position alone
 *   skips an event whose transaction commits after a later one (the loss Emmett fixed in its PR #336).
 *
 * Stream versions start at 1; expected version 0 means "the stream must not exist yet", 'any' skips the check.
 */
import type { Queryable, StatementRunner } from '../db/transaction.ts';
import { GuardedWrite, GuardFailed, type WhenGuardsHold } from '../db/guarded-write.ts';
import { EventRegistry, domainRegistry } from './registry.ts';
import type { DomainEvent } from './catalog.ts';

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

/** -1, 0 or 1 as cursor `a` is before, at or after `b` in the consumers' order (transaction id, then global position). */
export function compareCursors(a: Cursor, b: Cursor): number {
  const [ta, tb] = [BigInt(a.transactionId), BigInt(b.transactionId)];
  if (ta !== tb) return ta < tb ? -1 : 1;
  return Math.sign(a.globalPosition - b.globalPosition);
}

/** An append found `streamId` at another version than `expectedVersion` (a lost race). Nothing was written. */
export class StreamVersionConflict extends Error {
  constructor(
    readonly streamId: string,
    readonly expectedVersion: ExpectedVersion,
  ) {
    super(`stream ${streamId} is not at version ${expectedVersion}`);
    this.name = 'StreamVersionConflict';
  }
}

/** Where a stream section starts: a stream version (1: the whole stream), or the last event of a type. */
export type SectionStart = number | { lastOf: string };

// transaction_id is handed out as text (xid8 is 64-bit). ORDER BY must name events.transaction_id: the bare
// name would sort by this text alias, and "1000" < "999".
const COLUMNS =
  'global_position, stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at, transaction_id::text AS transaction_id';

/** At most this many events are bound as typed parameters (appendTyped); a larger append goes as one JSON array. */
const TYPED_EVENTS = 8;

/** An event to append, validated: its stream's append, its number within the stream (1…), its checked payload. */
interface FlatEvent {
  a: StreamAppend<{ type: string; data: unknown }>;
  e: { type: string; data: unknown };
  n: number;
  checked: { version: number; data: unknown };
}

const INSERT = 'INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)';
const RETURNING = 'RETURNING global_position, stream_id, stream_version, transaction_id::text AS transaction_id';
const expectedOf = (a: StreamAppend<{ type: string; data: unknown }>) => (a.expectedVersion === 'any' ? null : a.expectedVersion);

/**
 * The SQL of a typed append (appendTyped) of streams with `counts` events each, its placeholders numbered from
 * `base`, in this order: per stream its id and expected version; then metadata and recorded at; then per event its
 * type, schema version and payload. A pure function of `counts` and `base` (values are parameters), kept per
 * shape: the same shape gives the same strings.
 */
function typedSql(counts: readonly number[], base: number): { heads: string[]; guard: string; write: (when: WhenGuardsHold) => string } {
  const key = `${counts.join(',')} ${base}`;
  let sql = typedShapes.get(key);
  if (sql) return sql;
  let n = base;
  const next = () => `$${n++}`;
  const heads: string[] = [];
  const checks = counts.map((_, i) => {
    const [stream, expected] = [next(), next()];
    heads.push(`SELECT ${stream}::text AS stream_id, COALESCE(max(e.stream_version), 0) AS version FROM events e WHERE e.stream_id = ${stream}::text`);
    return `(${expected}::bigint IS NULL OR (SELECT version FROM h${i}) = ${expected}::bigint)`;
  });
  const [m, t] = [next(), next()];
  let o = 0;
  const rows = counts.flatMap((count, i) =>
    Array.from({ length: count }, (_, k) => `(h${i}.stream_id, h${i}.version + ${k + 1}, ${next()}::text, ${next()}::integer, ${next()}::jsonb, ${o++})`),
  );
  const from = counts.map((_, i) => `h${i}`).join(', ');
  const insert = (when: WhenGuardsHold) => `${INSERT}
    SELECT x.s, x.n, x.t, x.v, x.d, ${m}::jsonb, ${t}::timestamptz
      FROM ${when.from}, ${from}, LATERAL (VALUES ${rows.join(', ')}) AS x(s, n, t, v, d, o)
     WHERE ${when.condition}
     ORDER BY x.o
    ${RETURNING}`;
  let last: { when: WhenGuardsHold; text: string } | undefined;
  const built = {
    heads,
    guard: checks.join(' AND '),
    write: (when: WhenGuardsHold) => (last?.when === when ? last.text : (last = { when, text: insert(when) }).text),
  };
  if (typedShapes.size < MAX_SHAPES) typedShapes.set(key, built);
  return built;
}
const typedShapes = new Map<string, ReturnType<typeof typedSql>>();
const MAX_SHAPES = 200;

/**
 * Adds the events of `given` to `w`, every value a typed parameter (a small, fixed plan; used up to TYPED_EVENTS
 * events, which covers every command of the service): input `h<i>` is stream i's head, guard `versions` checks
 * the expected versions, and the INSERT (returning the stored rows) numbers each stream's events from its head.
 * The values are bound in typedSql's order.
 */
function appendTyped(w: GuardedWrite, given: readonly StreamAppend<{ type: string; data: unknown }>[], flat: readonly FlatEvent[], metadata: string, at: string): void {
  const sql = typedSql(
    given.map((a) => a.events.length),
    w.values.length + 1,
  );
  for (const a of given) w.values.push(a.streamId, expectedOf(a));
  w.values.push(metadata, at);
  for (const f of flat) w.values.push(f.e.type, f.checked.version, JSON.stringify(f.checked.data));
  sql.heads.forEach((head, i) => w.input(`h${i}`, head));
  w.guard('versions', sql.guard);
  w.write(sql.write, { returning: true });
}

/**
 * Adds the events of `given` to `w` as one JSON array of {s: stream, n: number within its stream (1…), t: type,
 * v: schema version, d: payload, o: order} and the streams with their expected versions as arrays (any size).
 * The arrays are read through scalar sub-selects, which the planner does not fold: its estimates are then the
 * same for every call, so PostgreSQL keeps one generic plan instead of planning every execution.
 */
function appendJson(w: GuardedWrite, given: readonly StreamAppend<{ type: string; data: unknown }>[], flat: readonly FlatEvent[], metadata: string, at: string): void {
  const events = w.param(JSON.stringify(flat.map((f, o) => ({ s: f.a.streamId, n: f.n, t: f.e.type, v: f.checked.version, d: f.checked.data, o }))));
  const ids = w.param(given.map((a) => a.streamId));
  const expected = w.param(given.map(expectedOf));
  w.input(
    'heads',
    `SELECT s.stream_id, s.expected,
            COALESCE((SELECT max(e.stream_version) FROM events e WHERE e.stream_id = s.stream_id), 0) AS version
       FROM unnest((SELECT ${ids}::text[]), (SELECT ${expected}::bigint[])) AS s(stream_id, expected)`,
  );
  w.guard('versions', `SELECT bool_and(h.expected IS NULL OR h.version = h.expected) FROM heads h`);
  const m = w.param(metadata);
  const t = w.param(at);
  w.write(
    (when) => `${INSERT}
    SELECT u.s, h.version + u.n, u.t, u.v, u.d, ${m}::jsonb, ${t}::timestamptz
      FROM jsonb_to_recordset((SELECT ${events}::jsonb)) AS u(s text, n bigint, t text, v integer, d jsonb, o integer)
      JOIN heads h ON h.stream_id = u.s, ${when.from}
     WHERE ${when.condition}
     ORDER BY u.o
    ${RETURNING}`,
    { returning: true },
  );
}

/** Options of the event store. */
export interface EventStoreOptions {
  /**
   * Bind up to TYPED_EVENTS events as typed parameters (default true) rather than as one JSON array: a small fixed
   * plan (measured in bench/README.md, "Speed pieces").
   */
  typedParameters?: boolean;
}

/**
 * The event store on the `events` table (module docstring): atomic appends with expected versions, stream reads,
 * and commit-safe or by-position reads for consumers and replay; payloads are validated and upcast through
 * `registry`.
 */
export class EventStore {
  private readonly typedParameters: boolean;

  constructor(
    readonly registry: EventRegistry = domainRegistry,
    options: EventStoreOptions = {},
  ) {
    this.typedParameters = options.typedParameters ?? true;
  }

  /**
   * Appends each stream's events with its expected version, in one guarded write (so atomically, also outside a
   * transaction) run by `runner` as a statement keyed by the first stream. `extend(w)` may add guards and writes to
   * the same statement; they run only when every guard holds. Returns the stored events in order. `recordedAt` is
   * the time of the service's clock. Throws StreamVersionConflict (a stream is at another version), GuardFailed
   * (a guard `extend` added did not hold; nothing written), EventValidationError.
   */
  async append<E extends { type: string; data: unknown }>(
    runner: StatementRunner,
    appends: readonly StreamAppend<E>[],
    metadata: EventMetadata,
    recordedAt: Date,
    extend?: (w: GuardedWrite) => void,
  ): Promise<StoredEvent<E>[]> {
    const given = appends.filter((a) => a.events.length > 0);
    if (given.length === 0) return [];
    if (new Set(given.map((a) => a.streamId)).size !== given.length) throw new Error('append: a stream given twice');
    const flat: FlatEvent[] = given.flatMap((a) => a.events.map((e, i) => ({ a, e, n: i + 1, checked: this.registry.validate(e.type, e.data) })));
    const w = new GuardedWrite(given[0].streamId);
    const add = this.typedParameters && flat.length <= TYPED_EVENTS ? appendTyped : appendJson;
    add(w, given, flat, JSON.stringify(metadata), recordedAt.toISOString());
    extend?.(w);
    let result;
    try {
      result = await w.run(runner);
    } catch (err) {
      if ((err as { constraint?: string }).constraint === 'events_stream_version_unique') {
        const streamId = /\(stream_id, stream_version\)=\((.*), \d+\)/.exec((err as { detail?: string }).detail ?? '')?.[1];
        const a = given.find((x) => x.streamId === streamId) ?? given[0];
        throw new StreamVersionConflict(a.streamId, a.expectedVersion);
      }
      throw err;
    }
    if (!result.held.versions) {
      const a = given.find((x) => x.expectedVersion !== 'any') ?? given[0];
      throw new StreamVersionConflict(a.streamId, a.expectedVersion);
    }
    const failed = Object.keys(result.held).filter((g) => !result.held[g]);
    if (failed.length) throw new GuardFailed(failed);
    // Positions are given in the INSERT's order (ORDER BY the ordinal), which is the order of `flat`.
    const rows = result.rows.filter((r) => r.global_position !== null).sort((x, y) => Number(x.global_position) - Number(y.global_position));
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
   * The events of one stream from `from` on, in order: from a stream version (default 1: the whole stream), or
   * `{lastOf: type}`: from the stream's last event of that type (read backwards through the unique index; the
   * whole stream when there is none). An absent stream gives [].
   */
  async readStream<E extends { type: string; data: unknown } = DomainEvent>(
    q: Queryable,
    streamId: string,
    from: SectionStart = 1,
  ): Promise<StoredEvent<E>[]> {
    const r =
      typeof from === 'number'
        ? await q.query(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version`, [streamId, from])
        : await q.query(
            `SELECT ${COLUMNS} FROM events
              WHERE stream_id = $1
                AND stream_version >= COALESCE((SELECT l.stream_version FROM events l WHERE l.stream_id = $1 AND l.event_type = $2
                                                 ORDER BY l.stream_version DESC LIMIT 1), 1)
              ORDER BY stream_version`,
            [streamId, from.lastOf],
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

