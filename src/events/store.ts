/**
 * The event store (issue #2) on the `events` table of migrations/001_event_store.sql.
 *
 * - `append(tx, appends, metadata, recordedAt)`: appends to one or several streams atomically, each with an expected
 *   version, one statement per stream. The unique index (stream_id, stream_version) is the arbiter: of two
 *   writers expecting the same version only one can insert the next one, so a lost race throws
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
import { AppError } from '../errors.ts';
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
 * One statement appends a stream's events. The version check reads the stream's last version through the
 * unique index (stream_id, stream_version); two writers expecting the same version both try to insert the same
 * next version, and the unique index lets only one of them commit (the other gets 23505: a conflict).
 * $1 stream, $2 types, $3 schema versions, $4 payloads, $5 metadata, $6 recorded at, $7 expected (null: any).
 */
const APPEND_SQL = `WITH head AS (
    SELECT COALESCE(max(stream_version), 0) AS version FROM events WHERE stream_id = $1
  )
  INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)
  SELECT $1, head.version + u.ord, u.t, u.v, u.d, $5::jsonb, $6
    FROM head, unnest($2::text[], $3::int[], $4::jsonb[]) WITH ORDINALITY AS u(t, v, d, ord)
   WHERE $7::bigint IS NULL OR head.version = $7::bigint
  RETURNING global_position, stream_version, transaction_id::text AS transaction_id`;

/**
 * The event store on the `events` table (module docstring): atomic appends with expected versions, stream reads,
 * and commit-safe or by-position reads for consumers and replay; payloads are validated and upcast through
 * `registry`. On PostgreSQL the connection class (PreparingClient) runs the append as a named prepared statement.
 */
export class EventStore {
  constructor(readonly registry: EventRegistry = domainRegistry) {}

  /**
   * Appends each stream's events with its expected version, inside the caller's transaction `tx` (so the
   * inline projections of the same events commit or roll back with them). Returns the stored events in order.
   * `recordedAt` is the time of the service's clock. Throws StreamVersionConflict, EventValidationError.
   */
  async append<E extends { type: string; data: unknown }>(
    tx: Queryable,
    appends: readonly StreamAppend<E>[],
    metadata: EventMetadata,
    recordedAt: Date,
  ): Promise<StoredEvent<E>[]> {
    const stored: StoredEvent<E>[] = [];
    for (const a of appends) {
      if (a.events.length === 0) continue;
      const checked = a.events.map((e) => this.registry.validate(e.type, e.data));
      let res;
      try {
        res = await tx.query(APPEND_SQL, [
          a.streamId,
          a.events.map((e) => e.type),
          checked.map((c) => c.version),
          checked.map((c) => JSON.stringify(c.data)),
          JSON.stringify(metadata),
          recordedAt,
          a.expectedVersion === 'any' ? null : a.expectedVersion,
        ]);
      } catch (err) {
        if ((err as { code?: string; constraint?: string }).constraint === 'events_stream_version_unique') {
          throw new StreamVersionConflict(a.streamId, a.expectedVersion);
        }
        throw err;
      }
      if (res.rows.length !== a.events.length) throw new StreamVersionConflict(a.streamId, a.expectedVersion);
      const rows = [...res.rows].sort((x, y) => Number(x.stream_version) - Number(y.stream_version));
      rows.forEach((row, i) =>
        stored.push({
          globalPosition: Number(row.global_position),
          streamId: a.streamId,
          streamVersion: Number(row.stream_version),
          type: a.events[i].type,
          schemaVersion: checked[i].version,
          data: checked[i].data as E['data'],
          metadata,
          recordedAt,
          transactionId: row.transaction_id,
        }),
      );
    }
    return stored;
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

