/**
 * The catch-ups of async consumers in this process, one per consumer at a time: whoever asks while one runs (the
 * background loop's tick, a request waiting for a read model: fresh-reads.ts) waits for that one instead of
 * starting another, so a burst of reads costs one catch-up and one pool connection per consumer, not one each.
 * Between processes the consumer's checkpoint row lock (consumer.ts) keeps every event applied exactly once.
 */
import type pg from 'pg';
import type { Cursor, EventStore } from '../events/store.ts';
import { catchUpAt, type AsyncConsumer } from './consumer.ts';
import type { SharedPage } from './shared-page.ts';

/** One catch-up per consumer at a time in this process (module docstring). */
export class CatchUps {
  private readonly running = new Map<string, { flight: Promise<Cursor>; startedAt: number }>();

  constructor(
    private readonly pool: pg.Pool,
    readonly store: EventStore,
  ) {}

  /**
   * When the catch-up of consumer `name` running in this process started (`performance.now()`), or undefined when none
   * runs: a caller that joins one started before the events it waits for were committed may have to run another.
   */
  startedAt(name: string): number | undefined {
    return this.running.get(name)?.startedAt;
  }

  /**
   * Brings `consumer` up to date (consumer.ts `catchUpAt`), or joins the catch-up of it already running; resolves to
   * the checkpoint it left. Rejects with the catch-up's error (nothing of the failed batch is written). A catch-up
   * started with `shared` (the background round's page, shared-page.ts) counts as started when that page was read.
   */
  run(consumer: AsyncConsumer, shared?: SharedPage): Promise<Cursor> {
    let entry = this.running.get(consumer.name);
    if (!entry) {
      const flight = catchUpAt(this.pool, this.store, consumer, undefined, shared)
        .then((r) => r.cursor)
        .finally(() => this.running.delete(consumer.name));
      this.running.set(consumer.name, (entry = { flight, startedAt: shared?.readAt ?? performance.now() }));
    }
    return entry.flight;
  }
}
