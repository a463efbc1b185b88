/**
 * The platform access token cache ("Platform client"): the token from `POST /cgi-bin/stable_token`
 * is kept until shortly before it expires and then fetched again, one fetch at a time (callers arriving during
 * a fetch share it). `stable_token` answers the same token to every caller while it is valid, so several
 * service instances need no shared store.
 *
 * Refresh margin: the platform renews the stable token 5 minutes before expiry, so the cache keeps a token for
 * `expires_in − margin` seconds with margin = min(300, ⌊expires_in / 2⌋) and at least 1 second: a short answer
 * such as 345 s is kept 173 s, never zero or negative. Times come from the injected clock.
 */
import type { Clock } from '../clock.ts';

export const MAX_REFRESH_MARGIN_SECONDS = 300;

/** Seconds a token answered with `expiresIn` seconds left is kept (module docstring). */
export function cacheLifetimeSeconds(expiresIn: number): number {
  if (!Number.isFinite(expiresIn) || expiresIn <= 1) return 1;
  const margin = Math.min(MAX_REFRESH_MARGIN_SECONDS, Math.floor(expiresIn / 2));
  return Math.max(1, Math.floor(expiresIn - margin));
}

export interface FetchedToken {
  accessToken: string;
  /** Remaining lifetime in seconds as answered by the platform. */
  expiresIn: number;
}

/**
 * Keeps the access token from `fetchToken` for cacheLifetimeSeconds(expiresIn) on `clock` (module docstring);
 * callers arriving during a fetch share it. A failed fetch rejects those callers and caches nothing.
 */
export class AccessTokenCache {
  private current?: { token: string; validUntilMs: number };
  private inFlight?: Promise<string>;

  constructor(
    private readonly fetchToken: () => Promise<FetchedToken>,
    private readonly clock: Clock,
  ) {}

  /** A token valid now: the cached one, or the result of the (single) fetch in flight. */
  get(): Promise<string> {
    const c = this.current;
    if (c && this.clock.now().getTime() < c.validUntilMs) return Promise.resolve(c.token);
    this.inFlight ??= (async () => {
      try {
        const t = await this.fetchToken();
        this.current = { token: t.accessToken, validUntilMs: this.clock.now().getTime() + cacheLifetimeSeconds(t.expiresIn) * 1000 };
        return t.accessToken;
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }

  /** Drops `token` when it is still the cached one (the platform called it invalid or expired). */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }
}
