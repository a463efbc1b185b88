/**
 * The stored login ("the token kept in storage until it expires or a call answers 401"): one storage key,
 * `session`, holding the login answer. Read through `currentSession()`, which forgets a token past its
 * `expiresAt` (the phone's clock).
 */
import type { LoginOk } from '../api/types';

/** A login as kept: the `ok` answer of the login without its `status`. */
export type Session = Omit<LoginOk, 'status'>;

const KEY = 'session';

/** The stored session, or undefined (none, unreadable, or expired: then it is removed). */
export function currentSession(): Session | undefined {
  let s: Session | undefined;
  try {
    s = wx.getStorageSync(KEY) || undefined;
  } catch {
    return undefined;
  }
  if (!s || typeof s.token !== 'string' || typeof s.expiresAt !== 'string') return undefined;
  if (!(Date.now() < Date.parse(s.expiresAt))) {
    clearSession();
    return undefined;
  }
  return s;
}

/** Keeps `s` as the session. */
export function saveSession(s: Session): void {
  wx.setStorageSync(KEY, s);
}

/** Forgets the session (log out, 401, expiry). */
export function clearSession(): void {
  try {
    wx.removeStorageSync(KEY);
  } catch {
    // nothing stored
  }
}
