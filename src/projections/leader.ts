/**
 * Work that must run in one instance at a time when several API instances share the database.
 *
 * - `Leadership`: a session-level advisory lock held on a dedicated connection. Whoever holds it runs the
 *   async consumers; when that process dies its connection ends, PostgreSQL releases the lock and another
 *   instance takes over at its next attempt.
 * - `runExclusive(pool, key, fn)`: a transaction-level try-lock for jobs (cron): runs `fn` only if no other
 *   instance is running the same job now; returns false when it skipped.
 *
 * Lock keys are pairs (APP_LOCK_CLASS, n); n values are listed in LOCKS.
 */
import type pg from 'pg';
import type { Database } from '../db/database.ts';
import { withTransaction } from '../db/transaction.ts';
import type { Logger } from '../logger.ts';

const APP_LOCK_CLASS = 0x5348_4654; // "SHFT"

export const LOCKS = {
  asyncConsumers: 1,
  abandonSessions: 2,
} as const;

/**
 * Leadership by the session-level advisory lock (APP_LOCK_CLASS, `lock`) on a dedicated connection (module
 * docstring): `tryAcquire()` takes or confirms it, a failed check or lost connection drops it, `release()` gives it up.
 */
export class Leadership {
  private client?: pg.Client;
  private held = false;

  constructor(
    private readonly db: Database,
    private readonly lock: number,
    private readonly log?: Logger,
  ) {}

  get isLeader(): boolean {
    return this.held;
  }

  /** Tries to take (or confirms holding) the lock; true while this instance is the leader. */
  async tryAcquire(): Promise<boolean> {
    try {
      if (!this.client) {
        const c = await this.db.dedicatedClient();
        c.on('error', (err) => {
          this.log?.warn({ err }, 'leadership connection lost');
          this.drop();
        });
        this.client = c;
      }
      if (this.held) {
        await this.client.query('SELECT 1');
        return true;
      }
      const r = await this.client.query(`SELECT pg_try_advisory_lock(${APP_LOCK_CLASS}, ${this.lock}) AS ok`);
      this.held = r.rows[0].ok === true;
      if (this.held) this.log?.info({ lock: this.lock }, 'leadership taken');
      return this.held;
    } catch (err) {
      this.log?.warn({ err }, 'leadership check failed');
      this.drop();
      return false;
    }
  }

  private drop(): void {
    this.held = false;
    const c = this.client;
    this.client = undefined;
    c?.end().catch(() => {});
  }

  /** Gives the lock up (ending its connection). */
  async release(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    this.held = false;
    if (c) await c.end().catch(() => {});
  }
}

/**
 * Runs `fn` in one transaction under the transaction-level try-lock (APP_LOCK_CLASS, `lock`); returns true when it
 * ran, false when another holder made it skip. Errors of `fn` roll the transaction back and are re-thrown.
 */
export async function runExclusive(pool: pg.Pool, lock: number, fn: (tx: pg.PoolClient) => Promise<void>): Promise<boolean> {
  return withTransaction(pool, async (tx) => {
    const r = await tx.query(`SELECT pg_try_advisory_xact_lock(${APP_LOCK_CLASS}, ${lock}) AS ok`);
    if (r.rows[0].ok !== true) return false;
    await fn(tx);
    return true;
  });
}
