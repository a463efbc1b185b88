/**
 * The OpenAPI 3.1 document, generated from the route declarations and their zod schemas (http/json-schema.ts),
 * so what is documented is what is validated.
 *
 * Per operation: parameters and request body with their Chinese labels (`title`) and one example; the success
 * answer with its schema and one example (204 without a body); and the error answers by status, each with the
 * enum of the codes that status can carry and the shape of their `details`. The codes are the route's own
 * `errors` plus the common ones that apply to it (COMMON_ERRORS of common-errors.ts: body errors only with a JSON
 * body, validation only with a schema, authentication only on non-public routes, 503 DATABASE_UNAVAILABLE only with
 * the database, READ_MODEL_BEHIND only on reads of async read models, with a sentence in the description saying how
 * they wait; the client-error handler's 400, 408 and 431 on all). `components.responses` holds the answers to any path or method
 * that is no operation, each with its status in `x-status`. The opening guide for the mini-program's developer (http/guide.ts) is the
 * document's description.
 */
import { ROLE_LABELS } from '../auth/roles.ts';
import { COMMON_ERRORS, NO_OPERATION } from './common-errors.ts';
import { GUIDE_HTML } from './guide.ts';
import { toJsonSchema } from './json-schema.ts';
import type { AnyRoute, ErrorDoc } from './route.ts';

const CODE = /^[A-Z][A-Z0-9_]*$/;

/** What the description of an operation that reads an async read model says (RouteSpec.readModels, projections/fresh-reads.ts). */
export const FRESH_READ_TEXT =
  '读到自己的写入：回答包含请求到达时已完成的所有操作（提交、审核、修正、改休息时间、单价、结账与反结账）；统计数据还没跟上时先等它跟上（最多 READ_MODEL_WAIT_SECONDS 秒，默认 2），超时回答 503 READ_MODEL_BEHIND，从不回答旧数据。'

/**
 * Every error `route` may answer: the common ones that apply (common-errors.ts), then its own. Throws when a code
 * is listed twice or is not one UPPER_SNAKE code (an answer carries exactly one).
 */
export function errorsOf(route: AnyRoute): ErrorDoc[] {
  const list: ErrorDoc[] = [...COMMON_ERRORS.filter((e) => e.appliesTo(route)), ...(route.errors ?? [])];
  const seen = new Set<string>();
  for (const e of list) {
    if (!CODE.test(e.code)) throw new Error(`${route.method.toUpperCase()} ${route.path}: "${e.code}" is not one error code`);
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
    const retry = list.filter((e) => e.retryAfter).map((e) => e.code);
    if (retry.length) {
      headers['Retry-After'] = { description: `${retry.join('、')} 时：多少秒后可以再试（与 details.retryAfterSeconds 相同）`, schema: { type: 'integer', minimum: 1 } };
    }
    if (list.some((e) => e.code === 'READ_MODEL_BEHIND')) {
      headers['Retry-After'] = { description: 'READ_MODEL_BEHIND 时：多少秒后可以再试', schema: { type: 'integer', minimum: 1 } };
    }
    responses[String(status)] = {
      description: list.map((e) => `${e.code}：${e.description}`).join('；'),
      headers,
      content: { 'application/json': { schema: errorSchema(list) } },
    };
  }

  const op: Record<string, unknown> = {
    operationId: `${r.method}${toOpenApiPath(r.path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: r.summary,
    description: [r.description, r.readModels?.length ? FRESH_READ_TEXT : undefined, `角色：${roleText(r)}`].filter(Boolean).join('\n\n'),
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
  // organization
  organization: '车间、班组、组员与设备所属车间（管理员、经理）',
  // shifts
  shifts: '班次与排班（管理员、经理）：班次、休息时段、班组的轮班与调整',
  'web-login': '网页后台登录与会话（扫码登录、第一位管理员、一次性链接、切换角色、退出）',
  quality: '质量（管理员、经理；审核范围内）：不良原因、类别、产品、设备、班组、员工的帕累托与导出',
  stops: '停机（所有角色可读原因；在设备上上班的员工记录停机和恢复生产，管理员、经理补录和修改）与停机原因',
  oee: '设备综合效率 OEE（管理员、经理；审核范围内车间的设备）：可用率、性能、质量与停机损失',
  'defect-reasons': '不良原因（所有角色可读；管理员、经理维护）：编码、名称、类别（工废、料废、其他），停用而不删除',
  'work-orders': '生产工单（管理员、经理）：下达、进度、修改、完工、关闭、重新打开、作废、导入',
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
      // x-displayName: the tag's short Chinese name, what the docs page's sidebar shows instead of the identifier.
      .map(([name, description]) => ({ name, 'x-displayName': description.split(/[（：]/)[0], description })),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: '请求头 `Authorization: Bearer <token>`（在接口文档网页上：把登录得到的 token 填入“Bearer 令牌”）。token 由登录接口返回，到期时间见 expiresAt（TOKEN_TTL，默认 7 天）。',
        },
      },
      headers: {
        'X-Request-Id': {
          description:
            '本次请求的编号：请求带 X-Request-Id（1–64 个 A–Z a–z 0–9 . _ -）时原样返回，否则由服务生成（请求头尚未读完就被拒绝时，如 431、408，也由服务生成）',
          schema: { type: 'string' },
        },
      },
      // Not an operation's answers: what any other path or method gets (common-errors.ts NO_OPERATION), each with
      // its status in `x-status`.
      responses: Object.fromEntries(
        Object.entries(NO_OPERATION).map(([name, e]) => [
          name,
          {
            description: `${e.status} ${e.code}：${e.description}`,
            'x-status': e.status,
            headers: { 'X-Request-Id': requestIdHeader },
            content: { 'application/json': { schema: errorSchema([e]) } },
          },
        ]),
      ),
    },
    paths,
  };
}
