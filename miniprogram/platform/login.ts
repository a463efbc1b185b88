/**
 * Logging in (README "For the mini-program's developer", "Login"; spec 4.1): `wx.login`'s code with the phone
 * button's code → `POST /api/auth/platform-login`; a `choose_phone` or `choose_role` answer is shown on the page and
 * finished with `POST /api/auth/platform-login/complete`; an `ok` answer is stored (platform/session-store.ts).
 *
 * With the service's platform simulator (`GET /api/auth/web-login/setup` says `simulator: true`; never in
 * production) DevTools has no real phone number: the login page asks for one and sends the simulator's codes
 * (`sim:<user>#<nonce>`, `sim:<phone>#<nonce>`, core/login.ts `simulatorCodes`).
 */
import type { LoginAnswer, Role, Setup } from '../api/types';
import { NO_LOGIN_CODE } from '../core/login';
import { call } from './request';
import { saveSession, type Session } from './session-store';
import { rememberTemplates } from './subscribe';

/** A fresh `wx.login` code; rejects with a sentence when none came. */
export function loginCode(): Promise<string> {
  return new Promise((resolve, reject) => {
    wx.login({
      success: (r) => (r.code ? resolve(r.code) : reject(new Error(NO_LOGIN_CODE))),
      fail: () => reject(new Error(NO_LOGIN_CODE)),
    });
  });
}

/** Stores an `ok` answer and its message templates (platform/subscribe.ts); answers it as it came. */
function keep(a: LoginAnswer): LoginAnswer {
  if (a.status === 'ok') {
    const { status: _status, ...session } = a;
    saveSession(session);
    rememberTemplates(a.messageTemplates);
  }
  return a;
}

const LOGIN = { auth: false, retry: false, keepPageOn401: true } as const;

/** Logs in with `code` (wx.login or the simulator's) and `phoneCode`. */
export async function platformLogin(code: string, phoneCode: string): Promise<LoginAnswer> {
  return keep(await call<LoginAnswer>('POST', '/api/auth/platform-login', { ...LOGIN, body: { code, phoneCode } }));
}

/** Finishes a two-step login with the chosen phone and/or role. */
export async function completeLogin(ticket: string, choice: { phone?: string; role?: Role }): Promise<LoginAnswer> {
  return keep(await call<LoginAnswer>('POST', '/api/auth/platform-login/complete', { ...LOGIN, body: { ticket, ...choice } }));
}

/** Switches the current role (`POST /api/auth/switch-role`) and stores the new token. */
export async function switchRole(role: Role): Promise<Session> {
  const s = await call<Session>('POST', '/api/auth/switch-role', { body: { role } });
  saveSession(s);
  rememberTemplates(s.messageTemplates);
  return s;
}

/** Whether the service runs with its platform simulator (then the login page offers the simulator's login). */
export async function usesSimulator(): Promise<boolean> {
  try {
    return (await call<Setup>('GET', '/api/auth/web-login/setup', { auth: false })).simulator;
  } catch {
    return false;
  }
}
