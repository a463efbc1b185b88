/**
 * What a projection is (issue #2): a pure mapping from events to read-model row changes.
 *
 * A projection owns some tables. For an event it names the rows it needs (`touches`, pure), and, given those
 * rows as they are, returns the rows to write or delete (`apply`, pure). The runner (`runner.ts`) loads the
 * touched rows in bulk, applies a whole batch of events in memory and writes the changed rows with one
 * statement per table, so the same code serves inline projection (inside the append's transaction), async
 * catch-up and replay.
 *
 * Rows are plain objects whose keys are the table's column names (snake_case); every write gives the full row.
 */
import type { StoredEvent } from '../events/store.ts';

export type Row = Record<string, unknown>;

export interface TableSpec {
  readonly name: string;
  /** Primary-key columns. */
  readonly key: readonly string[];
}

export interface RowRef {
  readonly table: string;
  /** Key values, in the order of TableSpec.key. */
  readonly key: readonly unknown[];
}

/** A full row to upsert, or `row: null` to delete the row with that key. */
export interface RowWrite extends RowRef {
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
  touches(event: StoredEvent<any>): readonly RowRef[];
  /** The row changes `event` causes, given the rows it touches. */
  apply(event: StoredEvent<any>, view: RowView): readonly RowWrite[];
}
