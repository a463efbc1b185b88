/**
 * Per-process cache of the facts of workers' commands (facts.ts): workers by phone (the stream section and the
 * person's name their last command ended with) and product snapshots by id (a draft's candidates, fresh loads),
 * each bounded, the least recently used forgotten first. Entries are hints: every append that uses one checks it
 * in its own statement (issue #5: a worker's command is one round trip).
 */
import type { ProductSnapshot } from '../report-lines.ts';
import type { WorkerSection } from './facts.ts';

/** A bounded map that forgets the least recently used entry. */
class Lru<K, V> {
  private readonly m = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(k: K): V | undefined {
    const v = this.m.get(k);
    if (v !== undefined) {
      this.m.delete(k);
      this.m.set(k, v);
    }
    return v;
  }
  set(k: K, v: V): void {
    this.m.delete(k);
    this.m.set(k, v);
    if (this.m.size > this.max) this.m.delete(this.m.keys().next().value as K);
  }
  delete(k: K): void {
    this.m.delete(k);
  }
}

/** A worker's cached facts: the stream section and the name the last command of this process ended with. */
export interface CachedWorker {
  personName: string;
  section: WorkerSection;
}

/**
 * Per-process cache of facts (module docstring): workers by phone and product snapshots by id, each bounded
 * (least recently used forgotten first). Entries are hints, checked by the append that uses them.
 */
export class FactsCache {
  private readonly workers: Lru<string, CachedWorker>;
  private readonly products: Lru<number, ProductSnapshot>;

  constructor(maxWorkers = 20_000, maxProducts = 50_000) {
    this.workers = new Lru(maxWorkers);
    this.products = new Lru(maxProducts);
  }

  /** The facts the last command of worker `phone` in this process ended with, if still kept. */
  worker(phone: string): CachedWorker | undefined {
    return this.workers.get(phone);
  }

  /** Keeps `w` as worker `phone`'s facts (after a command appended, or confirmed there was nothing to do). */
  rememberWorker(phone: string, w: CachedWorker): void {
    this.workers.set(phone, w);
  }

  /** Drops worker `phone`'s facts (a fact no longer held: the next command reads afresh). */
  forgetWorker(phone: string): void {
    this.workers.delete(phone);
  }

  /** The cached snapshots of `ids`, or undefined when one is missing. */
  productsOf(ids: readonly number[]): ProductSnapshot[] | undefined {
    const out: ProductSnapshot[] = [];
    for (const id of new Set(ids)) {
      const p = this.products.get(id);
      if (!p) return undefined;
      out.push(p);
    }
    return out;
  }

  /** Keeps product snapshots as read just now (a draft's candidates, a fresh load), by product id. */
  rememberProducts(snapshots: readonly ProductSnapshot[]): void {
    for (const p of snapshots) this.products.set(p.productId, p);
  }
}
