/**
 * The quantities typed on a 报工单, kept on the phone per session as they are typed (storage key
 * `report-typed:<sessionId>`, core/draft.ts `TypedQuantities`), so that reopening the 报工单 of the same session
 * puts them back: after 重新报工 (a new window for the same session), after WeChat killed the app in the background,
 * after a 401 and a new login. Forgotten after a successful submission; at most `KEEP` sessions are kept (the
 * index key `report-typed` lists them, newest first), older ones are dropped.
 */
import type { TypedQuantities } from '../core/draft';

const INDEX = 'report-typed';
const PREFIX = 'report-typed:';
const KEEP = 20;

function index(): string[] {
  try {
    const i = wx.getStorageSync(INDEX);
    return Array.isArray(i) ? i.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Keeps `typed` as the quantities of `sessionId` (nothing typed: forgets them). */
export function saveTyped(sessionId: string, typed: TypedQuantities): void {
  if (!sessionId) return;
  if (Object.keys(typed).length === 0) return forgetTyped(sessionId);
  try {
    wx.setStorageSync(PREFIX + sessionId, typed);
    const ids = index();
    if (ids[0] === sessionId) return;
    const kept = [sessionId, ...ids.filter((id) => id !== sessionId)];
    for (const old of kept.slice(KEEP)) wx.removeStorageSync(PREFIX + old);
    wx.setStorageSync(INDEX, kept.slice(0, KEEP));
  } catch {
    // storage full or unavailable: the form still works, only its copy is missing
  }
}

/** The quantities kept for `sessionId`, or undefined. */
export function typedFor(sessionId: string): TypedQuantities | undefined {
  try {
    const t = wx.getStorageSync(PREFIX + sessionId);
    return t && typeof t === 'object' ? (t as TypedQuantities) : undefined;
  } catch {
    return undefined;
  }
}

/** Forgets the quantities of `sessionId` (after its report was submitted). */
export function forgetTyped(sessionId: string): void {
  try {
    wx.removeStorageSync(PREFIX + sessionId);
    const ids = index();
    if (ids.includes(sessionId)) wx.setStorageSync(INDEX, ids.filter((id) => id !== sessionId));
  } catch {
    // nothing stored
  }
}
