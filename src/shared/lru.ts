/**
 * A bounded map that forgets the least recently used entry (a Map keeps insertion order: a read moves the entry to
 * the end, the first one is the oldest). Used by the per-process caches of the command path (commands/repository.ts)
 * and of the workers' shift calendars (shifts/calendar-cache.ts).
 */
export class Lru<K, V> {
  private readonly m = new Map<K, V>();

  /** @param max the most entries kept. */
  constructor(private readonly max: number) {}

  /** The entry of `k` (now the most recently used), or undefined. */
  get(k: K): V | undefined {
    const v = this.m.get(k);
    if (v !== undefined) {
      this.m.delete(k);
      this.m.set(k, v);
    }
    return v;
  }

  /** Keeps `v` for `k`, forgetting the least recently used entry beyond `max`. */
  set(k: K, v: V): void {
    this.m.delete(k);
    this.m.set(k, v);
    if (this.m.size > this.max) this.m.delete(this.m.keys().next().value as K);
  }

  /** Forgets the entry of `k`, if any. */
  delete(k: K): void {
    this.m.delete(k);
  }
}
