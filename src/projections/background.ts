/**
 * The background loop of an instance: while it holds the consumers' leadership (advisory lock, see
 * leader.ts) it brings every async consumer up to date, every `intervalMs`, through the process's CatchUps (shared
 * with the requests that wait for a read model: fresh-reads.ts). Errors are logged and retried at the next tick; a
 * lost database connection gives the leadership up so another instance can take it.
 */
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { AsyncConsumer } from './consumer.ts';
import type { CatchUps } from './catch-ups.ts';
import { Leadership, LOCKS } from './leader.ts';
import { SharedPage } from './shared-page.ts';

/**
 * Rows of the round's shared page (shared-page.ts): enough for a busy round (at 3,000 requests a second a round
 * meets about a thousand events), so that the consumers seldom read on for themselves after it.
 */
const SHARED_PAGE_ROWS = 5000;

/**
 * The background loop (module docstring): `start()` runs `tick()` every `intervalMs` (default 250 ms) after the
 * previous round ends; `nudge()` runs the next round now (or right after the one in progress); `stop()` waits for the
 * round in progress and releases the leadership.
 */
export class BackgroundConsumers {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private started = false;
  private stopped = false;
  /** A nudge came during a round: the next one starts at once. */
  private again = false;
  readonly leadership: Leadership;

  constructor(
    private readonly db: Database,
    private readonly catchUps: CatchUps,
    private readonly consumers: readonly AsyncConsumer[],
    private readonly log?: Logger,
    private readonly intervalMs = 250,
  ) {
    this.leadership = new Leadership(db, LOCKS.asyncConsumers, log);
  }

  start(): void {
    if (this.started) return; // already running: one loop per instance
    this.started = true;
    this.stopped = false;
    this.schedule(0);
  }

  /**
   * Runs the next round now, or right after the one in progress (an event the read models' readers wait for was
   * committed: commands/command.ts `committed`). Nothing when the loop is not running; a round in an instance that is
   * not the leader does nothing (the leader's own round, or the readers' catch-ups, take the event in).
   */
  nudge(): void {
    if (!this.started || this.stopped) return;
    if (this.running) {
      this.again = true;
    } else if (this.timer) {
      clearTimeout(this.timer);
      this.schedule(0);
    }
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => void this.round(), ms);
  }

  private async round(): Promise<void> {
    this.timer = undefined;
    this.again = false;
    this.running = this.tick();
    await this.running;
    this.running = undefined;
    if (!this.stopped) this.schedule(this.again ? 0 : this.intervalMs);
  }

  /**
   * One round: take or confirm leadership, then catch every consumer up, the first page after their checkpoints read
   * once for all of them (shared-page.ts; when that read fails, each reads for itself).
   */
  async tick(): Promise<void> {
    if (this.consumers.length === 0 || !(await this.leadership.tryAcquire())) return;
    const shared = await SharedPage.read(this.db.pool, this.catchUps.store, this.consumers, SHARED_PAGE_ROWS).catch((err) => {
      this.log?.error({ err }, 'shared page of the async consumers not read; each reads for itself');
      return undefined;
    });
    for (const c of this.consumers) {
      if (this.stopped) return;
      try {
        await this.catchUps.run(c, shared);
        if (c.idle && !this.stopped) await c.idle(this.db.pool);
      } catch (err) {
        this.log?.error({ err, consumer: c.name }, 'async consumer failed; retrying at next tick');
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.timer = undefined;
    this.running = undefined;
    this.started = false;
    await this.leadership.release();
  }
}
