/**
 * A bounded map that forgets the least recently used entries first, kept as two generations (a "two-map" LRU):
 * entries written or read lately are in the young map; when it holds `max / 2` entries, it becomes the old map and
 * the previous old map (everything not used since) is dropped at once. A read of an old entry moves it to the young
 * map. So at most `max` entries are kept, an entry used within the last `max / 2` distinct uses is never forgotten,
 * and the entries forgotten are always ones not used since the young map was last started.
 *
 * Why not one Map with "delete and set again on every read" (the exact LRU this replaced): that costs every read
 * two extra hash operations and leaves deleted slots that the Map compacts now and then; on the worker's path
 * (several look-ups per request: commands/repository.ts, shifts/calendar-cache.ts) a young hit here is one `get`
 * (micro-measure on 2,000 keys: 117–132 ns per operation before, 42–52 ns after; bench/README.md).
 */
export class Lru<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  /** @param max the most entries kept (at least 2). */
  constructor(max: number) {
    this.half = Math.max(1, Math.floor(max / 2));
  }

  /** The entry of `k` (now among the most recently used), or undefined. */
  get(k: K): V | undefined {
    const v = this.young.get(k);
    if (v !== undefined) return v;
    const o = this.old.get(k);
    if (o !== undefined) {
      this.old.delete(k);
      this.addYoung(k, o);
    }
    return o;
  }

  /** Keeps `v` for `k` as the most recently used entry. */
  set(k: K, v: V): void {
    if (this.young.has(k)) {
      this.young.set(k, v);
      return;
    }
    this.old.delete(k);
    this.addYoung(k, v);
  }

  /** Forgets the entry of `k`, if any. */
  delete(k: K): void {
    this.young.delete(k);
    this.old.delete(k);
  }

  /** The number of entries kept (at most `max`). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  private addYoung(k: K, v: V): void {
    this.young.set(k, v);
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
  }
}
