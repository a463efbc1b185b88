/**
 * The answers the HTTP layer gives outside a route's own errors: refusals made before or around
 * the route — by the HTTP server's client-error handler (client-error.ts), the body parser and the error mapping
 * (errors.ts), the character check and validation (pipeline.ts), authentication (auth.ts) — in one table, which is
 * both what these producers answer (status, code, default sentence) and what the API document lists for every
 * operation an entry `appliesTo` (openapi.ts). A new refusal of that kind is a new entry here: the document then
 * lists it on every operation it applies to, and the contract test (test/api/contract.test.ts) asks for a way to
 * provoke it, so that it is sent and checked against the document.
 *
 * Every entry's answer carries `requestId`, also those made before a request id exists (client-error.ts makes one).
 * Not here: answers to a path or method that is no operation (404 NOT_FOUND and a broken path's 400: the document's
 * `components.responses`, `NO_OPERATION` below), and refusals that only some routes give (their `errors`).
 */
import { z } from 'zod';
import { AppError } from '../errors.ts';
import type { AnyRoute, ErrorDoc } from './route.ts';

/** An answer of the HTTP layer (module docstring): documented on each operation it applies to. */
export interface CommonError extends ErrorDoc {
  /** The Chinese sentence of the answer, unless its producer gives a more precise one. */
  message: string;
  /** True for the routes that may give it. */
  appliesTo(route: AnyRoute): boolean;
}

const hasJsonBody = (r: AnyRoute) => r.body !== undefined && !r.multipart;
const always = () => true;
const authenticated = (r: AnyRoute) => r.access !== 'public';

/** The details of 422 VALIDATION_FAILED: one entry per problem, `path` within the part of the request. */
export const validationDetails = z.array(
  z.object({
    path: z.array(z.union([z.string(), z.number()])).describe('出错字段在请求中的位置，如 ["lines", 0, "finishedQty"]'),
    message: z.string().describe('这个问题的中文说明'),
  }),
);

/** The table keyed by code (each entry's `code` typed as its key). */
function byCode<const T extends readonly CommonError[]>(list: T): { readonly [E in T[number] as E['code']]: E } {
  return Object.fromEntries(list.map((e) => [e.code, e])) as { readonly [E in T[number] as E['code']]: E };
}

/** Every answer of the HTTP layer (module docstring), by code. */
export const COMMON = byCode([
  {
    status: 400,
    code: 'MALFORMED_JSON',
    description: '请求体不是有效 JSON（或不是对象、数组）',
    message: '请求内容不是有效的 JSON',
    appliesTo: hasJsonBody,
  },
  {
    status: 400,
    code: 'MALFORMED_REQUEST',
    description:
      '请求无法读取：不是有效的 HTTP 请求（请求头或分块编码错误），请求体不完整（与 Content-Length 不符或中途断开）或压缩数据损坏，或路径中的 %xx 编码错误',
    message: '请求格式不正确（不是有效的 HTTP 请求）',
    appliesTo: always,
  },
  { status: 408, code: 'REQUEST_TIMEOUT', description: '请求没有在时限内发送完', message: '请求发送超时，请重试', appliesTo: always },
  {
    status: 431,
    code: 'HEADERS_TOO_LARGE',
    description: '请求头过大（超过 16 KB）',
    message: '请求头过大（超过 16 KB），请清理 Cookie 或缩短请求头后重试',
    appliesTo: always,
  },
  { status: 413, code: 'PAYLOAD_TOO_LARGE', description: '请求体超过 256 kB（解压后计）', message: '请求内容过大', appliesTo: hasJsonBody },
  {
    status: 415,
    code: 'UNSUPPORTED_ENCODING',
    description: '请求体的字符集或 Content-Encoding 不受支持（请用 UTF-8 JSON）',
    message: '请求内容的编码不受支持，请以 UTF-8 编码的 JSON 提交',
    appliesTo: hasJsonBody,
  },
  { status: 401, code: 'UNAUTHORIZED', description: '没有 Authorization: Bearer 令牌', message: '请先登录', appliesTo: authenticated },
  { status: 401, code: 'INVALID_TOKEN', description: '令牌无效或已过期：重新登录', message: '登录已失效，请重新登录', appliesTo: authenticated },
  // Thrown as the domain error ROLE_REVOKED (auth/roles.ts); its sentence is in domain-errors.ts.
  { status: 401, code: 'ROLE_REVOKED', description: '令牌的人员或角色已被移除：重新登录', message: '账号或角色已被移除，请重新登录', appliesTo: authenticated },
  { status: 403, code: 'FORBIDDEN', description: '当前角色无权使用此接口', message: '当前角色无权进行此操作', appliesTo: (r) => Array.isArray(r.access) },
  {
    status: 422,
    code: 'VALIDATION_FAILED',
    description: '参数不符合文档（details 列出每个问题）',
    message: '参数不符合要求',
    details: validationDetails,
    appliesTo: (r) => Boolean(r.params || r.query || r.body),
  },
  {
    status: 422,
    code: 'INVALID_CHARACTERS',
    description: '参数、请求体或上传文件名含有 NUL 字符或不成对的 UTF-16 代理字符',
    message: '提交的内容含有无法识别的字符（空字符或残缺的表情等），请删除后重新输入',
    appliesTo: always,
  },
  {
    status: 500,
    code: 'INTERNAL_ERROR',
    description: '服务器内部错误（已记录日志，可凭 requestId 查询）',
    message: '服务器内部错误，请稍后重试',
    appliesTo: always,
  },
  {
    status: 503,
    code: 'DATABASE_UNAVAILABLE',
    description: '数据库暂时不可用：稍后重试',
    message: '数据库暂时不可用，请稍后重试',
    appliesTo: (r) => !r.noDatabase,
  },
  {
    status: 503,
    code: 'READ_MODEL_BEHIND',
    description:
      '统计数据（工资、看板、月份）在 READ_MODEL_WAIT_SECONDS（默认 2 秒）内没有跟上请求到达时已完成的操作（审核、结账等）：不回答旧数据，按 Retry-After 的秒数后重试',
    message: '统计数据正在更新，还没有包含刚才的操作，请几秒后刷新重试',
    appliesTo: (r) => Boolean(r.readModels?.length),
  },
] as const);

export type CommonCode = keyof typeof COMMON;

/** Every common error, in the order of the table. */
export const COMMON_ERRORS: readonly CommonError[] = Object.values(COMMON);

/** AppError of the common error `code`: its status and code, its sentence or `message`. */
export const commonError = (code: CommonCode, message?: string): AppError => new AppError(COMMON[code].status, code, message ?? COMMON[code].message);

/**
 * The answer to a path or method that is no operation of the document (express's fallback, and HEAD or OPTIONS
 * under /api): 404 NOT_FOUND in the error shape.
 */
export const NOT_FOUND: ErrorDoc & { message: (method: string, path: string) => string } = {
  status: 404,
  code: 'NOT_FOUND',
  description: '没有这个接口：路径或方法不是文档中的操作（路径区分大小写，末尾不加 /；/api 下不回答 HEAD 与 OPTIONS）',
  message: (method, path) => `没有这个接口：${method} ${path}`,
};

/**
 * The answers to a request that is no operation, documented once each as `components.responses.<name>`: 404
 * NOT_FOUND, and 400 MALFORMED_REQUEST for a broken %xx escape where some route has a path parameter (express
 * decodes the parameter before it looks at the method: `PUT /api/devices/%zz/qrcode`).
 */
export const NO_OPERATION: Record<string, ErrorDoc> = {
  NotFound: NOT_FOUND,
  MalformedPath: { status: 400, code: 'MALFORMED_REQUEST', description: '路径中的 %xx 编码错误（在有路径参数的位置），无论方法是否存在' },
};
