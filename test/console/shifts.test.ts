/**
 * Shifts in the browser: a manager reads the 班次 page (each shift with its windows on a 24-hour bar),
 * creates a night shift through the dialog, assigns a team its shift from a date, sets a day off on the month
 * calendar; a report whose break came from the shift says so on the report page (来自班次「白班」), and 经理修改
 * after a manager's change; the report page and the review screen show the report's 班组 (甲班（冲压车间）).
 * Picking a team shows its 排班 as it is (the one in force, later ones, 调整 from today on), never the previous
 * team's; 保存排班 is inactive until the form changes the schedule; a change of the 排班 or of one day says what it
 * changes in a confirmation (取消 saves nothing) and says it was saved.
 * Asserted at 1366×768 and 390×844 (nothing to scroll sideways, the key elements inside the viewport); axe-core finds no serious violation; no page logs an error.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, workerClient } from '../clock/helpers.ts';
import { axeViolations, DESKTOP, launchBrowser, openConsole, PHONE, shoot, signIn, skipBrowserTests } from './browser.ts';
import { expectNoPageErrors, fitsBothWidths, seen, shown } from './viewport.ts';

const MANAGER = '13900000003';
const WORKER = '13700000001';
const ADMIN = '13800000001';
let app: TestApp;
let browser: Browser;
let page: Page;
let managerToken: string;
let dayShift = '';
let reportId = '';
const pageErrors: string[][] = [];

const call = (method: string, path: string, body?: unknown) => app.request(method, path, { token: managerToken, body });

/** The calendar opens on the browser's month; goes to March 2026. */
async function toMarch(): Promise<void> {
  for (let i = 0; i < 36 && (await shown(page.getByTestId('month'))) !== '2026-03'; i++) {
    await page.getByTestId((await shown(page.getByTestId('month'))) > '2026-03' ? 'month-prev' : 'month-next').click();
  }
}

describe.skipIf(skipBrowserTests('shifts.test.ts'))('班次 in the console', () => {
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp({}, '2026-03-20T10:00:00+08:00'), launchBrowser()]);
    managerToken = await app.login(MANAGER, 'manager', '李经理');
    const workerToken = await app.login(WORKER, 'worker', '张三');
    expect((await call('POST', '/api/workshops', { code: 'W1', name: '冲压车间' })).status).toBe(201);
    expect((await call('POST', '/api/teams', { code: 'A1', name: '甲班', workshopCode: 'W1', leaders: [MANAGER] })).status).toBe(201);
    const day = await call('POST', '/api/shifts', { name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '13:00' }, { start: '15:00', end: '15:15', paid: true }] });
    dayShift = day.body.shiftId;
    expect((await call('POST', '/api/teams/A1/shift-assignments', { validFrom: '2026-03-01', rotation: [dayShift] })).status).toBe(201);
    expect((await call('POST', '/api/memberships', { phone: WORKER, teamCode: 'A1', validFrom: '2026-03-01' })).status).toBe(200);
    // A report of 2026-03-19 08:00–17:00 under 白班: 60 minutes from the shift.
    const product = await addProduct(app, 'JC-01', { name: '前围横梁' });
    const w = workerClient(app, workerToken);
    app.clock.set('2026-03-19T08:00:00+08:00');
    const started = await w.start('JC-01');
    app.clock.set('2026-03-19T17:00:00+08:00');
    await w.finish('JC-01');
    const submitted = await w.submit(started.body.sessionId, [{ productId: product, finishedQty: 100, defectiveQty: 1 }]);
    expect(submitted.status).toBe(201);
    reportId = submitted.body.reportId;
    app.clock.set('2026-03-20T10:00:00+08:00');
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

  it('the shifts with their windows on a 24-hour bar; a night shift created through the dialog', async () => {
    await page.getByRole('navigation', { name: '主菜单' }).getByText('班次').click();
    await page.waitForURL(/\/console\/shifts$/);
    const day = page.getByTestId('shift').filter({ hasText: '白班' });
    await day.waitFor();
    expect(await shown(day.getByTestId('shift-times'))).toBe('08:00–17:00');
    expect(await shown(day.getByTestId('shift-windows'))).toBe('12:00–13:00、15:00–15:15（带薪）');
    // The lunch window is drawn from 12:00 (half the bar) for 1 hour (1/24 of it).
    const bar = await day.getByTestId('shift-bar').boundingBox();
    const lunch = await day.getByTestId('bar-window').first().boundingBox();
    expect(Math.abs(lunch!.x - bar!.x - bar!.width / 2)).toBeLessThan(2);
    expect(Math.abs(lunch!.width - bar!.width / 24)).toBeLessThan(2);

    await page.getByTestId('new-shift').click();
    await page.getByTestId('shift-name-input').fill('夜班');
    await page.getByTestId('shift-start').fill('22:00');
    await page.getByTestId('shift-end').fill('06:00');
    const row = page.getByTestId('window-row').first();
    await row.getByRole('textbox').nth(0).fill('00:00');
    await row.getByRole('textbox').nth(1).fill('00:30');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    const night = page.getByTestId('shift').filter({ hasText: '夜班' });
    await night.waitFor();
    expect(await shown(night.getByTestId('shift-times'))).toBe('22:00–06:00');
    const api = (await call('GET', '/api/shifts')).body.items.find((s: any) => s.name === '夜班');
    expect(api).toMatchObject({ start: '22:00', end: '06:00', breaks: [{ start: '00:00', end: '00:30', paid: false }] });
    await shoot(page, 'shifts');
    expect(await axeViolations(page)).toEqual([]);
    await fitsBothWidths(page, [day.getByTestId('shift-bar'), page.getByTestId('new-shift')]);
  });

  it('a team’s month: the 排班 from its date, a day off set on the calendar', async () => {
    const calendar = page.getByTestId('calendar');
    await calendar.getByTestId('cal-day').first().waitFor();
    const day = (date: string) => calendar.locator(`[data-date="${date}"]`);
    await toMarch();
    await expect.poll(() => shown(day('2026-03-02'))).toContain('白班');

    await day('2026-03-21').click();
    await page.getByTestId('override-choice').click();
    await page.locator('.el-popper:visible').getByRole('option', { name: '休息', exact: true }).click();
    await page.getByRole('button', { name: '保存', exact: true }).last().click();
    // The change is asked first, in words (README "班次与休息").
    const ask = page.getByRole('dialog', { name: '调整班次' });
    expect(await shown(ask.locator('.el-message-box__message'))).toBe('3月21日 甲班 由 白班 改为 休息，影响这一天的报工休息时间');
    await ask.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => shown(day('2026-03-21'))).toBe('21休调');
    const cal = (await call('GET', '/api/teams/A1/shift-calendar?month=2026-03')).body.items;
    expect(cal.find((d: any) => d.date === '2026-03-21')).toEqual({ date: '2026-03-21', shift: null, source: 'override' });
    expect(cal.find((d: any) => d.date === '2026-03-20')).toMatchObject({ shift: { name: '白班' }, source: 'assignment' });
    await shoot(page, 'shift-calendar');
    expect(await axeViolations(page)).toEqual([]);
    await fitsBothWidths(page, [day('2026-03-21'), day('2026-03-29'), page.getByTestId('assign-save')]);
  });

  it('picking a team shows its 排班 as it is; 保存排班 waits for a change, which asks before it saves and says it was saved; a day’s 调整 too', async () => {
    const night = (await call('GET', '/api/shifts')).body.items.find((s: any) => s.name === '夜班').shiftId;
    expect((await call('POST', '/api/workshops', { code: 'W2', name: '焊装车间' })).status).toBe(201);
    expect((await call('POST', '/api/teams', { code: 'B1', name: '焊装一班', workshopCode: 'W2', leaders: [MANAGER] })).status).toBe(201);
    expect((await call('POST', '/api/teams/B1/shift-assignments', { validFrom: '2026-03-16', rotation: [night] })).status).toBe(201);
    expect((await call('PUT', '/api/teams/B1/shift-overrides/2026-03-25', { shiftId: null })).status).toBe(204);
    await page.goto(`${app.url}/console/shifts`);
    const save = page.getByTestId('assign-save');
    const from = page.getByRole('combobox', { name: '生效日期' });
    const rotationShown = () => shown(page.getByTestId('rotation-item').first().locator('.el-select__placeholder'));

    // The first team: 甲班 on 白班 from 3月1日 (and the 休息 set on 3月21日 in the test before), nothing to save.
    await expect.poll(() => shown(page.getByTestId('schedule-in-force'))).toBe('从 3月1日 起 白班');
    expect(await shown(page.getByTestId('schedule-overrides'))).toBe('3月21日 休息');
    expect(await rotationShown()).toBe('白班');
    expect(await save.isDisabled()).toBe(true);
    expect(await shown(page.getByTestId('assign-unchanged'))).toBe('表中是现行排班；修改后才能保存');

    // Another team: its own 排班 (夜班 from 3月16日) and 调整, not the first shift nor 甲班's input.
    await page.getByTestId('rotation-item').first().click();
    await page.locator('.el-popper:visible').getByRole('option', { name: '休息', exact: true }).click();
    expect(await save.isEnabled()).toBe(true);
    await page.getByTestId('team-select').click();
    await page.getByRole('option', { name: '焊装车间 · 焊装一班' }).click();
    await expect.poll(() => shown(page.getByTestId('schedule-in-force'))).toBe('从 3月16日 起 夜班');
    expect(await shown(page.getByTestId('schedule-overrides'))).toBe('3月25日 休息');
    expect(await rotationShown()).toBe('夜班');
    expect(await from.inputValue()).toBe('2026-03-16');
    expect(await save.isDisabled()).toBe(true);
    for (const v of [DESKTOP, PHONE]) {
      await page.setViewportSize(v);
      expect(await seen(page.getByTestId('schedule-in-force'))).toBe('');
      expect(await seen(save)).toBe('');
    }
    await page.setViewportSize(DESKTOP);

    // From 4月1日 on 白班: the question names what changes; 取消 saves nothing.
    await from.fill('2026-04-01');
    await from.press('Enter');
    expect(await save.isDisabled()).toBe(true); // the same 夜班 from a later date changes nothing
    await page.getByTestId('rotation-item').first().click();
    await page.locator('.el-popper:visible').getByRole('option', { name: '白班', exact: true }).click();
    await save.click();
    const box = page.getByRole('dialog', { name: '保存排班' });
    await box.waitFor();
    expect(await shown(box.locator('.el-message-box__message'))).toBe('从 4月1日 起 焊装一班 由 夜班 改为 白班，影响之后的报工休息时间');
    expect(await seen(box.getByRole('button', { name: '保存' }))).toBe('');
    await box.getByRole('button', { name: '取消' }).click();
    await box.waitFor({ state: 'hidden' });
    expect((await call('GET', '/api/teams/B1/shift-schedule')).body.assignments).toHaveLength(1);

    await save.click();
    await box.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => page.getByText('排班已保存：从 4月1日 起 焊装一班 由 夜班 改为 白班').isVisible()).toBe(true);
    const after = (await call('GET', '/api/teams/B1/shift-schedule')).body;
    expect(after.assignments).toEqual([
      { validFrom: '2026-03-16', rotation: [night], daysEach: 1 },
      { validFrom: '2026-04-01', rotation: [dayShift], daysEach: 1 },
    ]);
    await expect.poll(() => shown(page.getByTestId('schedule-later'))).toBe('从 4月1日 起 白班');
    expect(await save.isDisabled()).toBe(true);

    // A day's 调整, at a phone's width: 3月27日 (夜班 by the 排班) to 白班, asked first; then back to the 排班.
    await page.setViewportSize(PHONE);
    await toMarch();
    const day = page.getByTestId('calendar').locator('[data-date="2026-03-27"]');
    await day.click();
    await page.getByTestId('override-choice').click();
    await page.locator('.el-popper:visible').getByRole('option', { name: '白班', exact: true }).click();
    await page.getByRole('dialog', { name: '调整 2026-03-27' }).getByRole('button', { name: '保存', exact: true }).click();
    const ask = page.getByRole('dialog', { name: '调整班次' });
    await ask.waitFor();
    expect(await shown(ask.locator('.el-message-box__message'))).toBe('3月27日 焊装一班 由 夜班 改为 白班，影响这一天的报工休息时间');
    expect(await seen(ask.getByRole('button', { name: '保存' }))).toBe('');
    await ask.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => shown(day)).toBe('27白班调');
    expect(await page.getByText('已保存：3月27日 焊装一班 由 夜班 改为 白班').isVisible()).toBe(true);

    await day.click();
    const dialog = page.getByRole('dialog', { name: '调整 2026-03-27' });
    expect(await dialog.getByRole('button', { name: '保存', exact: true }).isDisabled()).toBe(true); // nothing chosen yet
    await page.getByTestId('override-choice').click();
    await page.locator('.el-popper:visible').getByRole('option', { name: '按排班', exact: true }).click();
    await dialog.getByRole('button', { name: '保存', exact: true }).click();
    const undo = page.getByRole('dialog', { name: '取消调整' });
    expect(await shown(undo.locator('.el-message-box__message'))).toBe('3月27日 焊装一班 取消调整（现为 白班（调整）），恢复按排班，影响这一天的报工休息时间');
    expect(await seen(undo.getByRole('button', { name: '保存' }))).toBe('');
    await undo.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => shown(day)).toBe('27夜班');
    const cal = (await call('GET', '/api/teams/B1/shift-calendar?month=2026-03')).body.items;
    expect(cal.find((d: any) => d.date === '2026-03-27')).toMatchObject({ shift: { name: '夜班' }, source: 'assignment' });
    await page.setViewportSize(DESKTOP);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('the report page says where the break came from: 来自班次「白班」, then 经理修改; and the report’s 班组', async () => {
    await page.goto(`${app.url}/console/reports/${reportId}`);
    const source = page.getByTestId('break-source');
    await source.waitFor();
    expect(await shown(page.getByTestId('report-facts'))).toContain('60 分钟 来自班次「白班」');
    // the report's 班组 as of its date (甲班 of 冲压车间), in the facts.
    expect(await shown(page.getByTestId('report-team'))).toBe('甲班（冲压车间）');
    expect(await shown(page.getByTestId('report-facts'))).toContain('报工日期2026-03-19班组甲班（冲压车间）');
    expect((await call('PATCH', `/api/reports/${reportId}/break-minutes`, { breakMinutes: 45 })).status).toBe(200);
    await page.reload();
    await expect.poll(() => shown(page.getByTestId('break-source'))).toBe('经理修改');
    expect(await shown(page.getByTestId('report-facts'))).toContain('45 分钟 经理修改');
    await fitsBothWidths(page, [page.getByTestId('break-source'), page.getByTestId('report-team')]);
  });

  it('the review screen shows the report’s 班组 (team and workshop) beside where its break came from', async () => {
    await app.login(ADMIN, 'admin', '王管理');
    const c = await openConsole(browser, app);
    pageErrors.push(c.errors);
    const admin = c.page;
    await signIn(admin, ADMIN);
    await admin.goto(`${app.url}/console/review`);
    await admin.getByTestId('pending-table').getByText('张三').click();
    const drawer = admin.getByTestId('review-drawer');
    await drawer.getByTestId('report-team').waitFor();
    expect(await shown(drawer.getByTestId('report-team'))).toBe('甲班（冲压车间）');
    expect(await shown(drawer.getByTestId('report-facts'))).toContain('45 分钟 经理修改');
    expect(await axeViolations(admin)).toEqual([]);
    await fitsBothWidths(admin, [drawer.getByTestId('report-team'), drawer.getByTestId('break-source')]);
    await admin.context().close();
  });
});
