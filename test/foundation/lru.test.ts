/**
 * The two-generation cache of the command path (src/shared/lru.ts): against a model that keeps every write and the
 * order of use, any sequence of writes, reads and deletes keeps at most `max` entries, never answers a value that
 * was not the key's last one written, and never forgets an entry used fewer than `max / 2` distinct other entries
 * ago.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Lru } from '../../src/shared/lru.ts';

type Op = { kind: 'set'; key: number; value: number } | { kind: 'get'; key: number } | { kind: 'delete'; key: number };

const op = (keys: number): fc.Arbitrary<Op> =>
  fc.oneof(
    fc.record({ kind: fc.constant('set' as const), key: fc.nat(keys - 1), value: fc.integer() }),
    fc.record({ kind: fc.constant('get' as const), key: fc.nat(keys - 1) }),
    fc.record({ kind: fc.constant('delete' as const), key: fc.nat(keys - 1) }),
  );

describe('Lru (two generations)', () => {
  it('keeps at most max entries, answers only the last value written, and keeps what was used lately', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.array(op(30), { maxLength: 400 }), (max, ops) => {
        const lru = new Lru<number, number>(max);
        const written = new Map<number, number>(); // the model: the last value of each key not deleted
        const uses: number[] = []; // the keys in order of use (writes and answered reads)
        for (const o of ops) {
          if (o.kind === 'set') {
            lru.set(o.key, o.value);
            written.set(o.key, o.value);
            uses.push(o.key);
          } else if (o.kind === 'delete') {
            lru.delete(o.key);
            written.delete(o.key);
            expect(lru.get(o.key)).toBeUndefined();
          } else {
            // Used fewer than max / 2 distinct other keys ago (counted back from the latest use): still kept.
            const since = new Set<number>();
            let recent = false;
            for (let i = uses.length - 1; i >= 0 && since.size < Math.floor(max / 2); i--) {
              if (uses[i] === o.key) {
                recent = true;
                break;
              }
              since.add(uses[i]);
            }
            const v = lru.get(o.key);
            if (v !== undefined) {
              expect(v).toBe(written.get(o.key));
              uses.push(o.key);
            } else if (written.has(o.key)) {
              expect(recent, `key ${o.key} forgotten after fewer than ${Math.floor(max / 2)} other keys`).toBe(false);
            }
          }
          expect(lru.size).toBeLessThanOrEqual(max);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('forgets the least recently used first', () => {
    const lru = new Lru<string, number>(4);
    lru.set('a', 1);
    lru.set('b', 2); // young full (2): a, b become the old generation
    lru.get('a'); // a used again: young
    lru.set('c', 3); // young full: a, c old; b dropped
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBeLessThanOrEqual(4);
  });
});
