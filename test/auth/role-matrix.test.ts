/**
 * The whole access matrix: every route of `routes` (read at run time, so routes added later are
 * covered) × {no token, forged signature, alg none, expired, each role}. Bad tokens: 401 on every non-public
 * route. Roles: 403 exactly when the role is not in the route's access list (decisions.md "Roles"); an allowed
 * role may get any other answer (422 without a body, 404 for the placeholder 'x', …) but never 401 or 403.
 */
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../src/auth/roles.ts';
import { routes } from '../../src/http/routes/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
const PHONE = '13700000099';
const tokens: Partial<Record<Role, string>> = {};
let bad: Record<string, string>;

beforeAll(async () => {
  app = await startTestApp();
  for (const r of ROLES) tokens[r] = await app.login(PHONE, r, '矩阵测试');
  const now = Math.floor(Date.now() / 1000);
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  bad = {
    'no token': '',
    'forged signature': jwt.sign({ role: 'admin' }, 'not-the-secret', { algorithm: 'HS256', subject: PHONE, expiresIn: 3600 }),
    'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: PHONE, role: 'admin', iat: now, exp: now + 3600 })}.`,
    expired: jwt.sign({ role: 'admin', sub: PHONE, iat: now - 7200, exp: now - 60 }, 'test-secret', { algorithm: 'HS256' }),
  };
});
afterAll(() => app.close());

const pathOf = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, 'x');
const describeRoute = (r: (typeof routes)[number]) => `${r.method.toUpperCase()} ${r.path}`;

describe('role matrix over every route', () => {
  it('covers the routes of this issue at least', () => {
    const names = routes.map(describeRoute);
    for (const n of ['POST /api/auth/platform-login', 'GET /api/auth/me', 'POST /api/auth/switch-role', 'POST /api/devices/:deviceNo/qrcode', 'POST /api/devices/qrcodes']) {
      expect(names).toContain(n);
    }
    // organization
    for (const n of ['GET /api/workshops', 'POST /api/workshops', 'PUT /api/workshops/:code', 'POST /api/teams', 'PUT /api/teams/:code', 'GET /api/teams/:code/members', 'GET /api/people/:phone/memberships', 'POST /api/memberships', 'POST /api/memberships/end', 'PUT /api/devices/:deviceNo/workshop']) {
      expect(names).toContain(n);
    }
    // scopes: a person's scope (managers only)
    expect(names).toContain('PUT /api/people/:phone/scope');
  });

  it('answers 401 for bad tokens on every non-public route, and never 401/403 on public ones', async () => {
    const failures: string[] = [];
    for (const r of routes) {
      for (const [kind, token] of Object.entries(bad)) {
        const res = await app.request(r.method.toUpperCase(), pathOf(r.path), { token: token || undefined });
        const ok = r.access === 'public' ? res.status !== 401 && res.status !== 403 : res.status === 401;
        if (!ok) failures.push(`${describeRoute(r)} with ${kind}: ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers 403 exactly when the role is not in the access list of the route', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const r of routes) {
      if (r.access === 'public') continue;
      for (const role of ROLES) {
        const allowed = r.access === 'authenticated' || r.access.includes(role);
        const res = await app.request(r.method.toUpperCase(), pathOf(r.path), { token: tokens[role] });
        checked++;
        if (allowed ? res.status === 401 || res.status === 403 : res.status !== 403) {
          failures.push(`${describeRoute(r)} as ${role} (${allowed ? 'allowed' : 'forbidden'}): ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(3 * 4);
  });
});
