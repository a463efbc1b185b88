/**
 * Authentication endpoints (spec 4.1 and 5; issue #4): platform login in one or two steps, the current
 * account, role switch. Logic in src/auth/login.ts and src/auth/account.ts.
 *
 * - `POST /api/auth/platform-login` `{code, phoneCode}` | `{code, encryptedData, iv}` → `{status: "ok", token,
 *   expiresAt, person, role, roles}` or `{status: "choose_phone", ticket, ticketExpiresAt, phones}` or
 *   `{status: "choose_role", ticket, ticketExpiresAt, person, roles}`.
 * - `POST /api/auth/platform-login/complete` `{ticket, phone?, role?}` → the same answers.
 * - `GET /api/auth/me` → `{person, role, roles}`; `POST /api/auth/switch-role` `{role}` → a new token.
 */
import { z } from 'zod';
import type { Response } from 'express';
import { ROLES } from '../../auth/roles.ts';
import { completeLogin, platformLogin } from '../../auth/login.ts';
import { currentAccount, switchRole } from '../../auth/account.ts';
import { TooManyAttempts } from '../../auth/rate-limit.ts';
import { defineRoute, type ErrorDoc } from '../route.ts';

const role = z.enum(ROLES);
const person = z.object({ phone: z.string(), name: z.string() });
const ok = z.object({
  status: z.literal('ok'),
  token: z.string(),
  expiresAt: z.string().describe('令牌到期时间 ISO 8601'),
  person,
  role,
  roles: z.array(role),
});
const loginAnswer = z.discriminatedUnion('status', [
  ok,
  z.object({
    status: z.literal('choose_phone'),
    ticket: z.string(),
    ticketExpiresAt: z.string(),
    phones: z.array(z.object({ phone: z.string(), name: z.string(), roles: z.array(role) })),
  }),
  z.object({ status: z.literal('choose_role'), ticket: z.string(), ticketExpiresAt: z.string(), person, roles: z.array(role) }),
]);

const credential = z.string().trim().min(1).max(512);
const loginBody = z
  .object({
    code: credential.describe('wx.login 得到的登录凭证'),
    phoneCode: z.union([credential, z.array(credential).min(1).max(5)]).optional().describe('手机号授权凭证（新版 getPhoneNumber 的 code）'),
    encryptedData: z.string().min(1).max(8192).optional().describe('旧版手机号授权的加密数据'),
    iv: z.string().min(1).max(64).optional(),
  })
  .refine((b) => b.phoneCode !== undefined || (b.encryptedData !== undefined && b.iv !== undefined), {
    message: '请先授权手机号（phoneCode，或 encryptedData 与 iv）',
    path: ['phoneCode'],
  });

const completeBody = z.object({
  ticket: z.string().min(1).max(4096),
  phone: z.string().regex(/^1\d{10}$/, '手机号应为 11 位数字').optional(),
  role: role.optional(),
});

const PLATFORM_ERRORS: ErrorDoc[] = [
  { status: 401, code: 'LOGIN_CODE_INVALID', description: '登录凭证无效（40029）' },
  { status: 401, code: 'LOGIN_CODE_USED', description: '登录凭证已使用（40163）' },
  { status: 401, code: 'PHONE_CODE_INVALID', description: '手机号授权凭证无效或已使用' },
  { status: 400, code: 'PHONE_DATA_INVALID', description: '旧版手机号数据无法解密' },
  { status: 400, code: 'PHONE_DATA_FOREIGN_APP', description: '手机号数据不属于本小程序（watermark.appid 不符）' },
  { status: 403, code: 'WECHAT_USER_BLOCKED', description: '微信高风险用户，登录被拦截（40226）' },
  { status: 429, code: 'PLATFORM_RATE_LIMITED', description: '微信接口频率限制（45011）' },
  { status: 503, code: 'PLATFORM_UNAVAILABLE', description: '微信服务不可用' },
];
const LOGIN_ERRORS: ErrorDoc[] = [
  { status: 403, code: 'PHONE_NOT_REGISTERED', description: '手机号未登记为人员' },
  { status: 429, code: 'TOO_MANY_LOGIN_ATTEMPTS', description: '同一 IP 或同一微信用户登录尝试过多（details.retryAfterSeconds）' },
];

/** Adds Retry-After to a rate-limit refusal before it is answered. */
export async function withRetryAfter<T>(res: Response, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof TooManyAttempts) res.setHeader('Retry-After', String(err.retryAfterSeconds));
    throw err;
  }
}

export const platformLoginRoute = defineRoute({
  method: 'post',
  path: '/api/auth/platform-login',
  tag: 'auth',
  summary: '微信登录：登录凭证 + 手机号授权',
  description:
    '一个手机号一个角色：直接返回令牌（status=ok）。取得多个已登记手机号：status=choose_phone，带登录票据与可选手机号；' +
    '一个手机号多个角色：status=choose_role。随后以 POST /api/auth/platform-login/complete 完成。模拟器：code 用 sim:<任意>，phoneCode 用 sim:<11位手机号>。',
  access: 'public',
  body: loginBody,
  response: loginAnswer,
  errors: [...LOGIN_ERRORS, ...PLATFORM_ERRORS],
  handler: ({ body, req, res }, ctx) => withRetryAfter(res, () => platformLogin(ctx, body, req.ip ?? 'unknown')),
});

export const completeLoginRoute = defineRoute({
  method: 'post',
  path: '/api/auth/platform-login/complete',
  tag: 'auth',
  summary: '微信登录第二步：凭登录票据选择手机号和/或角色',
  description: '手机号只能从票据给出的手机号中选择；角色只能是该手机号当前拥有的角色。票据 5 分钟内有效，只能使用一次。',
  access: 'public',
  body: completeBody,
  response: loginAnswer,
  errors: [
    ...LOGIN_ERRORS,
    { status: 401, code: 'LOGIN_TICKET_INVALID', description: '登录票据无效或已过期' },
    { status: 401, code: 'LOGIN_TICKET_USED', description: '登录票据已使用' },
    { status: 403, code: 'PHONE_NOT_OFFERED', description: '所选手机号不在票据中' },
    { status: 403, code: 'ROLE_NOT_HELD', description: '该手机号没有所选角色' },
    { status: 422, code: 'PHONE_REQUIRED', description: '票据含多个手机号时必须选择一个' },
  ],
  handler: ({ body, req, res }, ctx) => withRetryAfter(res, () => completeLogin(ctx, body, req.ip ?? 'unknown')),
});

export const meRoute = defineRoute({
  method: 'get',
  path: '/api/auth/me',
  tag: 'auth',
  summary: '当前账号、当前角色及同一手机号下的全部角色',
  access: 'authenticated',
  response: z.object({ person, role, roles: z.array(role) }),
  handler: ({ user }, ctx) => currentAccount(ctx, user),
});

export const switchRoleRoute = defineRoute({
  method: 'post',
  path: '/api/auth/switch-role',
  tag: 'auth',
  summary: '切换当前角色，返回新令牌',
  access: 'authenticated',
  body: z.object({ role }),
  response: ok.omit({ status: true }),
  errors: [{ status: 403, code: 'ROLE_NOT_HELD', description: '该手机号没有所选角色' }],
  handler: ({ user, body }, ctx) => switchRole(ctx, user, body.role),
});

export const authRoutes = [platformLoginRoute, completeLoginRoute, meRoute, switchRoleRoute];
