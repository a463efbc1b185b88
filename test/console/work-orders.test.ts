/**
 * 工单 in the console: a manager sees the orders with their status, due date (late in red), a progress bar per
 * operation (approved and pending 成品 against the planned quantity) and the completion as the API gives them;
 * releases an order through the dialog; closes one with a reason. What a person sees is asserted at 1366×768 and at
 * 390×844 (nothing to scroll sideways, the key parts inside the viewport); axe-core finds no serious violation; no
 * page logs an error.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, MIN, workerClient } from '../clock/helpers.ts';
import { axeViolations, launchBrowser, openConsole, shoot, signIn, skipBrowserTests } from './browser.ts';
import { fitsBothWidths, menu, shown } from './viewport.ts';

const MANAGER = '13900000003';
const ADMIN = '13800138000';
let app: TestApp;
let browser: Browser;
let page: Page;
let managerToken: string;
const pageErrors: string[][] = [];
const call = (method: string, path: string, body?: unknown) => app.request(method, path, { token: managerToken, body });

describe.skipIf(skipBrowserTests('work-orders.test.ts'))('工单 in the console', () => {
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp({}, '2026-03-02T08:00:00+08:00'), launchBrowser()]);
    managerToken = await app.login(MANAGER, 'manager', '李经理');
    const adminToken = await app.login(ADMIN, 'admin', '王管理');
    const stamp = await addProduct(app, 'JC-01', { project: 'XM-1', name: '前围横梁', process: '冲压', cycle: 5 });
    await addProduct(app, 'JC-02', { project: 'XM-1', name: '前围横梁', process: '折弯', cycle: 5 });
    expect((await call('POST', '/api/work-orders', { orderNo: 'WO-2603-01', projectNo: 'XM-1', productName: '前围横梁', plannedQty: 1000, dueDate: '2026-03-05', operations: ['冲压', '折弯'] })).status).toBe(201);
    expect((await call('POST', '/api/work-orders', { orderNo: 'WO-2603-02', projectNo: 'XM-1', productName: '前围横梁', plannedQty: 200, dueDate: '2026-03-31', operations: ['冲压'] })).status).toBe(201);
    // 400 冲压 approved and 100 pending on the first order
    const w = workerClient(app, await app.login('13700000001', 'worker', '张三'));
    for (const [qty, approve] of [[400, true], [100, false]] as const) {
      const s = await w.start('JC-01');
      app.clock.advance(8 * 60 * MIN);
      await w.finish('JC-01');
      const r = await w.submit(s.body.sessionId, [{ productId: stamp, finishedQty: qty, defectiveQty: 0, workOrderNo: 'WO-2603-01' }]);
      expect(r.status).toBe(201);
      if (approve) expect((await app.request('POST', `/api/reviews/${r.body.reportId}/approve`, { token: adminToken, body: {} })).status).toBe(200);
      app.clock.advance(16 * 60 * MIN);
    }
    app.clock.set('2026-03-06T10:00:00+08:00'); // the first order is late now
    const c = await openConsole(browser, app);
    page = c.page;
    pageErrors.push(c.errors);
    await signIn(page, MANAGER);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  afterEach(() => expect(pageErrors.flat()).toEqual([]));

  it('the list: status, the late order in red, a bar per operation, the completion, as the API gives them', async () => {
    await menu(page, '工单');
    const rows = page.getByTestId('orders-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const first = rows.filter({ hasText: 'WO-2603-01' });
    expect(await shown(first.getByTestId('due'))).toBe('2026-03-05');
    expect(await first.getByTestId('late').isVisible()).toBe(true);
    expect(await shown(first.getByTestId('late'))).toBe('逾期');
    const color = await first.getByTestId('due').evaluate((e) => (globalThis as any).getComputedStyle(e).color);
    const [r, g, b] = color.match(/\d+/g)!.map(Number);
    expect(r > 2 * g && r > 2 * b, `${color} is red`).toBe(true);
    expect(await shown(first.getByTestId('status'))).toBe('生产中');
    const api = (await call('GET', '/api/work-orders/WO-2603-01')).body;
    expect([api.operations[0].approvedFinishedQty, api.operations[0].pendingFinishedQty, api.completionPct]).toEqual([400, 100, 0]);
    const ops = first.getByTestId('operation');
    expect(await shown(ops.nth(0).getByTestId('op-qty'))).toBe('400 +100');
    expect(await ops.nth(0).getByRole('img').getAttribute('aria-label')).toBe('冲压 已通过 400 件，待审核 100 件，计划 1000 件');
    // the approved part of the bar is 400 / 1000 of it
    const bar = await ops.nth(0).locator('.bar').boundingBox();
    const approved = await ops.nth(0).locator('.approved').boundingBox();
    expect(Math.abs(approved!.width - bar!.width * 0.4)).toBeLessThan(2);
    expect(await shown(first.getByTestId('completion'))).toBe('0.0%');
    const second = rows.filter({ hasText: 'WO-2603-02' });
    expect(await shown(second.getByTestId('due'))).toBe('2026-03-31');
    expect(await second.getByTestId('late').count()).toBe(0);
    await shoot(page, 'work-orders');
    expect(await axeViolations(page)).toEqual([]);
    await fitsBothWidths(page, [page.getByRole('heading', { level: 1, name: '工单' }), page.getByTestId('new-order')]);
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'work-orders');
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  it('only the late ones when 只看逾期 is ticked', async () => {
    await page.getByTestId('late-only').click();
    const rows = page.getByTestId('orders-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await shown(rows.first().getByTestId('order-no'))).toBe('WO-2603-01');
    await page.getByTestId('late-only').click();
    await expect.poll(() => rows.count()).toBe(2);
  });

  it('a manager releases an order through the dialog and closes another with a reason', async () => {
    await page.getByTestId('new-order').click();
    await page.getByTestId('f-order-no').fill('WO-2603-03');
    await page.getByTestId('f-project-no').fill('XM-1');
    await page.getByTestId('f-product-name').fill('前围横梁');
    await page.getByTestId('f-route').fill('冲压→折弯');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    const rows = page.getByTestId('orders-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    expect((await call('GET', '/api/work-orders/WO-2603-03')).body).toMatchObject({ status: 'released', plannedQty: 1, operations: [{ processName: '冲压' }, { processName: '折弯' }] });

    await rows.filter({ hasText: 'WO-2603-02' }).getByTestId('close-order').click();
    await page.getByRole('dialog').getByRole('textbox').fill('客户取消');
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await expect.poll(async () => shown(rows.filter({ hasText: 'WO-2603-02' }).getByTestId('status'))).toBe('已关闭');
    expect((await call('GET', '/api/work-orders/WO-2603-02')).body).toMatchObject({ status: 'closed', statusReason: '客户取消' });
  });
});
