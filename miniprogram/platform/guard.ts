/**
 * A page's login check: the stored session, or the login page (carrying the code's `scene`, so a worker who
 * scanned before logging in comes back to that code after the login; otherwise `back`, the page on top with its
 * parameters, so the login returns there: core/back.ts).
 */
import { currentAddress, restart } from './nav';
import { currentSession, type Session } from './session-store';

/** The session; without one, opens the login page and answers undefined. */
export function sessionOrLogin(scene?: string): Session | undefined {
  const s = currentSession();
  if (!s) restart('login', scene ? { scene } : { back: currentAddress() });
  return s;
}
