/**
 * Delivers `notification_outbox` rows through `platform.sendSubscribeMessage`.
 *
 * `deliverDue()` claims up to `batchSize` due rows (pending with next_attempt_at ≤ now, or claimed by a sender
 * whose lease ran out) in a short transaction (FOR UPDATE SKIP LOCKED, so several instances never claim the
 * same row), sends them outside any transaction, and records each outcome:
 * - success → `sent`;
 * - errcode 43101 (the user gave no grant: a subscription is one-time, one accepted `wx.requestSubscribeMessage`
 *   allows one message of that template) → `dropped`, logged at info level with the recipient, never retried;
 * - errcode -1 (platform busy; the client also reports network failures and HTTP 5xx as -1) or any error that
 *   is not a PlatformError (network) → `pending` again after a backoff (`backoffMs(attempt)`: 30 s, 1 min,
 *   2 min … capped at 30 min), at most `maxAttempts` sends in all, then `failed`;
 * - any other errcode (bad template id, bad data, invalid openid) → `failed` at once, logged.
 * A row is sent at most once unless a sender dies between the send and the record (its lease then runs out and
 * the row is sent again; the platform offers no idempotency key). Time comes from the injected clock.
 * `start()` runs `deliverDue` every `intervalMs` until `stop()`.
 */
import type pg from 'pg';
import type { Clock } from '../clock.ts';
import { withTransaction } from '../db/transaction.ts';
import type { Logger } from '../logger.ts';
import { PlatformError, type PlatformApi } from '../platform/types.ts';

export interface SenderOptions {
  intervalMs?: number;
  batchSize?: number;
  maxAttempts?: number;
  /** How long a claimed row stays claimed before another sender may take it. */
  leaseMs?: number;
  backoffMs?: (attempt: number) => number;
}

export interface DeliveryCounts {
  sent: number;
  dropped: number;
  retrying: number;
  failed: number;
}

/**
 * Wait before the retry after send number `attempt` (1-based), in milliseconds: 30 s doubled each time, at most 30 min.
 */
export const defaultBackoffMs = (attempt: number): number => Math.min(30_000 * 2 ** (attempt - 1), 30 * 60_000);

/**
 * Delivers the notification outbox (module docstring). Options: `intervalMs` between rounds (default 1000 ms),
 * `batchSize` (20), `maxAttempts` (5), `leaseMs` a claim lasts (120 000 ms), `backoffMs` (defaultBackoffMs).
 */
export class NotificationSender {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = true;
  private readonly intervalMs: number;
  private readonly batchSize: number;
  readonly maxAttempts: number;
  private readonly leaseMs: number;
  private readonly backoffMs: (attempt: number) => number;

  constructor(
    private readonly deps: { pool: pg.Pool; platform: PlatformApi; clock: Clock; log?: Logger },
    opts: SenderOptions = {},
  ) {
    this.intervalMs = opts.intervalMs ?? 1000;
    this.batchSize = opts.batchSize ?? 20;
    this.maxAttempts = opts.maxAttempts ?? 5;
    this.leaseMs = opts.leaseMs ?? 120_000;
    this.backoffMs = opts.backoffMs ?? defaultBackoffMs;
  }

  /** Sends the rows due now; returns what became of them. */
  async deliverDue(): Promise<DeliveryCounts> {
    const counts: DeliveryCounts = { sent: 0, dropped: 0, retrying: 0, failed: 0 };
    const now = this.deps.clock.now();
    const claimed = await withTransaction(this.deps.pool, async (tx) => {
      const r = await tx.query(
        `UPDATE notification_outbox o SET status = 'sending', attempts = o.attempts + 1, lease_until = $2
          WHERE o.id IN (SELECT id FROM notification_outbox
                          WHERE (status = 'pending' AND next_attempt_at <= $1) OR (status = 'sending' AND lease_until <= $1)
                          ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
          RETURNING o.id, o.kind, o.recipient_phone, o.openid, o.template_id, o.page, o.data, o.attempts`,
        [now, new Date(now.getTime() + this.leaseMs), this.batchSize],
      );
      return r.rows.sort((a, b) => Number(a.id) - Number(b.id));
    });
    for (const row of claimed) {
      const log = this.deps.log?.child({ notification: Number(row.id), kind: row.kind, recipient: row.recipient_phone, attempt: row.attempts });
      try {
        await this.deps.platform.sendSubscribeMessage({
          toUser: row.openid,
          templateId: row.template_id,
          ...(row.page ? { page: row.page } : {}),
          data: row.data,
        });
        await this.finish(row.id, 'sent', null);
        counts.sent++;
      } catch (err) {
        const code = err instanceof PlatformError ? err.errcode : undefined;
        const message = err instanceof Error ? err.message : String(err);
        if (code === 43101) {
          log?.info(
            { errcode: code, templateId: row.template_id, outcome: 'dropped' },
            `subscription message to ${row.recipient_phone} not delivered: no subscription of theirs to this template is left (43101: ` +
              'they did not accept when the mini-program asked, or each acceptance was used by an earlier message); dropped, not retried',
          );
          await this.finish(row.id, 'dropped', message);
          counts.dropped++;
        } else if ((code === -1 || code === undefined) && row.attempts < this.maxAttempts) {
          const at = new Date(this.deps.clock.now().getTime() + this.backoffMs(row.attempts));
          log?.warn({ errcode: code, err: message, nextAttemptAt: at.toISOString() }, 'subscription message not delivered; will retry');
          await this.deps.pool.query(
            `UPDATE notification_outbox SET status = 'pending', next_attempt_at = $2, lease_until = NULL, last_error = $3
              WHERE id = $1 AND status = 'sending'`,
            [row.id, at, message],
          );
          counts.retrying++;
        } else {
          log?.error({ errcode: code, err: message }, 'subscription message failed for good');
          await this.finish(row.id, 'failed', message);
          counts.failed++;
        }
      }
    }
    return counts;
  }

  private async finish(id: number, status: 'sent' | 'dropped' | 'failed', error: string | null): Promise<void> {
    await this.deps.pool.query(
      `UPDATE notification_outbox SET status = $2, finished_at = $3, lease_until = NULL, last_error = $4
        WHERE id = $1 AND status = 'sending'`,
      [id, status, this.deps.clock.now(), error],
    );
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = async () => {
      this.running = this.deliverDue().catch((err) => this.deps.log?.error({ err }, 'notification sender round failed'));
      await this.running;
      if (!this.stopped) this.timer = setTimeout(loop, this.intervalMs);
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
