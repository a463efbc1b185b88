/**
 * The web console's session ("keeps its token out of reach of scripts … an HttpOnly SameSite cookie
 * accepted only on the console's own calls").
 *
 * The console's calls carry the header `X-Console-Request: 1`; on such a call the service may answer a token by
 * setting it as the cookie `console_session` (HttpOnly, SameSite=Strict, Path=/api, Secure over HTTPS, expiring
 * with the token) instead of putting it in the body. `consoleSessionToken(headers)` gives that cookie's token for
 * authentication (src/http/auth.ts) only when the request carries the header and, when the browser says where it
 * comes from (`Sec-Fetch-Site`), comes from the same origin. A page of another site can neither send the header
 * without a CORS preflight (the service allows none) nor have the SameSite cookie sent, so the cookie cannot be
 * used to act for the console's user.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Request, Response } from 'express';

export const CONSOLE_COOKIE = 'console_session';
export const CONSOLE_HEADER = 'x-console-request';

const COOKIE = new RegExp(`(?:^|;\\s*)${CONSOLE_COOKIE}=([^;\\s]+)`);

/** True when the request is one of the console's own calls (module docstring). */
export function isConsoleCall(headers: IncomingHttpHeaders): boolean {
  if (headers[CONSOLE_HEADER] !== '1') return false;
  const site = headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
}

/** The console session's token on one of the console's own calls, else undefined. */
export function consoleSessionToken(headers: IncomingHttpHeaders): string | undefined {
  if (!isConsoleCall(headers)) return undefined;
  const m = COOKIE.exec(headers.cookie ?? '');
  return m ? m[1] : undefined;
}

/** Sets the console session cookie to `token`, expiring at `expiresAt` (ISO 8601). */
export function setConsoleSession(req: Request, res: Response, token: string, expiresAt: string): void {
  res.cookie(CONSOLE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/api',
    secure: req.secure,
    maxAge: Math.max(0, Date.parse(expiresAt) - Date.now()),
  });
}

/** A sign-in answer `{token, expiresAt, …}` for the console: the token set as the session cookie, the rest returned. */
export function withSessionCookie<T extends { token: string; expiresAt: string }>(req: Request, res: Response, answer: T): Omit<T, 'token'> {
  const { token, ...rest } = answer;
  setConsoleSession(req, res, token, answer.expiresAt);
  return rest;
}

/** Ends the console session (the cookie expires at once). */
export function clearConsoleSession(req: Request, res: Response): void {
  res.clearCookie(CONSOLE_COOKIE, { httpOnly: true, sameSite: 'strict', path: '/api', secure: req.secure });
}
