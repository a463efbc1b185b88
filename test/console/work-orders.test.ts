/**
 * 工单 in the console: a manager sees the orders with their status, due date (late in red), a progress bar per
 * operation (approved and pending 成品 against the planned quantity) and the completion as the API gives them;
 * releases an order through the dialog; closes one with a reason. The order's page shows its fields, each operation's
 * approved and pending quantities with its bar, the reports naming it per operation and the audit trail; an edit
 * appends an operation and changes the planned quantity (both in the trail). The work-ticket sheet prints each chosen
 * order's ticket beside its number, product, route, planned quantity and due date. What a person sees is asserted at
 * 1366×768 and at 390×844 (nothing to scroll sideways, the key parts inside the viewport); axe-core finds no serious
 * violation; no page logs an error.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, MIN, workerClient } from '../clock/helpers.ts';
import { axeViolations, DESKTOP, launchBrowser, openConsole, pdfPages, PHONE, shoot, signIn, skipBrowserTests } from './browser.ts';
import { expectNoPageErrors, fitsBothWidths, menu, seen, shown } from './viewport.ts';

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
    await addProduct(app, 'JC-03', { project: 'XM-1', name: '前围横梁', process: '焊接', cycle: 5 });
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
  afterEach(() => expectNoPageErrors(pageErrors));

  it('the list: status, the late order in red, a bar per operation, the completion, as the API gives them', async () => {
    await menu(page, '工单');
    const rows = page.getByTestId('orders-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const first = rows.filter({ hasText: 'WO-2603-01' });
    expect(await shown(first.getByTestId('due'))).toBe('2026-03-05');
    expect(await first.getByTestId('late').isVisible()).toBe(true);
    expect(await shown(first.getByTestId('late'))).toBe('逾期');
    const color = await first.getByTestId('due').evaluate((e) => (globalThis as any).getComputedStyle(e).color as string);
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

  it("the order's page: its fields, each operation's quantities and bar, the reports per operation, the audit trail", async () => {
    await page.goto(`${app.url}/console/work-orders`);
    const rows = page.getByTestId('orders-table').locator('tbody tr');
    await rows.filter({ hasText: 'WO-2603-01' }).getByTestId('order-no').click();
    await page.getByRole('heading', { level: 1, name: '工单 WO-2603-01' }).waitFor();
    const api = (await call('GET', '/api/work-orders/WO-2603-01')).body;
    const facts = page.getByTestId('order-facts');
    expect(await shown(facts.getByTestId('status'))).toBe('生产中');
    expect(await shown(facts.getByTestId('planned'))).toBe(String(api.plannedQty));
    expect(await shown(facts.getByTestId('due'))).toBe('2026-03-05');
    expect(await shown(facts.getByTestId('late'))).toBe('逾期');
    expect(await shown(facts.getByTestId('completion'))).toBe(`${api.completionPct.toFixed(1)}%`);
    const ops = page.getByTestId('op-row');
    await expect.poll(() => ops.count()).toBe(2);
    expect(await shown(ops.nth(0).getByTestId('op-approved'))).toBe('成品 400 · 不良 0');
    expect(await shown(ops.nth(0).getByTestId('op-pending'))).toBe('成品 100 · 不良 0');
    expect(await ops.nth(0).getByRole('img').getAttribute('aria-label')).toBe('冲压 已通过 400 件，待审核 100 件，计划 1000 件');
    expect(await shown(ops.nth(1).getByTestId('op-approved'))).toBe('成品 0 · 不良 0');
    // the two reports naming it, each with its line for the order; 折弯 has none
    const reports = page.getByTestId('order-reports').locator('tbody tr, li.card');
    await expect.poll(() => reports.count()).toBe(2);
    expect((await reports.getByTestId('report-line').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()).sort()).toEqual(['冲压 · 100 / 0', '冲压 · 400 / 0']);
    await page.getByTestId('report-filter').getByText('折弯', { exact: true }).click();
    await expect.poll(() => shown(page.getByTestId('order-reports').locator('.el-table__empty-text'))).toBe('还没有报工单写这个工单');
    await page.getByTestId('report-filter').getByText('全部工序', { exact: true }).click();
    await expect.poll(() => reports.count()).toBe(2);
    // the audit trail: released by 李经理 with its fields
    const trail = page.getByTestId('order-audit');
    expect(await shown(trail.getByTestId('audit-type').first())).toBe('下达');
    expect(await shown(trail)).toContain('李经理（经理）');
    expect(await shown(trail)).toContain('工序路线：冲压→折弯');
    for (const v of [DESKTOP, PHONE]) {
      await page.setViewportSize(v);
      await expect.poll(() => reports.count()).toBe(2); // a table at a desk, cards on a phone
      for (const l of [facts.getByTestId('completion'), ops.nth(0).getByTestId('op-approved'), reports.first().getByTestId('report-line'), trail.getByTestId('audit-type').first()]) {
        expect(await seen(l), `at ${v.width}px`).toBe('');
      }
    }
    await page.setViewportSize(DESKTOP);
    await fitsBothWidths(page, [page.getByTestId('edit-order'), page.getByTestId('print-ticket')]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('an edit appends 焊接 and changes the planned quantity; the page and the trail show both', async () => {
    await page.getByTestId('edit-order').click();
    const dialog = page.getByRole('dialog', { name: '编辑工单 WO-2603-01' });
    // 冲压 has reports: it cannot be removed
    expect(await dialog.getByRole('button', { name: '删除工序 冲压' }).isDisabled()).toBe(true);
    await dialog.getByTestId('e-planned').locator('input').fill('1200');
    await dialog.getByTestId('e-append').fill('焊接');
    await dialog.getByTestId('e-append-button').click();
    await dialog.getByRole('button', { name: '保存' }).click();
    const ops = page.getByTestId('op-row');
    await expect.poll(() => ops.count()).toBe(3);
    expect(await shown(page.getByTestId('order-facts').getByTestId('planned'))).toBe('1200');
    expect(await ops.nth(0).getByRole('img').getAttribute('aria-label')).toBe('冲压 已通过 400 件，待审核 100 件，计划 1200 件');
    const api = (await call('GET', '/api/work-orders/WO-2603-01')).body;
    expect([api.plannedQty, api.operations.map((o: any) => o.processName)]).toEqual([1200, ['冲压', '折弯', '焊接']]);
    const changes = page.getByTestId('order-audit').getByTestId('audit-change');
    await expect.poll(async () => (await changes.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(
      expect.arrayContaining(['计划数量：1000 → 1200', '工序路线：冲压→折弯 → 冲压→折弯→焊接']),
    );
    await page.locator('.el-message').last().waitFor({ state: 'detached', timeout: 10_000 }); // the toast gone
    await page.setViewportSize({ width: 1366, height: 1100 });
    await shoot(page, 'work-order');
    await page.setViewportSize(DESKTOP);
  });

  it('the work-ticket sheet: each chosen order with its ticket, number, product, route, planned quantity and due date', async () => {
    await page.goto(`${app.url}/console/work-orders`);
    const rows = page.getByTestId('orders-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    for (const no of ['WO-2603-01', 'WO-2603-03']) await rows.filter({ hasText: no }).locator('.el-checkbox').click();
    await page.getByTestId('print-tickets').click();
    await page.locator('[data-test="print-sheet"][data-ready="true"]').waitFor();
    const tickets = page.getByTestId('ticket');
    expect(await tickets.count()).toBe(2);
    const first = tickets.filter({ hasText: 'WO-2603-01' });
    expect(await shown(first.getByTestId('ticket-order'))).toBe('WO-2603-01');
    expect(await shown(first.getByTestId('ticket-route'))).toBe('冲压→折弯→焊接');
    expect(await shown(first.getByTestId('ticket-qty'))).toBe('计划 1200 件 · 交期 2026-03-05');
    expect(await shown(first)).toContain('前围横梁');
    // the ticket is a picture that loaded (the mini-program code of the order)
    const img = page.getByRole('img', { name: 'WO-2603-01 的工票' });
    expect(await img.evaluate((i: any) => i.naturalWidth > 0 && i.src.startsWith('blob:'))).toBe(true);
    expect(await shown(tickets.filter({ hasText: 'WO-2603-03' }).getByTestId('ticket-qty'))).toBe('计划 1 件');
    for (const v of [DESKTOP, PHONE]) {
      await page.setViewportSize(v);
      expect(await seen(page.getByTestId('print')), `打印 at ${v.width}px`).toBe('');
      expect(await seen(first.getByTestId('ticket-order')), `the first ticket at ${v.width}px`).toBe('');
    }
    await page.setViewportSize(DESKTOP);
    await shoot(page, 'work-tickets');
    expect(await axeViolations(page)).toEqual([]);
    // printed: one A4 page of tickets with their text
    const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true });
    const pages = await pdfPages(pdf);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('WO-2603-01');
    expect(pages[0]).toContain('WO-2603-03');
  });
});
