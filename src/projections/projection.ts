/**
 * What a projection is: a pure mapping from events to read-model row changes.
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
  /**
   * Columns read as text (numeric sums beyond 2^53, e.g. fen: a JS number would round them); the projection
   * writes them back as text of digits.
   */
  readonly exact?: readonly string[];
  /** No query reads it: state the projection keeps for later events (an async projection's `shownBy`). */
  readonly internal?: boolean;
  /**
   * Every non-key column is a sum and every row written is an increment: a write adds its values to the row's (a new
   * key starts from zero), so that a projection changes sums it has not read (an inline projection of one stream
   * counting into rows shared by many: work-order-progress.ts). Such rows are never deleted, and the projection never
   * reads them (`view.get` sees only the increments of the batch).
   */
  readonly sums?: boolean;
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

/**
 * A condition of a scan on one column: equal to a value, one of values, or (text and date columns) within
 * [gte, lt). Values compare as text (`String(v)`): numbers, text and `YYYY-MM-DD` dates.
 */
export type ScanCondition =
  | { readonly eq: string | number }
  | { readonly in: readonly (string | number)[] }
  | { readonly gte?: string; readonly lt?: string };

/** The rows of a table meeting every condition of `where` (column → condition): what a projection's `needs` may name. */
export interface RowScan {
  readonly table: string;
  readonly where: Readonly<Record<string, ScanCondition>>;
}

export interface RowView {
  /** The row as it is now (after earlier events of the batch), or undefined. */
  get(table: string, key: readonly unknown[]): Row | undefined;
  /**
   * The rows of `table` meeting `where` as they are now (after earlier events of the batch), in no particular
   * order. Only for scans the projection named in `needs` (async projections; runner.ts loads them).
   */
  scan?(table: string, where: RowScan['where']): Row[];
}

export interface Projection {
  readonly name: string;
  /** inline: same transaction as the append (read-your-writes). async: catch-up consumer with checkpoint. */
  readonly mode: 'inline' | 'async';
  readonly tables: readonly TableSpec[];
  /** Event types the projection handles; others are skipped. */
  readonly eventTypes: readonly string[];
  /**
   * Async projections: the event types that may change a row its readers read (a table not `internal`); the other
   * types only keep state for later events (a submission's lines, which its approval prices). A read of the model
   * waits only for events of these types (fresh-reads.ts): the model takes in every earlier event on its way to
   * them. Default: `eventTypes`. A test applies the other types and finds only internal tables written.
   */
  readonly shownBy?: readonly string[];
  /** The rows `apply` will read for `event`. */
  touches(event: ProjectedEvent): readonly RowRef[];
  /** The row changes `event` causes, given the rows it touches. */
  apply(event: ProjectedEvent, view: RowView): readonly RowChange[];
  /**
   * Rows `apply` will read that depend on rows already known (the lines a rate reprices, found through the rates it
   * replaces), or that may be absent. The runner asks again with the rows it has loaded, until every row and scan
   * named is known, before it applies the event (runner.ts: async catch-up and replay). An inline projection reads
   * them, when present, from the rows of the loaded stream section (inline.ts), so it names there only rows of the
   * event's own stream.
   */
  needs?(event: ProjectedEvent, view: RowView): readonly (RowRef | RowScan)[];
  /**
   * Async projections: the rows a whole batch of `events` (those the projection handles, in order) touches, loaded
   * before any is applied (runner.ts `projectBatch`). Default: every event's `touches`. A projection names here the
   * rows one event will read only because a later event of the same batch does (an approval's day rows, found through
   * the submission it approves), and leaves them out of `touches` so that a batch without that later event loads
   * none of them; `needs` still finds them for an event whose earlier event came in another batch.
   */
  ahead?(events: readonly ProjectedEvent[]): readonly RowRef[];
}
