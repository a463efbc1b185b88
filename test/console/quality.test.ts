/**
 * Defect reasons in the browser: a manager keeps the 不良原因 list (adds 划伤 工废, 材料裂纹 料废 and 油污 其他, is refused a
 * code in use in the service's words, renames and recategorises one, deactivates it after a confirmation and
 * reactivates it); sets a rate with its 料废单价 (同计件单价 fills it with the piece rate; the history shows it); an
 * administrator's review drawer names each line's reasons (划伤 工废 2, 未注明 4) and the correction adds 材料裂纹 3
 * (未注明 1 left); then 质量 shows the Pareto of that day — 材料裂纹 料废 3 50.0 %, 划伤 2 33.3 % (83.3), 未注明 1 16.7 %
 * (100.0), 总不良 6, 总产出 106, 不良率 5.7 % — the chart's tooltip giving the same numbers as the table and the
 * answer, by 类别 too, and the export the same rows; the worker's statement splits the 不良 (工废 2 · 料废 3 · 未注明 1)
 * and gives the 料废单价. A person with a scope reads the reasons without changing them, and their 质量 says what it
 * covers and counts only it. Asserted at 1366×768 and 390×844 (nothing to scroll sideways, the key figures inside the
 * viewport); axe-core finds no serious violation; no page logs an error beyond the refusal the test provokes.
 *
 * By hand: 6 不良 of 106 产出 = 5.66 % → 5.7 %; 3 / 6 = 50.0 %; 2 / 6 = 33.33 → 33.3 %, cumulative 5 / 6 = 83.33 → 83.3 %;
 * 1 / 6 = 16.67 → 16.7 %, cumulative 100.0 %.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import * as XLSX from 'xlsx';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, workerClient } from '../clock/helpers.ts';
import { axeViolations, DESKTOP, launchBrowser, openConsole, PHONE, shoot, signIn, skipBrowserTests } from './browser.ts';
import { expectNoPageErrors, expectRefusals, fitsBothWidths, menu, seen, shown, tableCells as cells } from './viewport.ts';

const MANAGER = '13900000003';
const ADMIN = '13800138000';
const WORKER = '13700000001';
const DAY = '2026-03-19';
let app: TestApp;
let browser: Browser;
let page: Page;
let managerToken: string;
let adminToken: string;
let product = 0;
let reportId = '';
const pageErrors: string[][] = [];

const call = (method: string, path: string, body?: unknown) => app.request(method, path, { token: managerToken, body });

describe.skipIf(skipBrowserTests('quality.test.ts'))('defect reasons, 料废单价 and 质量 in the console', () => {
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp({}, '2026-03-20T10:00:00+08:00'), launchBrowser()]);
    managerToken = await app.login(MANAGER, 'manager', '李经理');
    adminToken = await app.login(ADMIN, 'admin', '王管理');
    await app.login(WORKER, 'worker', '张三');
    product = await addProduct(app, 'JC-01', { name: '前围横梁', project: 'XM-1', process: '落料', cycle: 24, workload: 1200 });
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

  it('不良原因: add three, a code in use refused in words, rename and recategorise, deactivate after asking, reactivate', async () => {
    await menu(page, '不良原因');
    await page.waitForURL(/\/console\/defect-reasons$/);
    const dialog = page.getByRole('dialog', { name: /不良原因/ });
    const add = async (code: string, name: string, category: string) => {
      await page.getByTestId('new-reason').click();
      await dialog.getByTestId('reason-code-input').fill(code);
      await dialog.getByTestId('reason-name-input').fill(name);
      await dialog.locator('.el-radio').filter({ hasText: category }).click();
      await dialog.getByRole('button', { name: '保存', exact: true }).click();
    };
    await add('SCR', '划伤', '工废');
    await page.locator('[data-test=reason][data-code=SCR]').waitFor();
    await add('CRK', '材料裂纹', '料废');
    await page.locator('[data-test=reason][data-code=CRK]').waitFor();
    await add('OIL', '油污', '其他');
    const oil = page.locator('[data-test=reason][data-code=OIL]');
    await oil.waitFor();
    expect(await shown(page.locator('[data-test=reason][data-code=CRK]'))).toBe('材料裂纹CRK料废修改停用');

    // A code in use: the service's sentence in the dialog, nothing added.
    await add('SCR', '刮花', '工废');
    const refusal = dialog.getByTestId('dialog-error');
    await refusal.waitFor();
    expect(await shown(refusal)).toBe('不良原因编码 SCR 已被「划伤」使用，请换一个编码');
    expectRefusals(pageErrors[0], 409);
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Rename and recategorise 油污 → 油渍 工废; the code stays.
    await oil.getByTestId('edit-reason').click();
    expect(await dialog.getByTestId('reason-code-input').isDisabled()).toBe(true);
    await dialog.getByTestId('reason-name-input').fill('油渍');
    await dialog.locator('.el-radio').filter({ hasText: '工废' }).click();
    await dialog.getByRole('button', { name: '保存', exact: true }).click();
    await expect.poll(() => shown(oil)).toBe('油渍OIL工废修改停用');

    // Deactivate: asked first, then marked 已停用 and offered 重新启用.
    await oil.getByTestId('deactivate-reason').click();
    const ask = page.getByRole('dialog', { name: '停用不良原因' });
    expect(await shown(ask.locator('.el-message-box__message'))).toContain('停用「油渍」？停用后报工时不能再选它');
    await ask.getByRole('button', { name: '停用' }).click();
    await oil.getByTestId('reason-inactive').waitFor();
    expect(await shown(oil)).toBe('油渍OIL工废已停用修改重新启用');
    expect((await call('GET', '/api/defect-reasons')).body.items).toEqual([
      { code: 'CRK', name: '材料裂纹', category: 'material', active: true },
      { code: 'OIL', name: '油渍', category: 'operator', active: false },
      { code: 'SCR', name: '划伤', category: 'operator', active: true },
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, 'defect-reasons');
    await fitsBothWidths(page, [oil.getByTestId('reactivate-reason'), page.getByTestId('new-reason')]);

    await oil.getByTestId('reactivate-reason').click();
    await oil.getByTestId('deactivate-reason').waitFor();
    expect((await call('GET', '/api/defect-reasons?active=true')).body.items.map((r: any) => r.code)).toEqual(['CRK', 'OIL', 'SCR']);
  });

  it('产品 单价: 料废单价 explained, 同计件单价 fills it with the piece rate, saved and shown in the history', async () => {
    await menu(page, '产品');
    const row = page.getByTestId('products-table').locator('tbody tr').filter({ hasText: '前围横梁' });
    await row.getByTestId('open-rates').click();
    const dialog = page.getByTestId('rates-dialog');
    await dialog.getByTestId('rate-save').waitFor();
    expect(await shown(dialog)).toContain('不填：与不良单价相同');
    await dialog.getByTestId('rate-piece').fill('1.20');
    await dialog.getByTestId('rate-defect').fill('-0.50');
    await dialog.getByTestId('rate-material-as-piece').click();
    expect(await dialog.getByTestId('rate-material').inputValue()).toBe('1.20');
    await dialog.getByTestId('rate-from').locator('input').fill('2026-03-01');
    await dialog.getByTestId('rate-from').locator('input').press('Enter');
    await dialog.getByTestId('rate-save').click();
    await expect.poll(() => dialog.getByTestId('history-material').count()).toBe(1);
    expect(await shown(dialog.getByTestId('history-material'))).toBe('1.2000');
    const history = (await call('GET', `/api/products/${product}/rates`)).body.items;
    expect(history.map((r: any) => [r.effectiveFrom, r.pieceRate, r.defectRate, r.materialDefectRate])).toEqual([['2026-03-01', '1.2000', '-0.5000', '1.2000']]);
    expect((await cells(page, 'rate-history'))[0].slice(1, 4)).toEqual(['1.2000', '-0.5000', '1.2000']);
    await shoot(page, 'product-rates-material');
    expect(await axeViolations(page)).toEqual([]);
    await fitsBothWidths(page, [dialog.getByTestId('rate-material'), dialog.getByTestId('rate-material-as-piece'), dialog.getByTestId('history-material')]);
    await page.keyboard.press('Escape');
  });

  it('审核: the drawer names each line’s reasons and 未注明; the correction adds 材料裂纹 3 and approves', async () => {
    // The worker reports 100 成品 and 6 不良 on 03-19, 2 of them 划伤 (4 without a reason).
    const w = workerClient(app, await app.login(WORKER, 'worker', '张三'));
    app.clock.set(`${DAY}T08:00:00+08:00`);
    const started = await w.start('JC-01');
    app.clock.set(`${DAY}T16:00:00+08:00`);
    await w.finish('JC-01');
    const submitted = await w.submit(started.body.sessionId, [{ productId: product, finishedQty: 100, defectiveQty: 6, defects: [{ reasonCode: 'SCR', qty: 2 }] }]);
    expect(submitted.status).toBe(201);
    reportId = submitted.body.reportId;
    app.clock.set('2026-03-20T10:00:00+08:00');

    // Looked at on the phone first (still pending), then corrected on the desk.
    for (const viewport of [PHONE, DESKTOP]) {
      const c = await openConsole(browser, app, '/console/', viewport);
      pageErrors.push(c.errors);
      const admin = c.page;
      await signIn(admin, ADMIN);
      await admin.goto(`${app.url}/console/review?report=${reportId}`);
      const drawer = admin.getByTestId('review-drawer');
      const parts = drawer.getByTestId('line-defects').first();
      await parts.getByTestId('defect-part').nth(1).waitFor();
      expect(await parts.getByTestId('defect-part').evaluateAll((els) => els.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim()))).toEqual(['划伤工废 2', '未注明 4']);
      expect(await seen(parts.getByTestId('defect-part').last())).toBe('');
      if (viewport === PHONE) await shoot(admin, 'review-reasons');
      await drawer.getByTestId('correct').click();
      const editor = drawer.getByTestId('defects-editor').first();
      expect(await shown(editor.getByTestId('defect-sum'))).toBe('未注明 4');
      if (viewport === PHONE) {
        expect(await seen(editor.getByTestId('defect-add'))).toBe('');
        expect(await axeViolations(admin)).toEqual([]);
        await fitsBothWidths(admin, [editor.getByTestId('defect-reason'), editor.getByTestId('defect-qty'), drawer.getByTestId('save-correction')]);
        await admin.context().close();
        continue;
      }
      await editor.getByTestId('defect-add').click();
      const second = editor.getByTestId('defect-row').nth(1);
      await second.getByTestId('defect-reason').click();
      await admin.locator('.el-popper:visible').getByRole('option', { name: '材料裂纹（料废）' }).click();
      await second.getByTestId('defect-qty').locator('input').fill('3');
      await second.getByTestId('defect-qty').locator('input').press('Tab');
      await expect.poll(() => shown(editor.getByTestId('defect-sum'))).toBe('未注明 1');
      expect(await seen(second.getByTestId('defect-qty'))).toBe('');
      await shoot(admin, 'review-correct-reasons');
      await drawer.getByTestId('save-correction').click();
      await admin.getByText('已修正并通过').waitFor();
      await admin.context().close();
    }
    const report = (await app.request('GET', `/api/reports/${reportId}`, { token: adminToken })).body;
    expect([report.status, report.lines[0].defectiveQty, report.lines[0].defects]).toEqual([
      'approved',
      6,
      [
        { reasonCode: 'SCR', qty: 2, category: 'operator' },
        { reasonCode: 'CRK', qty: 3, category: 'material' },
      ],
    ]);
    // The report page shows the same reasons.
    await page.goto(`${app.url}/console/reports/${reportId}`);
    const parts = page.getByTestId('line-defects').first();
    await parts.getByTestId('defect-part').nth(2).waitFor();
    expect(await parts.getByTestId('defect-part').evaluateAll((els) => els.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim()))).toEqual(['划伤工废 2', '材料裂纹料废 3', '未注明 1']);
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`质量 at ${viewport.width}px: the Pareto by reason — chart, table and totals the answer’s numbers; by 类别; the export`, async () => {
      await app.catchUpAll();
      const answer = (await call('GET', `/api/quality/defects?startDate=${DAY}&endDate=${DAY}&groupBy=reason`)).body;
      expect(answer).toEqual({
        items: [
          { key: 'CRK', label: '材料裂纹', defectiveQty: 3, sharePct: 50, cumulativePct: 50 },
          { key: 'SCR', label: '划伤', defectiveQty: 2, sharePct: 33.3, cumulativePct: 83.3 },
          { key: null, label: '未注明', defectiveQty: 1, sharePct: 16.7, cumulativePct: 100 },
        ],
        totalDefectiveQty: 6,
        totalOutputQty: 106,
        defectRatePct: 5.7,
      });
      const { page: p, errors } = await openConsole(browser, app, '/console/', viewport);
      pageErrors.push(errors);
      await signIn(p, MANAGER);
      await menu(p, '质量');
      await p.goto(`${app.url}/console/quality?startDate=${DAY}&endDate=${DAY}`);
      await p.locator('[data-test=quality][data-ready=true]').waitFor();
      expect(await cells(p, 'pareto-table')).toEqual([
        ['材料裂纹料废', '3', '50.0 %', '50.0 %'],
        ['划伤工废', '2', '33.3 %', '83.3 %'],
        ['未注明', '1', '16.7 %', '100.0 %'],
      ]);
      expect([await shown(p.getByTestId('total-defective')), await shown(p.getByTestId('total-output')), await shown(p.getByTestId('defect-rate'))]).toEqual(['6 件', '106 件', '5.7 %']);
      for (const id of ['total-defective', 'defect-rate']) expect(await seen(p.getByTestId(id)), id).toBe('');
      const lastCumulative = p.getByTestId('pareto-cumulative').last();
      if (viewport === PHONE) await lastCumulative.scrollIntoViewIfNeeded();
      expect(await seen(lastCumulative)).toBe('');

      const chart = p.getByTestId('pareto-chart');
      await shoot(p, 'quality');
      expect(await axeViolations(p)).toEqual([]);
      await fitsBothWidths(p, [p.getByTestId('totals'), chart, p.getByTestId('export'), p.getByTestId('group-by')]);

      // The chart: hovering the middle bar, the tooltip gives 划伤's pieces and cumulative share as the table does.
      await chart.scrollIntoViewIfNeeded();
      const box = (await chart.locator('canvas').first().boundingBox())!;
      await p.mouse.move(box.x + box.width / 2, box.y + box.height * 0.6);
      const tip = chart.locator('div').filter({ hasText: '划伤' }).filter({ hasText: '累计占比' }).last();
      await tip.waitFor();
      const tipText = await shown(tip);
      expect(tipText).toMatch(/不良数 ?2 件/);
      expect(tipText).toMatch(/累计占比 ?83\.3 %/);

      // By category: 料废 3, 工废 2, 未注明 1 (apart from 其他).
      await p.getByTestId('group-by').click();
      await p.locator('.el-popper:visible').getByRole('option', { name: '按类别' }).click();
      await expect.poll(() => cells(p, 'pareto-table')).toEqual([
        ['料废', '3', '50.0 %', '50.0 %'],
        ['工废', '2', '33.3 %', '83.3 %'],
        ['未注明', '1', '16.7 %', '100.0 %'],
      ]);
      expect(p.url()).toContain('groupBy=category');

      // 导出 Excel: the same rows and totals.
      const [download] = await Promise.all([p.waitForEvent('download'), p.getByTestId('export').click()]);
      expect(download.suggestedFilename()).toBe(`不良分析_${DAY}_${DAY}.xlsx`);
      const book = XLSX.read(readFileSync(await download.path()));
      expect(XLSX.utils.sheet_to_json<any[]>(book.Sheets['不良分析'], { header: 1 })).toEqual([
        ['分组', '不良数量', '占比%', '累计%'],
        ['料废', 3, 50, 50],
        ['工废', 2, 33.3, 83.3],
        ['未注明', 1, 16.7, 100],
        ['合计', 6, 100, ''],
        ['产出', 106, '', ''],
        ['不良率%', 5.7, '', ''],
      ]);
      await p.context().close();
    });
  }

  it('工资: the statement splits the line’s 不良 (工废 2 · 料废 3 · 未注明 1) and gives the 料废单价', async () => {
    await app.catchUpAll();
    const s = (await call('GET', `/api/wages/${WORKER}?month=2026-03`)).body;
    // 100 × 1.20 + (2 + 1) × (−0.50) + 3 × 1.20 = 122.10
    expect(s.reports[0].lines[0]).toMatchObject({ operatorDefectQty: 2, materialDefectQty: 3, unexplainedDefectQty: 1, materialDefectRate: '1.2000', amount: '122.10' });
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(`${app.url}/console/wages?month=2026-03&phone=${WORKER}`);
      const statement = page.getByTestId('statement');
      await statement.waitFor();
      const split = statement.getByTestId('line-split').first();
      expect(await shown(split)).toContain('工废 2 · 料废 3 · 未注明 1');
      expect(await seen(split)).toBe('');
      if (viewport === DESKTOP) expect(await shown(statement.getByTestId('line-material-rate').first())).toBe('1.2000');
      else expect(await shown(statement.getByTestId('line-pricing').first())).toBe('成品 100 × 1.2000；不良 3 × -0.5000；料废 3 × 1.2000');
      expect(await shown(page.getByTestId('statement-amount'))).toBe('122.10 元');
    }
    await page.setViewportSize(DESKTOP);
  });

  it('a person with a scope reads 不良原因 without changing them; their 质量 says what it covers and counts only it', async () => {
    expect((await call('POST', '/api/workshops', { code: 'W2', name: '焊装车间' })).status).toBe(201);
    expect((await call('PUT', `/api/people/${ADMIN}/scope`, { role: 'admin', workshops: ['W2'] })).status).toBe(200);
    const { page: p, errors } = await openConsole(browser, app, '/console/', PHONE);
    pageErrors.push(errors);
    await signIn(p, ADMIN);
    await menu(p, '不良原因');
    await p.getByTestId('reasons-read-only').waitFor();
    expect(await shown(p.getByTestId('reasons-read-only'))).toBe('您的管理范围只是部分车间或班组：新增和修改不良原因须由负责全厂的管理员或经理操作');
    await p.locator('[data-test=reason][data-code=CRK]').waitFor();
    expect([await p.getByTestId('new-reason').count(), await p.getByTestId('edit-reason').count()]).toEqual([0, 0]);
    // The 03-19 report belongs to no team: outside 焊装车间, so nothing is counted.
    await menu(p, '质量');
    await p.goto(`${app.url}/console/quality?startDate=${DAY}&endDate=${DAY}`);
    await p.locator('[data-test=quality][data-ready=true]').waitFor();
    await p.getByTestId('scope-note').waitFor();
    expect(await shown(p.getByTestId('scope-note'))).toContain('本页只含：焊装车间');
    expect([await shown(p.getByTestId('total-defective')), await shown(p.getByTestId('pareto-empty'))]).toEqual(['0 件', '这段时间已通过的报工单没有不良。']);
    await fitsBothWidths(p, [p.getByTestId('scope-note'), p.getByTestId('totals')]);
    await p.context().close();
  });
});
