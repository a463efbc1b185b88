/** System endpoints: health and the API document. */
import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../route.ts';
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

/**
 * The API document's routes: `/api/openapi.json` (OpenAPI 3.1) and `/api/docs` (the same for a person), built
 * from `all()`, every route of the service (routes/index.ts hands its own list, which includes these).
 */
export function documentRoutes(all: () => readonly AnyRoute[]): AnyRoute[] {
  const openApiRoute = defineRoute({
    method: 'get',
    path: '/api/openapi.json',
    tag: 'system',
    summary: 'OpenAPI 3.1 接口文档（机器可读）',
    access: 'public',
    async handler() {
      return buildOpenApi(all());
    },
  });
  const docsRoute = defineRoute({
    method: 'get',
    path: '/api/docs',
    tag: 'system',
    summary: '接口文档（网页）',
    access: 'public',
    responseContentType: 'text/html',
    async handler() {
      return new RawBody('text/html; charset=utf-8', Buffer.from(renderDocsPage(buildOpenApi(all()) as any)));
    },
  });
  return [openApiRoute, docsRoute];
}
