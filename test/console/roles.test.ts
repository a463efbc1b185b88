/**
 * Roles on the screen: where an action needs another console role than the current one, the page says which
 * (设置审核范围 and 结账、反结账 need 经理, 审核 needs 管理员) and offers the switch in place when the person holds it,
 * without a reload. The office's first person, signed in through a one-time console link (管理员 and 经理), reaches
 * 范围 on 人员 and 结账 on 月结 from the page's offer; a refused close's pending report offers 去审核, which switches
 * to 管理员 and opens that report's review; a person given 经理 while signed in is offered 切换为经理 without a
 * reload (the account menu and the page read the roles again). Each offer is asserted inside the viewport at 1366
 * and 390 px; no page logs an error besides the refused close the test provokes; no page is reloaded (a mark set in
 * the page stays).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleLink } from '../../src/auth/web-login.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { line, submitReport } from '../review/fixtures.ts';
import { axeViolations, DESKTOP, launchBrowser, openConsole, PHONE, signIn, skipBrowserTests } from './browser.ts';
import { expectNoPageErrors, expectRefusals, menu, seen, shown } from './viewport.ts';

const FIRST = '13800138000';
const REVIEWER = '13800000009';
const SECOND = '13800000007';
const ZHANG = '13700000001';
let app: TestApp;
let browser: Browser;
let page: Page;
let pendingId = '';
const pageErrors: string[][] = [];

/** Marks the page's window; `notReloaded` is true while that same window (no reload, no new document) is shown. */
const mark = (p: Page) => p.evaluate(() => void ((globalThis as any).__sameWindow = true));
const notReloaded = (p: Page) => p.evaluate(() => (globalThis as any).__sameWindow === true);

/** `locator` is seen inside the viewport at 1366 and at 390 px (the page is left at 1366). */
async function seenAtBothWidths(p: Page, test: string): Promise<void> {
  for (const v of [DESKTOP, PHONE]) {
    await p.setViewportSize(v);
    expect(await seen(p.getByTestId(test)), `${test} at ${v.width}px`).toBe('');
  }
  await p.setViewportSize(DESKTOP);
}

describe.skipIf(skipBrowserTests('roles.test.ts'))('roles on the screen', () => {
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp({}, '2026-04-02T10:00:00+08:00'), launchBrowser()]);
    await app.login(ZHANG, 'worker', '张三');
    // March has ended; one report of it is still pending, so its close is refused.
    pendingId = (await submitReport(app.service.ctx, { phone: ZHANG, reportDate: '2026-03-18', lines: [line(901, 10, 2880, 100, 5)] }, '张三')).reportId;
    await app.catchUpAll();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  afterEach(() => expectNoPageErrors(pageErrors));

  it('the first person from the console link reaches 范围 and 月结 through the pages’ offer to switch to 经理, without a reload', async () => {
    const link = await createConsoleLink(app.service.ctx, { phone: FIRST, name: '王管理' });
    expect(link.addedRoles).toEqual(['admin', 'manager']);
    // Another reviewer, whose 审核范围 the first person sets.
    await app.login(REVIEWER, 'admin', '赵审核');
    const c = await openConsole(browser, app, `/console/login#link=${link.ticket}`);
    page = c.page;
    pageErrors.push(c.errors);
    await page.waitForURL(/\/console\/review$/);
    expect(await shown(page.getByTestId('account'))).toBe('王管理 · 管理员 ▾');
    await mark(page);

    await menu(page, '人员');
    await page.getByTestId('people-table').getByText('赵审核').waitFor();
    expect(await shown(page.getByTestId('role-needed-text'))).toBe('设置审核范围需要经理角色');
    expect(await page.getByTestId('edit-scope').count()).toBe(0);
    await seenAtBothWidths(page, 'role-switch');
    expect(await shown(page.getByTestId('role-switch'))).toBe('切换为经理');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('role-switch').click();
    await expect.poll(() => shown(page.getByTestId('account'))).toBe('王管理 · 经理 ▾');
    expect(page.url()).toMatch(/\/console\/people$/);
    expect(await page.getByTestId('role-needed').count()).toBe(0);
    // 范围 of the other reviewer's row opens the scope dialog.
    await seenAtBothWidths(page, 'edit-scope');
    await page.getByTestId('edit-scope').click();
    const dialog = page.getByRole('dialog', { name: '审核范围' });
    await dialog.waitFor();
    expect(await shown(dialog)).toContain('赵审核（13800000009）只能看到和审核所选车间、班组的报工单');
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await menu(page, '月结');
    const march = page.getByTestId('periods-table').locator('.el-table__row').filter({ hasText: '2026年3月' });
    await march.waitFor();
    expect(await page.getByTestId('role-needed').count()).toBe(0);
    await seenAtBothWidths(page, 'close');
    expect(await notReloaded(page)).toBe(true);
  });

  it('a refused close lists the pending report with 去审核: it switches to 管理员 and opens that report’s review', async () => {
    await page.getByTestId('close').click();
    await page.getByRole('button', { name: '结账', exact: true }).last().click();
    const pending = page.getByTestId('blocker-pending');
    await pending.waitFor();
    expectRefusals(pageErrors[0], 409, 1); // the refused close, shown in words
    expect(await shown(pending)).toBe(`2026-03-18 · 张三（${ZHANG}）的报工单去审核（切换为管理员）`);
    await seenAtBothWidths(page, 'go-review');
    await page.getByTestId('go-review').click();
    await page.waitForURL(new RegExp(`/console/review\\?report=${pendingId}$`));
    await expect.poll(() => shown(page.getByTestId('account'))).toBe('王管理 · 管理员 ▾');
    const drawer = page.getByTestId('review-drawer');
    await drawer.getByRole('button', { name: '通过', exact: true }).waitFor();
    expect(await shown(drawer.locator('.el-drawer__title'))).toBe('审核报工单 · 张三 · 2026-03-18');
    for (const v of [DESKTOP, PHONE]) {
      await page.setViewportSize(v);
      expect(await seen(drawer.getByRole('button', { name: '通过', exact: true })), `通过 at ${v.width}px`).toBe('');
    }
    await page.setViewportSize(DESKTOP);
    expect(await notReloaded(page)).toBe(true);
    await page.context().close();
  });

  it('a person given 经理 while signed in is offered 切换为经理 without a reload; as 经理, a pending report’s page offers 审核 as 管理员', async () => {
    await app.login(SECOND, 'admin', '孙管理');
    const c = await openConsole(browser, app);
    const p = c.page;
    pageErrors.push(c.errors);
    await signIn(p, SECOND);
    await p.waitForURL(/\/console\/review$/);
    await mark(p);
    await menu(p, '月结');
    await expect.poll(() => shown(p.getByTestId('role-needed'))).toBe('结账、反结账需要经理角色（您没有经理角色：可请管理员或经理在“人员”页为您添加）');
    expect(await p.getByTestId('role-switch').count()).toBe(0);
    expect(await p.getByTestId('close').count()).toBe(0);
    await p.getByTestId('account').click();
    await p.getByRole('menuitem', { name: '退出登录' }).waitFor();
    expect(await p.getByRole('menuitem', { name: '切换为经理' }).count()).toBe(0);
    await p.getByTestId('account').click();
    await p.getByRole('menuitem', { name: '退出登录' }).waitFor({ state: 'hidden' });

    // The first person gives 孙管理 the 经理 role meanwhile.
    const first = await app.login(FIRST, 'manager');
    expect((await app.request('POST', '/api/people', { token: first, body: { phone: SECOND, name: '孙管理', role: 'manager' } })).status).toBe(200);
    await p.getByTestId('account').click();
    await p.getByRole('menuitem', { name: '切换为经理' }).waitFor();
    await p.getByTestId('account').click();
    await p.getByRole('menuitem', { name: '退出登录' }).waitFor({ state: 'hidden' });
    // The page's note offers it too.
    await seenAtBothWidths(p, 'role-switch');
    await p.getByTestId('role-switch').click();
    await expect.poll(() => shown(p.getByTestId('account'))).toBe('孙管理 · 经理 ▾');
    await seenAtBothWidths(p, 'close');

    // As 经理, the pending report's page says 审核 needs 管理员 and switches to open its review.
    await p.goto(`${app.url}/console/reports/${pendingId}`);
    await mark(p);
    await expect.poll(() => shown(p.getByTestId('role-needed-text'))).toBe('审核需要管理员角色');
    await seenAtBothWidths(p, 'role-switch');
    await p.getByTestId('role-switch').click();
    await p.waitForURL(new RegExp(`/console/review\\?report=${pendingId}$`));
    await p.getByTestId('review-drawer').getByRole('button', { name: '通过', exact: true }).waitFor();
    expect(await shown(p.getByTestId('account'))).toBe('孙管理 · 管理员 ▾');
    expect(await notReloaded(p)).toBe(true);
    await p.context().close();
  });
});
