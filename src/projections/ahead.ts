/**
 * Inline projection ahead of the append (issue #5: a command appends and projects in one statement).
 *
 * The inline projections' rows for new events are computed before the events are stored, so that the append's
 * own statement writes them (EventStore.append, AppendOptions.rows). What a projection reads comes from a
 * stream section the command has loaded anyway (for the worker stream: from a session's ClockedIn on), replayed
 * in memory: `rowsOf(projections, section)`. Then `rowsAhead(projections, known, appends, …)` applies the new
 * events over those rows.
 *
 * Before the append, an event's stream, version (expected version + its place), payload, metadata and time are
 * known, its global position and transaction id are not: reading them throws. Projections run this way key their
 * rows by stream coordinates, never by global position (migrations/006).
 */
import type { EventMetadata, StoredEvent, StreamAppend } from '../events/store.ts';
import type { Projection, Row } from './projection.ts';
import { applyInMemory, keyId, type TableChanges } from './runner.ts';

/** An event of a loaded stream section, as far as deciding and inline projections need it. */
export interface SectionEvent {
  type: string;
  data: unknown;
  streamVersion: number;
  metadata: EventMetadata;
  recordedAt: Date;
}

/** Rows by table, then by key id (runner.ts keyId); null: deleted. */
export type KnownRows = ReadonlyMap<string, TableChanges>;

/** An event before its append: what the append assigns (global position, transaction id) throws when read. */
class AheadEvent {
  constructor(
    readonly streamId: string,
    readonly streamVersion: number,
    readonly type: string,
    readonly data: unknown,
    readonly schemaVersion: number,
    readonly metadata: EventMetadata,
    readonly recordedAt: Date,
  ) {}
  get globalPosition(): number {
    throw new Error(`the global position of ${this.type} is not known before the append`);
  }
  get transactionId(): string {
    throw new Error(`the transaction id of ${this.type} is not known before the append`);
  }
}

/** `e` as a StoredEvent whose global position and transaction id throw when read (module docstring). */
export function aheadOfAppend(streamId: string, e: SectionEvent & { schemaVersion?: number }): StoredEvent {
  return new AheadEvent(streamId, e.streamVersion, e.type, e.data, e.schemaVersion ?? 0, e.metadata, e.recordedAt) as unknown as StoredEvent;
}

/** The rows `projections` make of a stream section (replayed in memory from nothing). */
export function rowsOf(projections: readonly Projection[], streamId: string, section: readonly SectionEvent[]): KnownRows {
  return applyInMemory(
    projections,
    section.map((e) => aheadOfAppend(streamId, e)),
    { get: () => undefined },
  );
}

/** `known` with `changes` laid over it (a new map; neither argument changes). */
export function overlay(known: KnownRows, changes: KnownRows): KnownRows {
  const out = new Map<string, TableChanges>(known);
  for (const [table, t] of changes) {
    const base = known.get(table);
    out.set(table, { spec: t.spec, changes: new Map([...(base?.changes ?? []), ...t.changes]) });
  }
  return out;
}

/**
 * The rows `projections` write for `appends` (numeric expected versions), applied over `known`, with `metadata`
 * and `recordedAt` as the append will store them. Throws (a defect, never a user error) when an event touches a
 * row `known` does not hold: the loaded section did not cover what the projection needs.
 */
export function rowsAhead(
  projections: readonly Projection[],
  known: KnownRows,
  appends: readonly StreamAppend[],
  metadata: EventMetadata,
  recordedAt: Date,
): Map<string, TableChanges> {
  const fresh = appends.flatMap((a) => {
    if (typeof a.expectedVersion !== 'number') throw new Error('rowsAhead: the expected version of every stream must be known');
    return a.events.map((e, i) => aheadOfAppend(a.streamId, { type: e.type, data: e.data, streamVersion: (a.expectedVersion as number) + i + 1, metadata, recordedAt }));
  });
  const get = (table: string, key: readonly unknown[]): Row | undefined => known.get(table)?.changes.get(keyId(key))?.row ?? undefined;
  for (const e of fresh) {
    for (const p of projections) {
      if (!p.eventTypes.includes(e.type)) continue;
      for (const ref of p.touches(e)) {
        if (!get(ref.table, ref.key)) throw new Error(`projection ${p.name}: ${e.type} touches a ${ref.table} row outside the loaded stream section`);
      }
    }
  }
  return applyInMemory(projections, fresh, { get });
}
