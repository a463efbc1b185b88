/**
 * Two helpers every projection asks on every event: `utcIso` (src/time.ts), an instant as the read models store it,
 * and `keyId` (src/projections/row-writes.ts), a row key's identity within its table.
 */
import { describe, expect, it } from 'vitest';
import { utcIso } from '../../src/time.ts';
import { keyId } from '../../src/projections/row-writes.ts';

describe('utcIso', () => {
  it('gives UTC text with milliseconds, whatever form the instant came in', () => {
    expect(utcIso('2026-03-02T00:00:00.000Z')).toBe('2026-03-02T00:00:00.000Z');
    expect(utcIso('2026-03-02T08:00:00+08:00')).toBe('2026-03-02T00:00:00.000Z');
    expect(utcIso('2026-03-02T08:00:00.5+08:00')).toBe('2026-03-02T00:00:00.500Z');
    expect(utcIso(new Date('2026-03-02T08:00:00+08:00'))).toBe('2026-03-02T00:00:00.000Z');
  });

  it('refuses what is no instant', () => {
    expect(() => utcIso('yesterday')).toThrow(RangeError);
    expect(() => utcIso(undefined)).toThrow(RangeError);
  });
});

describe('keyId', () => {
  it('one text key: equal texts are one row, and never the same as a key of other values', () => {
    expect(keyId(['a'])).toBe(keyId(['a']));
    expect(keyId(['a'])).not.toBe(keyId(['b']));
    expect(keyId(['[5]'])).not.toBe(keyId([5]));
    expect(keyId(['["a"]'])).not.toBe(keyId([['a']]));
    expect(keyId(['5'])).not.toBe(keyId([5]));
  });

  it('keys of several values and Dates as before (JSON, Dates as ISO text)', () => {
    expect(keyId(['2026-03-02', 'W1'])).toBe('["2026-03-02","W1"]');
    expect(keyId([new Date('2026-03-02T00:00:00Z'), 3])).toBe('["2026-03-02T00:00:00.000Z",3]');
  });
});
