/**
 * Wages and the monthly close in the browser: a manager sets rates on the 产品 page (the rate in force in the list, a product's
 * history, a new rate), reads March on the 工资 page (status banner, totals, every worker, a statement with its
 * priced and unpriced lines, the export opened with xlsx), and on the 月结 page is refused a close with every
 * blocker listed as links to the reports, closes the month once nothing blocks it, and reopens it with a reason.
 * What a person sees is asserted at 1366×768 and at 390×844: the figures shown equal the API's, and the page
 * fits the width (nothing to scroll sideways, the key figures inside the viewport). axe-core finds no serious
 * violation; no page logs an error.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import * as XLSX from 'xlsx';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { line, submitReport } from '../review/fixtures.ts';
import { axeViolations, launchBrowser, openConsole, shoot, signIn, skipBrowserTests } from './browser.ts';
import { expectNoPageErrors, fitsBothWidths, shown } from './viewport.ts';

const MANAGER = '13900000003';
const ZHANG = '13700000001';
const LI = '13700000002';

let app: TestApp;
let browser: Browser;
let page: Page;
let adminToken: string;
let managerToken: string;
const pageErrors: string[][] = [];
const ids = { beam: 0, plate: 0 };
const reports: Record<string, string> = {};

/**
 * The browser logs each refusal the page meets as "Failed to load resource … status of <status>": takes exactly
 * `count` such lines of `status` out of the page's errors (a refusal the test provokes on purpose), so that any
 * other error still fails the test.
 */
function expectRefusals(errors: string[], status: number, count: number): void {
  const mine = errors.filter((e) => e.includes(`status of ${status}`));
  expect(mine).toHaveLength(count);
  errors.splice(0, errors.length, ...errors.filter((e) => !e.includes(`status of ${status}`)));
}


describe.skipIf(skipBrowserTests('wages.test.ts'))('wages and the monthly close in the console', () => {
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp({}, '2026-03-20T10:00:00+08:00'), launchBrowser()]);
    adminToken = await app.login('13800138000', 'admin', '王管理');
    managerToken = await app.login(MANAGER, 'manager', '李经理');
    await app.login(ZHANG, 'worker', '张三');
    await app.login(LI, 'worker', '李四');
    const p = await app.service.ctx.db.pool.query(
      `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
       VALUES ('XM-1', '前围横梁', 'JC-01', '落料', 24, 1200), ('XM-1', '后围板', 'JC-01', '冲孔', 18, 1600) RETURNING id`,
    );
    [ids.beam, ids.plate] = p.rows.map((r) => Number(r.id));
    const rate = await app.request('POST', `/api/products/${ids.beam}/rates`, { token: managerToken, body: { pieceRate: '1.25', defectRate: '-0.5', effectiveFrom: '2026-03-01' } });
    expect(rate.status).toBe(201);
    const ctx = app.service.ctx;
    const beam = (f: number, d: number) => ({ ...line(ids.beam, 24, 1200, f, d), productName: '前围横梁', processName: '落料', deviceNo: 'JC-01' });
    const plate = (f: number, d: number) => ({ ...line(ids.plate, 18, 1600, f, d), productName: '后围板', processName: '冲孔', deviceNo: 'JC-01' });
    reports.z1 = (await submitReport(ctx, { phone: ZHANG, reportDate: '2026-03-02', lines: [beam(480, 25), plate(100, 0)] }, '张三')).reportId;
    reports.l1 = (await submitReport(ctx, { phone: LI, reportDate: '2026-03-03', lines: [beam(1500, 20)] }, '李四')).reportId;
    reports.l2 = (await submitReport(ctx, { phone: LI, reportDate: '2026-03-18', lines: [beam(10, 0)] }, '李四')).reportId;
    for (const id of [reports.z1, reports.l1]) expect((await app.request('POST', `/api/reviews/${id}/approve`, { token: adminToken, body: {} })).status).toBe(200);
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

  it('产品: the list shows the rate in force and 未定价; a product’s history; a manager sets a rate from a date', async () => {
    await page.getByRole('navigation', { name: '主菜单' }).getByText('产品').click();
    await page.waitForURL(/\/console\/products$/);
    const rows = page.getByTestId('products-table').locator('tbody tr');
    await rows.first().waitFor();
    expect(await shown(rows.filter({ hasText: '前围横梁' }).getByTestId('rate-in-force'))).toBe('1.2500 不良 -0.5000');
    expect(await shown(rows.filter({ hasText: '后围板' }))).toContain('未定价');

    await rows.filter({ hasText: '前围横梁' }).getByTestId('open-rates').click();
    const dialog = page.getByTestId('rates-dialog');
    await dialog.getByTestId('rate-history').locator('tbody tr').first().waitFor();
    expect((await dialog.getByTestId('rate-history').locator('tbody tr').first().locator('td').allTextContents()).map((t) => t.trim()).slice(0, 3)).toEqual([
      '2026-03-01',
      '1.2500',
      '-0.5000',
    ]);
    await shoot(page, 'product-rates');
    expect(await axeViolations(page)).toEqual([]);
    await fitsBothWidths(page, [dialog.getByTestId('rate-history').locator('tbody tr').first(), dialog.getByTestId('rate-save')]);
    await page.keyboard.press('Escape');

    await rows.filter({ hasText: '后围板' }).getByTestId('open-rates').click();
    await dialog.getByTestId('rate-piece').fill('0.8000');
    await dialog.getByTestId('rate-from').locator('input').fill('2026-03-01');
    await dialog.getByTestId('rate-from').locator('input').press('Enter');
    await dialog.getByTestId('rate-reason').fill('新产品定价');
    await dialog.getByTestId('rate-save').click();
    await expect.poll(async () => (await dialog.getByTestId('rate-history').locator('tbody tr').allTextContents()).join('|')).toContain('新产品定价');
    await page.keyboard.press('Escape');
    await expect.poll(() => shown(rows.filter({ hasText: '后围板' }).getByTestId('rate-in-force'))).toBe('0.8000');
    const history = (await app.request('GET', `/api/products/${ids.plate}/rates`, { token: adminToken })).body.items;
    expect(history).toEqual([expect.objectContaining({ pieceRate: '0.8000', defectRate: '0.0000', effectiveFrom: '2026-03-01', reason: '新产品定价', setBy: { phone: MANAGER, name: '李经理' } })]);
    await fitsBothWidths(page, [page.getByTestId('open-import')]);
  });

  it('工资: the month’s banner, totals and workers equal the API’s; a statement with its priced lines; the export opens with the same figures', async () => {
    await app.catchUpAll();
    const api = (await app.request('GET', '/api/wages?month=2026-03', { token: adminToken })).body;
    // By hand: 张三 480 × 1.25 + 25 × (−0.5) = 587.50, 100 × 0.80 = 80.00 → 667.50; 李四 1,500 × 1.25 + 20 × (−0.5) = 1,865.00.
    expect(api.items.map((w: any) => [w.employeePhone, w.amount])).toEqual([
      [ZHANG, '667.50'],
      [LI, '1865.00'],
    ]);
    await page.goto(`${app.url}/console/wages?month=2026-03`);
    await page.getByTestId('wages-table').locator('tbody tr').first().waitFor();
    expect(await shown(page.getByTestId('status-banner'))).toContain('2026年3月未结账');
    expect(await shown(page.getByTestId('total-amount'))).toBe('2532.50');
    expect(await shown(page.getByTestId('totals'))).toBe('员工2报工单2成品2080不良45计件工资（元）2532.50未定价行0待审核（不计入）1');
    const cells = await page.getByTestId('wages-table').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...(tr as any).querySelectorAll('td')].map((td: any) => td.textContent.trim())));
    expect(cells).toEqual([
      [ZHANG, '张三', '未分班组', '1', '580', '25', '667.50', '0'],
      [LI, '李四', '未分班组', '1', '1500', '20', '1865.00', '0'],
    ]);
    await shoot(page, 'wages');
    expect(await axeViolations(page)).toEqual([]);
    const firstAmount = page.getByTestId('wages-table').locator('tbody tr').first().getByText('667.50');
    await fitsBothWidths(page, [page.getByTestId('status-banner'), page.getByTestId('total-amount'), page.getByTestId('export'), firstAmount]);

    await page.getByTestId('wages-table').getByText('张三').click();
    const drawer = page.getByTestId('statement');
    await drawer.waitFor();
    expect(await shown(page.getByTestId('statement-amount'))).toBe('667.50 元');
    const lines = await drawer.getByTestId('statement-lines').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...(tr as any).querySelectorAll('td')].map((td: any) => td.textContent.trim())));
    expect(lines).toEqual([
      // 不良 with the pay's split under it (no reasons: all 未注明), and the 料废单价 (not set: the 不良单价).
      ['前围横梁落料 · JC-01', '480', '25未注明 25', '1.2500', '-0.5000', '-0.5000', '587.50'],
      ['后围板冲孔 · JC-01', '100', '0', '0.8000', '0.0000', '0.0000', '80.00'],
    ]);
    expect(page.url()).toContain(`phone=${ZHANG}`);
    await shoot(page, 'wage-statement');
    expect(await axeViolations(page)).toEqual([]);
    await fitsBothWidths(page, [page.getByTestId('statement-amount')]);
    await page.keyboard.press('Escape');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
    expect(download.suggestedFilename()).toBe('计件工资_2026-03.xlsx');
    const book = XLSX.read(readFileSync(await download.path()));
    expect(book.SheetNames).toEqual(['汇总', '明细']);
    expect(XLSX.utils.sheet_to_json<any>(book.Sheets['汇总'])).toEqual([
      { 手机号: ZHANG, 姓名: '张三', 报工单数: 1, 成品数量: 580, 不良数量: 25, 计件工资: 667.5, 未定价行: 0 },
      { 手机号: LI, 姓名: '李四', 报工单数: 1, 成品数量: 1500, 不良数量: 20, 计件工资: 1865, 未定价行: 0 },
      { 手机号: '合计', 报工单数: 2, 成品数量: 2080, 不良数量: 45, 计件工资: 2532.5, 未定价行: 0 },
    ]);
    expect(XLSX.utils.sheet_to_json<any>(book.Sheets['明细']).map((r) => [r.手机号, r.产品名称, r.计件单价, r.不良单价, r.金额])).toEqual([
      [ZHANG, '前围横梁', 1.25, -0.5, 587.5],
      [ZHANG, '后围板', 0.8, 0, 80],
      [LI, '前围横梁', 1.25, -0.5, 1865],
      ['合计', undefined, undefined, undefined, 2532.5],
    ]);
  });

  it('月结: a close refused lists every blocker as links to the reports; once nothing blocks, the month closes; it reopens with a reason', async () => {
    await page.goto(`${app.url}/console/periods`);
    const march = page.getByTestId('periods-table').locator('tbody tr').filter({ hasText: '2026年3月' }).first();
    await march.waitFor();
    expect(await shown(march)).toContain('未结账');
    await march.getByTestId('close').click();
    await page.getByRole('button', { name: '结账', exact: true }).last().click();
    const blockers = page.getByTestId('close-blockers');
    await blockers.waitFor();
    expectRefusals(pageErrors[0], 409, 1); // the refused close
    expect(await shown(blockers)).toContain('2026年3月不能结账：2026年3月还没有结束，月末之后才能结账；还有 1 张报工单待审核，请先审核');
    const links = blockers.getByTestId('blocker-link');
    expect(await links.allTextContents()).toEqual([`2026-03-18 · 李四（${LI}）的报工单`]);
    await shoot(page, 'periods-refused');
    expect(await axeViolations(page)).toEqual([]);
    await fitsBothWidths(page, [links.first()]);
    await links.first().click();
    await page.waitForURL(new RegExp(`/console/reports/${reports.l2}$`));

    // The pending report approved, April come: the close goes through.
    expect((await app.request('POST', `/api/reviews/${reports.l2}/approve`, { token: adminToken, body: {} })).status).toBe(200);
    app.clock.set('2026-04-02T09:00:00+08:00');
    await page.goto(`${app.url}/console/periods`);
    await march.getByTestId('close').click();
    await page.getByRole('button', { name: '结账', exact: true }).last().click();
    await expect.poll(() => page.getByText('2026年3月已结账（第 1 次）：2 人，计件工资 2545.00 元').isVisible()).toBe(true);
    await expect.poll(() => shown(march)).toContain('已结账');
    expect(await shown(march)).toContain('2545.00');
    const close = (await app.request('GET', '/api/periods', { token: adminToken })).body.items.find((p: any) => p.month === '2026-03');
    expect([close.status, close.version, close.amount, close.closedBy.name]).toEqual(['closed', 1, '2545.00', '李经理']);

    await march.getByTestId('reopen').click();
    await page.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => page.getByText('请填写反结账原因（1–200 个字）').isVisible()).toBe(true);
    expectRefusals(pageErrors[0], 422, 1); // the reopen without a reason
    await page.getByTestId('reopen-reason').fill('补录漏审的报工单');
    await page.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => shown(march)).toContain('已反结账');
    await march.locator('.el-table__expand-icon').click();
    const trail = page.getByTestId('period-trail');
    await trail.waitFor();
    expect(await shown(trail)).toMatch(/李经理 结账（第 1 次，2545\.00 元）.*李经理 反结账（第 1 次，2545\.00 元），原因：补录漏审的报工单/);
    await shoot(page, 'periods');
    expect(await axeViolations(page)).toEqual([]);
    await fitsBothWidths(page, [march.getByTestId('close')]);

    // An administrator reads the months and cannot close them.
    const c = await openConsole(browser, app);
    pageErrors.push(c.errors);
    await signIn(c.page, '13800138000');
    await c.page.goto(`${app.url}/console/periods`);
    await c.page.getByTestId('periods-table').locator('tbody tr').first().waitFor();
    expect(await c.page.getByTestId('close').count()).toBe(0);
    expect(await c.page.getByTestId('periods-scoped').count()).toBe(0);
    // The reopened month reads 已反结账 on the 工资 page too, not 未结账.
    await c.page.goto(`${app.url}/console/wages?month=2026-03`);
    await expect.poll(() => shown(c.page.getByTestId('status-banner'))).toContain('2026年3月已反结账（第 1 次结账后）');
  });

  it('月结 for a manager with a scope: the counts of the scope, no amounts, no close or reopen', async () => {
    await app.service.ctx.db.pool.query(`INSERT INTO workshops (code, name, updated_at) VALUES ('W1', '冲压车间', now())`);
    const phone = '13900000007';
    await app.login(phone, 'manager', '车间经理');
    const set = await app.request('PUT', `/api/people/${phone}/scope`, { token: managerToken, body: { role: 'manager', workshops: ['W1'], teams: [] } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const c = await openConsole(browser, app);
    pageErrors.push(c.errors);
    await signIn(c.page, phone);
    await c.page.goto(`${app.url}/console/periods`);
    const note = c.page.getByTestId('periods-scoped');
    await note.waitFor();
    expect(await shown(note)).toContain('您的审核范围只是部分车间或班组：已通过、待审核只计您范围内的报工单；结账金额是全厂的，不显示。');
    const march = c.page.getByTestId('periods-table').locator('tbody tr').filter({ hasText: '2026年3月' }).first();
    await march.waitFor();
    // The reports of March were written in no team: none is in this scope; March is closed by now or open, its
    // amount is not shown either way.
    expect(await shown(march)).not.toMatch(/\d+\.\d\d/);
    expect(await c.page.getByTestId('close').count()).toBe(0);
    expect(await c.page.getByTestId('reopen').count()).toBe(0);
    await fitsBothWidths(c.page, [note]);
  });
});
