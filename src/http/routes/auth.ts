/**
 * Authentication endpoints (spec 4.1 and 5): platform login in one or two steps, the current
 * account, role switch. Logic in src/auth/login.ts and src/auth/account.ts.
 *
 * - `POST /api/auth/platform-login` `{code, phoneCode}` | `{code, encryptedData, iv}` → `{status: "ok", token,
 *   expiresAt, person, role, roles, messageTemplates}` or `{status: "choose_phone", ticket, ticketExpiresAt, phones}` or
 *   `{status: "choose_role", ticket, ticketExpiresAt, person, roles}`.
 * - `POST /api/auth/platform-login/complete` `{ticket, phone?, role?}` → the same answers.
 * - `GET /api/auth/me` → `{person, role, roles, messageTemplates}`; `POST /api/auth/switch-role` `{role}` → a new token.
 * `messageTemplates` are the subscription-message template ids the mini-program asks the person for
 * (`wx.requestSubscribeMessage`; notifications/templates.ts `messageTemplateIds`).
 */
import { z } from 'zod';
import { ROLES } from '../../auth/roles.ts';
import { completeLogin, platformLogin } from '../../auth/login.ts';
import { currentAccount, switchRole } from '../../auth/account.ts';
import { messageTemplateIds } from '../../notifications/templates.ts';
import { instant } from '../dates.ts';
import { checkedRule } from '../json-schema.ts';
import { defineRoute, type ErrorDoc } from '../route.ts';
import { nonBlankText } from '../validation.ts';
import { PLATFORM_ERRORS, TOO_MANY_LOGIN_ATTEMPTS } from './error-docs.ts';

const role = z.enum(ROLES).describe('worker 员工、admin 管理员、manager 经理');
const person = z.object({ phone: z.string(), name: z.string() });
const messageTemplates = z
  .object({
    reviewResult: z.string().optional().describe('审核结果通知的模板 ID（WX_TEMPLATE_REVIEW_RESULT）：员工点“提交报工单”时请求订阅'),
    newReport: z.string().optional().describe('新报工单待审核通知的模板 ID（WX_TEMPLATE_NEW_REPORT）：管理员点“审核报工单”“通过”“驳回”时请求订阅'),
  })
  .describe(
    '订阅消息模板（工厂在服务端配置）：小程序在用户点击按钮时以 wx.requestSubscribeMessage({tmplIds}) 请求订阅；' +
      '每次同意只能收到一条该模板的消息（一次性订阅）。未配置的模板不出现，此时不请求订阅。',
  );
const MESSAGE_TEMPLATES_EXAMPLE = { reviewResult: 'Xy3kPq-ReviewResultTemplateId00000000000', newReport: 'Ab7mNz-NewReportTemplateId0000000000000' };
const ok = z.object({
  status: z.literal('ok'),
  token: z.string().describe('访问令牌：请求头 Authorization: Bearer <token>'),
  expiresAt: instant.describe('令牌到期时间'),
  person,
  role: role.describe('本次登录的角色'),
  roles: z.array(role).describe('该手机号拥有的全部角色'),
  messageTemplates,
});
const loginAnswer = z.discriminatedUnion('status', [
  ok,
  z.object({
    status: z.literal('choose_phone'),
    ticket: z.string().describe('登录票据：5 分钟内有效，只能使用一次'),
    ticketExpiresAt: instant,
    phones: z.array(z.object({ phone: z.string(), name: z.string(), roles: z.array(role) })),
  }),
  z.object({ status: z.literal('choose_role'), ticket: z.string().describe('登录票据：5 分钟内有效，只能使用一次'), ticketExpiresAt: instant, person, roles: z.array(role) }),
]);

const credential = nonBlankText(512);
const loginBody = checkedRule(
  z
    .object({
      code: credential.meta({ title: '登录凭证', description: 'wx.login 得到的 code' }),
      phoneCode: z
        .union([credential, z.array(credential).min(1).max(5)])
        .optional()
        .meta({ title: '手机号授权凭证', description: '新版 getPhoneNumber 得到的 code；取得多个手机号时可传列表（最多 5 个）' }),
      encryptedData: z.string().min(1).max(8192).optional().meta({ title: '加密数据', description: '旧版手机号授权的 encryptedData' }),
      iv: z.string().min(1).max(64).optional().meta({ title: '初始向量', description: '旧版手机号授权的 iv' }),
    })
    .refine((b) => b.phoneCode !== undefined || (b.encryptedData !== undefined && b.iv !== undefined), {
      message: '请先授权手机号：需要手机号授权凭证，或旧版授权的加密数据与初始向量',
      path: ['phoneCode'],
    }),
  { anyOf: [{ required: ['phoneCode'] }, { required: ['encryptedData', 'iv'] }] },
);

const completeBody = z.object({
  ticket: z.string().min(1).max(4096).meta({ title: '登录票据', description: '上一步回答的 ticket' }),
  phone: z
    .string()
    .regex(/^1\d{10}$/)
    .optional()
    .meta({ title: '手机号', description: 'choose_phone 时：从 phones 中选择的手机号' }),
  role: role.optional().meta({ title: '角色', description: 'choose_role 时：从 roles 中选择的角色' }),
});

const LOGIN_ERRORS: ErrorDoc[] = [{ status: 403, code: 'PHONE_NOT_REGISTERED', description: '手机号未登记为人员' }, TOO_MANY_LOGIN_ATTEMPTS];
const PLATFORM_LOGIN_ERRORS: ErrorDoc[] = [
  { status: 401, code: 'LOGIN_CODE_INVALID', description: '登录凭证无效（40029）' },
  { status: 401, code: 'LOGIN_CODE_USED', description: '登录凭证已使用（40163）' },
  { status: 401, code: 'PHONE_CODE_INVALID', description: '手机号授权凭证无效或已使用' },
  { status: 400, code: 'PHONE_DATA_INVALID', description: '旧版手机号数据无法解密' },
  { status: 400, code: 'PHONE_DATA_FOREIGN_APP', description: '手机号数据不属于本小程序（watermark.appid 不符）' },
  { status: 403, code: 'WECHAT_USER_BLOCKED', description: '微信高风险用户，登录被拦截（40226）' },
  ...PLATFORM_ERRORS,
];
const ROLE_NOT_HELD: ErrorDoc = { status: 403, code: 'ROLE_NOT_HELD', description: '该手机号没有所选角色' };

const PERSON = { phone: '13800138000', name: '张三' };
const TOKEN = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoid29ya2VyIiwic3ViIjoiMTM4MDAxMzgwMDAifQ.c2lnbmF0dXJl';
const OK_EXAMPLE = {
  status: 'ok',
  token: TOKEN,
  expiresAt: '2026-03-09T07:30:00+08:00',
  person: PERSON,
  role: 'worker',
  roles: ['worker'],
  messageTemplates: MESSAGE_TEMPLATES_EXAMPLE,
};
const TICKET = 'eyJhbGciOiJIUzI1NiJ9.eyJwaG9uZXMiOlsiMTM4MDAxMzgwMDAiXX0.dGlja2V0';

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
  errors: [...LOGIN_ERRORS, ...PLATFORM_LOGIN_ERRORS],
  example: {
    body: { code: 'sim:zhangsan#1', phoneCode: 'sim:13800138000' },
    response: { status: 'choose_role', ticket: TICKET, ticketExpiresAt: '2026-03-02T07:35:00+08:00', person: PERSON, roles: ['worker', 'manager'] },
  },
  handler: ({ body, req }, ctx) => platformLogin(ctx, body, req.ip ?? 'unknown'),
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
    ROLE_NOT_HELD,
    { status: 422, code: 'PHONE_REQUIRED', description: '票据含多个手机号时必须选择一个' },
  ],
  example: { body: { ticket: TICKET, role: 'worker' }, response: { ...OK_EXAMPLE, roles: ['worker', 'manager'] } },
  handler: ({ body, req }, ctx) => completeLogin(ctx, body, req.ip ?? 'unknown'),
});

export const meRoute = defineRoute({
  method: 'get',
  path: '/api/auth/me',
  tag: 'auth',
  summary: '当前账号、当前角色及同一手机号下的全部角色',
  access: 'authenticated',
  description: 'messageTemplates 为当前配置的订阅消息模板：登录后才配置的模板，小程序由此得知，无需重新登录。scope 为当前角色的审核范围。',
  response: z.object({
    person,
    role: role.describe('当前角色'),
    roles: z.array(role).describe('该手机号拥有的全部角色'),
    messageTemplates,
    scope: z
      .object({ workshops: z.array(z.string()).describe('车间编码'), teams: z.array(z.string()).describe('班组编码') })
      .describe('当前角色的审核范围；两个都为空：全厂（员工角色总是为空）'),
  }),
  example: {
    response: { person: PERSON, role: 'worker', roles: ['worker', 'manager'], messageTemplates: MESSAGE_TEMPLATES_EXAMPLE, scope: { workshops: [], teams: [] } },
  },
  handler: ({ user }, ctx) => currentAccount(ctx, user),
});

export const switchRoleRoute = defineRoute({
  method: 'post',
  path: '/api/auth/switch-role',
  tag: 'auth',
  summary: '切换当前角色，返回新令牌',
  access: 'authenticated',
  body: z.object({ role: role.meta({ title: '角色' }) }),
  response: ok.omit({ status: true }),
  errors: [ROLE_NOT_HELD],
  example: {
    body: { role: 'manager' },
    response: (({ status: _s, ...rest }) => ({ ...rest, role: 'manager', roles: ['worker', 'manager'] }))(OK_EXAMPLE),
  },
  handler: async ({ user, body }, ctx) => ({ ...(await switchRole(ctx, user, body.role)), messageTemplates: messageTemplateIds(ctx.config.templates) }),
});

export const authRoutes = [platformLoginRoute, completeLoginRoute, meRoute, switchRoleRoute];
