/**
 * Questions and notices in the platform's dialog (`wx.showModal`).
 */
import type { Confirmation } from '../core/clock-press';

/** Asks `c`; resolves true when the person confirmed, false when they cancelled or no dialog could open. */
export function confirm(c: Confirmation): Promise<boolean> {
  return new Promise((resolve) => {
    wx.showModal({
      title: c.title,
      content: c.content,
      confirmText: c.confirmText,
      cancelText: '取消',
      success: (r) => resolve(Boolean(r.confirm)),
      fail: () => resolve(false),
    });
  });
}
