/**
 * What a projection is (issue #2): a pure mapping from events to read-model row changes.
 *
 * A projection owns some tables. For an event it names the rows it needs (`touches`, pure), and, given those
 * rows as they are, returns the rows to write or delete (`apply`, pure). The runner (`runner.ts`) loads the
 * touched rows in bulk, applies a whole batch of events in memory and writes the changed rows with one
 * statement per table (async catch-up and replay); inline projections run ahead of the append from the rows of
 * the command's loaded stream section, and their rows are written by the append's own statement (inline.ts).
 *
 * Rows are plain objects whose keys are the table's column names (snake_case); every write gives the full row.
 */
import type { StoredEvent } from '../events/store.ts';

export type Row = Record<string, unknown>;

/**
 * What a projection may read of an event: its stream, stream version, type, payload (upcast), metadata and time;
 * not what only the append assigns (global position, transaction id), so that every projection can also run
 * ahead of the append (inline.ts). Rows are keyed by
 * stream coordinates, never by global position (migrations/006).
 */
export type ProjectedEvent = Omit<StoredEvent<any>, 'globalPosition' | 'transactionId' | 'schemaVersion'>;

export interface TableSpec {
  readonly name: string;
  /** Primary-key columns. */
  readonly key: readonly string[];
  /** Every column of the table (the key's included), as the migrations define them (a test compares). */
  readonly columns: readonly string[];
}

export interface RowRef {
  readonly table: string;
  /** Key values, in the order of TableSpec.key. */
  readonly key: readonly unknown[];
}

/** A full row to upsert, or `row: null` to delete the row with that key. */
export interface RowChange extends RowRef {
  readonly row: Row | null;
}

export interface RowView {
  /** The row as it is now (after earlier events of the batch), or undefined. */
  get(table: string, key: readonly unknown[]): Row | undefined;
}

export interface Projection {
  readonly name: string;
  /** inline: same transaction as the append (read-your-writes). async: catch-up consumer with checkpoint. */
  readonly mode: 'inline' | 'async';
  readonly tables: readonly TableSpec[];
  /** Event types the projection handles; others are skipped. */
  readonly eventTypes: readonly string[];
  /** The rows `apply` will read for `event`. */
  touches(event: ProjectedEvent): readonly RowRef[];
  /** The row changes `event` causes, given the rows it touches. */
  apply(event: ProjectedEvent, view: RowView): readonly RowChange[];
}
