import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.ts';
import { AccessTokenCache, cacheLifetimeSeconds } from '../../src/platform/access-token.ts';

describe('access token refresh margin', () => {
  it('keeps a normal token 5 minutes less than its lifetime', () => {
    expect(cacheLifetimeSeconds(7200)).toBe(6900);
  });
  it('never gives a zero or negative lifetime for short answers', () => {
    for (const s of [345, 300, 200, 60, 2]) {
      const l = cacheLifetimeSeconds(s);
      expect(l, `expires_in ${s}`).toBeGreaterThan(0);
      expect(l, `expires_in ${s}`).toBeLessThan(s);
    }
    expect(cacheLifetimeSeconds(345)).toBe(173);
    expect(cacheLifetimeSeconds(0)).toBe(1);
    expect(cacheLifetimeSeconds(-5)).toBe(1);
    expect(cacheLifetimeSeconds(Number.NaN)).toBe(1);
  });
});

describe('AccessTokenCache', () => {
  it('fetches once for concurrent callers, serves the cache, refetches after the lifetime', async () => {
    const clock = new ManualClock();
    let fetches = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const cache = new AccessTokenCache(async () => {
      fetches++;
      if (fetches === 1) await gate;
      return { accessToken: `t${fetches}`, expiresIn: 345 };
    }, clock);
    const concurrent = Promise.all([cache.get(), cache.get(), cache.get()]);
    release();
    expect(await concurrent).toEqual(['t1', 't1', 't1']);
    expect(fetches).toBe(1);
    clock.advance(172_000);
    expect(await cache.get()).toBe('t1');
    clock.advance(2_000);
    expect(await cache.get()).toBe('t2');
    expect(fetches).toBe(2);
  });

  it('drops only the token it was told is invalid, and a failed fetch does not stick', async () => {
    const clock = new ManualClock();
    let n = 0;
    const cache = new AccessTokenCache(async () => {
      n++;
      if (n === 2) throw new Error('down');
      return { accessToken: `t${n}`, expiresIn: 7200 };
    }, clock);
    expect(await cache.get()).toBe('t1');
    cache.invalidate('other');
    expect(await cache.get()).toBe('t1');
    cache.invalidate('t1');
    await expect(cache.get()).rejects.toThrow('down');
    expect(await cache.get()).toBe('t3');
  });
});
