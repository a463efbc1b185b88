/**
 * The logged-in account (spec 4.1, 5 rules 2–3): `currentAccount` → the person, the current role and every
 * role of the phone; `switchRole` → a new access token for another role the phone holds (403 ROLE_NOT_HELD
 * otherwise; the old token stays valid until it expires, as each token names its own role).
 */
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { messageTemplateIds } from '../notifications/templates.ts';
import { issueAccess, peopleOf } from './login.ts';
import { ROLE_LABELS, type Role } from './roles.ts';
import { WHOLE_FACTORY, type Scope } from '../domain/scope.ts';

/** The logged-in person as authentication found them (phone, role; the name from personnel when read). */
export interface Account {
  phone: string;
  name?: string;
  role: Role;
}

/**
 * GET /api/auth/me (spec 4.1, 5 rule 3) → `{person: {phone, name}, role, roles, messageTemplates, scope}`: the
 * current role, every role the phone holds in `personnel` (the token's name and role when the person is not found),
 * the subscription templates configured now (notifications/templates.ts `messageTemplateIds`), so that a client
 * logged in before a template was configured learns it without logging in again, and the current role's scope as
 * the authentication read it (domain/scope.ts; both lists empty: the whole factory), so that a page can say what it
 * covers and offer only the workshops and teams inside.
 */
export async function currentAccount(ctx: AppContext, user: Account & { scope?: Scope }) {
  const [p] = await peopleOf(ctx.db.pool, [user.phone]);
  const scope = user.scope ?? WHOLE_FACTORY;
  return {
    person: { phone: user.phone, name: p?.name ?? user.name },
    role: user.role,
    roles: p?.roles ?? [user.role],
    messageTemplates: messageTemplateIds(ctx.config.templates),
    scope: { workshops: [...scope.workshops], teams: [...scope.teams] },
  };
}

/**
 * POST /api/auth/switch-role (spec 5 rule 2) → a new access token for `role` (`{token, expiresAt, person, role,
 * roles}`, expiresAt ISO 8601). Throws AppError 403 ROLE_NOT_HELD when the phone does not hold `role`.
 */
export async function switchRole(ctx: AppContext, user: Account, role: Role) {
  const [p] = await peopleOf(ctx.db.pool, [user.phone]);
  if (!p || !p.roles.includes(role)) {
    throw new AppError(403, 'ROLE_NOT_HELD', `你没有「${ROLE_LABELS[role]}」角色，不能切换`);
  }
  return issueAccess(ctx, p, role);
}
