/**
 * No read older than the reader's own write: a request that reads an asynchronous read model (the wages, the
 * dashboard) is answered only from a model that holds every event committed when the request came that changes what
 * it shows.
 * The rule, in one place (the routes name the models they read: `readModels` of their declaration, run by
 * http/pipeline.ts after authentication and validation, before the handler):
 *
 * 1. One statement asks, for each model named, for the last event after its checkpoint of the types that change
 *    what its readers are shown (the projection's `shownBy`: for the wages an approval, a rate, a close or a reopen;
 *    not a worker's clocking, nor a submission, whose pending lines no reader sees), an index range scan of the events
 *    not consumed yet. None: the model is fresh and the request goes on. Else the model must take that event in,
 *    and with it every event before it.
 * 2. Behind: the request brings the model up to that event itself (CatchUps, consumer.ts `catchUpAt`): exactly once
 *    whoever runs it, since the checkpoint row is locked FOR UPDATE (a batch of the leader's background loop, of
 *    another instance or of another request is waited for, then continued from); within a process one catch-up
 *    per model at a time, shared by the requests and the background loop (a request joins the one running, and runs
 *    another after it when it had started before the request found its event). When the checkpoint is still short
 *    of the event (a transaction older than it, anywhere, is still open: the commit-safe reader does not pass it),
 *    it tries again a few milliseconds later.
 * 3. Bounded by `waitMs` (READ_MODEL_WAIT_SECONDS, default 2 s), measured on the process's monotonic clock (a
 *    bound on this request's own wait, not a rule of the factory's time): past it, `ReadModelBehind` (503
 *    READ_MODEL_BEHIND), never an older figure. A catch-up that fails (a fault in a projection) is logged and
 *    tried again until then.
 *
 * A request holds no connection while it waits (on PGlite's one connection the catch-up takes its turn on the
 * pool like any transaction). `enabled: false` (SPEED_PIECES_OFF=fresh-reads) answers from the model as it is:
 * only for the benchmark's baseline.
 */
import type pg from 'pg';
import type { Cursor } from '../events/store.ts';
import type { Logger } from '../logger.ts';
import type { CatchUps } from './catch-ups.ts';
import { reached, type AsyncConsumer } from './consumer.ts';

/** An async read model: its consumer, and the event types that change what its readers are shown (Projection.shownBy). */
export interface ReadModel {
  readonly consumer: AsyncConsumer;
  readonly shownBy: readonly string[];
}

/** The model `readModel` did not take in, within `waitMs` milliseconds, the events committed when the request came. */
export class ReadModelBehind extends Error {
  constructor(
    readonly readModel: string,
    readonly waitMs: number,
  ) {
    super(`read model ${readModel} did not catch up within ${waitMs} ms`);
    this.name = 'ReadModelBehind';
  }
}

/** Milliseconds between two catch-ups of a model still short of the position a request waits for. */
const RETRY_MS = 5;
/** Milliseconds before a failed catch-up is tried again. */
const FAILED_RETRY_MS = 50;

/**
 * Per model ($1 names, $2 its `shownBy` types joined by commas): the last event of those types after its checkpoint,
 * in the consumers' order; no row for a model that has none (step 1 of the module docstring).
 */
const LAST_UNCONSUMED = `
  SELECT k.name, t.transaction_id::text AS tx, t.global_position AS pos
    FROM unnest($1::text[], $2::text[]) AS k(name, types)
    LEFT JOIN projection_checkpoints c ON c.name = k.name
   CROSS JOIN LATERAL (
     SELECT e.transaction_id, e.global_position FROM events e
      WHERE (e.transaction_id, e.global_position) > (COALESCE(c.transaction_id, '0'::xid8), COALESCE(c.global_position, 0))
        AND e.event_type = ANY (string_to_array(k.types, ','))
      ORDER BY e.transaction_id DESC, e.global_position DESC -- the columns (xid8), not the text alias
      LIMIT 1) t`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `p`'s value, or `undefined` when `ms` milliseconds pass first (p goes on; its failure is then ignored). */
async function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  p.catch(() => {});
  try {
    return await Promise.race([p, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Read-your-writes on the async read models (module docstring). */
export class FreshReads {
  private readonly models: ReadonlyMap<string, ReadModel>;

  constructor(
    private readonly pool: pg.Pool,
    private readonly catchUps: CatchUps,
    models: readonly ReadModel[],
    private readonly options: { waitMs: number; enabled?: boolean; log?: Logger },
  ) {
    this.models = new Map(models.map((m) => [m.consumer.name, m]));
  }

  /**
   * Resolves once every model of `names` holds every event of its types committed now (module docstring); throws
   * ReadModelBehind past the bound, and Error for a name that is no async read model (a fault of a declaration).
   */
  async await(names: readonly string[]): Promise<void> {
    if (names.length === 0 || this.options.enabled === false) return;
    const deadline = performance.now() + this.options.waitMs;
    const models = names.map((n) => {
      const m = this.models.get(n);
      if (!m) throw new Error(`no async read model ${n}`);
      return m;
    });
    const r = await this.pool.query(LAST_UNCONSUMED, [models.map((m) => m.consumer.name), models.map((m) => m.shownBy.join(','))]);
    const seen = performance.now();
    await Promise.all(
      r.rows.map((row) => this.reach(this.models.get(row.name)!.consumer, { transactionId: row.tx, globalPosition: Number(row.pos) }, seen, deadline)),
    );
  }

  /**
   * Catches `c` up until its checkpoint is at `target` or after (an event committed before `seen`, when the request
   * found it); ReadModelBehind when `deadline` passes first.
   */
  private async reach(c: AsyncConsumer, target: Cursor, seen: number, deadline: number): Promise<void> {
    let failures = 0;
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0) throw new ReadModelBehind(c.name, this.options.waitMs);
      // A catch-up that started before the request found its event may stop short of it: then run another at once.
      // One that started after and stopped short met a transaction older than the event still open: try again shortly.
      const stale = (this.catchUps.startedAt(c.name) ?? seen) < seen;
      try {
        const cursor = await within(this.catchUps.run(c), left);
        if (cursor && reached(cursor, target)) return;
        if (cursor && !stale) await sleep(Math.min(RETRY_MS, Math.max(0, deadline - performance.now())));
      } catch (err) {
        if (failures++ === 0) this.options.log?.error({ err, readModel: c.name }, 'read model catch-up failed; retrying until the wait ends');
        await sleep(Math.min(FAILED_RETRY_MS, Math.max(0, deadline - performance.now())));
      }
    }
  }
}
