/**
 * One page of events read once for the async consumers of a background round, instead of once per consumer.
 *
 * The consumers' checkpoints advance together: each round brings every one of them to about the same place, so each
 * read the same rows again (five consumers: five reads of the same page, and five decodings of it). `SharedPage.read`
 * reads the page once, after the earliest of the consumers' checkpoints, with the payloads of every type one of them
 * handles, through the store's commit-safe `readPageAfter` (its own statement and snapshot). A consumer whose
 * checkpoint lies inside the page takes the part after its checkpoint, of its own types (consumer.ts `batchAt`).
 *
 * Why that part is exactly what the consumer's own read would give (or a shorter prefix of it): the page holds every
 * committed event after its start below its snapshot's horizon (no transaction older than the horizon was still
 * running: each is committed, in the page, or rolled back), in the consumers' order, up to its last row. The part after
 * any cursor inside it is therefore every event after that cursor up to the page's last row; when the page was not
 * full, up to the horizon. A consumer outside the page (behind its start, or moved past its end since by a request's
 * catch-up or another instance) reads for itself, as without it. After a full page the consumer goes on reading for
 * itself from the page's end.
 */
import type pg from 'pg';
import { compareCursors, type Cursor, type EventStore, type StoredEvent } from '../events/store.ts';

/** Position of `e` in the consumers' order, as a cursor. */
const cursorOf = (e: StoredEvent<any>): Cursor => ({ transactionId: e.transactionId, globalPosition: e.globalPosition });

/** The part of a shared page after a consumer's checkpoint (module docstring). */
export interface PagePart {
  /** The events after the checkpoint of the consumer's types, in order. */
  readonly events: StoredEvent<any>[];
  /** The page's last row (of any type): the checkpoint after this part; undefined when nothing follows the checkpoint. */
  readonly last?: Cursor;
  /** True when the page was full: events may follow its last row, and the consumer reads on for itself. */
  readonly more: boolean;
}

/** A page read once for several consumers (module docstring). */
export class SharedPage {
  private constructor(
    /** The cursor the page starts after. */
    private readonly start: Cursor,
    /** The page's events of every type some consumer handles, in order. */
    private readonly events: readonly StoredEvent<any>[],
    /** The page's last row, of any type (undefined: the page is empty). */
    private readonly last: Cursor | undefined,
    private readonly full: boolean,
    /** When the page was read (`performance.now()`): a catch-up using it holds no event committed later. */
    readonly readAt: number,
  ) {}

  /**
   * Reads the page after the earliest checkpoint of `consumers` (consumer.ts AsyncConsumer: name and types; up to
   * `limit` rows), or undefined when fewer than two consumers would share it. A consumer without a checkpoint row
   * yet starts at the beginning.
   */
  static async read(
    pool: pg.Pool,
    store: EventStore,
    consumers: readonly { readonly name: string; readonly eventTypes: readonly string[] }[],
    limit: number,
  ): Promise<SharedPage | undefined> {
    if (consumers.length < 2) return undefined;
    const readAt = performance.now();
    const names = consumers.map((c) => c.name);
    const r = await pool.query(
      `SELECT COALESCE(c.transaction_id, '0'::xid8)::text AS tx, COALESCE(c.global_position, 0) AS pos
         FROM unnest($1::text[]) AS k(name) LEFT JOIN projection_checkpoints c ON c.name = k.name
        ORDER BY COALESCE(c.transaction_id, '0'::xid8), COALESCE(c.global_position, 0) LIMIT 1`,
      [names],
    );
    const start: Cursor = { transactionId: r.rows[0].tx, globalPosition: Number(r.rows[0].pos) };
    const types = [...new Set(consumers.flatMap((c) => c.eventTypes))];
    const page = await store.readPageAfter(pool, start, limit, types);
    return new SharedPage(start, page.events, page.last, page.read === limit, readAt);
  }

  /**
   * The part after `cursor` of the events of `types` (module docstring), or undefined when the page does not hold the
   * cursor (before its start, or after its last row) or holds nothing after it while more may follow: the consumer
   * then reads for itself.
   */
  after(cursor: Cursor, types: readonly string[]): PagePart | undefined {
    if (compareCursors(cursor, this.start) < 0) return undefined;
    if (this.last && compareCursors(cursor, this.last) < 0) {
      const wanted = new Set(types);
      const events = this.events.filter((e) => wanted.has(e.type) && compareCursors(cursorOf(e), cursor) > 0);
      return { events, last: this.last, more: this.full };
    }
    // Nothing after the cursor in the page: caught up when the cursor is the page's end and the page reached the horizon.
    const past = this.last !== undefined && compareCursors(cursor, this.last) > 0;
    return this.full || past ? undefined : { events: [], more: false };
  }
}
