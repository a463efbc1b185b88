/**
 * Platform login (spec 4.1 and 5; decisions.md "Roles", "Platform simulator").
 *
 * `platformLogin(ctx, input, ip)` with `{code, phoneCode}` (the new phone credential; a list of up to 5 is
 * accepted) and/or `{code, encryptedData, iv}` (the legacy one):
 * 1. checks the IP's refused attempts, exchanges `code` for openid and session key, counts it for the openid
 *    (src/auth/rate-limit.ts; a refused attempt counts against the IP);
 * 2. obtains the phone number(s) (mainland numbers only: `purePhoneNumber` with country code 86) and matches
 *    them in `personnel`; none registered → 403 PHONE_NOT_REGISTERED;
 * 3. several registered phones → `choose_phone` with a login ticket and the phones to choose from;
 *    one phone with several roles → `choose_role` with a ticket; one phone, one role → `ok` with the token.
 * `completeLogin(ctx, {ticket, phone?, role?}, ip)` continues from a ticket; the phone must be one the ticket
 * names, the role one the phone holds now. On `ok` the openid is kept in `platform_accounts` (notifications), and
 * the answer carries `messageTemplates`, the subscription templates the mini-program asks for (notifications/templates.ts).
 * Platform failures become clear 4xx/5xx answers through `platform/errcodes.ts`.
 */
import jwt from 'jsonwebtoken';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/transaction.ts';
import { AppError } from '../errors.ts';
import { messageTemplateIds, type MessageTemplateIds } from '../notifications/templates.ts';
import { platformFailure, type PlatformStep } from '../platform/errcodes.ts';
import { toZonedIso } from '../time.ts';
import { consumeTicket, LoginTickets, type VerifiedTicket } from './login-ticket.ts';
import { assertUnderLimit, countAttempt, LOGIN_LIMITS, recordAttempt } from './rate-limit.ts';
import { ROLE_LABELS, ROLES, type Role } from './roles.ts';

export interface PlatformLoginInput {
  code: string;
  phoneCode?: string | string[];
  encryptedData?: string;
  iv?: string;
}

export interface CompleteLoginInput {
  ticket: string;
  phone?: string;
  role?: Role;
}

export interface PersonRoles {
  phone: string;
  name: string;
  /** In the order of ROLES. */
  roles: Role[];
}

export type LoginAnswer =
  | ({ status: 'ok'; messageTemplates: MessageTemplateIds } & ReturnType<typeof issueAccess>)
  | { status: 'choose_phone'; ticket: string; ticketExpiresAt: string; phones: PersonRoles[] }
  | { status: 'choose_role'; ticket: string; ticketExpiresAt: string; person: { phone: string; name: string }; roles: Role[] };

const guard = async <T>(step: PlatformStep, p: Promise<T>): Promise<T> => {
  try {
    return await p;
  } catch (err) {
    throw platformFailure(err, step);
  }
};

/** The people of `phones` with their roles, in the order of `phones` (unregistered phones left out). */
export async function peopleOf(q: Queryable, phones: readonly string[]): Promise<PersonRoles[]> {
  if (phones.length === 0) return [];
  const r = await q.query(`SELECT phone, name, role FROM personnel WHERE phone = ANY($1::text[])`, [phones]);
  const by = new Map<string, PersonRoles>();
  for (const row of r.rows) {
    const p: PersonRoles = by.get(row.phone) ?? { phone: row.phone, name: row.name, roles: [] };
    p.roles.push(row.role as Role);
    by.set(row.phone, p);
  }
  for (const p of by.values()) p.roles.sort((a, b) => ROLES.indexOf(a) - ROLES.indexOf(b));
  return phones.flatMap((ph) => (by.has(ph) ? [by.get(ph)!] : []));
}

const notRegistered = (phones: string[]) =>
  new AppError(
    403,
    'PHONE_NOT_REGISTERED',
    phones.length
      ? `手机号 ${phones.join('、')} 未登记为本厂人员，请联系管理员添加后再登录`
      : '微信绑定的不是中国大陆手机号，无法匹配人员信息，请联系管理员',
  );

async function obtainPhones(ctx: AppContext, sessionKey: string, input: PlatformLoginInput): Promise<string[]> {
  const found: string[] = [];
  const add = (info: { purePhoneNumber: string; countryCode: string }) => {
    if (info.countryCode.replace(/^\+/, '') === '86' && !found.includes(info.purePhoneNumber)) found.push(info.purePhoneNumber);
  };
  const codes = input.phoneCode === undefined ? [] : Array.isArray(input.phoneCode) ? input.phoneCode : [input.phoneCode];
  for (const c of codes) add(await guard('phone', ctx.platform.getPhoneNumber(c)));
  if (input.encryptedData !== undefined && input.iv !== undefined) {
    const decrypt = ctx.platform.decryptPhoneData?.bind(ctx.platform);
    if (!decrypt) throw new AppError(503, 'PLATFORM_UNAVAILABLE', '暂不支持旧版手机号授权，请更新微信后重试');
    try {
      add(decrypt(sessionKey, input.encryptedData, input.iv));
    } catch (err) {
      throw platformFailure(err, 'phoneData');
    }
  }
  return found;
}

const tickets = (ctx: AppContext) => new LoginTickets(ctx.config.jwtSecret, ctx.clock);
const iso = (ctx: AppContext, d: Date) => toZonedIso(d, ctx.config.timeZone);

/** Signs in `person` as `role`: keeps the openid, issues the access token. */
async function success(ctx: AppContext, openid: string, person: PersonRoles, role: Role): Promise<LoginAnswer> {
  await ctx.db.pool.query(
    `INSERT INTO platform_accounts (phone, openid, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (phone) DO UPDATE SET openid = EXCLUDED.openid, updated_at = EXCLUDED.updated_at`,
    [person.phone, openid, ctx.clock.now()],
  );
  return { status: 'ok', ...issueAccess(ctx, person, role), messageTemplates: messageTemplateIds(ctx.config.templates) };
}

/** A new access token for `person` in `role` with its expiry (ISO 8601 with offset). */
export function issueAccess(ctx: AppContext, person: PersonRoles, role: Role) {
  const token = ctx.tokens.issue({ phone: person.phone, role });
  const exp = (jwt.decode(token) as { exp: number }).exp;
  return { token, expiresAt: iso(ctx, new Date(exp * 1000)), person: { phone: person.phone, name: person.name }, role, roles: person.roles };
}

function nextStep(ctx: AppContext, openid: string, candidates: PersonRoles[]): Promise<LoginAnswer> | LoginAnswer {
  if (candidates.length > 1) {
    const t = tickets(ctx).issue({ openid, phones: candidates.map((p) => p.phone) });
    return { status: 'choose_phone', ticket: t.ticket, ticketExpiresAt: iso(ctx, t.expiresAt), phones: candidates };
  }
  const [p] = candidates;
  if (p.roles.length > 1) {
    const t = tickets(ctx).issue({ openid, phones: [p.phone] });
    return { status: 'choose_role', ticket: t.ticket, ticketExpiresAt: iso(ctx, t.expiresAt), person: { phone: p.phone, name: p.name }, roles: p.roles };
  }
  return success(ctx, openid, p, p.roles[0]);
}

/**
 * Runs a login step under the per-IP limit: refused before it starts when the IP has too many refused attempts;
 * a refusal the client caused (400, 401, 403, 404, 422) counts against the IP.
 */
export async function underIpLimit<T>(ctx: AppContext, ip: string, run: () => Promise<T>): Promise<T> {
  const bucket = `ip:${ip}`;
  await assertUnderLimit(ctx.db.pool, bucket, LOGIN_LIMITS.perIpRefused, ctx.clock.now());
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError && [400, 401, 403, 404, 422].includes(err.status)) {
      await recordAttempt(ctx.db.pool, bucket, LOGIN_LIMITS.perIpRefused, ctx.clock.now());
    }
    throw err;
  }
}

/** Step one of the login (module docstring). */
export function platformLogin(ctx: AppContext, input: PlatformLoginInput, ip: string): Promise<LoginAnswer> {
  return underIpLimit(ctx, ip, () => beginLogin(ctx, input));
}

async function beginLogin(ctx: AppContext, input: PlatformLoginInput): Promise<LoginAnswer> {
  const pool = ctx.db.pool;
  const session = await guard('login', ctx.platform.code2Session(input.code));
  await countAttempt(pool, `openid:${session.openid}`, LOGIN_LIMITS.perOpenid, ctx.clock.now());
  const phones = await obtainPhones(ctx, session.sessionKey, input);
  const candidates = await peopleOf(pool, phones);
  if (candidates.length === 0) throw notRegistered(phones);
  return nextStep(ctx, session.openid, candidates);
}

/** Step two: the choice of phone and/or role against a ticket (module docstring). */
export function completeLogin(ctx: AppContext, input: CompleteLoginInput, ip: string): Promise<LoginAnswer> {
  return underIpLimit(ctx, ip, () => chooseFromTicket(ctx, input));
}

async function chooseFromTicket(ctx: AppContext, input: CompleteLoginInput): Promise<LoginAnswer> {
  const pool = ctx.db.pool;
  const t: VerifiedTicket = tickets(ctx).verify(input.ticket);
  await countAttempt(pool, `openid:${t.openid}`, LOGIN_LIMITS.perOpenid, ctx.clock.now());
  let phone: string;
  if (input.phone !== undefined) {
    if (!t.phones.includes(input.phone)) throw new AppError(403, 'PHONE_NOT_OFFERED', '只能选择本次登录微信授权的手机号');
    phone = input.phone;
  } else if (t.phones.length === 1) {
    phone = t.phones[0];
  } else {
    throw new AppError(422, 'PHONE_REQUIRED', '请选择用哪个手机号登录');
  }
  const [person] = await peopleOf(pool, [phone]);
  if (!person) throw notRegistered([phone]);
  if (input.role !== undefined && !person.roles.includes(input.role)) {
    throw new AppError(403, 'ROLE_NOT_HELD', `该手机号没有「${ROLE_LABELS[input.role]}」角色，请选择：${person.roles.map((r) => ROLE_LABELS[r]).join('、')}`);
  }
  const role = input.role ?? (person.roles.length === 1 ? person.roles[0] : undefined);
  await consumeTicket(pool, t, ctx.clock.now());
  if (role === undefined) return nextStep(ctx, t.openid, [person]);
  return success(ctx, t.openid, person, role);
}
