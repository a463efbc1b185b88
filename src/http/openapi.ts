/**
 * The OpenAPI 3.1 document, generated from the route declarations and their zod schemas (http/json-schema.ts),
 * so what is documented is what is validated (issues #7 and #16).
 *
 * Per operation: parameters and request body with their Chinese labels (`title`) and one example; the success
 * answer with its schema and one example (204 without a body); and the error answers by status, each with the
 * enum of the codes that status can carry and the shape of their `details`. The codes are the route's own
 * `errors` plus the common ones that apply to it (COMMON_ERRORS: body errors only with a JSON body, validation
 * only with a schema, authentication only on non-public routes, 503 only with the database). The opening guide
 * for the mini-program's developer (http/guide.ts) is the document's description.
 */
import { z } from 'zod';
import { ROLE_LABELS } from '../auth/roles.ts';
import { GUIDE_HTML } from './guide.ts';
import { toJsonSchema } from './json-schema.ts';
import type { AnyRoute, ErrorDoc } from './route.ts';
import { JSON_BODY_LIMIT } from './pipeline.ts';

/** An error every route it `appliesTo` may answer, whatever the route declares. */
interface CommonError extends ErrorDoc {
  appliesTo(route: AnyRoute): boolean;
}

const hasJsonBody = (r: AnyRoute) => r.body !== undefined && !r.multipart;
const always = () => true;

/** The details of 422 VALIDATION_FAILED: one entry per problem, `path` within the part of the request. */
export const validationDetails = z.array(
  z.object({
    path: z.array(z.union([z.string(), z.number()])).describe('出错字段在请求中的位置，如 ["lines", 0, "finishedQty"]'),
    message: z.string().describe('这个问题的中文说明'),
  }),
);

/**
 * The errors any route may answer besides its own, each with the routes it applies to (module docstring). A new
 * refusal the HTTP layer makes for every route goes here, so that every operation documents it.
 */
export const COMMON_ERRORS: readonly CommonError[] = [
  { status: 400, code: 'MALFORMED_JSON', description: '请求体不是有效 JSON（或不是对象、数组）', appliesTo: hasJsonBody },
  {
    status: 400,
    code: 'MALFORMED_REQUEST',
    description: '请求无法读取：请求体不完整（与 Content-Length 不符或中途断开）或压缩数据损坏，或路径中的 %xx 编码错误',
    appliesTo: (r) => hasJsonBody(r) || r.path.includes(':'),
  },
  { status: 408, code: 'REQUEST_TIMEOUT', description: '请求没有在时限内发送完', appliesTo: always },
  { status: 431, code: 'HEADERS_TOO_LARGE', description: '请求头过大', appliesTo: always },
  { status: 413, code: 'PAYLOAD_TOO_LARGE', description: `请求体超过 ${JSON_BODY_LIMIT / 1024} kB`, appliesTo: hasJsonBody },
  { status: 415, code: 'UNSUPPORTED_ENCODING', description: '请求体的字符集或 Content-Encoding 不受支持（请用 UTF-8 JSON）', appliesTo: hasJsonBody },
  { status: 401, code: 'UNAUTHORIZED', description: '没有 Authorization: Bearer 令牌', appliesTo: (r) => r.access !== 'public' },
  { status: 401, code: 'INVALID_TOKEN', description: '令牌无效或已过期：重新登录', appliesTo: (r) => r.access !== 'public' },
  { status: 401, code: 'ROLE_REVOKED', description: '令牌的人员或角色已被移除：重新登录', appliesTo: (r) => r.access !== 'public' },
  { status: 403, code: 'FORBIDDEN', description: '当前角色无权使用此接口', appliesTo: (r) => Array.isArray(r.access) },
  {
    status: 422,
    code: 'VALIDATION_FAILED',
    description: '参数不符合文档（details 列出每个问题）',
    details: validationDetails,
    appliesTo: (r) => Boolean(r.params || r.query || r.body),
  },
  { status: 422, code: 'INVALID_CHARACTERS', description: '参数或请求体含有 NUL 字符或不成对的 UTF-16 代理字符', appliesTo: always },
  { status: 500, code: 'INTERNAL_ERROR', description: '服务器内部错误（已记录日志，可凭 requestId 查询）', appliesTo: always },
  { status: 503, code: 'DATABASE_UNAVAILABLE', description: '数据库暂时不可用：稍后重试', appliesTo: (r) => !r.noDatabase },
];

/** Every error `route` may answer: the common ones that apply, then its own. Throws when a code is listed twice. */
export function errorsOf(route: AnyRoute): ErrorDoc[] {
  const list: ErrorDoc[] = [...COMMON_ERRORS.filter((e) => e.appliesTo(route)), ...(route.errors ?? [])];
  const seen = new Set<string>();
  for (const e of list) {
    if (seen.has(e.code)) throw new Error(`${route.method.toUpperCase()} ${route.path}: error ${e.code} listed twice`);
    seen.add(e.code);
  }
  return list;
}

/** The success status of `route`: its `status`, else 200 with an answer and 204 without. */
export const successStatus = (r: AnyRoute) => r.status ?? (r.response || r.responseContentType ? 200 : 204);

/** `/api/reports/:reportId` → `/api/reports/{reportId}`. */
export const toOpenApiPath = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** A query or path value of an example (always text on the wire) as the parameter's schema types it. */
const typedExample = (schema: Record<string, any> | undefined, v: string): unknown =>
  schema?.type === 'integer' || schema?.type === 'number' ? Number(v) : schema?.type === 'boolean' ? v === 'true' : v;

const requestIdHeader = { $ref: '#/components/headers/X-Request-Id' };

/** The JSON Schema of an error answer carrying one of `errors` (all of one status). */
function errorSchema(errors: readonly ErrorDoc[]): Record<string, unknown> {
  const base = (code: Record<string, unknown>) => ({
    type: 'object',
    required: ['code', 'message', 'requestId'],
    additionalProperties: false,
    properties: {
      code,
      message: { type: 'string', description: '给人看的中文说明' },
      requestId: { type: 'string', description: '本次请求的编号（与响应头 X-Request-Id 相同），反馈问题时请提供' },
    },
  });
  const plain = errors.filter((e) => !e.details).map((e) => e.code);
  const branches: Record<string, any>[] = [];
  if (plain.length) branches.push(base({ type: 'string', enum: plain }));
  for (const e of errors.filter((x) => x.details)) {
    const b = base({ const: e.code }) as Record<string, any>;
    if (!e.details!.safeParse(undefined).success) b.required.push('details');
    b.properties.details = toJsonSchema(e.details!, 'output');
    branches.push(b);
  }
  return {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: { error: branches.length === 1 ? branches[0] : { oneOf: branches } },
  };
}

const roleText = (r: AnyRoute) =>
  r.access === 'public' ? '无需登录' : r.access === 'authenticated' ? '任意已登录角色' : r.access.map((x) => `${x}（${ROLE_LABELS[x]}）`).join('、');

const SUCCESS_TEXT: Record<number, string> = { 200: '成功', 201: '已创建', 204: '成功，没有响应体' };

/** The operation object of `r` (module docstring). */
function operation(r: AnyRoute): Record<string, unknown> {
  const parameters: unknown[] = [];
  for (const [where, schema] of [
    ['path', r.params],
    ['query', r.query],
  ] as const) {
    if (!schema) continue;
    const js = toJsonSchema(schema, 'input');
    const given = where === 'path' ? r.example?.params : r.example?.query;
    if (where === 'query' && (js.oneOf || js.anyOf)) {
      // A rule over several query parameters (exactly one of deviceNo, deviceKey): one exploded object parameter.
      parameters.push({
        name: 'query',
        in: 'query',
        required: true,
        style: 'form',
        explode: true,
        description: '查询参数（规则见类型说明）',
        schema: js,
        ...(given ? { example: Object.fromEntries(Object.entries(given).map(([k, v]) => [k, typedExample(js.properties?.[k], v)])) } : {}),
      });
      continue;
    }
    for (const [name, prop] of Object.entries<any>(js.properties ?? {})) {
      const { title, description, ...rest } = prop;
      const p: Record<string, unknown> = {
        name,
        in: where,
        required: where === 'path' || (js.required ?? []).includes(name),
        description: [title, description].filter(Boolean).join('：') || name,
        schema: rest,
      };
      if (given?.[name] !== undefined) p.example = typedExample(rest, given[name]);
      parameters.push(p);
    }
  }

  const responses: Record<string, unknown> = {};
  const ok = successStatus(r);
  const okDescription = SUCCESS_TEXT[ok] ?? '成功';
  if (r.responseContentType) {
    responses[ok] = {
      description: okDescription,
      headers: { 'X-Request-Id': requestIdHeader },
      content: { [r.responseContentType]: { schema: { type: 'string', format: 'binary' } } },
    };
  } else if (r.response) {
    const media: Record<string, unknown> = { schema: toJsonSchema(r.response, 'output') };
    if (r.example?.response !== undefined) media.example = r.example.response;
    responses[ok] = { description: okDescription, headers: { 'X-Request-Id': requestIdHeader }, content: { 'application/json': media } };
  } else {
    responses[ok] = { description: okDescription, headers: { 'X-Request-Id': requestIdHeader } };
  }

  const byStatus = new Map<number, ErrorDoc[]>();
  for (const e of errorsOf(r)) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e]);
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Record<string, unknown> = { 'X-Request-Id': requestIdHeader };
    if (status === 429) headers['Retry-After'] = { description: '登录尝试过多时：多少秒后可以再试', schema: { type: 'integer', minimum: 1 } };
    responses[String(status)] = {
      description: list.map((e) => `${e.code}：${e.description}`).join('；'),
      headers,
      content: { 'application/json': { schema: errorSchema(list) } },
    };
  }

  const op: Record<string, unknown> = {
    operationId: `${r.method}${toOpenApiPath(r.path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: r.summary,
    description: [r.description, `角色：${roleText(r)}`].filter(Boolean).join('\n\n'),
    tags: [r.tag],
    security: r.access === 'public' ? [] : [{ bearer: [] }],
    parameters,
    responses,
  };
  if (r.body) {
    const media: Record<string, unknown> = { schema: toJsonSchema(r.body, 'input') };
    if (r.example?.body !== undefined) media.example = r.example.body;
    op.requestBody = { required: true, content: { 'application/json': media } };
  }
  if (r.multipart) {
    op.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary', description: 'Excel 文件（.xlsx 或 .xls）' } } },
        },
      },
    };
  }
  return op;
}

const TAGS: Record<string, string> = {
  system: '系统：健康检查与接口文档',
  auth: '登录与角色（小程序）',
  clock: '扫码打卡（员工）',
  reports: '报工单（员工填报；经理修改休息时间；审计记录）',
  reviews: '审核（管理员）',
  dashboard: '看板（经理、管理员）',
  products: '产品（管理员、经理）',
  people: '人员（管理员、经理）',
  devices: '设备与设备码（管理员、经理）',
  wages: '计件单价、计件工资与月结（单价与工资：管理员、经理；结账：经理；我的工资：员工）',
};

/**
 * The OpenAPI 3.1 document of `routes` (GET /api/openapi.json; module docstring). Throws when a route lists an
 * error code twice (its own list and the common errors included).
 */
export function buildOpenApi(routes: readonly AnyRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) (paths[toOpenApiPath(r.path)] ??= {})[r.method] = operation(r);
  const used = new Set(routes.map((r) => r.tag));
  return {
    openapi: '3.1.0',
    info: {
      title: '报工服务 Shift Reporting API',
      version: '0.1.0',
      description: GUIDE_HTML,
    },
    servers: [{ url: '/' }],
    tags: Object.entries(TAGS)
      .filter(([name]) => used.has(name))
      .map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: '请求头 Authorization: Bearer <token>。token 由登录接口返回，到期时间见 expiresAt（TOKEN_TTL，默认 7 天）。',
        },
      },
      headers: {
        'X-Request-Id': {
          description: '本次请求的编号：请求带 X-Request-Id（1–64 个 A–Z a–z 0–9 . _ -）时原样返回，否则由服务生成',
          schema: { type: 'string' },
        },
      },
    },
    paths,
  };
}
