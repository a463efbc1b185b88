import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { assertUnderLimit, countAttempt, recordAttempt, TooManyAttempts } from '../../src/auth/rate-limit.ts';
import { openTestDatabase } from '../helpers/db.ts';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  await runMigrations(db.pool);
});
afterAll(() => db.close());

const rule = { max: 3, windowSeconds: 60 };
const at = (s: string) => new Date(`2026-03-02T08:${s}+08:00`);
const attempt = async (bucket: string, when: Date) => {
  try {
    await countAttempt(db.pool, bucket, rule, when);
    return 'ok';
  } catch (err) {
    if (err instanceof TooManyAttempts) return err.retryAfterSeconds;
    throw err;
  }
};

describe('login attempt counting (fixed windows in the database)', () => {
  it('allows max attempts per window and bucket, then refuses with the seconds left in the window', async () => {
    expect(await attempt('ip:10.0.0.1', at('00:05'))).toBe('ok');
    expect(await attempt('ip:10.0.0.1', at('00:10'))).toBe('ok');
    expect(await attempt('ip:10.0.0.1', at('00:15'))).toBe('ok');
    expect(await attempt('ip:10.0.0.1', at('00:20'))).toBe(40);
    expect(await attempt('ip:10.0.0.2', at('00:20'))).toBe('ok');
    expect(await attempt('ip:10.0.0.1', at('01:00'))).toBe('ok');
  });

  it('counts concurrent attempts exactly (no lost updates)', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => attempt('openid:race', at('10:00'))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(3);
    const r = await db.pool.query(`SELECT attempts FROM login_attempts WHERE bucket = 'openid:race'`);
    expect(r.rows[0].attempts).toBe(8);
  });

  it('purges windows older than a day', async () => {
    await attempt('ip:old', new Date('2026-02-01T00:00:00Z'));
    await attempt('ip:new', new Date('2026-03-05T00:00:00Z'));
    const r = await db.pool.query(`SELECT bucket FROM login_attempts WHERE bucket = 'ip:old'`);
    expect(r.rows).toHaveLength(0);
  });

  it('assertUnderLimit refuses at max without counting; recordAttempt counts without refusing', async () => {
    const when = at('20:00');
    for (let i = 0; i < 3; i++) await assertUnderLimit(db.pool, 'ip:check', rule, when);
    expect(await recordAttempt(db.pool, 'ip:check', rule, when)).toBe(1);
    expect(await recordAttempt(db.pool, 'ip:check', rule, when)).toBe(2);
    await assertUnderLimit(db.pool, 'ip:check', rule, when);
    expect(await recordAttempt(db.pool, 'ip:check', rule, when)).toBe(3);
    await expect(assertUnderLimit(db.pool, 'ip:check', rule, when)).rejects.toBeInstanceOf(TooManyAttempts);
    expect(await recordAttempt(db.pool, 'ip:check', rule, when)).toBe(4);
  });
});
