/**
 * Scopes in the browser: on the 人员 page a manager sees each reviewer's 审核范围 (全厂 when none) and
 * scopes an administrator to one workshop; the 看板 and 工资 pages name each row's team (班组) and narrow the rows
 * with the 车间 / 班组 filters; the scoped administrator then sees only their workshop's rows on 看板. What a person
 * sees is asserted at 1366×768 and at 390×844 (nothing to scroll sideways, the key elements inside the viewport);
 * axe-core finds no serious violation; no page logs an error.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { submitReport } from '../review/fixtures.ts';
import { axeViolations, launchBrowser, openConsole, shoot, signIn, skipBrowserTests } from './browser.ts';
import { expectNoPageErrors, fitsBothWidths, shown } from './viewport.ts';

const MANAGER = '13900000003';
const ADMIN = '13800138000';
const ZHANG = '13700000001';
const LI = '13700000002';

let app: TestApp;
let browser: Browser;
let page: Page;
const pageErrors: string[][] = [];

/** Picks `option` in the el-select `select`. */
async function choose(p: Page, select: Locator, option: string): Promise<void> {
  await select.click();
  await p.getByRole('option', { name: option, exact: true }).last().click();
}

describe.skipIf(skipBrowserTests('scope.test.ts'))('scopes, filters and the team column in the console', () => {
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp({}, '2026-03-20T10:00:00+08:00'), launchBrowser()]);
    const adminToken = await app.login(ADMIN, 'admin', '王管理');
    await app.login(MANAGER, 'manager', '李经理');
    await app.login(ZHANG, 'worker', '张三');
    await app.login(LI, 'worker', '李四');
    const q = app.service.ctx.db.pool;
    await q.query(`INSERT INTO workshops (code, name, updated_at) VALUES ('W1', '冲压车间', now()), ('W2', '焊接车间', now())`);
    await q.query(`INSERT INTO teams (code, name, workshop_code, leaders, updated_at) VALUES ('T1', '冲压一班', 'W1', '{}', now()), ('T2', '焊接二班', 'W2', '{}', now())`);
    const ctx = app.service.ctx;
    const z = await submitReport(ctx, { phone: ZHANG, reportDate: '2026-03-02', workshopCode: 'W1', teamCode: 'T1' }, '张三');
    const l = await submitReport(ctx, { phone: LI, reportDate: '2026-03-03', workshopCode: 'W2', teamCode: 'T2' }, '李四');
    for (const id of [z.reportId, l.reportId]) expect((await app.request('POST', `/api/reviews/${id}/approve`, { token: adminToken, body: {} })).status).toBe(200);
    await app.catchUpAll();
    const c = await openConsole(browser, app);
    page = c.page;
    pageErrors.push(c.errors);
    await signIn(page, MANAGER);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  afterEach(() => expectNoPageErrors(pageErrors));

  it('人员: the administrator’s scope is 全厂; the manager scopes them to 冲压车间', async () => {
    await page.getByRole('navigation', { name: '主菜单' }).getByText('人员').click();
    await page.waitForURL(/\/console\/people$/);
    const row = page.getByTestId('people-table').locator('tbody tr').filter({ hasText: ADMIN });
    await row.first().waitFor();
    expect(await shown(row.first().getByTestId('scope'))).toBe('管理员：全厂');
    await row.first().getByTestId('edit-scope').click();
    await choose(page, page.getByTestId('scope-workshops'), '冲压车间');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: '审核范围' }).getByRole('button', { name: '保存' }).click();
    await page.getByText('审核范围已保存').waitFor();
    await row.first().getByText('管理员：冲压车间').waitFor();
    const api = await app.request('GET', `/api/people?keyword=${ADMIN}`, { token: await app.login(MANAGER, 'manager') });
    expect(api.body.items[0].scope).toEqual([{ role: 'admin', workshops: ['W1'], teams: [] }]);
    await shoot(page, 'people-scope');
    expect(await axeViolations(page)).toEqual([]);
    await fitsBothWidths(page, [row.first().getByTestId('scope')]);
  });

  it('看板: each row names its team; the 车间 filter leaves 焊接车间’s rows only', async () => {
    await page.goto(`${app.url}/console/dashboard?startDate=2026-03-01&endDate=2026-03-20`);
    const dash = page.getByTestId('dashboard');
    await dash.and(page.locator('[data-ready="true"]')).waitFor();
    const teams = dash.getByTestId('dashboard-table').getByTestId('row-team');
    expect((await teams.allTextContents()).map((t) => t.trim())).toEqual(['焊接车间 · 焊接二班', '冲压车间 · 冲压一班']);
    await choose(page, page.getByTestId('filter-workshop'), '焊接车间');
    await page.waitForURL(/workshop=W2/);
    await dash.and(page.locator('[data-ready="true"]')).waitFor();
    await expect.poll(async () => (await teams.allTextContents()).map((t) => t.trim())).toEqual(['焊接车间 · 焊接二班']);
    await shoot(page, 'dashboard-filtered');
    expect(await axeViolations(page)).toEqual([]);
    await fitsBothWidths(page, [page.getByTestId('filter-workshop'), page.getByTestId('filter-team'), dash.getByTestId('dashboard-table').getByTestId('row-team').first()]);
  });

  it('工资: each worker names their team; the 班组 filter leaves 冲压一班 only', async () => {
    await page.goto(`${app.url}/console/wages?month=2026-03`);
    const table = page.getByTestId('wages-table');
    await table.locator('tbody tr').nth(1).waitFor();
    expect((await table.getByTestId('row-team').allTextContents()).map((t) => t.trim())).toEqual(['冲压一班', '焊接二班']);
    await choose(page, page.getByTestId('filter-team'), '冲压一班');
    await page.waitForURL(/team=T1/);
    await expect.poll(async () => (await table.getByTestId('row-team').allTextContents()).map((t) => t.trim())).toEqual(['冲压一班']);
    expect(await shown(page.getByTestId('totals'))).toMatch(/报工单\s*1\s*成品/);
    await shoot(page, 'wages-filtered');
    expect(await axeViolations(page)).toEqual([]);
    await fitsBothWidths(page, [page.getByTestId('filter-team'), table.getByTestId('row-team').first()]);
  });

  it('the administrator scoped to 冲压车间 sees only its rows on 看板', async () => {
    const c = await openConsole(browser, app);
    pageErrors.push(c.errors);
    await signIn(c.page, ADMIN);
    await c.page.goto(`${app.url}/console/dashboard?startDate=2026-03-01&endDate=2026-03-20`);
    const dash = c.page.getByTestId('dashboard');
    await dash.and(c.page.locator('[data-ready="true"]')).waitFor();
    expect((await dash.getByTestId('dashboard-table').getByTestId('row-team').allTextContents()).map((t) => t.trim())).toEqual(['冲压车间 · 冲压一班']);
    await c.page.close();
  });

  it('工资 of the administrator scoped to 冲压车间 says what it covers and offers only its workshop and teams', async () => {
    const c = await openConsole(browser, app);
    pageErrors.push(c.errors);
    await signIn(c.page, ADMIN);
    await c.page.goto(`${app.url}/console/wages?month=2026-03`);
    const note = c.page.getByTestId('scope-note');
    await note.waitFor();
    expect(await shown(note)).toContain('本页只含：冲压车间');
    expect(await shown(note)).toContain('不是全厂的工资总额');
    const table = c.page.getByTestId('wages-table');
    await table.getByTestId('row-team').first().waitFor();
    expect((await table.getByTestId('row-team').allTextContents()).map((t) => t.trim())).toEqual(['冲压一班']);
    // No product here has a rate: the amount reads 未定价 with its lines, not 0.00 as if nothing were owed.
    expect((await table.getByTestId('row-unpriced').allTextContents()).map((t) => t.trim())).toEqual(['未定价（1 行）']);
    /** The options a select offers once its list is open and shows `first`. */
    const offered = async (select: string, first: string) => {
      await c.page.getByTestId(select).click();
      await c.page.getByRole('option', { name: first, exact: true }).last().waitFor();
      const texts = (await c.page.locator('.el-select-dropdown__item:visible').allTextContents()).map((t) => t.trim());
      await c.page.keyboard.press('Escape');
      await c.page.locator('.el-select-dropdown__item:visible').first().waitFor({ state: 'hidden' });
      return texts;
    };
    expect(await offered('filter-workshop', '冲压车间')).toEqual(['冲压车间']);
    expect(await offered('filter-team', '冲压一班')).toEqual(['冲压一班']);
    await shoot(c.page, 'wages-scoped');
    await fitsBothWidths(c.page, [note]);
    // The whole factory's manager sees no such note.
    await page.goto(`${app.url}/console/wages?month=2026-03`);
    await page.getByTestId('wages-table').getByTestId('row-team').first().waitFor();
    expect(await page.getByTestId('scope-note').count()).toBe(0);
    await c.page.close();
  });
});
