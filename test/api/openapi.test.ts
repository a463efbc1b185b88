/**
 * The API document is generated from the route declarations, passes a third-party OpenAPI linter
 * (Redocly's `recommended` rules, via @redocly/openapi-core), and documents exactly what express serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { routes } from '../../src/http/routes/index.ts';
import { toOpenApiPath } from '../../src/http/openapi.ts';
import { SCALAR_BUNDLE } from '../../src/http/docs-page.ts';
import { readFileSync } from 'node:fs';

let app: TestApp;
let doc: any;
beforeAll(async () => {
  app = await startTestApp();
  doc = (await app.request('GET', '/api/openapi.json')).body;
});
afterAll(() => app.close());

describe('GET /api/openapi.json', () => {
  it('passes the Redocly linter with the recommended rules: no errors, no warnings', async () => {
    // components.responses are what a path or method that is no operation gets: no operation refers to
    // them, by their nature.
    const config = await createConfig({ extends: ['recommended'], rules: { 'info-license': 'off', 'info-license-url': 'off', 'no-unused-components': 'off' } });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: '/openapi.json', config });
    const report = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} @ ${p.location?.[0]?.pointer}`);
    expect(report).toEqual([]);
  });

  it('documents every route express serves, and nothing else', () => {
    const express = createHttpApp(app.service.ctx, routes) as any;
    const served = new Set<string>();
    for (const layer of express.router.stack) {
      if (!layer.route) continue;
      for (const m of Object.keys(layer.route.methods)) served.add(`${m.toUpperCase()} ${toOpenApiPath(layer.route.path)}`);
    }
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries<any>(doc.paths)) for (const m of Object.keys(ops)) documented.add(`${m.toUpperCase()} ${path}`);
    expect([...served].sort()).toEqual([...documented].sort());
    expect(served.size).toBeGreaterThan(25);
  });

  it('names the roles and the error codes of each endpoint', () => {
    const approve = doc.paths['/api/reviews/{reportId}/approve']?.post;
    expect(approve.description).toContain('admin');
    expect(Object.keys(approve.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '409', '422']));
    const start = doc.paths['/api/clock/start'].post;
    expect(start.requestBody.content['application/json'].schema.properties).toHaveProperty('deviceNo');
  });

  it("serves Scalar's reference at /api/docs: scripts only from the service, nothing from another host, fonts, telemetry and proxy off", async () => {
    const r = await app.request('GET', '/api/docs');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    const csp = r.headers.get('content-security-policy')!;
    const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.slice(d.indexOf(' ') + 1)]));
    expect(directives).toMatchObject({ 'default-src': "'self'", 'script-src': "'self'", 'connect-src': "'self'", 'frame-ancestors': "'none'", 'object-src': "'none'" });
    // The one allowance: the renderer's own <style> elements, on this page only (the console's policy has none).
    expect(csp.match(/[a-z-]+ [^;]*'unsafe-inline'/g)).toEqual(["style-src 'self' 'unsafe-inline'"]);
    expect(csp).not.toMatch(/https?:|\*|unsafe-eval/);

    const page = r.body as string;
    const scripts = [...page.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => m[2].trim())).toEqual(['', '']); // no inline script
    const src = /src="([^"]+)"/.exec(scripts[1][1])![1];
    expect(src).toMatch(/^\/api\/docs\/scalar\.js\?v=[0-9a-f]{16}$/);
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//); // nothing from another host
    const config = JSON.parse(/data-configuration="([^"]*)"/.exec(scripts[0][1])![1].replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
    expect(config).toMatchObject({ url: '/api/openapi.json', withDefaultFonts: false, telemetry: false, agent: { disabled: true }, mcp: { disabled: true }, localization: { locale: 'zh-CN' } });
    expect(config).not.toHaveProperty('proxyUrl');
    expect(page).toContain('href="/api/openapi.json"'); // what the page says without JavaScript

    // The renderer's bundle, compressed as the browser accepts, cached for good under its hash and revalidated without.
    const bundle = readFileSync(SCALAR_BUNDLE, 'utf8');
    for (const encoding of ['br', 'gzip']) {
      const s = await fetch(app.url + src, { headers: { 'accept-encoding': encoding } });
      expect(s.status).toBe(200);
      expect(s.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(s.headers.get('content-encoding')).toBe(encoding);
      expect(s.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(s.headers.get('vary')).toBe('Accept-Encoding');
      expect(await s.text()).toBe(bundle);
    }
    const unversioned = await fetch(`${app.url}/api/docs/scalar.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(unversioned.headers.get('cache-control')).toBe('no-cache');
    expect(unversioned.headers.get('content-encoding')).toBeNull();
    expect(await unversioned.text()).toBe(bundle);
  });
});

/** The codes an answer of `status` of `op` may carry, from its schema (enum or the const of each alternative). */
function codesOf(op: any, status: string): string[] {
  const error = op.responses[status]?.content?.['application/json']?.schema?.properties?.error;
  if (!error) return [];
  return (error.oneOf ?? [error]).flatMap((b: any) => b.properties.code.enum ?? [b.properties.code.const]);
}

describe('the document says exactly what each operation takes and gives', () => {
  const ops = () => Object.entries<any>(doc.paths).flatMap(([path, o]) => Object.entries<any>(o).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, method, op })));

  it('lists only the errors an operation can give, each code once, as an enum per status', () => {
    for (const { at, op } of ops()) {
      const all = Object.keys(op.responses).filter((s) => Number(s) >= 400).flatMap((s) => codesOf(op, s));
      expect(new Set(all).size, `${at}: ${all.join(',')}`).toBe(all.length);
      if (!op.requestBody) expect(all.filter((c) => ['MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_ENCODING'].includes(c)), at).toEqual([]);
      // The HTTP server's client-error handler answers any request: each operation lists its answers.
      expect(all, at).toEqual(expect.arrayContaining(['MALFORMED_REQUEST', 'REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE', 'INVALID_CHARACTERS', 'INTERNAL_ERROR']));
      if (op.security.length === 0) expect(all.filter((c) => ['UNAUTHORIZED', 'FORBIDDEN'].includes(c)), at).toEqual([]);
    }
    expect(codesOf(doc.paths['/api/health'].get, '503')).toEqual(['DATABASE_UNAVAILABLE']);
    expect(codesOf(doc.paths['/api/auth/platform-login'].post, '502')).toEqual(['PLATFORM_ERROR']);
    expect(codesOf(doc.paths['/api/clock/switch-device'].post, '409').sort()).toEqual(['CLOCK_STATE_CONFLICT', 'CONCURRENT_MODIFICATION']);
    expect(codesOf(doc.paths['/api/openapi.json'].get, '503')).toEqual([]);
  });

  it('types the details of errors that have them', () => {
    const conflict = doc.paths['/api/clock/start'].post.responses['409'].content['application/json'].schema.properties.error.oneOf;
    const branch = conflict.find((b: any) => b.properties.code.const === 'CLOCK_STATE_CONFLICT');
    expect(branch.properties.details.properties.label.enum).toEqual(['开始上班', '换设备', '下班报工', '继续报工', '重新报工']);
    expect(branch.required).toContain('details');
    // The rate limit's seconds on every limited operation, the import limit that was passed.
    for (const [path, method] of [['/api/auth/platform-login', 'post'], ['/api/auth/web-login', 'post'], ['/api/auth/web-login/confirm', 'post'], ['/api/auth/web-login/{ticket}', 'get']]) {
      const limited = doc.paths[path][method].responses['429'];
      const error = limited.content['application/json'].schema.properties.error;
      const rate = (error.oneOf ?? [error]).find((b: any) => b.properties.code.const === 'TOO_MANY_LOGIN_ATTEMPTS');
      expect(rate.properties.details.required, path).toEqual(['retryAfterSeconds']);
      expect(limited.headers['Retry-After'], path).toBeTruthy();
    }
    const upload = doc.paths['/api/products/import'].post.responses['422'].content['application/json'].schema.properties.error.oneOf;
    const tooLarge = upload.find((b: any) => b.properties.code.const === 'SPREADSHEET_TOO_LARGE');
    expect(tooLarge.properties.details.anyOf.map((a: any) => a.required[0])).toEqual(['maxInflatedBytes', 'maxSharedStrings', 'maxCells', 'maxTableText', 'maxHeapMb', 'maxSeconds']);
    expect(doc.components.responses.NotFound['x-status']).toBe(404);
  });

  it('documents the answers the service gives: 204 without a body, JSON documents, required fields', () => {
    const del = doc.paths['/api/people/{phone}'].delete.responses;
    expect(Object.keys(del)).toContain('204');
    expect(del['204'].content).toBeUndefined();
    expect(doc.paths['/api/openapi.json'].get.responses['200'].content['application/json'].schema.properties.openapi).toBeTruthy();
    expect(doc.paths['/api/products'].post.responses['200'].content['application/json'].schema.required).toEqual(['product', 'result']);
    const login = doc.paths['/api/auth/platform-login'].post.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(login)).toContain('"token"');
  });

  it('says what requests are accepted, no looser', () => {
    const submit = doc.paths['/api/reports'].post.requestBody.content['application/json'].schema;
    expect(submit.properties.lines.items.properties.finishedQty).toMatchObject({ type: 'integer', minimum: 0, maximum: 10_000_000 });
    expect(submit.properties.lines).toMatchObject({ minItems: 1, maxItems: 200 });
    const brk = doc.paths['/api/reports/{reportId}/break-minutes'].patch.requestBody.content['application/json'].schema;
    expect(brk.properties.breakMinutes).toMatchObject({ type: 'integer', minimum: 0 });
    const reject = doc.paths['/api/reviews/{reportId}/reject'].post.requestBody.content['application/json'].schema;
    expect(reject.properties.reason).toMatchObject({ minLength: 1, maxLength: 200, pattern: '\\S' });
    const clock = doc.paths['/api/clock/start'].post.requestBody.content['application/json'].schema;
    expect(clock.oneOf).toEqual([{ required: ['deviceNo'] }, { required: ['deviceKey'] }]);
    const state = doc.paths['/api/clock/state'].get.parameters[0];
    expect(state).toMatchObject({ in: 'query', style: 'form', explode: true, schema: { oneOf: clock.oneOf } });
    const dashboard = doc.paths['/api/dashboard/reports'].get.parameters;
    expect(dashboard.find((p: any) => p.name === 'startDate')).toMatchObject({ required: true, schema: { format: 'date' } });
    const login = doc.paths['/api/auth/platform-login'].post.requestBody.content['application/json'].schema;
    expect(login.properties.code).toMatchObject({ pattern: '\\S', maxLength: 512 });
    expect(JSON.stringify(doc)).not.toContain('$schema');
  });

  it('gives the page what it shows: the guide as its description, every field with its Chinese label, the token field, Chinese group names', () => {
    const text = JSON.stringify(doc);
    for (const field of ['token', 'ticket', 'sessionId', 'label', 'candidates', 'choose_role', 'choose_phone', 'Retry-After', 'details.label', 'sim:', 'flagged=true', 'NO_WORKING_TIME', '已知异常']) {
      expect(text, field).toContain(field);
    }
    expect(text).toContain('"title":"明细"'); // labels (titles) are in the schemas
    expect(text).toContain('成品数量');
    expect(doc.info.description).toContain('接入指南（小程序开发者先读这里）');
    expect(doc.info.description).toMatch(/重新报工<\/td><td><code>POST \/api\/clock\/finish<\/code>/);
    // The bearer scheme is what gives the page its token field; each operation that needs a token says so.
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/auth/me'].get.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/api/health'].get.security).toEqual([]);
    // The sidebar's groups: each tag's short Chinese name, the start of its description.
    for (const tag of doc.tags) expect(tag.description.startsWith(tag['x-displayName']), tag.name).toBe(true);
    expect(doc.tags.find((t: any) => t.name === 'clock')['x-displayName']).toBe('扫码打卡');
    const used = new Set(Object.values<any>(doc.paths).flatMap((o) => Object.values<any>(o).map((op) => op.tags[0])));
    expect(doc.tags.map((t: any) => t.name).sort()).toEqual([...used].sort());
  });
});

it("the integrators' guide (docs/integrators.md) says what the page's guide says", () => {
  const doc = readFileSync(new URL('../../docs/integrators.md', import.meta.url), 'utf8');
  const guide = doc.split('## The guide')[1].split('\n## ')[0];
  for (const s of [
    'Authorization: Bearer <token>',
    'TOKEN_TTL',
    'choose_phone',
    'choose_role',
    '`/complete` may answer `choose_role` again',
    'details.label',
    'Retry-After',
    '503',
    'sim:13800138000#2',
    'flagged=true',
    'NO_WORKING_TIME',
    'CYCLE_TOO_FAST',
    'OUTPUT_OVER_WORKLOAD',
    'SESSION_TOO_LONG',
    '已知异常',
  ]) {
    expect(guide, s).toContain(s);
  }
  for (const [label, op] of [
    ['开始上班', '/api/clock/start'],
    ['换设备', '/api/clock/switch-device'],
    ['下班报工', '/api/clock/finish'],
    ['继续报工', '/api/reports/draft'],
    ['重新报工', '/api/clock/finish'],
  ]) {
    expect(guide).toMatch(new RegExp(`\\| ${label} \\| [^\\n]*${op.replace(/\//g, '\\/')}`));
  }
});
