/**
 * Static serving of the built console at /console/ (src/http/console-static.ts: served at /console/ with cache
 * headers and compression), on a build folder made here: hashed assets immutable, pages no-cache with
 * the CSP, brotli or gzip by Accept-Encoding, the page for every console path but a 404 for a missing asset, no
 * way out of the folder, redirects, and a Chinese 503 page before the console is built.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP, mountConsole } from '../../src/http/console-static.ts';

let root: string;
let servers: Server[] = [];

const INDEX = '<!doctype html><title>报工管理后台</title><script type="module" src="/console/assets/app-3f2a.js"></script>';
const APP_JS = `console.log(${JSON.stringify('报工'.repeat(500))});`;

async function serve(dist: string): Promise<string> {
  const app = express();
  mountConsole(app, dist);
  app.use((_req, res) => void res.status(404).json({ error: { code: 'NOT_FOUND' } }));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A raw GET (fetch would decode the body and hide Content-Encoding). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

let base: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'console-dist-'));
  const dist = join(root, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dist, 'assets', 'app-3f2a.js'), APP_JS);
  writeFileSync(join(dist, 'assets', 'app-3f2a.js.br'), brotliCompressSync(APP_JS));
  writeFileSync(join(dist, 'assets', 'app-3f2a.js.gz'), gzipSync(APP_JS));
  writeFileSync(join(root, 'secret.txt'), 'not for the web');
  base = await serve(dist);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
  rmSync(root, { recursive: true, force: true });
});

describe('/console/', () => {
  it('serves the page with no-cache, the CSP (no inline script or style element; style attributes for the charts) and framing refused', async () => {
    const r = await get(`${base}/console/`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers['content-security-policy']).toBe(CONSOLE_CSP);
    const directives = Object.fromEntries(CONSOLE_CSP.split('; ').map((d) => [d.split(' ')[0], d.slice(d.indexOf(' ') + 1)]));
    expect(directives).toMatchObject({ 'script-src': "'self'", 'style-src': "'self'", 'style-src-elem': "'self'", 'style-src-attr': "'unsafe-inline'" });
    expect(CONSOLE_CSP.match(/unsafe-inline/g)).toHaveLength(1);
    expect(CONSOLE_CSP).not.toContain('unsafe-eval');
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.body.toString()).toBe(INDEX);
  });

  it('answers the page for every console path (the console routes itself), but 404 for a missing asset or file', async () => {
    for (const path of ['/console/login', '/console/reports/6f1c1e9e-0000-4000-8000-000000000000', '/console/devices/print?layout=label']) {
      const r = await get(base + path);
      expect([path, r.status, r.body.toString()]).toEqual([path, 200, INDEX]);
    }
    expect((await get(`${base}/console/assets/app-0000.js`)).status).toBe(404);
    expect((await get(`${base}/console/robots.txt`)).status).toBe(404);
  });

  it('hashed assets are immutable for a year; brotli first, then gzip, as the request accepts', async () => {
    const br = await get(`${base}/console/assets/app-3f2a.js`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(brotliDecompressSync(br.body).toString()).toBe(APP_JS);
    expect(br.body.length).toBeLessThan(APP_JS.length / 5);
    const gz = await get(`${base}/console/assets/app-3f2a.js`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(APP_JS);
    const none = await get(`${base}/console/assets/app-3f2a.js`, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body.toString()).toBe(APP_JS);
    expect((await get(`${base}/console/favicon.svg`)).headers['cache-control']).toBe('no-cache');
  });

  it('never serves a file outside the build, nor the compressed copies by their own names', async () => {
    for (const path of ['/console/../secret.txt', '/console/%2e%2e/secret.txt', '/console/assets/..%2f..%2fsecret.txt', '/console/assets/app-3f2a.js.br']) {
      const r = await get(base + path);
      expect(r.body.toString()).not.toContain('not for the web');
      expect(r.body.toString()).not.toContain('\u0000');
      if (path.endsWith('.br')) expect(r.status).toBe(404);
    }
  });

  it('redirects / and /console to /console/; other methods fall through to the API', async () => {
    for (const path of ['/', '/console']) {
      const r = await get(base + path);
      expect([r.status, r.headers.location]).toEqual([302, '/console/']);
    }
    const post = await fetch(`${base}/console/`, { method: 'POST' });
    expect(post.status).toBe(404);
  });

  it('before the console is built: 503 with a page saying how to build it', async () => {
    const empty = await serve(join(root, 'no-build'));
    const r = await get(`${empty}/console/`);
    expect(r.status).toBe(503);
    expect(r.body.toString()).toContain('npm run build:web');
  });
});
