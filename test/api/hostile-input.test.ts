/**
 * "No 500 for bad input" (decisions.md "HTTP conventions"): every route, called by a role it allows, with
 * malformed path parameters, query strings and bodies, answers a 4xx in the error shape, never a 5xx.
 * The route list is read at run time, so new routes are covered without editing this test.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routes } from '../../src/http/routes/index.ts';
import { ROLES } from '../../src/auth/roles.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  app = await startTestApp();
  for (const role of ROLES) tokens[role] = await app.login('13700000000', role, '测试');
  await app.service.ctx.db.pool.query(
    `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     VALUES ('P1', '产品', 'JC 01', '落料', 12.5, 2304)`,
  );
});
afterAll(() => app.close());

const PARAMS = ['x', '%00', '%E4%B8%AD', 'a'.repeat(300), "1'%20OR%201=1", '00000000-0000-0000-0000-000000000000', '-1', '%F0%9F%98%80'];
const QUERIES = [
  '',
  '?page=-1&pageSize=abc',
  '?page=99999999999999999999&pageSize=1000',
  '?startDate=2026-13-45&endDate=yesterday',
  '?startDate=2026-03-02&endDate=2025-01-01',
  '?deviceNo=&deviceKey=',
  '?deviceNo=%00',
  '?sessionId=not-a-uuid',
  '?keyword=%25%5F%5C&role=boss&status=x',
  '?page[]=1&deviceNo[]=a',
];
const BODIES: unknown[] = [
  undefined,
  '[]',
  '"text"',
  'null',
  '{"deviceNo": 123, "sessionId": {}, "lines": "x", "reason": 5, "breakMinutes": "a", "role": ["admin"]}',
  '{"lines": [{"productId": 1e308, "finishedQty": -1, "defectiveQty": 1.5}], "sessionId": "00000000-0000-0000-0000-000000000000"}',
  '{"breakMinutes": 99999999999, "reason": "' + 'x'.repeat(1000) + '"}',
  '{"deviceNo": "\\u0000", "phone": "+86 138", "name": "", "code": "sim:", "phoneCode": "sim:123"}',
  '{"ticket": "a.b.c", "role": "root", "__proto__": {"admin": true}}',
];

const fill = (path: string, value: string) => path.replace(/:[A-Za-z0-9_]+/g, value);

it('answers every malformed request to every route with a 4xx error, never a 5xx', async () => {
  const failures: string[] = [];
  let sent = 0;
  for (const r of routes) {
    const role = r.access === 'public' || r.access === 'authenticated' ? 'worker' : r.access[0];
    const token = r.access === 'public' ? undefined : tokens[role];
    const method = r.method.toUpperCase();
    const paths = r.path.includes(':') ? PARAMS.map((p) => fill(r.path, p)) : [r.path];
    for (const path of paths) {
      for (const query of QUERIES) {
        for (const body of method === 'GET' ? [undefined] : BODIES) {
          const res = await app.request(method, path + query, {
            token,
            body: body as string | undefined,
            headers: body === undefined ? {} : { 'content-type': 'application/json' },
          });
          sent++;
          const shaped = res.status < 400 || (typeof res.body === 'object' && typeof res.body?.error?.code === 'string' && typeof res.body?.error?.message === 'string');
          if (res.status >= 500 || !shaped) failures.push(`${method} ${path}${query} ${String(body).slice(0, 60)} → ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
        }
      }
    }
  }
  expect(failures.slice(0, 20)).toEqual([]);
  expect(sent).toBeGreaterThan(1000);
}, 600_000);
