/**
 * Authentication and role guards, in one place (decisions.md "Roles", "HTTP conventions"; spec section 5).
 *
 * `authenticate(ctx, req, route)`: reads `Authorization: Bearer <JWT>` (or, on the web console's own calls, its
 * session cookie: console-session.ts), verifies it (HS256 only), checks the
 * token's role against the route's access list, and checks that the person still holds that role in
 * `personnel` (a removed role stops working at once). Routes marked `personCheckedByHandler` (the worker's hot
 * path) make that last check in their own statement instead (the person fact of commands/facts.ts, or the
 * query's join), which saves a round trip; their user has no name.
 * Throws 401 (no, bad or stale token) or 403 (role not allowed for this route). Returns the current user, with
 * the scope stored for the person in that role (`scopes`, read in the same statement).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { roleRevoked } from '../auth/roles.ts';
import type { AppContext } from '../context.ts';
import { commonError } from './common-errors.ts';
import { consoleSessionToken } from './console-session.ts';
import type { CurrentUser, RouteSpec } from './route.ts';

/**
 * The current user `{phone, name, role}` for a route with `access`, undefined for 'public' routes (module docstring).
 * Throws AppError 401 UNAUTHORIZED (no Bearer token), 401 INVALID_TOKEN, 401 ROLE_REVOKED (person or role no
 * longer in personnel), 403 FORBIDDEN (role not in `access`).
 */
export async function authenticate(
  ctx: AppContext,
  req: { headers: IncomingHttpHeaders },
  route: Pick<RouteSpec, 'access' | 'personCheckedByHandler'>,
): Promise<CurrentUser | undefined> {
  const access = route.access;
  if (access === 'public') return undefined;
  const header = req.headers.authorization ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? consoleSessionToken(req.headers);
  if (!token) throw commonError('UNAUTHORIZED');
  const claims = ctx.tokens.verify(token);
  if (!claims) throw commonError('INVALID_TOKEN');
  if (access !== 'authenticated' && !access.includes(claims.role)) throw commonError('FORBIDDEN');
  if (route.personCheckedByHandler) return { phone: claims.phone, role: claims.role };
  // The person's scope in this role (domain/scope.ts) comes with the same statement.
  const r = await ctx.db.pool.query(
    `SELECT p.name, s.workshops, s.teams FROM personnel p LEFT JOIN scopes s ON s.phone = p.phone AND s.role = p.role WHERE p.phone = $1 AND p.role = $2`,
    [claims.phone, claims.role],
  );
  if (r.rows.length === 0) throw roleRevoked();
  const { name, workshops, teams } = r.rows[0];
  return { phone: claims.phone, name, role: claims.role, scope: { workshops: workshops ?? [], teams: teams ?? [] } };
}
