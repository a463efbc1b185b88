/**
 * Scripted service answers for the page tests: a table of `METHOD /path` → answer; anything else is the
 * service's 404 NOT_FOUND. Sessions as the login stores them.
 */
import type { RequestCall, ScriptedAnswer } from './harness.ts';

export type Route = (call: RequestCall & { query: URLSearchParams; body: any }) => ScriptedAnswer | Promise<ScriptedAnswer>;

/** The answer function of `routes` (module docstring). */
export function script(routes: Record<string, Route | ScriptedAnswer>): (call: RequestCall) => Promise<ScriptedAnswer> {
  return async (call) => {
    const url = new URL(call.url);
    const r = routes[`${call.method} ${url.pathname}`];
    if (r === undefined) return fail(404, 'NOT_FOUND', `没有这个接口：${call.method} ${url.pathname}`);
    return typeof r === 'function' ? r({ ...call, query: url.searchParams, body: call.data }) : r;
  };
}

/** A JSON answer. */
export const ok = (data: unknown, statusCode = 200): ScriptedAnswer => ({ statusCode, data, header: { 'Content-Type': 'application/json' } });

/** An error answer in the service's shape. */
export const fail = (statusCode: number, code: string, message: string, details?: unknown): ScriptedAnswer => ({
  statusCode,
  data: { error: { code, message, ...(details === undefined ? {} : { details }), requestId: 'req-1' } },
  header: { 'Content-Type': 'application/json' },
});

/** A stored session of `role` (valid for a year). */
export function session(role: 'worker' | 'admin' | 'manager', roles: string[] = [role], name = '张三') {
  return { token: `token-${role}`, expiresAt: new Date(Date.now() + 365 * 86400_000).toISOString(), person: { phone: '13800138000', name }, role, roles };
}
