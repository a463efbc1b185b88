/**
 * Phones against the real service, for the mini-program's page tests: `servicePhones(people, at)`, called inside a
 * describe block, registers there a service started at `at` (its clock and the phones' `Date` moved together: Date is
 * faked), each person `[phone, role, name]` logged in on a ScriptedWx that forwards to the service with a kept session,
 * and after the block closes the pages it opened and the service. It gives:
 * - `app` (after the block's first hook), `tokens` and `phones` by phone;
 * - `page(who, url)`: a page opened on `who`'s phone;
 * - `call(who, method, path, body?)`: an API call as `who`, expecting 200 or 201, its body;
 * - `setTime(iso)`: the service's clock and the phones' `Date` to `iso`.
 */
import { afterAll, beforeAll, expect, vi } from 'vitest';
import type { Role } from '../../src/auth/roles.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PageDriver, ScriptedWx, forwardTo, openPage } from './harness.ts';

export function servicePhones(people: readonly (readonly [phone: string, role: Role, name: string])[], at: string) {
  let app: TestApp | undefined;
  const tokens: Record<string, string> = {};
  const phones: Record<string, ScriptedWx> = {};
  const open: PageDriver[] = [];
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    app = await startTestApp({}, at);
    for (const [phone, role, name] of people) {
      tokens[phone] = await app.login(phone, role, name);
      const wx = new ScriptedWx(forwardTo(app.url));
      wx.storage.set('session', { token: tokens[phone], expiresAt: '2099-01-01T00:00:00+08:00', person: { phone, name }, role, roles: [role] });
      phones[phone] = wx;
    }
  }, 60_000);
  afterAll(async () => {
    while (open.length) open.pop()!.close();
    vi.useRealTimers();
    await app?.close();
  });
  const service = (): TestApp => {
    if (!app) throw new Error('the service starts in the block’s first hook');
    return app;
  };
  return {
    get app(): TestApp {
      return service();
    },
    tokens,
    phones,
    async page(who: string, url: string): Promise<PageDriver> {
      const p = await openPage(url, phones[who]);
      open.push(p);
      return p;
    },
    async call(who: string, method: string, path: string, body?: unknown) {
      const r = await service().request(method, path, { token: tokens[who], body });
      expect([200, 201], `${method} ${path}: ${JSON.stringify(r.body)}`).toContain(r.status);
      return r.body;
    },
    setTime(iso: string): void {
      service().clock.set(iso);
      vi.setSystemTime(new Date(iso));
    },
  };
}
