/**
 * Subscription messages (订阅消息; README "The mini-program", "Messages"). The service sends two kinds: 审核结果 to a
 * worker when their report is approved or rejected, 新报工单 to every administrator when a report is submitted. The
 * platform delivers one message of a template per acceptance (one-time subscription), and only asks the person from
 * a tap: so each tap that leads to such a message asks once for its template —
 * - a worker's 提交报工单 asks for `reviewResult` (the answer to that very report);
 * - a reviewer's 审核报工单 (首页), 通过 and 驳回 ask for `newReport` (the next report to review).
 *
 * The template ids are the factory's configuration, answered by the service with the login (`messageTemplates`),
 * the role switch and `GET /api/auth/me` (read again on 首页), and kept in storage (`messageTemplates`). A template
 * the service does not name is not asked for. Whatever the person answers, and if asking fails, the tap goes on.
 */
import type { Account } from '../api/types';
import { call } from './request';

/** The template ids as the service answers them (`reviewResult`, `newReport`; absent: not configured). */
export type MessageTemplates = Account['messageTemplates'];
/** Which message a tap asks for. */
export type MessageKind = keyof MessageTemplates;

const KEY = 'messageTemplates';
/** The longest a tap waits for the person's answer before it goes on anyway (the dialog may stay open). */
export const SUBSCRIBE_WAIT_MS = 30_000;

/** Keeps the template ids of a service answer (replacing the kept ones: a template no longer configured is dropped). */
export function rememberTemplates(templates: MessageTemplates | undefined): void {
  if (!templates || typeof templates !== 'object') return;
  try {
    wx.setStorageSync(KEY, templates);
  } catch {
    // storage full: the next login or 首页 tries again
  }
}

/** The kept template ids ({} when none). */
export function storedTemplates(): MessageTemplates {
  try {
    const t = wx.getStorageSync(KEY);
    return t && typeof t === 'object' ? (t as MessageTemplates) : {};
  } catch {
    return {};
  }
}

/**
 * Asks the person to accept one message of `kind` (`wx.requestSubscribeMessage`). Call it in the tap handler
 * before any `await`: the platform refuses a request that does not come straight from a tap. Resolves when the
 * person has answered, when asking failed, or after SUBSCRIBE_WAIT_MS; never rejects. Resolves at once when the
 * service names no template of `kind`.
 */
export function askToSubscribe(kind: MessageKind): Promise<void> {
  const id = storedTemplates()[kind];
  if (!id) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, SUBSCRIBE_WAIT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    try {
      wx.requestSubscribeMessage({ tmplIds: [id], success: done, fail: done });
    } catch {
      done();
    }
  });
}

/** Reads the template ids configured now (`GET /api/auth/me`) and keeps them; a failure keeps the old ones. */
export async function refreshTemplates(): Promise<void> {
  try {
    rememberTemplates((await call<Account>('GET', '/api/auth/me')).messageTemplates);
  } catch {
    // kept as they were; the page shows its own errors
  }
}
