/**
 * What the two-phase import (src/imports/service.ts) needs from each list it imports (products, people).
 *
 * `TRow` is one checked row of the sheet as shown in the preview (it carries `row`, the sheet row number);
 * `TStored` the stored record(s) a row is compared with, found by the same string key.
 */
import type pg from 'pg';
import type { CommandActor, CommandDeps } from '../commands/command.ts';
import type { Queryable } from '../db/transaction.ts';
import type { ErrorRow } from './problems.ts';
import type { OrganizationCatalog } from '../queries/organization.ts';

/**
 * What a classification may rely on besides the stored records: today (APP_TIMEZONE), the closed months, and the
 * organization's workshops and teams (a personnel list's 车间 and 班组 columns).
 */
export interface ClassifyContext {
  readonly today: string;
  readonly closedMonths: readonly string[];
  readonly organization?: OrganizationCatalog;
}

/** Who confirms, for what a write records as events (a product's rates): the command path and the actor. */
export interface WriteContext {
  readonly commands: CommandDeps;
  readonly actor: CommandActor;
  readonly timeZone: string;
}

export interface Classified<TRow> {
  create: TRow[];
  update: TRow[];
  unchanged: TRow[];
  /** Rows that conflict with the stored data (e.g. a phone bound to another name). */
  errors: ErrorRow[];
}

export interface ImportKind<TRow extends { row: number }, TStored> {
  readonly name: 'products' | 'people' | 'work-orders';
  /**
   * Parses and checks the file, off the event loop (src/imports/parse-pool.ts). Rejects with AppError 422 for
   * problems of the whole file (not a spreadsheet, too large, headers…) and the pool's 422/503.
   */
  parse(buffer: Uint8Array, maxRows: number): Promise<{ valid: TRow[]; errors: ErrorRow[] }>;
  /** The stored records the rows touch, by key; read inside the confirming transaction too. */
  loadStored(q: Queryable, rows: readonly TRow[], timeZone: string): Promise<Map<string, TStored>>;
  /** The part of a stored record whose change makes a preview stale (JSON-serialisable, stable). */
  canonical(stored: TStored): unknown;
  /** Sorts the rows into create / update / unchanged, or errors when they conflict with the stored data. */
  classify(rows: readonly TRow[], stored: ReadonlyMap<string, TStored>, context: ClassifyContext): Classified<TRow>;
  /** Takes the lock that keeps the table still from the staleness check to the commit. */
  lock(tx: pg.PoolClient): Promise<void>;
  /** Writes the create and update rows; events (a product's rates) through `by.commands` inside `tx`. */
  write(tx: pg.PoolClient, create: readonly TRow[], update: readonly TRow[], now: Date, by: WriteContext): Promise<void>;
}
