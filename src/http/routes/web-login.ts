/**
 * The web console's sign-in endpoints (logic in src/auth/web-login.ts and src/auth/console-setup.ts):
 * - `POST /api/auth/web-login` → `{ticket, scene, codeUrl, expiresAt}`; `GET /api/auth/web-login/codes/<key>.png`;
 * - `POST /api/auth/web-login/confirm {key, role?}`: the mini-program's side (documented for its developers);
 * - `GET /api/auth/web-login/:ticket` → pending | expired | confirmed (the token, once; on the console's own calls
 *   as its HttpOnly session cookie, src/http/console-session.ts);
 * - `GET /api/auth/web-login/setup`, `POST /api/auth/web-login/first-admin` (simulator only): the first
 *   administrator; `POST /api/auth/console-link`: the local CLI's one-time link (src/http/control-channel.ts);
 * - `POST /api/auth/web-session/switch-role`, `DELETE /api/auth/web-session`: the console session's role, sign-out.
 * Refusals a client can cause count against the IP as the login's do; 429 carries Retry-After.
 */
import { z } from 'zod';
import { switchRole } from '../../auth/account.ts';
import { addFirstAdministrator, consoleSetup } from '../../auth/console-setup.ts';
import { access, ROLES } from '../../auth/roles.ts';
import { confirmWebLogin, consoleLinkPath, createConsoleLink, pollWebLogin, startWebLogin, webLoginCode, WEB_LOGIN_TTL_SECONDS } from '../../auth/web-login.ts';
import { AppError, notFound } from '../../errors.ts';
import { clearConsoleSession, isConsoleCall, withSessionCookie } from '../console-session.ts';
import { CONTROL_HEADER, controlSecretMatches } from '../control-channel.ts';
import { instant } from '../dates.ts';
import { defineRoute, RawBody, type ErrorDoc } from '../route.ts';
import { PERSON_INVALID, TOO_MANY_LOGIN_ATTEMPTS } from './error-docs.ts';

const role = z.enum(ROLES).meta({ title: '角色' });
const consoleRole = z.enum(access.console).meta({ title: '网页后台角色' });
const person = z.object({ phone: z.string(), name: z.string() });
const phone = z.string().max(40).meta({ title: '手机号', description: '11 位手机号' });
const name = z.string().max(100).meta({ title: '姓名' });
/** Examples of the documents. */
const PERSON = { phone: '13800138000', name: '王管理' };
const TICKET = 'q7Vw2mKx9ZpL4sRt8YbN3cHf6JdE1aGu';
const KEY = 'Xa7kP2mQ9rT4vW8y';
const PLATFORM_ERRORS: ErrorDoc[] = [
  { status: 429, code: 'PLATFORM_RATE_LIMITED', description: '微信接口频率限制' },
  { status: 502, code: 'PLATFORM_PAGE_NOT_FOUND', description: '小程序页面 WX_WEB_LOGIN_PAGE 不存在或未发布（41030）' },
  { status: 502, code: 'PLATFORM_ERROR', description: '微信接口返回其他错误' },
  { status: 503, code: 'PLATFORM_UNAVAILABLE', description: '微信服务不可用' },
];
const ip = (req: { ip?: string }) => req.ip ?? 'unknown';

export const webLoginStartRoute = defineRoute({
  method: 'post',
  path: '/api/auth/web-login',
  tag: 'web-login',
  summary: '网页后台扫码登录：生成登录票据和小程序码',
  description:
    `ticket 为网页持有的秘密票据（${WEB_LOGIN_TTL_SECONDS / 60} 分钟内有效，只能换取一次令牌）；小程序码的 scene 为 w=<key>（key 不是票据），` +
    '打开页面 WX_WEB_LOGIN_PAGE（默认 pages/login/confirm），codeUrl 为码的图片地址。网页随后轮询 GET /api/auth/web-login/{ticket}。',
  access: 'public',
  response: z.object({
    ticket: z.string().describe('秘密票据：只在网页内存中保存，不要显示或记录'),
    scene: z.string().describe('小程序码的 scene：w=<key>'),
    codeUrl: z.string().describe('小程序码图片地址（无需令牌，过期或确认后失效）'),
    expiresAt: instant,
    expiresInSeconds: z.number().int().describe('有效秒数（网页据此倒计时，不依赖电脑时钟）'),
  }),
  status: 201,
  errors: [TOO_MANY_LOGIN_ATTEMPTS, ...PLATFORM_ERRORS],
  example: {
    response: { ticket: TICKET, scene: `w=${KEY}`, codeUrl: `/api/auth/web-login/codes/${KEY}.png`, expiresAt: '2026-03-02T08:02:00+08:00', expiresInSeconds: 120 },
  },
  handler: ({ req }, ctx) => startWebLogin(ctx, ip(req)),
});

export const webLoginSetupRoute = defineRoute({
  method: 'get',
  path: '/api/auth/web-login/setup',
  tag: 'web-login',
  summary: '登录页信息：是否已有管理员、是否使用微信模拟器',
  description: '使用模拟器时（未设置 WX_APPID）另列出管理员和经理（最多 50 人），供网页的「模拟扫码」选择；生产环境不列出任何人。',
  access: 'public',
  response: z.object({
    hasAdministrator: z.boolean(),
    simulator: z.boolean(),
    people: z.array(z.object({ phone: z.string(), name: z.string(), roles: z.array(role) })).optional(),
  }),
  example: { response: { hasAdministrator: true, simulator: true, people: [{ ...PERSON, roles: ['admin'] }] } },
  handler: (_input, ctx) => consoleSetup(ctx),
});

export const firstAdminRoute = defineRoute({
  method: 'post',
  path: '/api/auth/web-login/first-admin',
  tag: 'web-login',
  summary: '添加第一位管理员（仅模拟器，且还没有任何管理员时）',
  description: '生产环境请在服务器上运行 npm run cli -- console-link <手机号> <姓名>。',
  access: 'public',
  body: z.object({ phone, name }),
  response: z.object({ person: z.object({ phone: z.string(), name: z.string(), roles: z.array(role) }), result: z.enum(['created', 'updated', 'unchanged']) }),
  status: 201,
  example: { body: PERSON, response: { person: { ...PERSON, roles: ['admin'] }, result: 'created' } },
  errors: [
    { status: 403, code: 'SIMULATOR_ONLY', description: '只有使用模拟器时可用' },
    { status: 409, code: 'ADMINISTRATOR_EXISTS', description: '已经有管理员' },
    PERSON_INVALID,
  ],
  handler: ({ body }, ctx) => addFirstAdministrator(ctx, body),
});

export const webLoginConfirmRoute = defineRoute({
  method: 'post',
  path: '/api/auth/web-login/confirm',
  tag: 'web-login',
  summary: '小程序确认网页后台登录（扫码后调用）',
  description:
    '小程序一侧：页面 WX_WEB_LOGIN_PAGE（默认 pages/login/confirm）的 onLoad(options) 中取 decodeURIComponent(options.scene)，' +
    '形如 w=<key>；用户已登录小程序时，显示「确认登录网页后台？」，确认后带自己的令牌调用本接口 {key}。' +
    '只有人员名单中拥有管理员或经理角色的人可以确认（员工：403）。同时拥有两个角色时先返回 status=choose_role 及可选角色，' +
    '小程序请用户选择后再次调用 {key, role}。返回 status=confirmed 后网页自动登录，小程序可提示「已登录网页后台」。',
  access: 'authenticated',
  body: z.object({
    key: z.string().min(1).max(64).meta({ title: '登录码', description: 'scene 中 w= 之后的部分' }),
    role: role.optional().meta({ title: '角色', description: '以哪个角色登录网页（admin 或 manager）' }),
  }),
  response: z.discriminatedUnion('status', [
    z.object({ status: z.literal('confirmed'), person, role: consoleRole }),
    z.object({ status: z.literal('choose_role'), person, roles: z.array(consoleRole) }),
  ]),
  errors: [
    { status: 403, code: 'WEB_LOGIN_NOT_ALLOWED', description: '不是管理员或经理' },
    { status: 403, code: 'ROLE_NOT_HELD', description: '没有所选角色' },
    { status: 404, code: 'WEB_LOGIN_NOT_FOUND', description: '没有这个登录二维码' },
    { status: 409, code: 'WEB_LOGIN_EXPIRED', description: '二维码已过期：在网页上刷新二维码后重新扫码' },
    { status: 409, code: 'WEB_LOGIN_ALREADY_CONFIRMED', description: '这个二维码已经确认过了' },
    TOO_MANY_LOGIN_ATTEMPTS,
  ],
  example: { body: { key: KEY, role: 'admin' }, response: { status: 'confirmed', person: PERSON, role: 'admin' } },
  handler: ({ body, user, req }, ctx) => confirmWebLogin(ctx, user, body, ip(req)),
});

export const webLoginCodeRoute = defineRoute({
  method: 'get',
  path: '/api/auth/web-login/codes/:file',
  tag: 'web-login',
  summary: '登录小程序码图片（<key>.png，无需令牌；过期或确认后 404）',
  access: 'public',
  params: z.object({ file: z.string().max(40).meta({ title: '图片文件名', description: '<key>.png' }) }),
  responseContentType: 'image/png',
  example: { params: { file: `${KEY}.png` } },
  errors: [{ status: 404, code: 'WEB_LOGIN_CODE_NOT_FOUND', description: '二维码不存在、已过期或已确认' }],
  async handler({ params }, ctx) {
    const m = /^([A-Za-z0-9_-]{16})\.png$/.exec(params.file);
    const found = m ? await webLoginCode(ctx, m[1]) : undefined;
    if (!found) throw notFound('WEB_LOGIN_CODE_NOT_FOUND', '二维码已失效，请刷新页面');
    return new RawBody(found.contentType, found.image, undefined, { 'cache-control': 'no-store' });
  },
});

export const webLoginPollRoute = defineRoute({
  method: 'get',
  path: '/api/auth/web-login/:ticket',
  tag: 'web-login',
  summary: '网页轮询扫码结果：pending、expired 或 confirmed（带令牌，只给一次）',
  description:
    '网页后台自己的请求（请求头 X-Console-Request: 1）：令牌不放在响应体中，而是写入 HttpOnly、SameSite=Strict 的 Cookie console_session（Path=/api），' +
    '此后网页的请求凭该 Cookie 和同一请求头认证；其他客户端在响应体中得到 token。票据用过后再查询为 409 WEB_LOGIN_TICKET_USED。',
  access: 'public',
  params: z.object({ ticket: z.string().min(1).max(128).meta({ title: '登录票据', description: 'POST /api/auth/web-login 返回的 ticket' }) }),
  response: z.discriminatedUnion('status', [
    z.object({ status: z.literal('pending'), expiresAt: instant }),
    z.object({ status: z.literal('expired') }),
    z.object({
      status: z.literal('confirmed'),
      token: z.string().optional().describe('网页后台自己的请求不返回（已写入 Cookie）'),
      expiresAt: instant,
      person,
      role,
      roles: z.array(role),
    }),
  ]),
  errors: [
    { status: 401, code: 'ROLE_REVOKED', description: '确认之后角色已被移除' },
    { status: 404, code: 'WEB_LOGIN_TICKET_NOT_FOUND', description: '没有这个票据' },
    { status: 409, code: 'WEB_LOGIN_TICKET_USED', description: '票据已换取过令牌' },
    TOO_MANY_LOGIN_ATTEMPTS,
  ],
  example: { params: { ticket: TICKET }, response: { status: 'pending', expiresAt: '2026-03-02T08:02:00+08:00' } },
  async handler({ params, req, res }, ctx) {
    // The ticket is a secret: keep it out of the request log line.
    req.originalUrl = req.originalUrl.replace(params.ticket, '<ticket>');
    const answer = await pollWebLogin(ctx, params.ticket, ip(req));
    return answer.status === 'confirmed' && isConsoleCall(req.headers) ? withSessionCookie(req, res, answer) : answer;
  },
});

export const consoleLinkRoute = defineRoute({
  method: 'post',
  path: '/api/auth/console-link',
  tag: 'web-login',
  summary: '一次性网页后台登录链接（仅供本机命令行 npm run cli -- console-link）',
  description:
    '嵌入式数据库运行时，命令行无法打开数据库，改由本接口代办：须从本机回环地址调用，并带上服务写在 <PGLITE_DIR>.control 中的密钥（请求头 X-Control-Secret）。' +
    '链接 10 分钟内有效，只能使用一次。还没有任何管理员时，带 name 会把该手机号添加为第一个人，角色为 roles（默认管理员和经理）；role 是用链接登录时的角色。',
  access: 'public',
  body: z.object({
    phone,
    name: name.optional(),
    role: consoleRole.optional(),
    roles: z.array(consoleRole).min(1).max(2).optional().meta({ title: '角色', description: '第一个人的角色，默认 ["admin", "manager"]' }),
  }),
  response: z.object({
    path: z.string().describe('/console/login#link=<票据>'),
    expiresAt: instant,
    person,
    role: consoleRole,
    roles: z.array(consoleRole).describe('此人可登录网页后台的全部角色'),
    added: z.boolean().describe('是否把此人添加为第一个人'),
    addedRoles: z.array(consoleRole).describe('添加时给的角色（未添加：空）'),
  }),
  status: 201,
  example: {
    body: { phone: PERSON.phone, role: 'admin' },
    response: { path: `/console/login#link=${TICKET}`, expiresAt: '2026-03-02T08:10:00+08:00', person: PERSON, role: 'admin', roles: ['admin', 'manager'], added: false, addedRoles: [] },
  },
  errors: [
    { status: 403, code: 'CONTROL_SECRET_INVALID', description: '不是本机命令行的请求' },
    { status: 422, code: 'CONSOLE_LINK_REFUSED', description: '手机号不是管理员或经理（message 说明怎么办）' },
  ],
  async handler({ body, req }, ctx) {
    if (!controlSecretMatches(ctx.config, req.headers[CONTROL_HEADER], req.socket.remoteAddress)) {
      throw new AppError(403, 'CONTROL_SECRET_INVALID', '只有本机的命令行可以生成登录链接');
    }
    const { ticket, ...link } = await createConsoleLink(ctx, body);
    return { path: consoleLinkPath(ticket), ...link };
  },
});

export const webSessionRoleRoute = defineRoute({
  method: 'post',
  path: '/api/auth/web-session/switch-role',
  tag: 'web-login',
  summary: '网页后台切换角色（管理员 ↔ 经理），新令牌写入 Cookie',
  access: access.console,
  body: z.object({ role: consoleRole }),
  response: z.object({ expiresAt: instant, person, role, roles: z.array(role) }),
  errors: [{ status: 403, code: 'ROLE_NOT_HELD', description: '没有所选角色' }],
  example: { body: { role: 'manager' }, response: { expiresAt: '2026-03-09T08:00:00+08:00', person: PERSON, role: 'manager', roles: ['admin', 'manager'] } },
  handler: async ({ body, user, req, res }, ctx) => withSessionCookie(req, res, await switchRole(ctx, user, body.role)),
});

export const webSessionEndRoute = defineRoute({
  method: 'delete',
  path: '/api/auth/web-session',
  tag: 'web-login',
  summary: '退出网页后台（清除 Cookie）',
  access: 'public',
  noDatabase: true,
  async handler({ req, res }) {
    clearConsoleSession(req, res);
  },
});

/** In match order: the fixed paths before `/api/auth/web-login/:ticket`. */
export const webLoginRoutes = [
  webLoginStartRoute,
  webLoginSetupRoute,
  firstAdminRoute,
  webLoginConfirmRoute,
  webLoginCodeRoute,
  webLoginPollRoute,
  consoleLinkRoute,
  webSessionRoleRoute,
  webSessionEndRoute,
];
