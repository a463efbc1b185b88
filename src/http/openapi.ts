/**
 * The OpenAPI 3.1 document, generated from the route declarations and their zod schemas
 * (`z.toJSONSchema`), so what is documented is what is validated.
 */
import { z } from 'zod';
import type { AnyRoute, ErrorDoc } from './route.ts';

const COMMON_ERRORS: ErrorDoc[] = [
  { status: 400, code: 'MALFORMED_JSON', description: '请求体不是有效 JSON' },
  { status: 400, code: 'MALFORMED_REQUEST', description: '请求不完整或无法读取（请求体与 Content-Length 不符、压缩数据损坏、路径中的 %xx 编码错误、不是 HTTP）' },
  { status: 408, code: 'REQUEST_TIMEOUT', description: '请求发送超时' },
  { status: 431, code: 'HEADERS_TOO_LARGE', description: '请求头超过 16 KB' },
  { status: 413, code: 'PAYLOAD_TOO_LARGE', description: '请求体超过 256 kB' },
  { status: 415, code: 'UNSUPPORTED_ENCODING', description: '请求体的字符集或 Content-Encoding 不受支持（请用 UTF-8 JSON）' },
  { status: 422, code: 'VALIDATION_FAILED', description: '参数校验失败' },
  { status: 422, code: 'INVALID_CHARACTERS', description: '内容含有 NUL 字符或不成对的 UTF-16 代理字符' },
  { status: 500, code: 'INTERNAL_ERROR', description: '服务器内部错误' },
  { status: 503, code: 'DATABASE_UNAVAILABLE', description: '数据库不可用' },
];
const AUTH_ERRORS: ErrorDoc[] = [
  { status: 401, code: 'UNAUTHORIZED | INVALID_TOKEN | ROLE_REVOKED', description: '未登录、令牌无效或角色已被移除' },
  { status: 403, code: 'FORBIDDEN', description: '当前角色无权访问' },
];

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: {} },
    },
  },
};

const jsonSchema = (s: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(s, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, any>;

/** `/api/reports/:reportId` → `/api/reports/{reportId}`. */
export const toOpenApiPath = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * The OpenAPI 3.1 document of `routes` (GET /api/openapi.json): parameters and request bodies from their zod
 * schemas, the success answer, and the error answers by status (the auth errors except on public routes, the
 * common errors, and the route's own `errors`).
 */
export function buildOpenApi(routes: readonly AnyRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const parameters: unknown[] = [];
    for (const [where, schema] of [
      ['path', r.params],
      ['query', r.query],
    ] as const) {
      if (!schema) continue;
      const js = jsonSchema(schema, 'input');
      for (const [name, prop] of Object.entries<any>(js.properties ?? {})) {
        parameters.push({ name, in: where, required: where === 'path' || (js.required ?? []).includes(name), schema: prop });
      }
    }
    const errors = [...(r.access === 'public' ? [] : AUTH_ERRORS), ...COMMON_ERRORS, ...(r.errors ?? [])];
    const byStatus = new Map<number, ErrorDoc[]>();
    for (const e of errors) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e]);
    const responses: Record<string, unknown> = {};
    const ok = String(r.status ?? 200);
    responses[ok] = r.responseContentType
      ? { description: 'OK', content: { [r.responseContentType]: { schema: { type: 'string', format: 'binary' } } } }
      : r.response
        ? { description: 'OK', content: { 'application/json': { schema: jsonSchema(r.response, 'output') } } }
        : { description: 'OK' };
    for (const [status, list] of byStatus) {
      responses[String(status)] = {
        description: list.map((e) => `${e.code}: ${e.description}`).join('; '),
        content: { 'application/json': { schema: errorSchema } },
      };
    }
    const op: Record<string, unknown> = {
      operationId: `${r.method}${toOpenApiPath(r.path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: r.summary,
      description: [r.description, `角色：${r.access === 'public' ? '无需登录' : r.access === 'authenticated' ? '任意已登录角色' : r.access.join(', ')}`]
        .filter(Boolean)
        .join('\n\n'),
      tags: [r.tag],
      parameters,
      responses,
    };
    op.security = r.access === 'public' ? [] : [{ bearer: [] }];
    if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(r.body, 'input') } } };
    if (r.multipart) {
      op.requestBody = {
        required: true,
        content: {
          'multipart/form-data': {
            schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
          },
        },
      };
    }
    (paths[toOpenApiPath(r.path)] ??= {})[r.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: '报工服务 Shift Reporting API', version: '0.1.0', description: '工厂报工小程序后端接口。错误统一为 {"error": {"code", "message", "details"?}}。' },
    servers: [{ url: '/' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}
