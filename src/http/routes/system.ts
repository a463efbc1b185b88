/** System endpoints: health and the API document. */
import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../route.ts';
import { buildOpenApi } from '../openapi.ts';
import { DOCS_CSP, SCALAR_SCRIPT_PATH, renderDocsPage, scalarBundle } from '../docs-page.ts';
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
 * The API document's routes: `/api/openapi.json` (OpenAPI 3.1), `/api/docs` (the same for a person, drawn by Scalar's
 * API reference: http/docs-page.ts) and `/api/docs/scalar.js` (the renderer's bundle). The document is built once per
 * process on first use from `all()`, every route of the service (routes/index.ts hands its own list, which includes
 * these; the routes do not change while it runs).
 */
export function documentRoutes(all: () => readonly AnyRoute[]): AnyRoute[] {
  let built: Record<string, unknown> | undefined;
  const apiDocument = () => (built ??= buildOpenApi(all()));
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
      return apiDocument();
    },
  });

  const docsRoute = defineRoute({
    method: 'get',
    path: '/api/docs',
    tag: 'system',
    summary: '接口文档（网页，可搜索、可试调用）',
    description: '本文档的网页版：先是接入指南，然后是每个接口；可按中文名称搜索接口，填入令牌后可在网页上直接调用本服务。所用脚本均由本服务提供，不访问其他网站。',
    access: 'public',
    noDatabase: true,
    responseContentType: 'text/html',
    async handler() {
      const { hash } = await scalarBundle();
      const title = String((apiDocument().info as { title: string }).title);
      return new RawBody('text/html; charset=utf-8', Buffer.from(renderDocsPage(title, hash)), undefined, {
        'Content-Security-Policy': DOCS_CSP,
        'Cache-Control': 'no-cache',
        'X-Frame-Options': 'DENY',
        'Referrer-Policy': 'no-referrer',
        'X-Content-Type-Options': 'nosniff',
      });
    },
  });

  const scriptRoute = defineRoute({
    method: 'get',
    path: SCALAR_SCRIPT_PATH,
    tag: 'system',
    summary: '接口文档网页的脚本（Scalar API Reference）',
    description: '接口文档网页（/api/docs）使用的脚本，按请求的 Accept-Encoding 以 br 或 gzip 压缩发送。v 与当前脚本的哈希相同时可长期缓存，否则每次都要重新验证。',
    access: 'public',
    noDatabase: true,
    query: z.object({ v: z.string().max(64).optional().meta({ title: '版本' }).describe('脚本内容的哈希（网页自动带上）') }),
    responseContentType: 'text/javascript',
    async handler({ query, req }) {
      const script = await scalarBundle();
      const encoding = (['br', 'gzip'] as const).find((e) => req.acceptsEncodings(e) === e);
      const headers: Record<string, string> = {
        'Cache-Control': query.v === script.hash ? 'public, max-age=31536000, immutable' : 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        Vary: 'Accept-Encoding',
      };
      if (encoding) headers['Content-Encoding'] = encoding;
      return new RawBody('text/javascript; charset=utf-8', encoding ? script[encoding] : script.plain, undefined, headers);
    },
  });
  return [openApiRoute, docsRoute, scriptRoute];
}
