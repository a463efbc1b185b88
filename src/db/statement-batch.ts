/**
 * StatementBatch: a pg submittable that runs several prepared statements in ONE implicit transaction and one
 * round trip: Bind/Describe/Execute for each, then a single Sync (PostgreSQL protocol documentation, "Extended
 * Query": the statements up to a Sync run as one implicit transaction block; after an error the backend skips
 * every message up to the Sync and rolls the block back). So either every statement of the batch commits, with
 * one commit and one WAL flush for all, or none does.
 *
 * The statements must already be prepared on the connection under `name` (PreparingClient); the batch sends no
 * Parse. `client.query(batch)` calls back once: `(null, results)` after the commit (ReadyForQuery), one
 * pg.QueryResult per statement in order, or `(err)` with the first error. After the backend's error nothing was
 * committed; after a returned row pg could not parse (not seen in practice) the batch did commit, yet is reported
 * failed, so a caller that reruns must accept a second copy being refused (an append's expected version does).
 * Depends on node-postgres's submittable contract (pg/lib/query.js, the methods pg/lib/client.js calls).
 */
import pg from 'pg';
import Result from 'pg/lib/result.js';
import pgUtils from 'pg/lib/utils.js';

/** One statement of a batch: the prepared statement's name and its parameter values. */
export interface BatchStatement {
  readonly name: string;
  readonly values: readonly unknown[];
}

/** pg's protocol connection, as far as the batch uses it. */
interface Connection {
  stream: { cork?: () => void; uncork?: () => void };
  bind(config: { statement: string; values: unknown[] }): void;
  describe(config: { type: 'P'; name: string }): void;
  execute(config: { portal: string }): void;
  sync(): void;
}

/** One batch of prepared statements for `client.query(batch, callback)` (module docstring). */
export class StatementBatch {
  /** Set by pg's `client.query(batch, callback)`. */
  callback?: (err: Error | null, results?: pg.QueryResult[]) => void;
  private readonly results: Result[];
  /** Parameter values already in wire form, so that a value pg cannot send throws here, before anything is sent. */
  private readonly wire: unknown[][];
  /** The statement whose answer is being read. */
  private index = 0;
  private failure: Error | undefined;

  /** Throws when a value cannot be sent (pg's utils.prepareValue). */
  constructor(private readonly statements: readonly BatchStatement[]) {
    this.results = statements.map(() => new Result());
    this.wire = statements.map((s) => s.values.map((v) => pgUtils.prepareValue(v)));
  }

  submit(connection: Connection): null {
    connection.stream.cork?.();
    try {
      this.statements.forEach((s, i) => {
        connection.bind({ statement: s.name, values: this.wire[i] });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '' });
      });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(msg: { fields: unknown[] }): void {
    this.results[this.index].addFields(msg.fields);
  }

  handleDataRow(msg: { fields: unknown[] }): void {
    const result = this.results[this.index];
    try {
      result.addRow(result.parseRow(msg.fields));
    } catch (err) {
      this.failure ??= err as Error;
    }
  }

  handleCommandComplete(msg: unknown): void {
    this.results[this.index].addCommandComplete(msg);
    this.index++;
  }

  handleEmptyQuery(): void {
    this.index++;
  }

  /** The backend's error (pg then forgets the batch and goes on at ReadyForQuery) or a connection failure. */
  handleError(err: Error): void {
    this.settle(err);
  }

  handleReadyForQuery(): void {
    if (this.failure) return this.settle(this.failure);
    if (this.index !== this.statements.length) return this.settle(new Error(`statement batch: ${this.index} answers for ${this.statements.length} statements`));
    this.settle(null, this.results as unknown as pg.QueryResult[]);
  }

  // A batch reads no rows in portions and copies nothing: these are never called for it.
  handlePortalSuspended(): void {
    this.settle(new Error('statement batch: unexpected PortalSuspended'));
  }
  handleCopyInResponse(): void {
    this.settle(new Error('statement batch: unexpected CopyInResponse'));
  }
  handleCopyData(): void {}

  private settle(err: Error | null, results?: pg.QueryResult[]): void {
    const cb = this.callback;
    this.callback = undefined;
    cb?.(err, results);
  }
}
