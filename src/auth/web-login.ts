/**
 * Scan-to-login for the web console, kept in the database
 * (`web_login_tickets`, migrations/008) so that several API instances share it.
 *
 * - `startWebLogin(ctx, ip)` → `{ticket, scene, codeUrl, expiresAt, expiresInSeconds}`: a secret single-use ticket valid
 *   WEB_LOGIN_TTL_SECONDS (2 minutes) that only the console holds (only its SHA-256 is stored), and a mini-program
 *   code made through the platform's `getwxacodeunlimit` with scene `w=<key>` (18 characters, within the
 *   platform's 32-character rule) opening WX_WEB_LOGIN_PAGE. The key is not the ticket: a photographed code
 *   lets nobody in without a logged-in administrator's or manager's mini-program.
 * - `confirmWebLogin(ctx, user, {key, role?}, ip)`: the mini-program's side. Only a person holding a role of
 *   `access.console` (admin, manager) in personnel may confirm (anyone else: 403 WEB_LOGIN_NOT_ALLOWED); a person
 *   holding both chooses (`choose_role` until `role` is given).
 * - `pollWebLogin(ctx, ticket, ip)` → `pending | expired | confirmed` with the access token, handed out once (the
 *   row is consumed in the same statement; a second poll is 409 WEB_LOGIN_TICKET_USED).
 * - `createConsoleLink(ctx, {phone, name?, role?, roles?})`: `npm run cli -- console-link` (src/cli/console-link.ts): a
 *   ticket confirmed from the start, valid CONSOLE_LINK_TTL_SECONDS (10 minutes), redeemed by the same poll. While
 *   personnel holds no administrator, a name adds the phone as the office's first person with `roles` (default
 *   管理员 and 经理: FIRST_PERSON_ROLES); the link signs in as `role` (default the first the person holds).
 * Limits (the login's, src/auth/rate-limit.ts): refused polls and confirmations count against the IP's refused
 * login attempts; codes made per IP and confirmations per person are counted in WEB_LOGIN_LIMITS.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { AppError, conflict, notFound } from '../errors.ts';
import type { Account } from './account.ts';
import { savePerson } from '../people/service.ts';
import { hasImageMagic } from '../platform/client.ts';
import { platformFailure } from '../platform/errcodes.ts';
import { PlatformError } from '../platform/types.ts';
import { toZonedIso } from '../time.ts';
import { issueAccess, peopleOf, underIpLimit, type PersonRoles } from './login.ts';
import { countAttempt, type LimitRule } from './rate-limit.ts';
import { access, ROLE_LABELS, roleRevoked, type Role } from './roles.ts';

/** Lifetime of a scan-to-login ticket, in seconds (2 minutes). */
export const WEB_LOGIN_TTL_SECONDS = 120;
/** Lifetime of a console link, in seconds (10 minutes). */
export const CONSOLE_LINK_TTL_SECONDS = 600;
/** Rows older than this (ms past their expiry) are deleted when a new ticket is made. */
const KEEP_MS = 86_400_000;
/** Width in pixels of the sign-in code (the platform allows 280–1280; shown on a screen, not printed). */
const CODE_WIDTH = 430;

export const WEB_LOGIN_LIMITS = {
  /** sign-in codes made per IP: each is a platform call */
  startPerIp: { max: 60, windowSeconds: 600 },
  /** confirmations per person, as the login's per-openid limit */
  confirmPerPerson: { max: 20, windowSeconds: 600 },
} as const satisfies Record<string, LimitRule>;

export type ConsoleRole = (typeof access.console)[number];

const hashOf = (ticket: string) => createHash('sha256').update(ticket, 'utf8').digest('hex');
const iso = (ctx: AppContext, d: Date) => toZonedIso(d, ctx.config.timeZone);

/** The roles of `person` that may use the console, in the order of `access.console`. */
export const consoleRolesOf = (person: PersonRoles | undefined): ConsoleRole[] =>
  access.console.filter((r) => person?.roles.includes(r));

/** POST /api/auth/web-login (module docstring). Throws 429 TOO_MANY_LOGIN_ATTEMPTS, or the platform failure. */
export async function startWebLogin(ctx: AppContext, ip: string) {
  const pool = ctx.db.pool;
  const now = ctx.clock.now();
  await countAttempt(pool, `web-login:${ip}`, WEB_LOGIN_LIMITS.startPerIp, now);
  const ticket = randomBytes(32).toString('base64url');
  const key = randomBytes(12).toString('base64url');
  const scene = `w=${key}`;
  const page = ctx.config.wxWebLoginPage;
  const envVersion = ctx.config.wxEnvVersion;
  let image: Buffer;
  try {
    image = await ctx.platform.getUnlimitedQrCode({ scene, page, checkPath: envVersion === 'release', envVersion, width: CODE_WIDTH });
  } catch (err) {
    throw platformFailure(err, 'qrcode', page);
  }
  if (!hasImageMagic(image)) throw platformFailure(new PlatformError(-2, 'the platform answered no image'), 'qrcode', page);
  const expiresAt = new Date(now.getTime() + WEB_LOGIN_TTL_SECONDS * 1000);
  await pool.query(`DELETE FROM web_login_tickets WHERE expires_at < $1`, [new Date(now.getTime() - KEEP_MS)]);
  await pool.query(
    `INSERT INTO web_login_tickets (ticket_hash, kind, scene_key, status, created_at, expires_at, content_type, image)
     VALUES ($1, 'scan', $2, 'pending', $3, $4, $5, $6)`,
    [hashOf(ticket), key, now, expiresAt, image[0] === 0x89 ? 'image/png' : 'image/jpeg', image],
  );
  return { ticket, scene, codeUrl: `/api/auth/web-login/codes/${key}.png`, expiresAt: iso(ctx, expiresAt), expiresInSeconds: WEB_LOGIN_TTL_SECONDS };
}

/** The image of a sign-in code that is still pending and unexpired (the code's key), or undefined. */
export async function webLoginCode(ctx: AppContext, key: string): Promise<{ contentType: string; image: Buffer } | undefined> {
  const r = await ctx.db.pool.query(
    `SELECT content_type, image FROM web_login_tickets WHERE scene_key = $1 AND status = 'pending' AND expires_at > $2`,
    [key, ctx.clock.now()],
  );
  return r.rows.length ? { contentType: r.rows[0].content_type, image: r.rows[0].image } : undefined;
}

export type ConfirmAnswer =
  | { status: 'confirmed'; person: { phone: string; name: string }; role: ConsoleRole }
  | { status: 'choose_role'; person: { phone: string; name: string }; roles: ConsoleRole[] };

/**
 * POST /api/auth/web-login/confirm, called by the mini-program of the logged-in `user` after scanning a code whose
 * scene is `w=<key>`. Throws 403 WEB_LOGIN_NOT_ALLOWED (no admin or manager role), 403 ROLE_NOT_HELD, 404
 * WEB_LOGIN_NOT_FOUND, 409 WEB_LOGIN_EXPIRED, 409 WEB_LOGIN_ALREADY_CONFIRMED, 429 TOO_MANY_LOGIN_ATTEMPTS.
 */
export function confirmWebLogin(ctx: AppContext, user: Account, input: { key: string; role?: Role }, ip: string): Promise<ConfirmAnswer> {
  return underIpLimit(ctx, ip, async () => {
    const pool = ctx.db.pool;
    const now = ctx.clock.now();
    await countAttempt(pool, `web-confirm:${user.phone}`, WEB_LOGIN_LIMITS.confirmPerPerson, now);
    const [person] = await peopleOf(pool, [user.phone]);
    const roles = consoleRolesOf(person);
    if (roles.length === 0) throw new AppError(403, 'WEB_LOGIN_NOT_ALLOWED', '只有管理员或经理可以登录网页后台');
    const who = { phone: person.phone, name: person.name };
    if (input.role !== undefined && !(roles as Role[]).includes(input.role)) {
      throw new AppError(403, 'ROLE_NOT_HELD', `你没有「${ROLE_LABELS[input.role]}」角色，请选择：${roles.map((r) => ROLE_LABELS[r]).join('、')}`);
    }
    const r = await pool.query(`SELECT status, expires_at FROM web_login_tickets WHERE scene_key = $1 AND kind = 'scan'`, [input.key]);
    if (r.rows.length === 0) throw notFound('WEB_LOGIN_NOT_FOUND', '没有找到这个登录二维码，请在网页上刷新二维码后重新扫码');
    if (r.rows[0].status !== 'pending') throw alreadyConfirmed();
    if (new Date(r.rows[0].expires_at) <= now) throw conflict('WEB_LOGIN_EXPIRED', '二维码已过期，请在网页上刷新二维码后重新扫码');
    if (input.role === undefined && roles.length > 1) return { status: 'choose_role', person: who, roles };
    const role = (input.role as ConsoleRole | undefined) ?? roles[0];
    const done = await pool.query(
      `UPDATE web_login_tickets SET status = 'confirmed', phone = $2, role = $3, confirmed_at = $4
        WHERE scene_key = $1 AND kind = 'scan' AND status = 'pending' AND expires_at > $4 RETURNING 1`,
      [input.key, person.phone, role, now],
    );
    if (done.rows.length === 0) throw alreadyConfirmed();
    return { status: 'confirmed', person: who, role };
  });
}

const alreadyConfirmed = () => conflict('WEB_LOGIN_ALREADY_CONFIRMED', '这个登录二维码已经确认过了');

export type PollAnswer =
  | { status: 'pending'; expiresAt: string }
  | { status: 'expired' }
  | ({ status: 'confirmed' } & ReturnType<typeof issueAccess>);

/**
 * GET /api/auth/web-login/:ticket (module docstring): the token is handed out once. Throws 404
 * WEB_LOGIN_TICKET_NOT_FOUND (unknown ticket; counted against the IP), 409 WEB_LOGIN_TICKET_USED, 401 ROLE_REVOKED
 * (the role was removed since the confirmation), 429 TOO_MANY_LOGIN_ATTEMPTS.
 */
export function pollWebLogin(ctx: AppContext, ticket: string, ip: string): Promise<PollAnswer> {
  return underIpLimit(ctx, ip, async () => {
    const pool = ctx.db.pool;
    const now = ctx.clock.now();
    const hash = hashOf(ticket);
    const taken = await pool.query(
      `UPDATE web_login_tickets SET status = 'consumed', consumed_at = $2
        WHERE ticket_hash = $1 AND status = 'confirmed' AND expires_at > $2 RETURNING phone, role`,
      [hash, now],
    );
    if (taken.rows.length) {
      const { phone, role } = taken.rows[0] as { phone: string; role: Role };
      const [person] = await peopleOf(pool, [phone]);
      if (!person || !person.roles.includes(role)) throw roleRevoked();
      return { status: 'confirmed', ...issueAccess(ctx, person, role) };
    }
    const r = await pool.query(`SELECT status, expires_at FROM web_login_tickets WHERE ticket_hash = $1`, [hash]);
    if (r.rows.length === 0) throw notFound('WEB_LOGIN_TICKET_NOT_FOUND', '登录二维码无效，请刷新页面重新扫码');
    if (r.rows[0].status === 'consumed') throw conflict('WEB_LOGIN_TICKET_USED', '这次登录已完成，如需再次登录请刷新二维码');
    const expiresAt = new Date(r.rows[0].expires_at);
    if (expiresAt <= now) return { status: 'expired' };
    return { status: 'pending', expiresAt: iso(ctx, expiresAt) };
  });
}

/**
 * A one-time console link for `phone` (`npm run cli -- console-link`): a ticket confirmed from the start, valid 10
 * minutes. `role` defaults to the first console role the person holds (admin before manager). While personnel
 * holds no administrator at all, a person without a console role is added as the first administrator when `name` is
 * given (`added: true`). → `{ticket, expiresAt, person, role, added}`. Throws 422 CONSOLE_LINK_REFUSED with a
 * sentence saying what to do (unknown phone, no console role, a role the person does not hold).
 */
export async function createConsoleLink(ctx: AppContext, input: { phone: string; name?: string; role?: ConsoleRole; roles?: readonly ConsoleRole[] }) {
  const pool = ctx.db.pool;
  let [person] = await peopleOf(pool, [input.phone]);
  let added: ConsoleRole[] = [];
  if (consoleRolesOf(person).length === 0 && input.name !== undefined && !(await hasAdministrator(ctx))) {
    // The first person of the office gets both roles unless told otherwise: the month close and the scopes need
    // 经理, the review 管理员, and nobody else is there yet to give the other one.
    const give = access.console.filter((r) => (input.roles?.length ? input.roles : FIRST_PERSON_ROLES).includes(r));
    for (const role of give) await savePerson(ctx, { phone: input.phone, name: input.name, role });
    [person] = await peopleOf(pool, [input.phone]);
    added = give;
  }
  const roles = consoleRolesOf(person);
  if (!person) {
    throw refused(`手机号 ${input.phone} 不在人员名单中。还没有管理员时，可加上姓名把他添加为第一位管理员：console-link ${input.phone} <姓名>`);
  }
  if (roles.length === 0) throw refused(`${person.name}（${person.phone}）不是管理员或经理，不能登录网页后台；请在网页后台「人员」中为他添加角色`);
  if (input.role !== undefined && !roles.includes(input.role)) {
    throw refused(`${person.name} 没有「${ROLE_LABELS[input.role]}」角色，可用：${roles.map((r) => ROLE_LABELS[r]).join('、')}`);
  }
  const role = input.role ?? roles[0];
  const ticket = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + CONSOLE_LINK_TTL_SECONDS * 1000);
  await pool.query(
    `INSERT INTO web_login_tickets (ticket_hash, kind, status, phone, role, created_at, expires_at, confirmed_at)
     VALUES ($1, 'link', 'confirmed', $2, $3, $4, $5, $4)`,
    [hashOf(ticket), person.phone, role, now, expiresAt],
  );
  return { ticket, expiresAt: iso(ctx, expiresAt), person: { phone: person.phone, name: person.name }, role, roles, added: added.length > 0, addedRoles: added };
}

/** The roles the console link gives the first person of the office when none are named: 管理员 and 经理. */
export const FIRST_PERSON_ROLES: readonly ConsoleRole[] = ['admin', 'manager'];

const refused = (message: string) => new AppError(422, 'CONSOLE_LINK_REFUSED', message);

/** The console's path that redeems a link ticket: the ticket travels in the fragment, never in a request line. */
export const consoleLinkPath = (ticket: string) => `/console/login#link=${ticket}`;

/** True when personnel holds at least one administrator. */
export async function hasAdministrator(ctx: AppContext): Promise<boolean> {
  const r = await ctx.db.pool.query(`SELECT 1 FROM personnel WHERE role = 'admin' LIMIT 1`);
  return r.rows.length > 0;
}
