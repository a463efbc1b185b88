/**
 * Issue #7: the API document is generated from the route declarations, passes a third-party OpenAPI linter
 * (Redocly's `recommended` rules, via @redocly/openapi-core), and documents exactly what express serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { routes } from '../../src/http/routes/index.ts';
import { toOpenApiPath } from '../../src/http/openapi.ts';

let app: TestApp;
let doc: any;
beforeAll(async () => {
  app = await startTestApp();
  doc = (await app.request('GET', '/api/openapi.json')).body;
});
afterAll(() => app.close());

describe('GET /api/openapi.json', () => {
  it('passes the Redocly linter with the recommended rules: no errors, no warnings', async () => {
    const config = await createConfig({ extends: ['recommended'], rules: { 'info-license': 'off', 'info-license-url': 'off' } });
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

  it('renders the document for a person at /api/docs', async () => {
    const r = await app.request('GET', '/api/docs');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(r.body).toContain('/api/clock/state');
    expect(r.body).toContain('开始上班');
  });
});
