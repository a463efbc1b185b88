/**
 * A work ticket (工票) scanned with WeChat's own camera before there is a 报工单 to fill (the ticket opens
 * `pages/report/report?scene=o%3D<key>` without a session): its key is kept on the phone (storage `ticket`) for
 * `KEEP_MS`, and the next 报工单 opened chooses that order (core/work-orders.ts `ticketPick`), then forgets it.
 */

const KEY = 'ticket';
/** How long a scanned ticket waits for a 报工单: one long shift and its report window. */
export const KEEP_MS = 16 * 3600_000;

/** Keeps the ticket of `key`, scanned now (the phone's clock). */
export function keepTicket(key: string): void {
  try {
    wx.setStorageSync(KEY, { key, at: Date.now() });
  } catch {
    // storage full or unavailable: the worker scans the ticket on the 报工单 instead
  }
}

/** The key of the ticket kept and still waiting (undefined: none, or older than KEEP_MS), forgotten as it is read. */
export function takeTicket(): string | undefined {
  try {
    const t = wx.getStorageSync(KEY) as { key?: unknown; at?: unknown } | '';
    if (!t) return undefined;
    wx.removeStorageSync(KEY);
    return typeof t.key === 'string' && typeof t.at === 'number' && Date.now() - t.at <= KEEP_MS && Date.now() >= t.at ? t.key : undefined;
  } catch {
    return undefined;
  }
}
