/**
 * The one classification of "the database connection failed", for the HTTP answer 503
 * DATABASE_UNAVAILABLE (src/http/errors.ts) and the group commit's "this connection is gone" (group-commit.ts).
 *
 * `connectionFailed(err)` is true for:
 * - the server ending the session: an error answer of severity FATAL or PANIC (a terminated backend 57P01, a
 *   shutdown 57P02/57P03, too many connections 53300), or any SQLSTATE of class 08 (connection exception);
 * - the socket failing: system error codes (refused, reset, unreachable, timed out, broken pipe, a Unix socket
 *   that is gone (ENOENT from connect), a host name that does not resolve);
 * - `pg` and `pg-pool` reporting a connection that ended or cannot be had, which carry no code at all
 *   ("Connection terminated unexpectedly" when the server or the link dies without a goodbye: a crash,
 *   `pg_ctlcluster -m immediate`, a broken TCP link; a client already broken; a pool timeout or a pool ended).
 * A statement's own error (syntax, constraint, serialization) and anything not from the database are false.
 */

const SOCKET_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

const SERVER_CODES: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03', '53300']);

// Messages of `pg` (lib/client.js) and `pg-pool` for a connection that ended or cannot be had: they set no code.
const CLIENT_MESSAGES: readonly RegExp[] = [
  /^Connection terminated/, // "… unexpectedly", "… due to connection timeout", plain "Connection terminated"
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^timeout exceeded when trying to connect$/,
  /^Cannot use a pool after calling end on the pool$/,
  /^Query read timeout$/,
];

/** True when `err` says the database connection failed, not that a statement was refused (module docstring). */
export function connectionFailed(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const e = err as Error & { code?: unknown; severity?: unknown; syscall?: unknown };
  if (e.severity === 'FATAL' || e.severity === 'PANIC') return true;
  if (CLIENT_MESSAGES.some((m) => m.test(e.message))) return true;
  if (typeof e.code !== 'string') return false;
  // ENOENT only from connect(): the Unix socket of a local server (or of PGlite) is gone.
  if (e.code === 'ENOENT') return e.syscall === 'connect';
  return SOCKET_CODES.has(e.code) || SERVER_CODES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code);
}
