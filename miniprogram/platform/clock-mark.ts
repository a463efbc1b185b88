/**
 * When this phone last changed a worker's clock state (storage key `clock-changed`: `{phone, at}`, `at` in
 * milliseconds since the epoch on the phone's clock): written after a clock operation and after a submitted 报工单.
 * The scan page reads it when the service answers CLOCK_STATE_CONFLICT, so that the sentence says "this phone
 * already did it" instead of blaming another phone (core/errors.ts `conflictText`).
 */
import type { ConflictCause } from '../core/errors';

const KEY = 'clock-changed';

/** Notes that this phone just changed the clock state of worker `phone`. */
export function markClockChange(phone: string): void {
  try {
    wx.setStorageSync(KEY, { phone, at: Date.now() });
  } catch {
    // not kept: a later conflict then blames nobody in particular
  }
}

/** Whether this phone changed worker `phone`'s clock state at or after `since` (milliseconds), as a conflict's cause. */
export function conflictCause(phone: string, since: number): ConflictCause {
  try {
    const m = wx.getStorageSync(KEY) as { phone?: string; at?: number } | '';
    return m && m.phone === phone && typeof m.at === 'number' && m.at >= since ? 'here' : 'elsewhere';
  } catch {
    return 'elsewhere';
  }
}
