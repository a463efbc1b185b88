/**
 * Authentication and role guards, in one place (decisions.md "Roles", "HTTP conventions"; spec section 5).
 *
 * `authenticate(ctx, req, access)`: reads `Authorization: Bearer <JWT>`, verifies it (HS256 only), and
 * checks that the person still holds the token's role in `personnel` (a removed role stops working at once).
 * Throws 401 (no, bad or stale token) or 403 (role not allowed for this route). Returns the current user.
 */
import type { Request } from 'express';
import { unauthorized, forbidden } from '../errors.ts';
import type { AppContext } from '../context.ts';
import type { CurrentUser, RouteSpec } from './route.ts';

/**
 * The current user `{phone, name, role}` for a route with `access`, undefined for 'public' routes (module docstring).
 * Throws AppError 401 UNAUTHORIZED (no Bearer token), 401 INVALID_TOKEN, 401 ROLE_REVOKED (person or role no
 * longer in personnel), 403 FORBIDDEN (role not in `access`).
 */
export async function authenticate(ctx: AppContext, req: Request, access: RouteSpec['access']): Promise<CurrentUser | undefined> {
  if (access === 'public') return undefined;
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (!m) throw unauthorized('UNAUTHORIZED', '请先登录');
  const claims = ctx.tokens.verify(m[1]);
  if (!claims) throw unauthorized('INVALID_TOKEN', '登录已失效，请重新登录');
  const r = await ctx.db.pool.query(`SELECT name FROM personnel WHERE phone = $1 AND role = $2`, [claims.phone, claims.role]);
  if (r.rows.length === 0) throw unauthorized('ROLE_REVOKED', '账号或角色已被移除，请重新登录');
  const user: CurrentUser = { phone: claims.phone, name: r.rows[0].name, role: claims.role };
  if (access !== 'authenticated' && !access.includes(user.role)) throw forbidden();
  return user;
}
