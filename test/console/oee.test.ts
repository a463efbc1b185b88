/**
 * Downtime and OEE in the browser, the figures worked out by hand (never by the code under test):
 *
 *   device D1 (冲压车间), a product with a 30 s standard cycle; no shifts
 *   worker A clocked on D1 08:00–12:00, worker B 11:00–13:00      attended = union 08:00–13:00 = 300.0 min (not 360)
 *   A's phone: 换模 09:00–09:40; the manager corrects it to 09:30  planned stop 30.0 min → planned 270.0 min
 *   the manager records 设备故障 10:00–10:20 (补录)                 unplanned 20.0 min → run 250.0 min
 *   A's approved line: 成品 300, 不良 20                           ideal 30 × 320 s = 160.0 min; fully productive 150.0 min
 *   可用率 250 / 270 = 92.59 → 92.6 %   性能 160 / 250 = 64.0 %   质量 150 / 160 = 93.75 → 93.8 %
 *   OEE 150 / 270 = 55.56 → 55.6 %; losses 换模 30.0 min 60.0 %, 设备故障 20.0 min 40.0 % (cumulative 100.0 %)
 *
 * A manager creates the stop reasons on 停机原因 (换模 计划停机, 设备故障 非计划停机, 待料 deactivated after asking; a code
 * in use refused in the service's words); on 设备效率 records the past stop and corrects the phone's one in dialogs
 * (the figures follow each change; a refusal — an overlapping stop — in the service's words); the totals, the table
 * by device with its 合计 row, the trend chart's tooltip and the Pareto's tooltip give the same numbers; the export
 * holds them. At 1366×768 and 390×844: nothing to scroll sideways, the key figures inside the viewport; axe-core finds
 * no serious violation; no page logs an error beyond the refusals the test provokes.
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
const A = '13700000011';
const B = '13700000012';
const DAY = '2026-03-02';
const OEE_URL = `/console/oee?startDate=${DAY}&endDate=${DAY}`;
let app: TestApp;
let browser: Browser;
let page: Page;
let managerToken: string;
const pageErrors: string[][] = [];

const call = (method: string, path: string, body?: unknown, token = managerToken) => app.request(method, path, { token, body });
const at = (hhmm: string) => app.clock.set(`${DAY}T${hhmm}:00+08:00`);
/** The done-when figures as the table shows them, after the device (or 合计). */
const DONE = ['55.6 %', '92.6 %', '64.0 %', '93.8 %', '93.8 %', '300.0', '30.0', '270.0', '20.0', '250.0', '160.0', '150.0', '300 / 320'];
/** The figures page, read again (the address holds the day); resolves once the answers are shown and charts drawn. */
async function openOee(p: Page): Promise<void> {
  await p.goto(app.url + OEE_URL);
  await p.locator('[data-test=oee][data-ready=true]').waitFor();
}
/** Picks `option` in the select `select` (an Element Plus select inside `scope`). */
async function pick(p: Page, select: ReturnType<Page['getByTestId']>, option: string) {
  await select.click();
  await p.locator('.el-popper:visible').getByRole('option', { name: option, exact: true }).click();
}
/** Types `value` (`YYYY-MM-DD HH:mm`) into the date-time picker inside `picker` and closes it. */
async function typeTime(p: Page, picker: ReturnType<Page['getByTestId']>, value: string) {
  const input = picker.locator('input').first();
  await input.fill(value);
  await input.press('Enter');
  // A click on the dialog's title closes the picker's panel (Escape would close the dialog too).
  await p.locator('.el-dialog__title:visible').click();
  await p.locator('.el-picker-panel:visible').waitFor({ state: 'hidden' });
}

describe.skipIf(skipBrowserTests('oee.test.ts'))('停机原因, 设备效率 and the stops in the console', () => {
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp({}, `${DAY}T07:00:00+08:00`), launchBrowser()]);
    managerToken = await app.login(MANAGER, 'manager', '李经理');
    await app.login(ADMIN, 'admin', '王管理');
    await addProduct(app, 'D1', { cycle: 30 });
    expect((await call('POST', '/api/workshops', { code: 'W1', name: '冲压车间' })).status).toBe(201);
    expect((await call('PUT', '/api/devices/D1/workshop', { workshopCode: 'W1' })).status).toBe(200);
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

  it('停机原因: 换模 计划停机 and 设备故障 非计划停机 added, a code in use refused in words, 待料 deactivated after asking', async () => {
    await menu(page, '停机原因');
    await page.waitForURL(/\/console\/stop-reasons$/);
    const dialog = page.getByRole('dialog', { name: /停机原因/ });
    const add = async (code: string, name: string, category: string) => {
      await page.getByTestId('new-reason').click();
      await dialog.getByTestId('reason-code-input').fill(code);
      await dialog.getByTestId('reason-name-input').fill(name);
      await dialog.locator('.el-radio').filter({ hasText: new RegExp(`^${category}`) }).click();
      await dialog.getByRole('button', { name: '保存', exact: true }).click();
    };
    await add('CHG', '换模', '计划停机');
    await page.locator('[data-test=reason][data-code=CHG]').waitFor();
    await add('BRK', '设备故障', '非计划停机');
    await page.locator('[data-test=reason][data-code=BRK]').waitFor();
    await add('WAIT', '待料', '非计划停机');
    const wait = page.locator('[data-test=reason][data-code=WAIT]');
    await wait.waitFor();
    expect(await shown(page.locator('[data-test=reason][data-code=CHG]'))).toBe('换模CHG计划停机修改停用');

    await add('CHG', '换型', '计划停机');
    const refusal = dialog.getByTestId('dialog-error');
    await refusal.waitFor();
    expect(await shown(refusal)).toMatch(/CHG.*换模/);
    expectRefusals(pageErrors[0], 409);
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await wait.getByTestId('deactivate-reason').click();
    const ask = page.getByRole('dialog', { name: '停用停机原因' });
    expect(await shown(ask.locator('.el-message-box__message'))).toContain('停用「待料」？停用后不能再选它记录停机');
    await ask.getByRole('button', { name: '停用' }).click();
    await wait.getByTestId('reason-inactive').waitFor();
    expect(await shown(page.getByTestId('reason-count'))).toBe('共 3 个，启用 2 个');
    expect((await call('GET', '/api/stop-reasons?active=true')).body.items).toEqual([
      { code: 'BRK', name: '设备故障', category: 'unplanned', active: true },
      { code: 'CHG', name: '换模', category: 'planned', active: true },
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, 'stop-reasons');
    await fitsBothWidths(page, [wait.getByTestId('reactivate-reason'), page.getByTestId('new-reason')]);
  });

  it('设备效率: the phone’s 换模 shown; 补录 设备故障 and 修改 换模 in dialogs; the figures follow to the done-when numbers', async () => {
    // The day on the shop floor: A on D1 08:00–12:00 (换模 from the phone 09:00–09:40), B 11:00–13:00; A's line approved.
    const aToken = await app.login(A, 'worker', '张三');
    const a = workerClient(app, aToken);
    const b = workerClient(app, await app.login(B, 'worker', '李四'));
    at('08:00');
    const session = (await a.start('D1')).body.sessionId;
    at('09:00');
    const chg = await call('POST', '/api/devices/D1/stops', { reasonCode: 'CHG' }, aToken);
    expect(chg.status).toBe(201);
    at('09:40');
    expect((await call('POST', `/api/stops/${chg.body.stopId}/end`, undefined, aToken)).status).toBe(200);
    at('11:00');
    expect((await b.start('D1')).status).toBe(200);
    at('12:00');
    expect((await a.finish('D1')).status).toBe(200);
    const product = (await call('GET', '/api/products?page=1&pageSize=10')).body.items[0].id;
    const report = await a.submit(session, [{ productId: product, finishedQty: 300, defectiveQty: 20 }]);
    expect(report.status).toBe(201);
    at('13:00');
    expect((await b.finish('D1')).status).toBe(200);
    const admin = await app.login(ADMIN, 'admin', '王管理');
    expect((await call('POST', `/api/reviews/${report.body.reportId}/approve`, {}, admin)).status).toBe(200);
    at('18:00');
    await app.catchUpAll();

    await menu(page, '设备效率');
    await openOee(page);
    const device = async () => (await cells(page, 'oee-table'))[0];
    expect(await cells(page, 'stops-table')).toEqual([['D1', '换模计划停机', `${DAY} 09:00`, `${DAY} 09:40`, '40.0', '张三', '', '修改']]);
    // Before the office's changes: 换模 40 min, nothing unplanned: 可用率 100.0 %, 性能 160 / 260 = 61.5 %, OEE 150 / 260 = 57.7 %.
    expect((await device()).slice(0, 10)).toEqual(['D1', '57.7 %', '100.0 %', '61.5 %', '93.8 %', '93.8 %', '300.0', '40.0', '260.0', '0.0']);

    // 补录停机: 设备故障 10:00–10:20, with a note.
    await page.getByTestId('record-stop').click();
    const dialog = page.getByRole('dialog', { name: '补录停机' });
    await pick(page, dialog.getByTestId('stop-device-input'), 'D1');
    await pick(page, dialog.getByTestId('stop-reason-input'), '设备故障（非计划停机）');
    // 待料 is deactivated: not offered.
    await dialog.getByTestId('stop-reason-input').click();
    expect(await page.locator('.el-popper:visible').getByRole('option').allTextContents()).toEqual(['设备故障（非计划停机）', '换模（计划停机）']);
    await dialog.getByTestId('stop-reason-input').click();
    await page.locator('.el-select-dropdown:visible').waitFor({ state: 'hidden' });
    // First an overlap with 换模 (09:30–10:20): the service's sentence in the dialog.
    await typeTime(page, dialog.getByTestId('stop-start-input'), `${DAY} 09:30`);
    await typeTime(page, dialog.getByTestId('stop-end-input'), `${DAY} 10:20`);
    await dialog.getByTestId('stop-note-input').fill('班组长纸质记录');
    await dialog.getByRole('button', { name: '保存', exact: true }).click();
    const refusal = dialog.getByTestId('dialog-error');
    await refusal.waitFor();
    expect(await shown(refusal)).toContain('重叠');
    expectRefusals(pageErrors[0], 422);
    await typeTime(page, dialog.getByTestId('stop-start-input'), `${DAY} 10:00`);
    await dialog.getByRole('button', { name: '保存', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await device())[2]).toBe('92.3 %'); // run 240 of planned 260

    // 修改 换模: ends 09:30, with a note.
    await page.getByTestId('stops-table').locator('tbody tr').filter({ hasText: '换模' }).getByTestId('correct-stop').click();
    const fix = page.getByRole('dialog', { name: '修改停机记录：D1' });
    expect(await fix.getByTestId('stop-device-input').locator('input').isDisabled()).toBe(true);
    expect(await fix.getByRole('button', { name: '保存', exact: true }).isDisabled()).toBe(true);
    await typeTime(page, fix.getByTestId('stop-end-input'), `${DAY} 09:30`);
    await fix.getByTestId('stop-note-input').fill('按设备记录更正');
    await fix.getByRole('button', { name: '保存', exact: true }).click();
    await fix.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await device()).slice(1)).toEqual(DONE);
    expect(await cells(page, 'stops-table')).toEqual([
      ['D1', '设备故障非计划停机', `${DAY} 10:00`, `${DAY} 10:20`, '20.0', '李经理', '班组长纸质记录', '修改'],
      ['D1', '换模计划停机', `${DAY} 09:00`, `${DAY} 09:30`, '30.0', '张三', '按设备记录更正', '修改'],
    ]);
    const stored = (await call('GET', `/api/stops?startDate=${DAY}&endDate=${DAY}`)).body.items;
    expect(stored.map((s: any) => [s.reasonCode, s.startAt.slice(11, 16), s.endAt.slice(11, 16), s.note])).toEqual([
      ['BRK', '10:00', '10:20', '班组长纸质记录'],
      ['CHG', '09:00', '09:30', '按设备记录更正'],
    ]);
    // The list's reason filter: only 设备故障's stop, as the API gives it with reason=BRK; cleared, both again.
    await pick(page, page.getByTestId('stops-reason-filter'), '设备故障');
    await expect.poll(() => cells(page, 'stops-table')).toEqual([['D1', '设备故障非计划停机', `${DAY} 10:00`, `${DAY} 10:20`, '20.0', '李经理', '班组长纸质记录', '修改']]);
    expect((await call('GET', `/api/stops?startDate=${DAY}&endDate=${DAY}&reason=BRK`)).body.items.map((s: any) => s.reasonCode)).toEqual(['BRK']);
    await fitsBothWidths(page, [page.getByTestId('stops-reason-filter'), page.getByTestId('record-stop')]);
    await page.getByTestId('stops-reason-filter').hover();
    await page.getByTestId('stops-reason-filter').locator('.el-select__clear, .el-input__clear').first().click();
    await expect.poll(async () => (await cells(page, 'stops-table')).length).toBe(2);
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`设备效率 at ${viewport.width}px: totals, table, trend and Pareto give the same numbers (92.6 %, 64.0 %, 93.8 %, 55.6 %); the export`, async () => {
      const answer = (await call('GET', `/api/oee?startDate=${DAY}&endDate=${DAY}&groupBy=device`)).body;
      expect([answer.totals.availabilityPct, answer.totals.performancePct, answer.totals.qualityPct, answer.totals.oeePct]).toEqual([92.6, 64, 93.8, 55.6]);
      const { page: p, errors } = await openConsole(browser, app, '/console/', viewport);
      pageErrors.push(errors);
      await signIn(p, MANAGER);
      await menu(p, '设备效率');
      await openOee(p);

      const totals = { oeePct: '55.6 %', availabilityPct: '92.6 %', performancePct: '64.0 %', qualityPct: '93.8 %' };
      for (const [k, v] of Object.entries(totals)) {
        expect(await shown(p.getByTestId(`total-${k}`)), k).toBe(v);
        expect(await seen(p.getByTestId(`total-${k}`)), k).toBe('');
      }
      expect(await cells(p, 'oee-table')).toEqual([
        ['D1', ...DONE],
        ['合计', ...DONE],
      ]);
      expect(await seen(p.getByTestId('cell-oeePct').first())).toBe('');
      expect(await cells(p, 'losses-table')).toEqual([
        ['换模计划停机', '30.0', '60.0 %', '60.0 %'],
        ['设备故障非计划停机', '20.0', '40.0 %', '100.0 %'],
      ]);
      expect(await shown(p.getByTestId('losses-total'))).toContain('停机合计 50.0 分钟');

      await shoot(p, 'oee');
      expect(await axeViolations(p)).toEqual([]);
      await fitsBothWidths(p, [p.getByTestId('totals'), p.getByTestId('trend-chart'), p.getByTestId('losses-chart'), p.getByTestId('export-oee'), p.getByTestId('record-stop')]);

      // The trend's tooltip on the day: the same four figures as the totals and the table.
      const trend = p.getByTestId('trend-chart');
      await trend.scrollIntoViewIfNeeded();
      let box = (await trend.locator('canvas').first().boundingBox())!;
      await p.mouse.move(box.x + box.width / 2, box.y + box.height * 0.6);
      const tip = trend.locator('div').filter({ hasText: DAY }).filter({ hasText: '可用率' }).last();
      await tip.waitFor();
      const tipText = await shown(tip);
      for (const [label, v] of [['OEE', totals.oeePct], ['可用率', totals.availabilityPct], ['性能', totals.performancePct], ['质量', totals.qualityPct]]) {
        expect(tipText).toMatch(new RegExp(`${label} ?${v.replace('.', '\\.')}`));
      }

      // The Pareto's tooltip on 换模: 30.0 minutes (the table's 计划停机), cumulative 60.0 %.
      const pareto = p.getByTestId('losses-chart');
      await pareto.scrollIntoViewIfNeeded();
      box = (await pareto.locator('canvas').first().boundingBox())!;
      await p.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.7);
      const ptip = pareto.locator('div').filter({ hasText: '换模' }).filter({ hasText: '累计占比' }).last();
      await ptip.waitFor();
      const ptext = await shown(ptip);
      expect(ptext).toMatch(/停机分钟 ?30\.0 分钟/);
      expect(ptext).toMatch(/累计占比 ?60\.0 %/);

      if (viewport === DESKTOP) {
        const [download] = await Promise.all([p.waitForEvent('download'), p.getByTestId('export-oee').click()]);
        expect(download.suggestedFilename()).toBe(`设备效率_${DAY}_${DAY}.xlsx`);
        const rows = XLSX.utils.sheet_to_json<unknown[]>(XLSX.read(readFileSync(await download.path())).Sheets['设备效率'], { header: 1 });
        expect(rows[1]).toEqual(['D1', 18000, 16200, 1800, 1200, 15000, 9600, 300, 320, 9000, 92.6, 64, 93.8, 93.8, 55.6]);
      }
      await p.context().close();
    });
  }

  it('结束: a stop still lasting is ended from the list after asking; the list and the API say it ended then', async () => {
    const aToken = await app.login(A, 'worker', '张三');
    at('18:10');
    expect((await workerClient(app, aToken).start('D1')).status).toBe(200);
    at('18:20');
    const brk = await call('POST', '/api/devices/D1/stops', { reasonCode: 'BRK' }, aToken);
    expect(brk.status).toBe(201);
    at('18:35');
    await openOee(page);
    const lasting = page.getByTestId('stops-table').locator('tbody tr').filter({ hasText: '仍在停机' });
    expect(await shown(lasting.getByTestId('stop-start'))).toBe(`${DAY} 18:20`);
    // Only the lasting stop offers 结束.
    expect(await page.getByTestId('stops-table').getByTestId('end-stop').count()).toBe(1);
    await fitsBothWidths(page, [lasting.getByTestId('end-stop')]);
    await lasting.getByTestId('end-stop').click();
    const ask = page.getByRole('dialog', { name: '结束停机' });
    expect(await shown(ask.locator('.el-message-box__message'))).toBe(`结束 D1 的停机（设备故障，${DAY} 18:20 开始）？结束时间记为现在。`);
    await ask.getByRole('button', { name: '结束停机' }).click();
    const ended = page.getByTestId('stops-table').locator('tbody tr').filter({ hasText: `${DAY} 18:20` });
    await expect.poll(() => shown(ended.getByTestId('stop-end'))).toBe(`${DAY} 18:35`);
    expect(await shown(ended.getByTestId('stop-minutes'))).toBe('15.0');
    expect(await page.getByTestId('stops-table').getByTestId('end-stop').count()).toBe(0);
    const stored = (await call('GET', `/api/stops?startDate=${DAY}&endDate=${DAY}&reason=BRK`)).body.items.find((x: any) => x.stopId === brk.body.stopId);
    expect(Date.parse(stored.endAt)).toBe(Date.parse(`${DAY}T18:35:00+08:00`));
  });
});
