/** System endpoints: health and the API document. */
import { z } from 'zod';
import { defineRoute } from '../route.ts';
import { buildOpenApi } from '../openapi.ts';
import { renderDocsPage } from '../docs-page.ts';
import { RawBody } from '../route.ts';

export const healthRoute = defineRoute({
  method: 'get',
  path: '/api/health',
  tag: 'system',
  summary: '健康检查（含数据库状态）',
  access: 'public',
  response: z.object({ status: z.enum(['ok']), database: z.object({ kind: z.enum(['postgres', 'pglite']), ok: z.boolean() }) }),
  errors: [{ status: 503, code: 'DATABASE_UNAVAILABLE', description: '数据库不可用' }],
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
  async handler() {
    const { routes } = await import('./index.ts');
    return buildOpenApi(routes);
  },
});

export const docsRoute = defineRoute({
  method: 'get',
  path: '/api/docs',
  tag: 'system',
  summary: '接口文档（网页）',
  access: 'public',
  responseContentType: 'text/html',
  async handler() {
    const { routes } = await import('./index.ts');
    return new RawBody('text/html; charset=utf-8', Buffer.from(renderDocsPage(buildOpenApi(routes) as any)));
  },
});
