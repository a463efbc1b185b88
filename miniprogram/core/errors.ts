/**
 * What a person sees and does next after a refused or failed call (README "For the mini-program's developer",
 * "Errors"). Plain TypeScript, no `wx`.
 *
 * A failure is the service's error body (`{error: {code, message, details?, requestId}}`) with its status, or a
 * network failure (status 0, code `NETWORK_ERROR`). The service's `message` is already a Chinese sentence for the
 * person; `nextStep` keeps it and adds what to do, branching on `code` and status, never on the text.
 */
import type { ClockLabel } from './labels';

/** A refused or failed call. */
export interface ApiFailure {
  /** HTTP status; 0 when no answer came (network). */
  status: number;
  code: string;
  message: string;
  details?: any;
  requestId?: string;
  /** Seconds of a 429's Retry-After. */
  retryAfterSeconds?: number;
}

/** The failure of a call that got no answer (after the safe retries). */
export const networkFailure = (): ApiFailure => ({
  status: 0,
  code: 'NETWORK_ERROR',
  message: '网络不好，没有连上服务器：请走到信号好的地方再试',
});

export type NextAction =
  /** Log in again (401). */
  | 'login'
  /** Show the label the state has now (another phone acted) and let the person press it. */
  | 'refresh'
  /** Scan the device code again (the window is over: 重新报工; the session is gone). */
  | 'rescan'
  /** Open 我的报工 (the report was already submitted). */
  | 'mine'
  /** Try again later (network, 503), or after `retryAfterSeconds` (429). */
  | 'retry'
  /** Nothing the client can do: read the sentence. */
  | 'none';

export interface NextStep {
  action: NextAction;
  /** The sentence to show. */
  text: string;
  /** `refresh`: the label that fits now (CLOCK_STATE_CONFLICT's details.label). */
  label?: ClockLabel;
  /** `mine`: the report already submitted. */
  reportId?: string;
}

/** The sentence the login page shows to a person who is not in personnel (exact). */
export const NOT_IN_PERSONNEL = '请联系管理员把你加入人员名单';

/**
 * Who changed the clock state behind a CLOCK_STATE_CONFLICT, as far as the phone can tell: `here` (this phone
 * changed it after the page showed its label: an operation or a submission on another page), `elsewhere` (this
 * phone did not: another phone, or the time that passed).
 */
export type ConflictCause = 'here' | 'elsewhere';

/** The sentence of a CLOCK_STATE_CONFLICT whose fitting label is now `label`; without `cause` it blames nobody. */
export function conflictText(label: ClockLabel, cause?: ConflictCause): string {
  if (cause === 'here') return `这台手机刚才已经操作过，情况有变：现在应点击“${label}”`;
  if (cause === 'elsewhere') return `情况有变（可能在另一台手机上操作过）：现在应点击“${label}”`;
  return `情况有变：现在应点击“${label}”`;
}

/** What to show and do after `f` (module docstring). */
export function nextStep(f: ApiFailure): NextStep {
  switch (f.code) {
    case 'PHONE_NOT_REGISTERED':
      return { action: 'none', text: NOT_IN_PERSONNEL };
    case 'CLOCK_STATE_CONFLICT':
      return f.details?.label ? { action: 'refresh', label: f.details.label, text: conflictText(f.details.label) } : { action: 'refresh', text: f.message };
    case 'REPORT_WINDOW_EXPIRED':
      return { action: 'rescan', text: '填写时限已过：请重新扫描设备码，点击“重新报工”（下班时间改为现在）后再填写报工单' };
    case 'SESSION_ABANDONED':
    case 'SESSION_NOT_FOUND':
    case 'DEVICE_NOT_FOUND':
      return { action: 'rescan', text: f.message };
    case 'REPORT_ALREADY_SUBMITTED':
      return { action: 'mine', reportId: f.details?.reportId, text: '这次上班的报工单已经提交过了，可在“我的报工”中查看' };
    case 'REPORT_ALREADY_REVIEWED':
    case 'CONCURRENT_MODIFICATION':
      return { action: 'refresh', text: f.message };
  }
  if (f.status === 401) return { action: 'login', text: `${f.message}` };
  if (f.status === 429) {
    const s = f.retryAfterSeconds ?? f.details?.retryAfterSeconds;
    return { action: 'retry', text: s ? `尝试太多次了，请 ${s} 秒后再试` : f.message };
  }
  if (f.status === 0 || f.status === 503) return { action: 'retry', text: f.status === 0 ? f.message : '服务器暂时不可用，请稍后再试' };
  if (f.status >= 500) return { action: 'retry', text: `${f.message}（请把编号 ${f.requestId ?? '无'} 告诉管理员）` };
  return { action: 'none', text: f.message };
}

/** The failure of an answer with status `status` and body `body` (the error shape, or anything else). */
export function failureOf(status: number, body: unknown, retryAfter?: string | null): ApiFailure {
  const e = (body as { error?: Partial<ApiFailure> } | undefined)?.error;
  const retryAfterSeconds = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  if (e && typeof e.code === 'string' && typeof e.message === 'string') {
    return { status, code: e.code, message: e.message, details: e.details, requestId: e.requestId, retryAfterSeconds };
  }
  return { status, code: `HTTP_${status}`, message: status >= 500 ? '服务器出错了，请稍后再试' : '服务器的回答无法识别，请稍后再试', retryAfterSeconds };
}
