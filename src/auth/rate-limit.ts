/**
 * Login attempt limits per client IP and per platform openid, counted in the
 * database so that several service instances share them: fixed windows, one row per bucket and window.
 *
 * Limits (decided here, README):
 * - per IP: 100 REFUSED attempts per 10 minutes. A whole shift logs in through the factory's one outgoing
 *   address, so successful logins from an IP are not limited; bogus codes, unknown phones and bad tickets are.
 *   `assertUnderLimit` before the attempt, `countAttempt` after a refusal.
 * - per openid: 20 attempts (of any outcome) per 10 minutes; one person retrying. `countAttempt` per attempt.
 * Beyond a limit: 429 TOO_MANY_LOGIN_ATTEMPTS with `details.retryAfterSeconds` (the rest of the window).
 */
import type { Queryable } from '../db/transaction.ts';
import { RetryLaterError } from '../errors.ts';

export interface LimitRule {
  max: number;
  windowSeconds: number;
}

export const LOGIN_LIMITS = {
  perIpRefused: { max: 100, windowSeconds: 600 },
  perOpenid: { max: 20, windowSeconds: 600 },
} as const satisfies Record<string, LimitRule>;

/** How long rows of past windows are kept, in milliseconds. */
const KEEP_MS = 86_400_000;

/**
 * RetryLaterError 429 TOO_MANY_LOGIN_ATTEMPTS; `retryAfterSeconds` (also in `details`) is the rest of the window, in seconds.
 */
export class TooManyAttempts extends RetryLaterError {
  constructor(retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(429, 'TOO_MANY_LOGIN_ATTEMPTS', `登录尝试次数过多，请 ${minutes} 分钟后再试`, retryAfterSeconds);
  }
}

const windowOf = (rule: LimitRule, now: Date) => {
  const ms = rule.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / ms) * ms;
  return { start, retryAfterSeconds: Math.ceil((start + ms - now.getTime()) / 1000) };
};

/** Throws TooManyAttempts when `bucket` already holds `rule.max` attempts in the current window; counts nothing. */
export async function assertUnderLimit(q: Queryable, bucket: string, rule: LimitRule, now: Date): Promise<void> {
  const w = windowOf(rule, now);
  const r = await q.query(`SELECT attempts FROM login_attempts WHERE bucket = $1 AND window_start = $2`, [bucket, new Date(w.start)]);
  if (r.rows.length && Number(r.rows[0].attempts) >= rule.max) throw new TooManyAttempts(w.retryAfterSeconds);
}

/** Counts one attempt in `bucket` (e.g. `ip:10.0.0.8`, `openid:o…`) at `now`; returns the window's count. */
export async function recordAttempt(q: Queryable, bucket: string, rule: LimitRule, now: Date): Promise<number> {
  const w = windowOf(rule, now);
  const r = await q.query(
    `INSERT INTO login_attempts (bucket, window_start, attempts) VALUES ($1, $2, 1)
     ON CONFLICT (bucket, window_start) DO UPDATE SET attempts = login_attempts.attempts + 1
     RETURNING attempts`,
    [bucket, new Date(w.start)],
  );
  const attempts = Number(r.rows[0].attempts);
  if (attempts === 1) await q.query(`DELETE FROM login_attempts WHERE window_start < $1`, [new Date(now.getTime() - KEEP_MS)]);
  return attempts;
}

/**
 * Counts one attempt in `bucket` and throws TooManyAttempts when the bucket is over `rule.max` in the current
 * window (the attempt is still counted).
 */
export async function countAttempt(q: Queryable, bucket: string, rule: LimitRule, now: Date): Promise<void> {
  if ((await recordAttempt(q, bucket, rule, now)) > rule.max) throw new TooManyAttempts(windowOf(rule, now).retryAfterSeconds);
}
