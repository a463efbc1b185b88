/**
 * Serves the built web console (`web/dist`, made by `npm run build:web`, web/scripts/build.ts) at `/console/`
 *:
 * - `/console/assets/*` (file names carry a content hash): `Cache-Control: public, max-age=31536000, immutable`;
 * - every other file of the build (favicon): `Cache-Control: no-cache`;
 * - any other path under `/console/` is a page of the console: `index.html`, `no-cache`, with the
 *   Content-Security-Policy CONSOLE_CSP (no inline script or style element, nothing from another origin) and
 *   framing refused;
 * - compression: the build leaves `.br` and `.gz` beside each text file; the variant the request accepts
 *   (`Accept-Encoding`, brotli first) is sent with `Content-Encoding` and `Vary: Accept-Encoding`;
 * - `/` and `/console` redirect to `/console/`; GET and HEAD only (anything else falls through to the API's 404).
 * Not built yet: 503 with a Chinese page saying how to build it.
 */
import { statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Express, NextFunction, Request, Response } from 'express';

export const CONSOLE_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * The console pages' Content-Security-Policy: scripts, style sheets and data only from the service itself. Style
 * attributes are allowed (`style-src-attr 'unsafe-inline'`): the chart library writes its tooltip's
 * content as HTML with `style="…"` attributes, which a strict policy blocks (an unstyled tooltip and an error per
 * hover). An attribute can only style its own element (no selector, no fetch beyond `img-src`/`font-src`); `<style>`
 * elements and inline scripts stay refused (`style-src-elem 'self'`, `script-src 'self'`).
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-elem 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

const NOT_BUILT = `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>网页后台尚未构建</title>
<body style="font-family:sans-serif;max-width:40rem;margin:3rem auto"><h1>网页后台尚未构建</h1>
<p>请在服务器的项目目录中运行 <code>npm install</code>（或 <code>npm run build:web</code>），然后刷新本页。接口仍可使用：<a href="/api/docs">/api/docs</a>。</p>`;

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** Sends `file` of the build, or its precompressed variant the request accepts, with `cacheControl`. */
function sendBuilt(req: Request, res: Response, file: string, cacheControl: string, extra: Record<string, string> = {}): void {
  const variants: [string, string][] = [
    ['br', `${file}.br`],
    ['gzip', `${file}.gz`],
  ];
  const present = variants.filter(([, path]) => isFile(path));
  // Brotli first when the client accepts both (browsers list gzip first with equal weight).
  const chosen = present.find(([e]) => req.acceptsEncodings(e) === e);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  for (const [k, v] of Object.entries(extra)) res.setHeader(k, v);
  if (present.length) res.setHeader('Vary', 'Accept-Encoding');
  res.type(extname(file));
  if (chosen) res.setHeader('Content-Encoding', chosen[0]);
  res.sendFile(chosen ? chosen[1] : file, { cacheControl: false, dotfiles: 'deny' });
}

/**
 * Mounts the console on `app` (module docstring), serving the build in `distDir` (default `web/dist` of the
 * project). Call before the API's 404 handler.
 */
export function mountConsole(app: Express, distDir = CONSOLE_DIST): void {
  const root = resolve(distDir);
  // Middleware, not routes: the API document lists exactly the routes express serves (test/api/openapi.test.ts).
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && (req.path === '/' || req.path === '/console')) return res.redirect(302, '/console/');
    next();
  });
  app.use('/console', (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const index = join(root, 'index.html');
    if (!isFile(index)) return res.status(503).type('html').setHeader('Cache-Control', 'no-store').send(NOT_BUILT);
    const parts = req.path.split('/').filter(Boolean);
    const named = parts.length > 0 && parts.every((p) => SAFE_NAME.test(p) && p !== '..' && p !== '.');
    const file = named ? join(root, ...parts) : '';
    if (named && file.startsWith(root + sep) && !file.endsWith('.br') && !file.endsWith('.gz') && isFile(file) && parts[parts.length - 1] !== 'index.html') {
      return sendBuilt(req, res, file, parts[0] === 'assets' ? IMMUTABLE : 'no-cache');
    }
    // A missing asset is a 404, not the page: a stale page asking for an old chunk must see it fail.
    if (parts[0] === 'assets' || extname(req.path) !== '') return next();
    sendBuilt(req, res, index, 'no-cache', {
      'Content-Security-Policy': CONSOLE_CSP,
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    });
  });
}
