/**
 * Inline projection: the read-model rows a command's new events make are computed before the
 * events are stored, so that the command's one append statement writes them (projections/row-writes.ts
 * `addRowWrites`): the worker's next request, on any instance, reads its own writes.
 *
 * What a projection reads for the new events comes from the stream section the command loaded anyway (the worker
 * stream from a session's ClockedIn on, or a whole report stream), replayed in memory: `rowsOf(projections,
 * section)`. Then `rowsAfter(projections, known, events)` applies the new events over those rows. Pure.
 */
import type { ProjectedEvent, Projection, Row } from './projection.ts';
import { keyId, type TableChanges } from './row-writes.ts';
import { applyInMemory } from './runner.ts';

/** Rows by table, then by key id (row-writes.ts keyId); a null row: deleted. */
export type KnownRows = ReadonlyMap<string, TableChanges>;

export const NO_ROWS: KnownRows = new Map();

/** The rows `projections` make of the events of a stream section (replayed in memory from nothing). */
export function rowsOf(projections: readonly Projection[], section: readonly ProjectedEvent[]): KnownRows {
  return applyInMemory(projections, section, { get: () => undefined });
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
 * The rows `projections` write for the new `events`, applied over `known` (the rows of the loaded section).
 * Throws (a defect, never a user error) when an event touches a row `known` does not hold: the loaded section did
 * not cover what the projection needs.
 */
export function rowsAfter(projections: readonly Projection[], known: KnownRows, events: readonly ProjectedEvent[]): Map<string, TableChanges> {
  const get = (table: string, key: readonly unknown[]): Row | undefined => known.get(table)?.changes.get(keyId(key))?.row ?? undefined;
  for (const e of events) {
    for (const p of projections) {
      if (!p.eventTypes.includes(e.type)) continue;
      for (const ref of p.touches(e)) {
        if (!get(ref.table, ref.key)) throw new Error(`projection ${p.name}: ${e.type} touches a ${ref.table} row outside the loaded stream section`);
      }
    }
  }
  return applyInMemory(projections, events, { get });
}
