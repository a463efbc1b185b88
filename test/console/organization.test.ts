/**
 * The organization in the browser: a manager on the 车间班组 page sees the workshops with their teams, leaders and
 * member counts; creates a workshop and a team through the dialogs; opens a team's members with their dates; moves a
 * worker to the other team (date picker, default today: the old membership ends the day before); sees the members
 * on an earlier date and a person's history; is refused a move dated before the history (the service's sentence in
 * the dialog). On the 设备码 page a device's workshop is set and the print sheet shows it. Several workers join a team
 * at once, a refusal naming its person while the others join; on a phone's width a team's 组员 open in view, their
 * buttons uncovered and nothing to scroll sideways. What a person sees is
 * asserted at 1366×768 and at 390×844 (nothing to scroll sideways, the key elements inside the viewport), equal to
 * the API's answers; axe-core finds no serious violation; no page logs an error other than the refusal provoked.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { axeViolations, DESKTOP, launchBrowser, openConsole, PHONE, shoot, signIn, skipBrowserTests } from './browser.ts';
import { expectNoPageErrors, expectRefusals, expectSaved, fitsBothWidths, seen, shown, snap } from './viewport.ts';

const MANAGER = '13900000003';
const ZHANG = '13700000001';
const LEADER = '13700000009';
const LI = '13700000002';
const WANG = '13700000003';

let app: TestApp;
let browser: Browser;
let page: Page;
let token: string;
const pageErrors: string[][] = [];

/** Chooses `option` in the Element Plus select `select` (its options open in a popper). */
async function choose(p: Page, select: Locator, option: RegExp | string): Promise<void> {
  await select.click();
  await p.getByRole('option', { name: option }).last().click();
}

/** Sets a date picker (wrapped in `wrapper`) to `date`. */
async function setDate(wrapper: Locator, date: string): Promise<void> {
  const input = wrapper.locator('input');
  await input.fill(date);
  await input.press('Enter');
}

describe.skipIf(skipBrowserTests('organization.test.ts'))('车间班组 in the console', () => {
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp({}, '2026-03-16T10:00:00+08:00'), launchBrowser()]);
    token = await app.login(MANAGER, 'manager', '李经理');
    await app.login(ZHANG, 'worker', '张三');
    await app.login(LEADER, 'worker', '赵班长');
    await app.login(LI, 'worker', '李四');
    await app.login(WANG, 'worker', '王五');
    await app.service.ctx.db.pool.query(
      `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
       VALUES ('XM-1', '前围横梁', '冲床 01', '落料', 24, 1200)`,
    );
    const post = async (path: string, body: unknown) => expect((await app.request('POST', path, { token, body })).status).toBeLessThan(300);
    await post('/api/workshops', { code: 'C1', name: '冲压车间' });
    await post('/api/teams', { code: 'C1-A', name: '冲压一班', workshopCode: 'C1', leaders: [LEADER] });
    await post('/api/memberships', { phone: ZHANG, teamCode: 'C1-A', validFrom: '2026-03-01' });
    expect((await app.request('POST', `/api/devices/${encodeURIComponent('冲床 01')}/qrcode`, { token })).status).toBe(200);
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

  it('the page lists the workshops with their teams, leaders and member counts as the API gives them', async () => {
    await page.getByRole('navigation', { name: '主菜单' }).getByText('车间班组').click();
    await page.waitForURL(/\/console\/organization$/);
    const teams = page.getByTestId('teams-C1').locator('tbody tr');
    await teams.first().waitFor();
    const api = (await app.request('GET', '/api/workshops', { token })).body;
    expect(api.items[0].teams[0]).toMatchObject({ memberCount: 1, leaders: [{ phone: LEADER, name: '赵班长' }] });
    expect(await shown(page.getByTestId('workshop-C1').locator('h2'))).toBe('冲压车间 （C1）');
    const cells = (await teams.first().locator('td').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(cells.slice(0, 3)).toEqual(['冲压一班 C1-A', '赵班长', '1']);
    expect(await page.locator('[data-test="org-date"] input').inputValue()).toBe('2026-03-16');
    await shoot(page, 'organization');
    expect(await axeViolations(page)).toEqual([]);
    await fitsBothWidths(page, [page.getByTestId('workshop-C1').locator('h2'), page.getByTestId('add-worker')]);
  });

  it('creates a workshop and a team in it through the dialogs', async () => {
    await page.getByTestId('new-workshop').click();
    await page.getByTestId('ws-code').fill('Z2');
    await page.getByTestId('ws-name').fill('装配车间');
    await page.getByRole('dialog', { name: '新建车间' }).getByRole('button', { name: '保存' }).click();
    await expectSaved(page.getByRole('dialog', { name: '新建车间' }));
    await page.getByTestId('workshop-Z2').waitFor();

    await page.getByTestId('new-team').click();
    const dialog = page.getByRole('dialog', { name: '新建班组' });
    await dialog.getByTestId('team-code').fill('Z2-A');
    await dialog.getByTestId('team-name').fill('装配一班');
    await choose(page, dialog.getByTestId('team-workshop'), /装配车间/);
    await choose(page, dialog.getByTestId('team-leaders'), new RegExp(LEADER));
    await dialog.locator('.el-dialog__title').click(); // a multiple select stays open after a choice
    await dialog.getByRole('button', { name: '保存' }).click();
    await expectSaved(dialog);
    await page.getByTestId('teams-Z2').locator('tbody tr').first().waitFor();
    expect(await shown(page.getByTestId('teams-Z2').locator('tbody tr').first())).toContain('装配一班 Z2-A');
    expect((await app.request('GET', '/api/workshops', { token })).body.items[1]).toEqual({
      code: 'Z2',
      name: '装配车间',
      teams: [{ code: 'Z2-A', name: '装配一班', workshopCode: 'Z2', leaders: [{ phone: LEADER, name: '赵班长' }], memberCount: 0 }],
    });
  });

  it('a team’s members with their dates; a move from today keeps the history; an earlier date shows the old team', async () => {
    await page.getByTestId('teams-C1').locator('tbody tr').first().getByRole('button', { name: '组员' }).click();
    const members = page.getByTestId('members-table').locator('tbody tr');
    await members.first().waitFor();
    expect((await members.first().locator('td').allTextContents()).map((t) => t.trim()).slice(0, 4)).toEqual(['张三', ZHANG, '2026-03-01', '—']);
    await fitsBothWidths(page, [page.getByTestId('members').locator('h2'), members.first().locator('td').first()]);

    // A move dated before the history is refused with the service's sentence.
    await members.first().getByRole('button', { name: '调动' }).click();
    const dialog = page.getByRole('dialog', { name: /调动 张三/ });
    await choose(page, dialog.getByTestId('join-team'), /装配一班/);
    expect(await dialog.getByTestId('join-from').locator('input').inputValue()).toBe('2026-03-16');
    await setDate(dialog.getByTestId('join-from'), '2026-03-01');
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => shown(dialog.getByTestId('dialog-error'))).toContain('最早为 2026-03-02');
    // The browser logs the refusal provoked on purpose ("Failed to load resource … status of 409"): exactly one.
    const errors = pageErrors[0];
    expect(errors.filter((e) => e.includes('status of 409'))).toHaveLength(1);
    errors.splice(0, errors.length, ...errors.filter((e) => !e.includes('status of 409')));
    await setDate(dialog.getByTestId('join-from'), '2026-03-16');
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => page.getByTestId('members-table').locator('.el-table__empty-text').textContent()).toBe('这一天没有组员');
    expect((await app.request('GET', `/api/people/${ZHANG}/memberships`, { token })).body.items).toEqual([
      { teamCode: 'Z2-A', teamName: '装配一班', workshopCode: 'Z2', workshopName: '装配车间', validFrom: '2026-03-16', validTo: null, coefficient: 1 },
      { teamCode: 'C1-A', teamName: '冲压一班', workshopCode: 'C1', workshopName: '冲压车间', validFrom: '2026-03-01', validTo: '2026-03-15', coefficient: 1 },
    ]);
    expect(await shown(page.getByTestId('teams-Z2').locator('tbody tr').first().locator('td').nth(2))).toBe('1');

    // On 03-10 张三 was still in 冲压一班, until 03-15; his history lists both.
    await setDate(page.getByTestId('org-date'), '2026-03-10');
    await expect.poll(async () => (await members.first().locator('td').allTextContents()).map((t) => t.trim()).slice(0, 4)).toEqual(['张三', ZHANG, '2026-03-01', '2026-03-15']);
    await members.first().getByRole('button', { name: '记录' }).click();
    const history = page.getByTestId('history-table').locator('tbody tr');
    await history.first().waitFor();
    expect(await history.evaluateAll((trs) => trs.map((tr) => [...(tr as any).querySelectorAll('td')].map((td: any) => td.textContent.trim())))).toEqual([
      ['装配车间', '装配一班', '2026-03-16', '—', '1.00'],
      ['冲压车间', '冲压一班', '2026-03-01', '2026-03-15', '1.00'],
    ]);
    await shoot(page, 'organization-history');
    expect(await axeViolations(page)).toEqual([]);
    await fitsBothWidths(page, [history.first()]);
    await page.keyboard.press('Escape');
  });

  it('设备码: a device’s workshop is set from the list; the print sheet shows it', async () => {
    await page.getByRole('navigation', { name: '主菜单' }).getByText('设备码').click();
    await page.waitForURL(/\/console\/devices$/);
    const row = page.getByTestId('devices-table').locator('tbody tr').filter({ hasText: '冲床 01' });
    await row.waitFor();
    await choose(page, row.getByTestId('device-workshop'), '冲压车间');
    await expect.poll(async () => (await app.request('GET', '/api/devices', { token })).body.items[0]).toMatchObject({ deviceNo: '冲床 01', workshopCode: 'C1', workshopName: '冲压车间' });
    await fitsBothWidths(page, [page.getByTestId('open-print')]);
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${app.url}/console/devices/print`);
    await page.locator('[data-test="print-sheet"][data-ready="true"]').waitFor();
    expect(await shown(page.getByTestId('print-sheet').locator('.device').first())).toBe('冲床 01 · 冲压车间');
  });

  it('several workers join a team at once; the one refused is named with the service’s sentence, the others are in', async () => {
    await page.goto(`${app.url}/console/organization`);
    await page.getByTestId('teams-C1').locator('tbody tr').first().waitFor();
    await page.getByTestId('add-worker').click();
    const dialog = page.getByRole('dialog', { name: '员工加入班组' });
    await choose(page, dialog.getByTestId('join-team'), /冲压一班/);
    for (const who of [LI, WANG, ZHANG]) await choose(page, dialog.getByTestId('join-phones'), new RegExp(who));
    await dialog.locator('.el-dialog__title').click(); // a multiple select stays open after a choice
    // 张三 is in 装配一班 from 03-16: a join dated 03-10 would rewrite his history; 李四 and 王五 have none.
    await setDate(dialog.getByTestId('join-from'), '2026-03-10');
    await dialog.getByRole('button', { name: '保存' }).click();
    const error = dialog.getByTestId('dialog-error');
    await expect.poll(() => shown(error)).toContain('2 人已加入，1 人未加入');
    expect(await shown(error.locator('li'))).toMatch(new RegExp(`^张三（${ZHANG}）：.*最早为 2026-03-17`));
    expectRefusals(pageErrors[0], 409);
    // Only the one refused stays chosen, to retry with another date.
    expect(await shown(dialog.getByTestId('join-phones'))).toContain('张三');
    expect(await shown(dialog.getByTestId('join-phones'))).not.toMatch(/李四|王五/);
    for (const v of [DESKTOP, PHONE]) {
      await page.setViewportSize(v);
      expect(await seen(error.locator('li')), `refusal at ${v.width}px`).toBe('');
    }
    await page.setViewportSize(DESKTOP);
    for (const phone of [LI, WANG]) {
      expect((await app.request('GET', `/api/people/${phone}/memberships`, { token })).body.items).toEqual([
        { teamCode: 'C1-A', teamName: '冲压一班', workshopCode: 'C1', workshopName: '冲压车间', validFrom: '2026-03-10', validTo: null, coefficient: 1 },
      ]);
    }
    await dialog.getByRole('button', { name: '取消' }).click();
    await expect.poll(() => shown(page.getByTestId('teams-C1').locator('tbody tr').first().locator('td').nth(2))).toBe('2');
  });

  it('on a phone, a team’s 组员 open in view with their buttons uncovered; neither table scrolls sideways under its shade', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${app.url}/console/organization`);
    const teams = page.getByTestId('teams-C1');
    await teams.locator('tbody tr').first().waitFor();
    const open = teams.locator('tbody tr').first().getByRole('button', { name: '组员' });
    expect(await seen(open)).toBe('');
    await open.click();
    const members = page.getByTestId('members-table').locator('tbody tr');
    await members.first().waitFor();
    // In view as it opened, the test scrolling nothing: the heading and the first member.
    const heading = page.getByTestId('members').locator('h2');
    await expect.poll(() => shown(heading)).toContain('冲压一班 的组员');
    const inView = (l: typeof heading) =>
      l.evaluate((el: any) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= (globalThis as any).innerHeight;
      });
    expect(await inView(heading)).toBe(true);
    expect(await inView(members.first())).toBe(true);
    expect((await members.first().locator('td').first().innerText()).replace(/\s+/g, ' ').trim()).toBe(`李四 ${LI} 加入 2026-03-10 · 离开 — 系数 1.00`);
    await page.getByTestId('members-table').locator('.el-loading-mask').waitFor({ state: 'detached' }); // the list's loading shade gone
    for (const name of ['系数', '调动', '离开', '记录']) expect(await seen(members.first().getByRole('button', { name })), name).toBe('');
    // No shade: the tables fit the width (the shade is drawn only on a table wider than its box).
    for (const table of [teams, page.getByTestId('members-table')]) expect(await table.getAttribute('data-scroll')).toBeNull();
    await snap(page, 'organization-members');
    expect(await axeViolations(page)).toEqual([]);
    await members.first().getByRole('button', { name: '记录' }).click();
    await page.getByTestId('history-table').locator('tbody tr').first().waitFor();
    expect(await seen(page.getByTestId('history-table').locator('tbody tr').first())).toBe('');
    await page.keyboard.press('Escape');
    await page.setViewportSize(DESKTOP);
  });
});
