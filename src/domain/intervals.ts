/**
 * Interval arithmetic on instants, pure: half-open intervals [from, to) of milliseconds since the epoch, as the
 * OEE read (domain/oee.ts) and the stops (domain/stops.ts) need them. A set of intervals is kept normalised
 * (`union`): sorted, disjoint, not touching, none empty, so that its length is the sum of its parts and never counts
 * a moment twice (several workers on one device are one attendance, never the sum of the people).
 */

/** [from, to) in milliseconds since the epoch; empty when to <= from. */
export interface Interval {
  readonly from: number;
  readonly to: number;
}

/** The normalised union of `xs` (module docstring): sorted, disjoint, touching ones merged, empty ones dropped. */
export function union(xs: readonly Interval[]): Interval[] {
  const sorted = xs.filter((x) => x.to > x.from).sort((a, b) => a.from - b.from || a.to - b.to);
  const out: Interval[] = [];
  for (const x of sorted) {
    const last = out[out.length - 1];
    if (last && x.from <= last.to) out[out.length - 1] = { from: last.from, to: Math.max(last.to, x.to) };
    else out.push({ from: x.from, to: x.to });
  }
  return out;
}

/** Total length of a normalised set (use `union` first for any other list). */
export const lengthOf = (set: readonly Interval[]): number => set.reduce((a, x) => a + (x.to - x.from), 0);

/** The normalised intersection of the sets `a` and `b` (each any list of intervals). */
export function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const [x, y] = [union(a), union(b)];
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const from = Math.max(x[i].from, y[j].from);
    const to = Math.min(x[i].to, y[j].to);
    if (to > from) out.push({ from, to });
    if (x[i].to < y[j].to) i++;
    else j++;
  }
  return out;
}

/** The normalised set `a` without `b` (each any list of intervals). */
export function subtract(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const cut = union(b);
  const out: Interval[] = [];
  for (const x of union(a)) {
    let from = x.from;
    for (const c of cut) {
      if (c.to <= from || c.from >= x.to) continue;
      if (c.from > from) out.push({ from, to: c.from });
      from = Math.max(from, c.to);
      if (from >= x.to) break;
    }
    if (from < x.to) out.push({ from, to: x.to });
  }
  return out;
}

/**
 * The end of the run of `set` (any list of intervals) that contains or begins at instant `t`: where the union of
 * `set`, followed from `t`, first stops. `t` itself if no interval of the set covers [t, t + 1); null when the run
 * lasts beyond `open` (an interval ending at `open` or later is one still lasting: `to` = Infinity).
 */
export function runEnd(set: readonly Interval[], t: number): number | null {
  for (const x of union(set)) {
    if (x.from <= t && t < x.to) return Number.isFinite(x.to) ? x.to : null;
  }
  return t;
}

/**
 * The lengths of `set` (normalised) within each range [bounds[k], bounds[k + 1]) of the ascending instants `bounds`
 * (e.g. local midnights): one pass over both. Parts before the first or after the last bound count nowhere.
 */
export function lengthsBetween(set: readonly Interval[], bounds: readonly number[]): number[] {
  const out = bounds.slice(1).map(() => 0);
  let k = 0;
  for (const x of set) {
    let from = x.from;
    while (k + 1 < bounds.length && bounds[k + 1] <= from) k++;
    for (let j = k; j + 1 < bounds.length && bounds[j] < x.to; j++) {
      const a = Math.max(from, bounds[j]);
      const b = Math.min(x.to, bounds[j + 1]);
      if (b > a) out[j] += b - a;
      from = Math.max(from, b);
    }
  }
  return out;
}

/** The part of the normalised `set` inside `x` (normalised), found by binary search: for many small `x` over one set. */
export function within(set: readonly Interval[], x: Interval): Interval[] {
  let lo = 0;
  let hi = set.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (set[mid].to <= x.from) lo = mid + 1;
    else hi = mid;
  }
  const out: Interval[] = [];
  for (let i = lo; i < set.length && set[i].from < x.to; i++) {
    const from = Math.max(set[i].from, x.from);
    const to = Math.min(set[i].to, x.to);
    if (to > from) out.push({ from, to });
  }
  return out;
}

/** `set` (normalised) cut at the ascending instants `bounds`: piece k lies in [bounds[k], bounds[k + 1]). */
export function splitAt(set: readonly Interval[], bounds: readonly number[]): Interval[][] {
  return bounds.slice(1).map((to, k) => within(set, { from: bounds[k], to }));
}
