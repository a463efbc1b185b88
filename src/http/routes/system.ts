/** System endpoints: health and the API document. */
import { z } from 'zod';
import { defineRoute } from '../route.ts';
import { buildOpenApi } from '../openapi.ts';
import { renderDocsPage } from '../docs-page.ts';
import { RawBody } from '../route.ts';

/** The document and its page, built once per process on first use (the routes do not change while it runs). */
let built: { document: Record<string, unknown>; page: Buffer } | undefined;
async function apiDocument() {
  if (!built) {
    const { routes } = await import('./index.ts');
    const document = buildOpenApi(routes);
    built = { document, page: Buffer.from(renderDocsPage(document as Parameters<typeof renderDocsPage>[0])) };
  }
  return built;
}

export const healthRoute = defineRoute({
  method: 'get',
  path: '/api/health',
  tag: 'system',
  summary: '健康检查（含数据库状态）',
  access: 'public',
  description: '负载均衡与进程管理器的健康检查：200 表示服务与数据库都可用，数据库不可用时 503。',
  response: z.object({
    status: z.literal('ok'),
    database: z.object({ kind: z.enum(['postgres', 'pglite']).describe('postgres：PostgreSQL；pglite：嵌入式数据库'), ok: z.literal(true) }),
  }),
  example: { response: { status: 'ok', database: { kind: 'postgres', ok: true } } },
  async handler(_input, ctx) {
    await ctx.db.pool.query('SELECT 1');
    return { status: 'ok', database: { kind: ctx.db.kind, ok: true } };
  },
});

export const openApiRoute = defineRoute({
  method: 'get',
  path: '/api/openapi.json',
  tag: 'system',
  summary: 'OpenAPI 3.1 接口文档（机器可读）',
  access: 'public',
  noDatabase: true,
  response: z
    .object({ openapi: z.literal('3.1.0'), info: z.object({ title: z.string(), version: z.string() }).loose(), paths: z.record(z.string(), z.unknown()) })
    .loose()
    .describe('本文档'),
  example: { response: { openapi: '3.1.0', info: { title: '报工服务 Shift Reporting API', version: '0.1.0' }, paths: {} } },
  async handler() {
    return (await apiDocument()).document;
  },
});

export const docsRoute = defineRoute({
  method: 'get',
  path: '/api/docs',
  tag: 'system',
  summary: '接口文档（网页）',
  access: 'public',
  noDatabase: true,
  responseContentType: 'text/html',
  async handler() {
    return new RawBody('text/html; charset=utf-8', (await apiDocument()).page);
  },
});
