/**
 * The office's day in the console, in the browser (its pages 1–6), walked twice on a fresh service:
 * at the desk's 1366×768 and at a phone's 390×844. Import a product list whose preview shows its error rows and
 * confirm it; generate every device code and print the sheet to PDF (page count, the device numbers in its text)
 * and a code as a captioned PNG; review the queue, where a report of 205 pieces from 0 minutes is marked 异常 and
 * filtered, its flag read with its numbers and approved knowing it, and another report corrected and approved (its
 * quantities visible); read the dashboard (figures equal to the API's, 成品 and 不良 beside 报工数量, the differences
 * visible, 异常 where a figure cannot be true, the chart's tooltip styled), export it and open the workbook; read
 * the audit trail (the correction before → after, the flagged approval with 已知异常) and change a break to 3 minutes
 * as a manager. The key numbers are asserted inside the viewport and uncovered (viewport.ts `seen`), not only
 * present. Each step takes a screenshot at that width, axe-core finds no serious violation, and no page logs an
 * error (CSP violations included).
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import * as XLSX from 'xlsx';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { FIXTURES } from '../helpers/fixtures.ts';
import { MIN, workerClient } from '../clock/helpers.ts';
import { axeViolations, DESKTOP, launchBrowser, openConsole, pdfPages, PHONE, signIn, skipBrowserTests } from './browser.ts';
import { expectNoPageErrors, expectRefusals, menu, seen, snap } from './viewport.ts';

const ADMIN = '13800138000';
const MANAGER = '13900000003';
const WORKER = '13700000001';
const QUICK = '13700000002';
const DAY = '2026-03-02';
/** The office's computer shows the service's day (the test's service runs on a manual clock at DAY). */
const OFFICE_TIME = new Date(`${DAY}T18:00:00+08:00`);

/** A console page at `viewport` whose clock shows OFFICE_TIME (date filters default to that day's week). */
async function officePage(browser: Browser, app: TestApp, viewport: { width: number; height: number }) {
  const c = await openConsole(browser, app, '/console/', viewport);
  await c.page.clock.install({ time: OFFICE_TIME });
  await c.page.reload();
  return c;
}

/** What an element shows, spaces collapsed. */
const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\s+/g, ' ');
const f = (v: number | null) => (v === null ? '—' : v.toFixed(2));

describe.skipIf(skipBrowserTests('office.test.ts')).each([
  ['desk', DESKTOP],
  ['phone', PHONE],
])('the office’s day in the console at the %s’s width', (_name, viewport) => {
  const wide = viewport.width >= 768;
  let app: TestApp;
  let browser: Browser;
  let adminToken: string;
  let admin: Page;
  let adminErrors: string[];
  const pageErrors: string[][] = [];
  let reportId: string;
  let quickId: string;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    adminToken = await app.login(ADMIN, 'admin', '王管理');
    await app.login(MANAGER, 'manager', '李经理');
    const c = await officePage(browser, app, viewport);
    admin = c.page;
    adminErrors = c.errors;
    pageErrors.push(c.errors);
    await signIn(admin, ADMIN);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  // No page logs an error (a CSP violation would be one).
  afterEach(() => expectNoPageErrors(pageErrors));

  it('产品: imports products-merged.xls; the preview shows each error row with its sheet row and reason; confirmed, the list holds them, its figures in view', async () => {
    const file = readFileSync(`${FIXTURES}/products-merged.xls`);
    const form = new FormData();
    form.append('file', new Blob([file]), 'products-merged.xls');
    const api: any = await (await fetch(`${app.url}/api/products/import`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: form })).json();
    expect(api.errors.map((e: { row: number }) => e.row)).toEqual([10, 16, 24, 33]);

    await menu(admin, '产品');
    expect(admin.url()).toMatch(/\/console\/products$/);
    // The menu's entries are links (a page opens in a new tab with the browser's own gestures).
    expect(await admin.locator('nav a', { hasText: '人员' }).first().getAttribute('href')).toBe('/console/people');
    await admin.getByTestId('open-import').click();
    await admin.getByTestId('import-file').setInputFiles(`${FIXTURES}/products-merged.xls`);
    await admin.getByTestId('import-counts').waitFor();
    expect((await admin.getByTestId('import-counts').locator('.el-tag').allTextContents()).map((t) => t.trim())).toEqual(['新增 36', '更新 0', '不变 0', '错误 4']);
    const errors = admin.getByTestId('import-errors');
    const rows = wide
      ? await errors.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...(tr as any).querySelectorAll('td')].map((td: any) => td.textContent.trim())))
      : await errors.getByTestId('import-error').evaluateAll((lis) => lis.map((li) => [...(li as any).children].map((c: any) => c.textContent.trim())));
    expect(rows.map((r) => r.slice(0, 2))).toEqual(api.errors.map((e: { row: number; reason: string }) => [wide ? String(e.row) : `第 ${e.row} 行`, e.reason]));
    // The row's content, so the clerk finds it in the sheet: readable, not one character a line.
    expect(rows[0][2]).toContain('项目号');
    expect(await seen(wide ? errors.locator('tbody tr').first().locator('td').nth(2) : errors.getByTestId('import-error').first().locator('.muted'))).toBe('');
    await snap(admin, 'products-import');
    expect(await axeViolations(admin)).toEqual([]);

    await admin.getByTestId('import-confirm').click();
    await admin.getByTestId('import-result').waitFor();
    expect(await text(admin, 'import-result')).toContain('新增 36，更新 0，不变 0，未导入的错误行 4');
    await admin.getByTestId('import-close').click();
    await admin.getByRole('dialog', { name: '导入产品清单' }).waitFor({ state: 'hidden' });
    await expect.poll(() => admin.locator('.el-pagination__total').first().textContent()).toContain('36');
    expect((await app.service.ctx.db.pool.query(`SELECT count(*)::int AS n FROM products`)).rows[0].n).toBe(36);
    const table = admin.getByTestId('products-table');
    const first = table.locator('.el-table__body-wrapper tbody tr').first();
    const cell = (label: string) => first.locator('td').nth(
      ['项目号', '型材号', '产品名称', '物料编码 / 名称', '使用设备', '工序', '冲压方式', '操作人数', '标准节拍(秒)', '标准工作量'].indexOf(label),
    );
    if (wide) {
      // At the desk every column fits: 标准工作量 is not hidden under the pinned 操作, material codes keep one line.
      expect(await seen(cell('标准工作量'))).toBe('');
      expect(await table.getAttribute('data-scroll')).toBeNull();
      // Codes read whole: on one line, not cut short with an ellipsis; 编辑 and 删除 side by side.
      for (const label of ['项目号', '型材号', '物料编码 / 名称']) {
        const whole = await cell(label).locator('.cell').evaluate((c: any) => c.scrollWidth <= c.clientWidth && c.scrollHeight <= c.clientHeight + 1);
        expect(whole, label).toBe(true);
      }
      const actions = await first.locator('td').last().getByRole('button').evaluateAll((bs) => bs.map((b: any) => Math.round(b.getBoundingClientRect().top)));
      expect(new Set(actions).size).toBe(1);
    } else {
      // On a phone the name is not covered by 操作, and the table says that it scrolls sideways.
      expect(await seen(cell('产品名称'))).toBe('');
      expect(await table.getAttribute('data-scroll')).toBe('right');
    }
    await snap(admin, 'products');
    expect(await axeViolations(admin)).toEqual([]);
  });

  it('人员: a refusal under the add-person form goes as soon as the field it speaks of is filled', async () => {
    await menu(admin, '人员');
    await admin.getByRole('button', { name: '添加人员' }).click();
    const dialog = admin.getByRole('dialog', { name: '添加人员' });
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.getByTestId('dialog-error').waitFor();
    expectRefusals(adminErrors, 422);
    expect(await text(admin, 'dialog-error')).toContain('手机号');
    await dialog.getByPlaceholder('11 位手机号').fill('13700000009');
    await expect.poll(() => dialog.getByTestId('dialog-error').count()).toBe(0);
    await dialog.getByRole('button', { name: '取消' }).click();
    if (!wide) expect(await seen(admin.getByTestId('people-table').locator('tbody tr').first().locator('td').nth(2))).toBe('');
  });

  it('设备码: generates every code; the A4 sheet prints 12 codes a page and the label sheet one, each with its device number; a code downloads as a captioned PNG', async () => {
    const devices = (await app.request('GET', '/api/devices?pageSize=100', { token: adminToken })).body.items.map((d: { deviceNo: string }) => d.deviceNo);
    expect(devices.length).toBe(8);
    await menu(admin, '设备码');
    await admin.getByTestId('devices-table').getByText('JC-01').waitFor();
    await admin.getByTestId('generate-all').click();
    await admin.getByText(`已生成全部 ${devices.length} 台设备的小程序码`).waitFor();
    await expect.poll(() => admin.getByTestId('devices-table').locator('img').evaluateAll((imgs) => imgs.filter((i) => (i as any).naturalWidth > 0).length)).toBe(devices.length);
    // The device number is not covered by the 操作 column.
    expect(await seen(admin.getByTestId('devices-table').getByText('JC-01', { exact: true }))).toBe('');
    await snap(admin, 'devices');
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
    await snap(admin, 'print-sheet');
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

  it('审核: a report of 205 pieces from 0 minutes is marked 异常 and filtered, its flag reads with the numbers, and it is approved knowing it; another is corrected and approved, its quantities in view', async () => {
    const products = (await app.request('GET', `/api/products?deviceNo=JC-01&pageSize=100`, { token: adminToken })).body.items;
    const [p1, p2] = products;
    const w = workerClient(app, await app.login(WORKER, 'worker', '张三'));
    expect((await w.start('JC-01')).status).toBe(200);
    app.clock.advance(8 * 60 * MIN + 30 * MIN);
    const finish = await w.finish('JC-01');
    app.clock.advance(5 * MIN);
    const submitted = await w.submit(finish.body.sessionId, [
      { productId: p1.id, finishedQty: 500, defectiveQty: 5 },
      { productId: p2.id, finishedQty: 300, defectiveQty: 0 },
    ]);
    expect(submitted.status).toBe(201);
    reportId = submitted.body.reportId;
    // 王五 clocks in and out at the same instant and reports 205 pieces.
    const q = workerClient(app, await app.login(QUICK, 'worker', '王五'));
    const qs = (await q.start('JC-01')).body.sessionId;
    await q.finish('JC-01');
    app.clock.advance(MIN);
    quickId = (await q.submit(qs, [{ productId: p1.id, finishedQty: 200, defectiveQty: 5 }])).body.reportId;
    const flag = (await app.request('GET', `/api/reports/${quickId}`, { token: adminToken })).body.flags[0];
    expect(flag.code).toBe('NO_WORKING_TIME');
    expect(flag.message).toMatch(/^有效工作时间 0 分钟却报了 205 件，按标准节拍需要 \d+/);

    // From the print sheet (a page of its own) back to the console's pages.
    await admin.goBack();
    await admin.goBack();
    await menu(admin, '审核');
    const queue = admin.getByTestId('pending-table');
    await queue.getByText('王五').waitFor();
    expect(await queue.getByTestId('flag-mark').count()).toBe(1);
    expect(await seen(queue.getByTestId('flag-mark'))).toBe('');
    await admin.getByTestId('flag-filter').getByText('只看异常').click();
    await expect.poll(() => queue.getByText('张三').count()).toBe(0);
    expect(await queue.getByText('王五').count()).toBe(1);
    await snap(admin, 'review-queue');
    expect(await axeViolations(admin)).toEqual([]);
    await admin.getByTestId('flag-filter').getByText('全部').click();
    await queue.getByText('张三').waitFor();

    // The flagged report: its flag with the numbers, above what the reviewer decides on; approving stays possible.
    await queue.getByText('王五').click();
    const drawer = admin.getByTestId('review-drawer');
    await drawer.getByTestId('flags').waitFor();
    expect(await text(admin, 'flags')).toContain(flag.message);
    expect(await seen(drawer.getByTestId('flags').locator('li').first())).toBe('');
    expect(await seen(drawer.getByTestId('line-output').first())).toBe('');
    expect(await drawer.getByTestId('line-output').first().textContent()).toBe('205');
    await snap(admin, 'review-flagged');
    await drawer.getByTestId('approve').click();
    await admin.getByText('已通过（已知异常 1 项，已记入审计记录）').waitFor();
    await expect.poll(() => queue.getByText('王五').count()).toBe(0);
    // 我审核的 has it at once, without a reload.
    await admin.getByRole('tab', { name: '我审核的' }).click();
    await expect.poll(() => admin.getByTestId('mine-table').getByText('王五').count()).toBe(1);
    await admin.getByRole('tab', { name: /待审核/ }).click();

    await queue.getByText('张三').click();
    await drawer.getByTestId('report-facts').waitFor();
    const facts = await text(admin, 'report-facts');
    expect(facts).toContain('张三（13700000001）');
    expect(facts).toContain(`${DAY} 08:00`);
    expect(facts).toContain(`${DAY} 16:30`);
    expect(facts).toContain('60 分钟');
    expect(facts).toContain('7 小时 30 分'); // 8 h 30 min − 60 min break
    expect(await drawer.getByTestId('flags').count()).toBe(0);
    // The numbers a reviewer decides on, in view at this width.
    for (const id of ['line-finished', 'line-defective', 'line-output']) expect(await seen(drawer.getByTestId(id).first()), id).toBe('');
    expect([await text(admin, 'line-finished'), await text(admin, 'line-defective'), await text(admin, 'line-output')]).toEqual(['500', '5', '505']);
    expect(await drawer.getByTestId('report-lines').textContent()).toContain(p1.productName);
    await snap(admin, 'review');
    expect(await axeViolations(admin)).toEqual([]);

    await drawer.getByTestId('correct').click();
    const finished = drawer.getByTestId('correct-lines').getByTestId('finished-input').first();
    expect(await seen(finished)).toBe('');
    expect(await seen(drawer.getByTestId('correct-lines').getByRole('button', { name: /删除/ }).first())).toBe('');
    // The product is told apart by its 项目号 (two products may share a name on one device).
    expect(await drawer.getByTestId('correct-lines').textContent()).toContain(p1.projectNo);
    expect(await drawer.getByTestId('correct-lines').textContent()).not.toMatch(/…/);
    await finished.locator('input').fill('480');
    await finished.locator('input').press('Tab');
    await snap(admin, 'review-correct');
    await drawer.getByTestId('save-correction').click();
    await expect.poll(() => admin.getByText('已修正并通过').isVisible()).toBe(true);
    await expect.poll(() => queue.getByText('张三').count()).toBe(0);
    await admin.getByRole('tab', { name: '我审核的' }).click();
    await expect.poll(() => admin.getByTestId('mine-table').locator('tbody tr').count()).toBe(2);

    const report = (await app.request('GET', `/api/reports/${reportId}`, { token: adminToken })).body;
    expect(report.status).toBe('approved');
    expect(report.lines.map((l: { finishedQty: number; defectiveQty: number }) => [l.finishedQty, l.defectiveQty])).toEqual([
      [480, 5],
      [300, 0],
    ]);
  });

  it('驳回: an empty reason is asked for in words, not refused as invalid data', async () => {
    const w = workerClient(app, await app.login(WORKER, 'worker', '张三'));
    const s = (await w.start('JC-01')).body.sessionId;
    app.clock.advance(60 * MIN);
    await w.finish('JC-01');
    const products = (await app.request('GET', `/api/products?deviceNo=JC-01&pageSize=1`, { token: adminToken })).body.items;
    const id = (await w.submit(s, [{ productId: products[0].id, finishedQty: 10, defectiveQty: 0 }])).body.reportId;
    await admin.goto(`${app.url}/console/review`);
    await admin.getByTestId('pending-table').getByText('张三').click();
    await admin.getByTestId('review-drawer').getByTestId('reject').click();
    const box = admin.getByRole('dialog', { name: '驳回报工单' });
    await box.getByRole('button', { name: '驳回' }).click();
    await box.getByText('请填写驳回原因，员工会看到它').waitFor();
    expect(await box.getByText('输入的数据不合法').count()).toBe(0);
    await box.getByRole('textbox').fill('数量与班组记录不符');
    await box.getByRole('button', { name: '驳回' }).click();
    await admin.locator('.el-message').getByText('已驳回').waitFor();
    expect((await app.request('GET', `/api/reports/${id}`, { token: adminToken })).body).toMatchObject({ status: 'rejected', rejectReason: '数量与班组记录不符' });
  });

  it('看板: the figures equal the API’s with 成品 and 不良 beside 报工数量; the differences are in view; a figure that cannot be true reads 异常; the chart says what it plots and its tooltip is styled; the export opens with the same rows', async () => {
    await app.catchUpAll();
    const api = (await app.request('GET', `/api/dashboard/reports?startDate=${DAY}&endDate=${DAY}`, { token: adminToken })).body;
    expect(api.items.map((r: { employeeName: string }) => r.employeeName)).toEqual(['张三', '王五']);
    const [row, quick] = api.items;
    expect(row.reportedQty).toBe(480 + 5 + 300);
    expect([row.finishedQty, row.defectiveQty]).toEqual([780, 5]);
    expect(quick.untrusted).toEqual({ cycleTime: true, workload: true });
    await admin.goto(`${app.url}/console/dashboard?startDate=${DAY}&endDate=${DAY}`);
    await admin.locator('[data-test=dashboard][data-ready=true]').waitFor();
    const table = admin.getByTestId('dashboard-table');
    if (wide) {
      const cells = async (i: number) => (await table.locator('tbody tr').nth(i).locator('td').allTextContents()).map((c) => c.replace(/\s+/g, ' ').trim());
      expect(await cells(0)).toEqual([
        DAY,
        '张三',
        '未分班组', // the row's team (none here)
        String(row.reportCount),
        f(row.actualCycleSeconds),
        f(row.standardCycleSeconds),
        f(row.cycleTimeDiffPct),
        String(row.reportedQty),
        String(row.finishedQty),
        String(row.defectiveQty),
        String(row.standardWorkload),
        f(row.workloadDiffPct),
      ]);
      expect(await cells(1)).toEqual([DAY, '王五 异常', '未分班组', '1', '异常', f(quick.standardCycleSeconds), '异常', '205', '200', '5', String(quick.standardWorkload), '异常']);
      const diffs = table.locator('tbody tr').first().locator('td');
      for (const i of [6, 11]) expect(await seen(diffs.nth(i))).toBe('');
    } else {
      const card = table.getByTestId('dashboard-row').first();
      expect(await card.getByTestId('cycle-diff').textContent()).toBe(f(row.cycleTimeDiffPct));
      expect(await card.getByTestId('workload-diff').textContent()).toBe(f(row.workloadDiffPct));
      for (const id of ['cycle-diff', 'workload-diff']) expect(await seen(card.getByTestId(id)), id).toBe('');
      expect((await card.textContent())?.replace(/\s+/g, ' ')).toContain(`${row.reportedQty}（${row.finishedQty} + ${row.defectiveQty}）`);
      const flagged = table.getByTestId('dashboard-row').nth(1);
      expect(await flagged.getByTestId('cycle-diff').textContent()).toBe('异常');
      expect(await flagged.getByTestId('workload-diff').textContent()).toBe('异常');
      expect(await flagged.textContent()).toContain(quick.flags[0].message);
    }
    expect(await text(admin, 'daily-caption')).toContain('成品数量（不含不良');
    // The date range's calendar fits the width: two months at the desk, one field per end on a phone.
    await (wide ? admin.locator('.el-range-editor').first() : admin.getByLabel('报工日期范围：开始日期')).click();
    const calendar = admin.locator('.el-picker-panel:visible');
    expect(await seen(calendar)).toBe('');
    expect(await calendar.locator('.el-date-table').count()).toBe(wide ? 2 : 1);
    await admin.keyboard.press('Escape');
    await calendar.waitFor({ state: 'hidden' });
    expect(await admin.locator('canvas').count()).toBeGreaterThanOrEqual(2);

    // The daily chart's tooltip, under the page's own security policy: its markers styled, no error logged.
    const chart = admin.locator('section[aria-label="每日成品数量与标准工作量"]');
    await chart.scrollIntoViewIfNeeded();
    const canvas = chart.locator('canvas').first();
    const box = (await canvas.boundingBox())!;
    await admin.mouse.move(box.x + box.width / 2, box.y + box.height * 0.75);
    const tooltip = chart.getByText(/成品数量（不含不良）/).last();
    await tooltip.waitFor();
    const marker = await chart.locator('div').filter({ hasText: /^[\s\S]*成品数量（不含不良）[\s\S]*$/ }).last().evaluate((el: any) => {
      const span = [...el.querySelectorAll('span')].find((s: any) => s.style.borderRadius);
      return span ? span.getBoundingClientRect().width : 0;
    });
    expect(marker).toBeGreaterThan(0);
    await snap(admin, 'dashboard');
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
        成品数量: row.finishedQty,
        不良数量: row.defectiveQty,
        标准工作量: row.standardWorkload,
        '工作量差异(%)': row.workloadDiffPct,
      }),
      expect.objectContaining({ 姓名: '王五', 报工数量: 205, 成品数量: 200, 不良数量: 5, 异常: quick.flags[0].message }),
    ]);
    expect(Object.keys(sheet[0])).not.toContain('异常');
  });

  it('报工单: the audit trail shows the correction as before → after and the flagged approval as 已知异常; a manager saves a break of 3 minutes, is told when nothing changed, and reads the service’s refusal', async () => {
    const c = await officePage(browser, app, viewport);
    pageErrors.push(c.errors);
    const manager = c.page;
    const managerErrors = c.errors;
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
    expect(await manager.getByTestId('audit-flags').count()).toBe(0);

    const minutes = manager.getByTestId('break-minutes').locator('input');
    const entries = async () => (await app.request('GET', `/api/reports/${reportId}/audit-logs`, { token: adminToken })).body.items;
    await minutes.fill('3');
    await manager.getByTestId('break-reason').fill('只休息了 3 分钟');
    await manager.getByTestId('break-save').click();
    await manager.getByTestId('break-done').waitFor();
    expect(await text(manager, 'break-done')).toContain('已改为 3 分钟');
    await expect.poll(() => text(manager, 'audit-trail')).toContain('休息 60 → 3 分钟，原因：只休息了 3 分钟');
    expect(await text(manager, 'report-facts')).toContain('8 小时 27 分');
    expect((await entries()).at(-1)).toMatchObject({ action: 'break_changed', actorName: '李经理', before: { breakMinutes: 60 }, after: { breakMinutes: 3 }, reason: '只休息了 3 分钟' });
    const count = (await entries()).length;

    // The same value again: nothing is sent, and the page says so.
    await manager.getByTestId('break-save').click();
    await manager.getByTestId('break-info').waitFor();
    expect(await text(manager, 'break-info')).toContain('休息时间没有变化（仍是 3 分钟），没有保存');
    expect((await entries()).length).toBe(count);
    // More than the shift: the service's sentence with the most it allows.
    await minutes.fill('9999');
    await manager.getByTestId('break-save').click();
    await manager.getByTestId('break-error').waitFor();
    expectRefusals(managerErrors, 422);
    expect(await text(manager, 'break-error')).toMatch(/休息时间.*510/);
    expect(await seen(manager.getByTestId('break-error'))).toBe('');
    await snap(manager, 'report');
    expect(await axeViolations(manager)).toEqual([]);

    // The flagged report: its approval in the trail says it knew the flag.
    await manager.goto(`${app.url}/console/reports/${quickId}`);
    await manager.getByTestId('audit-trail').waitFor();
    const notes = await manager.getByTestId('audit-flags').allTextContents();
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^异常：有效工作时间 0 分钟却报了 205 件/);
    expect(notes[1]).toMatch(/^已知异常：有效工作时间 0 分钟却报了 205 件/);
    expect(await seen(manager.getByTestId('audit-flags').last())).toBe('');
    await snap(manager, 'report-flagged');
  });
});
