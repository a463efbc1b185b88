/**
 * Login attempt limits per client IP and per platform openid (issue #4 "Login and roles"), counted in the
 * database so that several service instances share them: fixed windows, one row per bucket and window.
 *
 * Limits (decided here, README): per IP 300 attempts per 10 minutes (a whole shift logs in from the factory's
 * one outgoing address at shift start), per openid 20 attempts per 10 minutes (one person retrying). Beyond a
 * limit: 429 TOO_MANY_LOGIN_ATTEMPTS with `details.retryAfterSeconds` (the rest of the window).
 */
import type { Queryable } from '../db/transaction.ts';
import { AppError } from '../errors.ts';

export interface LimitRule {
  max: number;
  windowSeconds: number;
}

export const LOGIN_LIMITS = {
  perIp: { max: 300, windowSeconds: 600 },
  perOpenid: { max: 20, windowSeconds: 600 },
} as const satisfies Record<string, LimitRule>;

/** How long rows of past windows are kept, in milliseconds. */
const KEEP_MS = 86_400_000;

export class TooManyAttempts extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(429, 'TOO_MANY_LOGIN_ATTEMPTS', `登录尝试次数过多，请 ${minutes} 分钟后再试`, { retryAfterSeconds });
  }
}

/**
 * Counts one attempt in `bucket` (e.g. `ip:10.0.0.8`, `openid:o…`) at instant `now`. Throws TooManyAttempts
 * when the bucket is over `rule.max` in the current window (the attempt is still counted).
 */
export async function countAttempt(q: Queryable, bucket: string, rule: LimitRule, now: Date): Promise<void> {
  const windowMs = rule.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  const r = await q.query(
    `INSERT INTO login_attempts (bucket, window_start, attempts) VALUES ($1, $2, 1)
     ON CONFLICT (bucket, window_start) DO UPDATE SET attempts = login_attempts.attempts + 1
     RETURNING attempts`,
    [bucket, new Date(start)],
  );
  const attempts = Number(r.rows[0].attempts);
  if (attempts === 1) await q.query(`DELETE FROM login_attempts WHERE window_start < $1`, [new Date(now.getTime() - KEEP_MS)]);
  if (attempts > rule.max) throw new TooManyAttempts(Math.ceil((start + windowMs - now.getTime()) / 1000));
}
