/**
 * The one place that calls `wx.request`.
 *
 * - JSON in and out; `Authorization: Bearer <token>` from the stored session (platform/session.ts).
 * - One request in flight per operation (method + path + query): a second call while the first is under way (a
 *   double tap) gets the first one's answer and sends nothing.
 * - Safe retries: when no answer came (network) or the service answered 503, a call marked `retry` is sent again
 *   after 1 s and 3 s; `onRetry(attempt)` lets the page say so. Only operations the service answers the same when
 *   repeated are marked (reads, the clock operations, the submission — whose repeat is 409
 *   REPORT_ALREADY_SUBMITTED —, the reviews and the break change); never a login, whose codes work once.
 * - 401: the stored session is dropped and the login page opens (README "Errors": log in again), with `back`: the
 *   page on top, to which the login returns (core/back.ts).
 * A refusal or failure is thrown as an `ApiFailure` (core/errors.ts).
 */
import { failureOf, networkFailure, type ApiFailure } from '../core/errors';
import { config } from '../config';
import { currentAddress, restart } from './nav';
import { serverUrl } from './server';
import { clearSession, currentSession } from './session-store';

/** The methods `wx.request` can send (no PATCH: the break change is sent by POST, src/http/routes/report-admin.ts). */
export type Method = 'GET' | 'POST' | 'DELETE';

export interface CallOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Send again when no answer came or the service answered 503 (module docstring). Default: GET only. */
  retry?: boolean;
  /** Called before each repeat (1, 2). */
  onRetry?: (attempt: number) => void;
  /** Send the token (default true). */
  auth?: boolean;
  /** On 401, leave the page as it is instead of opening the login page (the login page's own calls). */
  keepPageOn401?: boolean;
}

/** Waits before the 1st and 2nd repeat, in milliseconds. */
export const RETRY_DELAYS_MS = [1000, 3000];

const inFlight: Record<string, Promise<unknown> | undefined> = {};

/** `path` with `query` appended (values URL-encoded once; undefined ones left out). */
export function withQuery(path: string, query: CallOptions['query']): string {
  const parts = Object.entries(query ?? {})
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

interface Raw {
  status: number;
  data: unknown;
  retryAfter?: string;
}

/** One exchange; resolves with status 0 when no answer came. */
function send(method: Method, url: string, body: unknown, token: string | undefined): Promise<Raw> {
  return new Promise((resolve) => {
    const header: Record<string, string> = { 'content-type': 'application/json' };
    if (token) header.authorization = `Bearer ${token}`;
    wx.request({
      url,
      method,
      header,
      data: body === undefined ? undefined : (body as WechatMiniprogram.IAnyObject),
      dataType: 'json',
      timeout: config.requestTimeoutSeconds * 1000,
      success: (res) => {
        const headers = (res.header ?? {}) as Record<string, string>;
        const retryAfter = Object.keys(headers).find((k) => k.toLowerCase() === 'retry-after');
        resolve({ status: res.statusCode, data: res.data, retryAfter: retryAfter ? String(headers[retryAfter]) : undefined });
      },
      fail: () => resolve({ status: 0, data: undefined }),
    });
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function run<T>(method: Method, path: string, opts: CallOptions): Promise<T> {
  const url = serverUrl() + withQuery(path, opts.query);
  const retry = opts.retry ?? method === 'GET';
  const token = opts.auth === false ? undefined : currentSession()?.token;
  for (let attempt = 0; ; attempt++) {
    const res = await send(method, url, opts.body, token);
    if (res.status >= 200 && res.status < 300) return res.data as T;
    const again = retry && attempt < RETRY_DELAYS_MS.length && (res.status === 0 || res.status === 503);
    if (again) {
      opts.onRetry?.(attempt + 1);
      await sleep(RETRY_DELAYS_MS[attempt]);
      continue;
    }
    const failure: ApiFailure = res.status === 0 ? networkFailure() : failureOf(res.status, res.data, res.retryAfter);
    if (res.status === 401 && token) {
      clearSession();
      if (!opts.keepPageOn401) restart('login', { expired: '1', back: currentAddress() });
    }
    throw failure;
  }
}

/**
 * Calls the service: `method` on `path` (`/api/...`) with `opts`; the answer's JSON, or throws an `ApiFailure`.
 * While the same operation is in flight, answers with it (module docstring).
 */
export function call<T>(method: Method, path: string, opts: CallOptions = {}): Promise<T> {
  const key = `${method} ${withQuery(path, opts.query)}`;
  const running = inFlight[key];
  if (running) return running as Promise<T>;
  const p = run<T>(method, path, opts);
  inFlight[key] = p;
  const done = () => {
    if (inFlight[key] === p) delete inFlight[key];
  };
  p.then(done, done);
  return p;
}

/** Whether `err` is an `ApiFailure` (thrown by `call`). */
export const isFailure = (err: unknown): err is ApiFailure =>
  typeof err === 'object' && err !== null && typeof (err as ApiFailure).code === 'string' && typeof (err as ApiFailure).status === 'number';
