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

/**
 * The API document's routes: `/api/openapi.json` (OpenAPI 3.1) and `/api/docs` (the same for a person), built
 * once per process on first use from `all()`, every route of the service (routes/index.ts hands its own list,
 * which includes these; the routes do not change while it runs).
 */
export function documentRoutes(all: () => readonly AnyRoute[]): AnyRoute[] {
  let built: { document: Record<string, unknown>; page: Buffer } | undefined;
  const apiDocument = () => {
    if (!built) {
      const document = buildOpenApi(all());
      built = { document, page: Buffer.from(renderDocsPage(document as Parameters<typeof renderDocsPage>[0])) };
    }
    return built;
  };
  const openApiRoute = defineRoute({
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
      return apiDocument().document;
    },
  });

  const docsRoute = defineRoute({
    method: 'get',
    path: '/api/docs',
    tag: 'system',
    summary: '接口文档（网页）',
    access: 'public',
    noDatabase: true,
    responseContentType: 'text/html',
    async handler() {
      return new RawBody('text/html; charset=utf-8', apiDocument().page);
    },
  });
  return [openApiRoute, docsRoute];
}
