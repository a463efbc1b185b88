/**
 * Interval arithmetic (domain/intervals.ts) against a model that counts every second of a small window: the union's
 * length is the number of seconds covered by any interval (never the sum of overlapping ones), intersection and
 * difference cover exactly the seconds both / only the first cover, split pieces add up to the whole.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intersect, lengthOf, lengthsBetween, runEnd, splitAt, subtract, union, within, type Interval } from '../../src/domain/intervals.ts';

const interval = fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 })).map(([a, b]) => ({ from: a, to: b }));
const set = fc.array(interval, { maxLength: 8 });
const covered = (xs: readonly Interval[], t: number) => xs.some((x) => x.from <= t && t < x.to);
const count = (p: (t: number) => boolean) => Array.from({ length: 61 }, (_, t) => t).filter(p).length;

describe('interval arithmetic', () => {
  it('the union is sorted, disjoint, not touching, and covers exactly the moments any interval covers', () => {
    fc.assert(
      fc.property(set, (xs) => {
        const u = union(xs);
        for (let i = 1; i < u.length; i++) expect(u[i].from).toBeGreaterThan(u[i - 1].to);
        expect(lengthOf(u)).toBe(count((t) => covered(xs, t)));
      }),
    );
  });

  it('intersection and difference cover what both, and only the first, cover; together the first', () => {
    fc.assert(
      fc.property(set, set, (a, b) => {
        expect(lengthOf(intersect(a, b))).toBe(count((t) => covered(a, t) && covered(b, t)));
        expect(lengthOf(subtract(a, b))).toBe(count((t) => covered(a, t) && !covered(b, t)));
        expect(lengthOf(intersect(a, b)) + lengthOf(subtract(a, b))).toBe(lengthOf(union(a)));
      }),
    );
  });

  it('pieces split at bounds add up to the part of the set between the first and last bound', () => {
    fc.assert(
      fc.property(set, fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { minLength: 2, maxLength: 5 }), (xs, bs) => {
        const bounds = [...bs].sort((p, q) => p - q);
        const pieces = splitAt(union(xs), bounds);
        expect(pieces.reduce((a, p) => a + lengthOf(p), 0)).toBe(count((t) => covered(xs, t) && t >= bounds[0] && t < bounds[bounds.length - 1]));
        expect(lengthsBetween(union(xs), bounds)).toEqual(bounds.slice(1).map((to, k) => count((t) => covered(xs, t) && t >= bounds[k] && t < to)));
      }),
    );
  });

  it('within one interval of a set is its intersection with it', () => {
    fc.assert(
      fc.property(set, interval, (xs, x) => {
        expect(within(union(xs), x)).toEqual(intersect(xs, [x]));
      }),
    );
  });

  it('runEnd follows the union from t to where nobody covers it; lasting runs have no end', () => {
    const people = [
      { from: 8, to: 12 },
      { from: 11, to: 13 },
    ];
    expect(runEnd(people, 9)).toBe(13); // worker A 8–12, B 11–13: the device is attended until 13
    expect(runEnd(people, 14)).toBe(14);
    expect(runEnd([...people, { from: 13, to: Infinity }], 9)).toBeNull();
    expect(lengthOf(union(people))).toBe(5); // the union, not 4 + 2 = 6
  });
});
