/**
 * What the console's buttons and charts say, in the browser, at the desk's 1366×768 and a phone's 390×844: on 产品
 * the rate's button reads 单价 (beside the rate or 未定价) and opens the product's rates; on 看板 the chart titles
 * are Chinese (实际节拍与标准节拍, 每日成品数量与标准工作量, no "vs") and each tooltip names every number with its
 * unit and the table's decimals (秒 with 2 decimals, 件). Key elements inside the viewport (viewport.ts `seen`); no
 * page logs an error.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { line, submitReport } from '../review/fixtures.ts';
import { DESKTOP, launchBrowser, openConsole, PHONE, signIn, skipBrowserTests } from './browser.ts';
import { seen, shown, snap } from './viewport.ts';

const MANAGER = '13900000003';
const ZHANG = '13700000001';
const DAY = '2026-03-02';
const f = (v: number) => v.toFixed(2);

let app: TestApp;
let browser: Browser;
let managerToken: string;

/** Hovers the middle of the chart `section`'s plot; → its tooltip's text (the box with `header` and `series`). */
async function tooltipOf(page: Page, section: string, header: string, series: string): Promise<string> {
  const chart = page.locator(`section[aria-label="${section}"]`);
  await chart.scrollIntoViewIfNeeded();
  const box = (await chart.locator('canvas').first().boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.7);
  const tip = chart.locator('div').filter({ hasText: header }).filter({ hasText: series }).last();
  await tip.waitFor();
  return shown(tip);
}

describe.skipIf(skipBrowserTests('labels.test.ts'))('labels of the rate button and the dashboard charts', () => {
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp({}, '2026-03-20T10:00:00+08:00'), launchBrowser()]);
    const adminToken = await app.login('13800138000', 'admin', '王管理');
    managerToken = await app.login(MANAGER, 'manager', '李经理');
    await app.login(ZHANG, 'worker', '张三');
    const p = await app.service.ctx.db.pool.query(
      `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
       VALUES ('XM-1', '前围横梁', 'JC-01', '落料', 24, 1200), ('XM-1', '后围板', 'JC-01', '冲孔', 18, 1600) RETURNING id`,
    );
    const [beam] = p.rows.map((r) => Number(r.id));
    expect((await app.request('POST', `/api/products/${beam}/rates`, { token: managerToken, body: { pieceRate: '1.25', effectiveFrom: '2026-03-01' } })).status).toBe(201);
    const r = await submitReport(app.service.ctx, { phone: ZHANG, reportDate: DAY, lines: [{ ...line(beam, 24, 1200, 1460, 5), productName: '前围横梁', processName: '落料', deviceNo: 'JC-01' }] }, '张三');
    expect((await app.request('POST', `/api/reviews/${r.reportId}/approve`, { token: adminToken, body: {} })).status).toBe(200);
    await app.catchUpAll();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`产品 at ${viewport.width}px: the button beside the rate or 未定价 reads 单价 and opens the product’s rates`, async () => {
      const { page, errors } = await openConsole(browser, app, '/console/', viewport);
      await signIn(page, MANAGER);
      await page.goto(`${app.url}/console/products`);
      const rows = page.getByTestId('products-table').locator('tbody tr');
      await rows.first().waitFor();
      const priced = rows.filter({ hasText: '前围横梁' });
      const unpriced = rows.filter({ hasText: '后围板' });
      expect(await shown(priced.getByTestId('rate-in-force'))).toBe('1.2500');
      expect(await shown(unpriced)).toContain('未定价');
      for (const row of [priced, unpriced]) {
        const button = row.getByRole('button', { name: '单价', exact: true });
        expect(await shown(button)).toBe('单价');
        // On a phone the table scrolls sideways (左右滑动): swiped to, the button is in view and uncovered.
        if (viewport === PHONE) await button.scrollIntoViewIfNeeded();
        expect(await seen(button)).toBe('');
      }
      await unpriced.getByRole('button', { name: '单价', exact: true }).click();
      await page.getByTestId('rates-dialog').getByTestId('rate-save').waitFor();
      expect(await seen(page.getByTestId('rates-dialog').getByTestId('rate-save'))).toBe('');
      expect(errors).toEqual([]);
      await page.context().close();
    });

    it(`看板 at ${viewport.width}px: Chinese chart titles; each tooltip names its numbers with units and the table’s decimals`, async () => {
      const api = (await app.request('GET', `/api/dashboard/reports?startDate=${DAY}&endDate=${DAY}`, { token: managerToken })).body;
      const [row] = api.items;
      expect(row.untrusted).toEqual({ cycleTime: false, workload: false });
      const { page, errors } = await openConsole(browser, app, '/console/', viewport);
      await signIn(page, MANAGER);
      await page.goto(`${app.url}/console/dashboard?startDate=${DAY}&endDate=${DAY}`);
      await page.locator('[data-test=dashboard][data-ready=true]').waitFor();
      const titles = page.locator('section.chart h2');
      expect(await titles.allTextContents()).toEqual(['实际节拍与标准节拍（按员工，比标准慢得最多的在前）', '每日成品数量与标准工作量']);
      for (const i of [0, 1]) expect(await seen(titles.nth(i))).toBe('');
      if (viewport === DESKTOP) {
        // The same figures as the table's cells (实际节拍(秒), 标准节拍(秒)).
        const cells = (await page.getByTestId('dashboard-table').locator('tbody tr').first().locator('td').allTextContents()).map((c) => c.trim());
        expect(cells.slice(4, 6)).toEqual([f(row.actualCycleSeconds), f(row.standardCycleSeconds)]);
      }
      const cycle = await tooltipOf(page, '实际节拍与标准节拍（按员工）', '张三', '实际节拍');
      expect(cycle).toContain('张三');
      expect(cycle).toMatch(new RegExp(`实际节拍 ?${f(row.actualCycleSeconds)} 秒`));
      expect(cycle).toMatch(new RegExp(`标准节拍 ?${f(row.standardCycleSeconds)} 秒`));
      const daily = await tooltipOf(page, '每日成品数量与标准工作量', DAY.slice(5), '标准工作量');
      expect(daily).toMatch(new RegExp(`成品数量（不含不良） ?${row.finishedQty} 件`));
      expect(daily).toMatch(new RegExp(`标准工作量 ?${row.standardWorkload} 件`));
      await snap(page, 'dashboard-tooltip');
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});
