/**
 * The office's work in the console, in the browser (issue #17 pages 1–6), one scenario in order: import a
 * product list whose preview shows its error rows, confirm it; generate every device code and print the sheet to
 * PDF (page count, the device numbers in its text) and a code as a captioned PNG; review a report a worker
 * submitted through the API, correcting a line; read that report on the dashboard (the figures equal to the
 * API's, charts drawn), download the export and open it with xlsx; the report's audit trail shows the correction
 * as before → after and a manager changes its break with a reason. Each step takes screenshots at 1366×768 and
 * 390×844 and axe-core finds no serious violation on the page; after each, no page has logged an error (CSP
 * violations included).
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import * as XLSX from 'xlsx';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { FIXTURES } from '../helpers/fixtures.ts';
import { MIN, workerClient } from '../clock/helpers.ts';
import { axeViolations, launchBrowser, openConsole, pdfPages, shoot, signIn, skipBrowserTests } from './browser.ts';

const ADMIN = '13800138000';
const MANAGER = '13900000003';
const WORKER = '13700000001';
const DAY = '2026-03-02';

let app: TestApp;
let browser: Browser;
let adminToken: string;
let admin: Page;
const pageErrors: string[][] = [];
let reportId: string;

/** What an element shows, spaces collapsed. */
const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).textContent()) ?? '').replace(/\s+/g, ' ');

describe.skipIf(skipBrowserTests('office.test.ts'))('the office in the console', () => {
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    adminToken = await app.login(ADMIN, 'admin', '王管理');
    await app.login(MANAGER, 'manager', '李经理');
    const c = await openConsole(browser, app);
    admin = c.page;
    pageErrors.push(c.errors);
    await signIn(admin, ADMIN);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  // No page logs an error (a CSP violation would be one).
  afterEach(() => expect(pageErrors.flat()).toEqual([]));

  it('产品: imports products-merged.xls; the preview shows each error row with its sheet row and reason; confirmed, the list holds them', async () => {
    const file = readFileSync(`${FIXTURES}/products-merged.xls`);
    const form = new FormData();
    form.append('file', new Blob([file]), 'products-merged.xls');
    const api: any = await (await fetch(`${app.url}/api/products/import`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: form })).json();
    expect(api.errors.map((e: { row: number }) => e.row)).toEqual([10, 16, 24, 33]);

    await admin.getByRole('navigation', { name: '主菜单' }).getByText('产品').click();
    await admin.waitForURL(/\/console\/products$/);
    await admin.getByTestId('open-import').click();
    await admin.getByTestId('import-file').setInputFiles(`${FIXTURES}/products-merged.xls`);
    await admin.getByTestId('import-counts').waitFor();
    expect((await admin.getByTestId('import-counts').locator('.el-tag').allTextContents()).map((t) => t.trim())).toEqual(['新增 36', '更新 0', '不变 0', '错误 4']);
    const rows = await admin.getByTestId('import-errors').locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [...(tr as any).querySelectorAll('td')].slice(0, 2).map((td: any) => td.textContent.trim())),
    );
    expect(rows).toEqual(api.errors.map((e: { row: number; reason: string }) => [String(e.row), e.reason]));
    await shoot(admin, 'products-import');
    expect(await axeViolations(admin)).toEqual([]);

    await admin.getByTestId('import-confirm').click();
    await admin.getByTestId('import-result').waitFor();
    expect(await text(admin, 'import-result')).toContain('新增 36，更新 0，不变 0，未导入的错误行 4');
    await admin.getByTestId('import-close').click();
    await expect.poll(() => admin.locator('.el-pagination__total').first().textContent()).toContain('36');
    expect((await app.service.ctx.db.pool.query(`SELECT count(*)::int AS n FROM products`)).rows[0].n).toBe(36);
    await shoot(admin, 'products');
    expect(await axeViolations(admin)).toEqual([]);
  });

  it('设备码: generates every code; the A4 sheet prints 12 codes a page and the label sheet one, each with its device number; a code downloads as a captioned PNG', async () => {
    const devices = (await app.request('GET', '/api/devices?pageSize=100', { token: adminToken })).body.items.map((d: { deviceNo: string }) => d.deviceNo);
    expect(devices.length).toBe(8);
    await admin.getByRole('navigation', { name: '主菜单' }).getByText('设备码').click();
    await admin.waitForURL(/\/console\/devices$/);
    await admin.getByTestId('devices-table').getByText('JC-01').waitFor();
    await admin.getByTestId('generate-all').click();
    await admin.getByText(`已生成全部 ${devices.length} 台设备的小程序码`).waitFor();
    await expect.poll(() => admin.getByTestId('devices-table').locator('img').evaluateAll((imgs) => imgs.filter((i) => (i as any).naturalWidth > 0).length)).toBe(devices.length);
    await shoot(admin, 'devices');
    expect(await axeViolations(admin)).toEqual([]);

    const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('button', { name: '下载 PNG' }).first().click()]);
    expect(download.suggestedFilename()).toMatch(/^设备码_.+\.png$/);
    const png = readFileSync(await download.path());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    expect(width).toBe(640);
    expect(height).toBeGreaterThan(width + 60); // the caption under the code

    await admin.getByTestId('open-print').click();
    await admin.waitForURL(/\/console\/devices\/print/);
    await admin.locator('[data-test=print-sheet][data-ready=true]').waitFor();
    expect(await admin.getByTestId('print-missing').count()).toBe(0);
    await shoot(admin, 'print-sheet');
    expect(await axeViolations(admin)).toEqual([]);
    const a4 = await pdfPages(await admin.pdf({ preferCSSPageSize: true, printBackground: true }));
    expect(a4.length).toBe(Math.ceil(devices.length / 12));
    for (const d of devices) expect(a4.join(' ').replace(/\s+/g, ' ')).toContain(d);
    expect(a4.join(' ')).toContain('前围横梁'); // a product name under its device's code

    await admin.getByText('标签纸 60×80 mm').click();
    await admin.waitForURL(/layout=label/);
    await admin.locator('[data-test=print-sheet][data-ready=true]').waitFor();
    const labels = await pdfPages(await admin.pdf({ preferCSSPageSize: true }));
    expect(labels.length, JSON.stringify(labels)).toBe(devices.length);
    expect(labels.map((t) => devices.find((d: string) => t.replace(/\s+/g, ' ').includes(d)))).toEqual(devices);
  });

  it('审核: approves a report the worker submitted through the API with a corrected line', async () => {
    const token = await app.login(WORKER, 'worker', '张三');
    const w = workerClient(app, token);
    const products = (await app.request('GET', `/api/products?deviceNo=JC-01&pageSize=100`, { token: adminToken })).body.items;
    expect((await w.start('JC-01')).status).toBe(200);
    app.clock.advance(8 * 60 * MIN + 30 * MIN);
    const finish = await w.finish('JC-01');
    expect(finish.status).toBe(200);
    app.clock.advance(5 * MIN);
    const [p1, p2] = products;
    const submitted = await w.submit(finish.body.sessionId, [
      { productId: p1.id, finishedQty: 500, defectiveQty: 5 },
      { productId: p2.id, finishedQty: 300, defectiveQty: 0 },
    ]);
    expect(submitted.status).toBe(201);
    reportId = submitted.body.reportId;

    await admin.goto(`${app.url}/console/review`);
    await admin.getByTestId('pending-table').getByText('张三').click();
    await admin.getByTestId('review-drawer').getByTestId('report-facts').waitFor();
    const facts = await text(admin, 'report-facts');
    expect(facts).toContain('张三（13700000001）');
    expect(facts).toContain(`${DAY} 08:00`);
    expect(facts).toContain(`${DAY} 16:30`);
    expect(facts).toContain('60 分钟');
    expect(facts).toContain('7 小时 30 分'); // 8 h 30 min − 60 min break
    const lines = await admin.getByTestId('report-lines').locator('tbody tr').allTextContents();
    expect(lines[0]).toContain(p1.productName);
    expect(lines[0]).toContain(String(p1.standardCycleSeconds));
    expect(lines[0]).toContain(String(p1.standardWorkload));
    await shoot(admin, 'review');
    expect(await axeViolations(admin)).toEqual([]);

    await admin.getByTestId('correct').click();
    const finished = admin.getByTestId('correct-lines').locator('tbody tr').first().getByTestId('finished-input').locator('input');
    await finished.fill('480');
    await finished.press('Tab');
    await admin.getByTestId('save-correction').click();
    await expect.poll(() => admin.getByText('已修正并通过').isVisible()).toBe(true);
    await expect.poll(() => admin.getByTestId('pending-table').getByText('张三').count()).toBe(0);

    const report = (await app.request('GET', `/api/reports/${reportId}`, { token: adminToken })).body;
    expect(report.status).toBe('approved');
    expect(report.lines.map((l: { finishedQty: number; defectiveQty: number }) => [l.finishedQty, l.defectiveQty])).toEqual([
      [480, 5],
      [300, 0],
    ]);
  });

  it('看板: shows that report’s figures equal to the API’s, draws both charts, and exports a workbook that opens with the same rows', async () => {
    await app.catchUpAll();
    const api = (await app.request('GET', `/api/dashboard/reports?startDate=${DAY}&endDate=${DAY}`, { token: adminToken })).body;
    expect(api.items).toHaveLength(1);
    const row = api.items[0];
    await admin.goto(`${app.url}/console/dashboard?startDate=${DAY}&endDate=${DAY}`);
    await admin.locator('[data-test=dashboard][data-ready=true]').waitFor();
    const cells = (await admin.getByTestId('dashboard-table').locator('tbody tr').first().locator('td').allTextContents()).map((c) => c.trim());
    const f = (v: number | null) => (v === null ? '—' : v.toFixed(2));
    expect(cells).toEqual([
      DAY,
      '张三',
      String(row.reportCount),
      f(row.actualCycleSeconds),
      f(row.standardCycleSeconds),
      f(row.cycleTimeDiffPct),
      String(row.reportedQty),
      String(row.standardWorkload),
      f(row.workloadDiffPct),
    ]);
    expect(row.reportedQty).toBe(480 + 5 + 300);
    expect(await admin.locator('canvas').count()).toBeGreaterThanOrEqual(2);
    await shoot(admin, 'dashboard');
    expect(await axeViolations(admin)).toEqual([]);

    const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByTestId('export').click()]);
    expect(download.suggestedFilename()).toBe(`看板_${DAY}_${DAY}.xlsx`);
    const book = XLSX.read(readFileSync(await download.path()));
    const sheet = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets[book.SheetNames[0]]);
    expect(sheet).toEqual([
      expect.objectContaining({
        日期: DAY,
        手机号: WORKER,
        姓名: '张三',
        '实际节拍(秒)': row.actualCycleSeconds,
        '标准节拍(秒)': row.standardCycleSeconds,
        '节拍差异(%)': row.cycleTimeDiffPct,
        报工数量: row.reportedQty,
        标准工作量: row.standardWorkload,
        '工作量差异(%)': row.workloadDiffPct,
      }),
    ]);
  });

  it('报工单: the audit trail shows the correction as before → after; a manager changes the break minutes with a reason', async () => {
    const c = await openConsole(browser, app);
    pageErrors.push(c.errors);
    const manager = c.page;
    await signIn(manager, MANAGER);
    await manager.goto(`${app.url}/console/dashboard?startDate=${DAY}&endDate=${DAY}`);
    await manager.getByTestId('dashboard-table').getByText('张三').click();
    await manager.waitForURL(/\/console\/reports\?/);
    await manager.getByTestId('reports-table').getByText('张三').click();
    await manager.waitForURL(new RegExp(`/console/reports/${reportId}$`));
    await manager.getByTestId('audit-trail').waitFor();
    const trail = await text(manager, 'audit-trail');
    expect(trail).toContain('提交');
    expect(trail).toMatch(/修正.*成品 500 不良 5 → .*成品 480 不良 5/);
    expect(trail).toContain('审核通过');

    await manager.getByTestId('break-minutes').locator('input').fill('45');
    await manager.getByTestId('break-reason').fill('午休缩短');
    await manager.getByTestId('break-save').click();
    await expect.poll(() => text(manager, 'audit-trail')).toContain('休息 60 → 45 分钟，原因：午休缩短');
    expect(await text(manager, 'report-facts')).toContain('7 小时 45 分');
    await shoot(manager, 'report');
    expect(await axeViolations(manager)).toEqual([]);
    const logs = (await app.request('GET', `/api/reports/${reportId}/audit-logs`, { token: adminToken })).body.items;
    expect(logs.at(-1)).toMatchObject({ action: 'break_changed', actorName: '李经理', before: { breakMinutes: 60 }, after: { breakMinutes: 45 }, reason: '午休缩短' });
  });
});
