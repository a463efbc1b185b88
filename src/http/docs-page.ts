/**
 * `GET /api/docs`: the API document for a person, drawn in the browser by Scalar's API reference
 * (`@scalar/api-reference`, MIT) from `/api/openapi.json`: the guide first (the document's description,
 * http/guide.ts), then every operation with its fields, examples and error codes; a search over the operations (their
 * Chinese summaries included); and try-it ("测试请求") that sends the request to this same service, with a token field
 * for the document's `bearer` scheme. Its interface is in Chinese (the package's zh-CN locale).
 *
 * Nothing is fetched from another host (factories' networks are often closed): the renderer's prebuilt browser bundle
 * (`dist/browser/standalone.js` of the package, one file with its styles) is served by the service at
 * `/api/docs/scalar.js?v=<hash>`, and the page's configuration turns off each feature that would reach Scalar's
 * servers: the default fonts (`withDefaultFonts`), telemetry, the request proxy (`proxyUrl` unset: try-it calls the
 * service directly, which is the same origin), the AI agent and the MCP link.
 *
 * The page's policy (DOCS_CSP): scripts only from the service (the configuration is a JSON data attribute, not an
 * inline script), data and try-it's requests only to the service, no frame. Styles: the renderer writes `<style>`
 * elements of its own at run time (its colour theme and its toasts' styles, besides its main sheet), without a nonce,
 * so this page alone allows inline styles (`style-src 'self' 'unsafe-inline'`); the console's policy does not
 * (console-static.ts CONSOLE_CSP). The page carries no secret of the service: the token a person types stays in the page.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** The path of the renderer's browser bundle in node_modules. */
export const SCALAR_BUNDLE = join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser', 'standalone.js');

/** Where the page loads the bundle from (`?v=` the bundle's hash is added by the page). */
export const SCALAR_SCRIPT_PATH = '/api/docs/scalar.js';

/** The renderer's configuration (module docstring): the document, Chinese, nothing from another host. */
export const SCALAR_CONFIGURATION = {
  url: '/api/openapi.json',
  localization: { locale: 'zh-CN' },
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  authentication: { preferredSecurityScheme: 'bearer' },
} as const;

/** The bundle as served: its bytes, its gzip and brotli variants and the first 16 hex digits of its SHA-256. */
export interface ScalarBundle {
  hash: string;
  plain: Buffer;
  gzip: Buffer;
  br: Buffer;
}

let bundle: Promise<ScalarBundle> | undefined;

/**
 * The bundle (read and compressed once per process, on first use; the compression runs off the event loop). Rejects
 * when the package is not installed (`npm install`).
 */
export function scalarBundle(): Promise<ScalarBundle> {
  bundle ??= (async () => {
    const plain = await readFile(SCALAR_BUNDLE);
    const [gz, br] = await Promise.all([
      promisify(gzip)(plain, { level: 9 }),
      promisify(brotliCompress)(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 8, [constants.BROTLI_PARAM_SIZE_HINT]: plain.length } }),
    ]);
    return { hash: createHash('sha256').update(plain).digest('hex').slice(0, 16), plain, gzip: gz, br };
  })();
  bundle.catch(() => (bundle = undefined)); // a failed read is tried again on the next request
  return bundle;
}

/** The page's Content-Security-Policy (module docstring). */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The page's HTML for `title` (the document's) and `hash` (the bundle's, for its URL): the configuration as
 * the `data-configuration` of the empty `<script id="api-reference">` (Scalar's HTML API; an empty script runs
 * nothing, so the policy needs no inline script), then the bundle. Without JavaScript it says where the document is.
 * The icon is empty (no request for /favicon.ico).
 */
export function renderDocsPage(title: string, hash: string): string {
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${attr(title)}</title>
</head>
<body>
<noscript><p>接口文档需要浏览器启用 JavaScript。机器可读的文档（OpenAPI 3.1）：<a href="/api/openapi.json">/api/openapi.json</a></p></noscript>
<script id="api-reference" data-configuration="${attr(JSON.stringify(SCALAR_CONFIGURATION))}"></script>
<script src="${SCALAR_SCRIPT_PATH}?v=${attr(hash)}"></script>
</body>
</html>
`;
}
