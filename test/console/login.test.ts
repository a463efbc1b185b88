/**
 * The console's sign-in in the browser: with no administrator the
 * login page says how to add the first one and, with the simulator, adds them; 模拟扫码 signs in through the same
 * calls the mini-program makes; a person with both console roles chooses one and can switch; a one-time console
 * link signs in once, also when pasted into the tab that already shows the login page (no reload); the token stays in an HttpOnly SameSite cookie no script can read; the pages carry a CSP
 * without inline scripts and nothing breaks it. Screenshots at 1366×768 and 390×844; axe-core finds no serious
 * violation on the login page.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleLink } from '../../src/auth/web-login.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { axeViolations, DESKTOP, launchBrowser, openConsole, PHONE, shoot, signIn, skipBrowserTests } from './browser.ts';
import { seen } from './viewport.ts';

let app: TestApp;
let browser: Browser;

describe.skipIf(skipBrowserTests('login.test.ts'))('console sign-in in the browser', () => {
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('with no administrator: says how to add the first one, adds them with the simulator, and 模拟扫码 signs them in', async () => {
    const { page, errors } = await openConsole(browser, app);
    await page.waitForURL(/\/console\/login$/);
    await expect.poll(() => page.getByText('还没有管理员').isVisible()).toBe(true);
    expect(await page.locator('pre').textContent()).toContain('npm run cli -- console-link');
    await page.getByTestId('login-code').locator('img').waitFor();
    await shoot(page, 'login');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByTestId('first-phone').fill('13800138000');
    await page.getByTestId('first-name').fill('王管理');
    await page.getByTestId('first-add').click();
    await expect.poll(() => page.getByText('还没有管理员').count()).toBe(0);
    const people = await app.service.ctx.db.pool.query(`SELECT phone, name, role FROM personnel`);
    expect(people.rows).toEqual([{ phone: '13800138000', name: '王管理', role: 'admin' }]);

    await signIn(page, '13800138000');
    await page.waitForURL(/\/console\/review$/);
    expect(await page.getByTestId('account').textContent()).toContain('王管理 · 管理员');
    expect(errors).toEqual([]);
  });

  it('keeps the token in an HttpOnly SameSite cookie on /api that scripts cannot read; pages carry a CSP without inline scripts', async () => {
    const { page, errors } = await openConsole(browser, app);
    await page.waitForURL(/\/console\/login$/);
    const answer = await page.request.get(`${app.url}/console/login`);
    const csp = answer.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src-elem 'self'");
    // Inline is allowed for style attributes only (the chart's tooltip), never for scripts.
    expect(csp.match(/[a-z-]+ 'unsafe-inline'/g)).toEqual(["style-src-attr 'unsafe-inline'"]);
    expect(await page.locator('script:not([src])').count()).toBe(0);

    await signIn(page, '13800138000');
    await shoot(page, 'signed-in');
    const cookies = await page.context().cookies();
    expect(cookies).toEqual([expect.objectContaining({ name: 'console_session', path: '/api', httpOnly: true, sameSite: 'Strict' })]);
    expect(await page.evaluate(() => (globalThis as any).document.cookie)).toBe('');
    // The cookie alone does not authenticate: only the console's own calls (X-Console-Request: 1) are accepted.
    const token = cookies[0].value;
    const bare = await fetch(`${app.url}/api/auth/me`, { headers: { cookie: `console_session=${token}` } });
    expect(bare.status).toBe(401);
    const own = await fetch(`${app.url}/api/auth/me`, { headers: { cookie: `console_session=${token}`, 'x-console-request': '1' } });
    expect(((await own.json()) as { person: { name: string } }).person.name).toBe('王管理');
    const cross = await fetch(`${app.url}/api/auth/me`, {
      headers: { cookie: `console_session=${token}`, 'x-console-request': '1', 'sec-fetch-site': 'cross-site' },
    });
    expect(cross.status).toBe(401);

    await page.getByTestId('account').click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.waitForURL(/\/console\/login$/);
    expect(await page.context().cookies()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a person holding both console roles chooses one, and switches to the other in the console', async () => {
    await app.login('13900000002', 'manager', '李经理');
    await app.login('13900000002', 'admin', '李经理');
    const { page, errors } = await openConsole(browser, app);
    await page.waitForURL(/\/console\/login$/);
    await signIn(page, '13900000002', '经理');
    await page.waitForURL(/\/console\/dashboard$/);
    expect(await page.getByTestId('account').textContent()).toContain('李经理 · 经理');
    expect(await page.getByRole('navigation', { name: '主菜单' }).getByText('审核').count()).toBe(0);

    await page.getByTestId('account').click();
    await page.getByRole('menuitem', { name: '切换为管理员' }).click();
    await page.waitForURL(/\/console\/review$/);
    expect(await page.getByTestId('account').textContent()).toContain('李经理 · 管理员');
    await page.getByTestId('account').click();
    await page.getByRole('menuitem', { name: '切换为经理' }).waitFor();
    await shoot(page, 'account-menu');
    expect(errors).toEqual([]);
  });

  it('a console link (npm run cli -- console-link) signs in once; the second time the page says it was used', async () => {
    const link = await createConsoleLink(app.service.ctx, { phone: '13800138000' });
    const { page, errors } = await openConsole(browser, app, `/console/login#link=${link.ticket}`);
    await page.waitForURL(/\/console\/review$/);
    expect(await page.getByTestId('account').textContent()).toContain('王管理');

    const again = await openConsole(browser, app, `/console/login#link=${link.ticket}`);
    await expect.poll(() => again.page.getByText('这个登录链接已经用过了').isVisible()).toBe(true);
    // No empty code frame where no code is shown; a new code is one click away.
    expect(await again.page.getByTestId('login-code').count()).toBe(0);
    expect(await again.page.getByRole('button', { name: '重新生成二维码' }).isVisible()).toBe(true);
    expect(again.page.url()).not.toContain(link.ticket);
    await shoot(again.page, 'link-used');
    expect(await axeViolations(again.page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a console link pasted into the tab that already shows the login page signs in there, without a reload, at both widths', async () => {
    // An office with no administrator yet: the login page says so; then the server's command prints the link.
    const fresh = await startTestApp();
    try {
      for (const viewport of [DESKTOP, PHONE]) {
        const { page, errors } = await openConsole(browser, fresh, '/console/login', viewport);
        await page.getByTestId('login-code').locator('img').waitFor();
        if (viewport === DESKTOP) expect(await seen(page.getByText('还没有管理员'))).toBe('');
        const link = await createConsoleLink(fresh.service.ctx, { phone: '13800138000', name: '王管理' });
        // A mark on this document: a reload would lose it.
        await page.evaluate(() => ((globalThis as any).notReloaded = true));
        await page.evaluate((href) => ((globalThis as any).location.href = href), `${fresh.url}/console/login#link=${link.ticket}`);
        await page.waitForURL(/\/console\/review$/);
        expect(await seen(page.getByTestId('account'))).toBe('');
        expect(await page.getByTestId('account').textContent()).toContain('王管理 · 管理员');
        expect(await seen(page.getByRole('heading', { level: 1, name: '审核' }))).toBe('');
        expect(await page.evaluate(() => (globalThis as any).notReloaded)).toBe(true);
        expect(page.url()).not.toContain(link.ticket);
        expect(errors).toEqual([]);
        await page.context().close();
      }
    } finally {
      await fresh.close();
    }
  });
});
