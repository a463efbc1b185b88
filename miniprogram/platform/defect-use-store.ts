/**
 * How often this worker named each defect reason per product, kept on the phone (storage key
 * `defect-use:<worker phone>`, the latest `KEEP` products): the 报工单 lists the reasons used most on a product first
 * (core/defects.ts `orderReasons`; the service gives no usage order). Counted once per submitted line naming a
 * reason, after the service took the report.
 */
import { withUse, type ReasonUse } from '../core/defects';

const PREFIX = 'defect-use:';
const KEEP = 200;

/** Per product id, newest first: the uses of each reason code. */
type Store = { productId: number; use: ReasonUse }[];

function read(worker: string): Store {
  try {
    const s = wx.getStorageSync(PREFIX + worker);
    return Array.isArray(s) ? s.filter((x) => x && typeof x.productId === 'number' && x.use && typeof x.use === 'object') : [];
  } catch {
    return [];
  }
}

/** The uses of each reason on `productId` by `worker` (empty when none kept). */
export function reasonUse(worker: string | undefined, productId: number): ReasonUse {
  if (!worker) return {};
  return read(worker).find((x) => x.productId === productId)?.use ?? {};
}

/** Counts the reasons of the submitted `lines` of `worker`. */
export function rememberReasonUse(worker: string | undefined, lines: readonly { productId: number; defects?: readonly { reasonCode: string }[] }[]): void {
  if (!worker) return;
  const used = lines.filter((l) => l.defects && l.defects.length);
  if (!used.length) return;
  try {
    let store = read(worker);
    for (const l of used) {
      const before = store.find((x) => x.productId === l.productId)?.use;
      store = [{ productId: l.productId, use: withUse(before, l.defects!.map((d) => d.reasonCode)) }, ...store.filter((x) => x.productId !== l.productId)];
    }
    wx.setStorageSync(PREFIX + worker, store.slice(0, KEEP));
  } catch {
    // storage full or unavailable: the order falls back to category and code
  }
}
