/**
 * Group commit for single-statement writes outside transactions (the event store's appends of workers'
 * commands). Under load, appends that wait together go to PostgreSQL together: one round trip and one
 * implicit transaction (statement-batch.ts), so one commit and one WAL flush for all of them instead of one each.
 * A second instance batches the worker's hot single-statement reads the same way (database.ts `Database.reads`):
 * their key is the worker's phone, they write nothing, and the batch shares only the round trip and the
 * transaction's start and end (each statement still reads its own snapshot under read committed).
 * Measured for the per-statement cost of a commit, the protocol
 * and the system calls is most of what a small append costs both the service and PostgreSQL.
 *
 * Rules:
 * - A statement is sent at the next turn of the event loop (setImmediate) when fewer than `maxInFlight` batches
 *   are running; else it waits and goes with the others that waited (at most `maxBatch` per batch). At low load
 *   every statement goes alone, as through the pool.
 * - Atomicity changes nothing for callers: a batch commits all its statements or none. When any statement of a
 *   batch fails, PostgreSQL rolls the whole batch back, and every statement of it runs again alone (its own
 *   answer or its own error); a statement whose outcome is unknown (connection lost) is run again as well, which
 *   an append makes safe (its expected version refuses a second copy).
 * - Statements carry a key (the event store gives the worker's stream), and a statement writes only rows of its
 *   key. A key never runs in two batches of this process at once, and a batch runs its statements in the order of
 *   their keys (code units; one key's statements in the order they came, each seeing the ones before it), so that
 *   every writer taking the rows of several keys in one transaction takes them in one order: no deadlock between
 *   batches, of this process or of another instance, nor with a job that keeps that order (the abandonment job).
 * - A batch holds one pooled connection; a statement not yet prepared on that connection runs alone first, as a
 *   named prepared statement (statementName), since a batch sends no Parse.
 */
import pg from 'pg';
import { connectionFailed } from './failures.ts';
import { statementName } from './preparing-client.ts';
import { StatementBatch } from './statement-batch.ts';
import type { Statement, StatementRunner } from './transaction.ts';

interface Pending {
  readonly text: string;
  readonly values: unknown[];
  readonly key: string;
  resolve(result: pg.QueryResult): void;
  reject(err: unknown): void;
}

export interface GroupCommitOptions {
  /** Batches running at once, each on its own pooled connection (default 2). */
  maxInFlight?: number;
  /** Statements per batch at most (default 32). */
  maxBatch?: number;
}

/** Statements prepared on each connection by this module's single runs (a batch binds only these). */
const prepared = new WeakMap<pg.PoolClient, Set<string>>();

/**
 * The group commit over `pool` (module docstring: rules). `query(statement)` is its one entry point (a
 * StatementRunner, like the pool); `stats` counts what it did.
 */
export class GroupCommit implements StatementRunner {
  /**
   * Statements committed, the commits (batches and single runs) they took (mean batch size: the ratio), and the
   * statements run again alone after their batch failed.
   */
  readonly stats = { statements: 0, commits: 0, reruns: 0 };
  private queue: Pending[] = [];
  private inFlight = 0;
  private readonly busy = new Set<string>();
  private scheduled = false;
  private readonly maxInFlight: number;
  private readonly maxBatch: number;

  constructor(
    /** The pool batches take their connections from; also for callers' reads. */
    readonly pool: pg.Pool,
    options: GroupCommitOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? 2;
    this.maxBatch = options.maxBatch ?? 32;
  }

  /**
   * Runs the single parameterised statement in its own transaction, possibly committed together with others
   * (module docstring); its `key` names the rows it writes (the stream); without a key it goes through the pool
   * alone. Resolves with its result once committed; rejects with its own error (pg's DatabaseError) or a
   * connection error.
   */
  query({ text, values, key }: Statement): Promise<pg.QueryResult> {
    if (key === undefined) return this.pool.query(text, values);
    return new Promise((resolve, reject) => {
      this.queue.push({ text, values, key, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  /** Starts batches while fewer than maxInFlight run and some waiting statement's key is free. */
  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch: Pending[] = [];
      const rest: Pending[] = [];
      for (const p of this.queue) (batch.length < this.maxBatch && !this.busy.has(p.key) ? batch : rest).push(p);
      if (batch.length === 0) return;
      this.queue = rest;
      const keys = new Set(batch.map((p) => p.key));
      for (const k of keys) this.busy.add(k);
      this.inFlight++;
      void this.run(batch).finally(() => {
        for (const k of keys) this.busy.delete(k);
        this.inFlight--;
        this.pump();
      });
    }
  }

  /** Runs `batch` on one pooled connection; settles every statement of it. Never rejects. */
  private async run(batch: Pending[]): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    let names = prepared.get(client);
    if (!names) prepared.set(client, (names = new Set()));
    // A connection lost mid-batch emits 'error' on the checked-out client; an error that is not the server's
    // answer to a statement also marks it. A broken client goes back to the pool at once (which discards it, and
    // whose other connections may be all there is), and what remains runs through the pool.
    let broken: Error | undefined;
    const onError = (err: Error) => (broken ??= err);
    client.on('error', onError);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      // A broken client keeps the listener: the pool ends it, and what its dying socket still reports is moot.
      if (!broken) client.removeListener('error', onError);
      client.release(broken);
    };
    /** Runs `p` alone and settles it: on `client` (prepared there under its name), or through the pool once broken. */
    const alone = async (p: Pending) => {
      const onClient = !broken;
      if (!onClient) release();
      try {
        const name = statementName(p.text, p.values);
        const result = onClient ? await client.query({ name, text: p.text, values: p.values }) : await this.pool.query(p.text, p.values);
        if (onClient && name) names.add(name);
        this.count(1, 1);
        p.resolve(result);
      } catch (err) {
        p.reject(err);
        if (connectionLost(err)) broken ??= err as Error;
      }
    };
    try {
      const together: { p: Pending; name: string }[] = [];
      for (const p of batch) {
        const name = statementName(p.text, p.values);
        if (name && names.has(name)) together.push({ p, name });
        else await alone(p);
      }
      if (together.length <= 1 || broken) {
        for (const { p } of together) await alone(p);
        return;
      }
      together.sort((a, b) => (a.p.key < b.p.key ? -1 : a.p.key > b.p.key ? 1 : 0)); // stable: a key's own order stays
      let results: pg.QueryResult[];
      try {
        results = await runBatch(client, together.map(({ p, name }) => ({ name, values: p.values })));
      } catch (err) {
        // Nothing of the batch was committed (or, connection lost, its outcome is unknown): each runs alone.
        if (connectionLost(err)) broken ??= err as Error;
        this.stats.reruns += together.length;
        for (const { p } of together) await alone(p);
        return;
      }
      this.count(together.length, 1);
      together.forEach(({ p }, i) => p.resolve(results[i]));
    } finally {
      release();
    }
  }

  private count(statements: number, commits: number): void {
    this.stats.statements += statements;
    this.stats.commits += commits;
  }
}

/**
 * Whether `err` means the connection is gone (not a statement's own error): anything but the server's error
 * answer, or an answer that ends the session (failures.ts: FATAL or PANIC, a terminated backend, a shutdown).
 */
function connectionLost(err: unknown): boolean {
  return !(err instanceof pg.DatabaseError) || connectionFailed(err);
}

/** Runs `statements` as one StatementBatch on `client`: their results in order, or the first error. */
function runBatch(client: pg.PoolClient, statements: { name: string; values: readonly unknown[] }[]): Promise<pg.QueryResult[]> {
  return new Promise((resolve, reject) => {
    let batch: StatementBatch;
    try {
      batch = new StatementBatch(statements);
    } catch (err) {
      reject(err);
      return;
    }
    batch.callback = (err, results) => (err ? reject(err) : resolve(results!));
    client.query(batch as never);
  });
}
