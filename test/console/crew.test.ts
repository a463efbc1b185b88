/**
 * Crew work (班组报工) in the console, with the figures worked out by hand in test/crew/done-when.test.ts: A submits
 * 1,000 成品 of 焊接件 with crew [A, B] (28,800 and 21,600 s on 焊机 01). The reviewer's drawer shows the crew line's
 * members with their minutes, coefficient, weight and share: A 571 pieces and 211.43 yuan, B 429 and 158.57 (370.00
 * together); after approval the report page shows the same. On 车间班组 a manager sets B's coefficient to 1.20 from a
 * date (a new membership period of the same team, as the API records it). The next day (the same times) the reviewer
 * corrects A's crew line by unticking B (A, the submitter, cannot be unticked) and approves: A gets all 1,000 pieces
 * and 370.00, B nothing of it, and the report page's audit trail shows the crew before → after. What a person sees is asserted inside the
 * viewport at 1366×768 and at 390×844; axe-core finds no serious violation; no page logs an error.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { A, B, weldingDay } from '../crew/helpers.ts';
import { axeViolations, DESKTOP, launchBrowser, openConsole, PHONE, shoot, signIn, skipBrowserTests } from './browser.ts';
import { expectNoPageErrors, fitsBothWidths, menu, seen, shown } from './viewport.ts';

const ADMIN = '13800000004';
const MANAGER = '13800000002';
let app: TestApp;
let browser: Browser;
let page: Page;
let reportId: string;
let manager: string;
let day: Awaited<ReturnType<typeof weldingDay>>;
const pageErrors: string[][] = [];

/** The row (desk) or card (phone) of crew member `name` inside `scope`. */
const member = (scope: Locator, name: string) => scope.getByTestId('crew').locator('tbody tr, li[data-test="crew-member"]').filter({ hasText: name });

/** What the crew shows of each member at the current width: [name, 成品, 不良, 金额]. */
async function shares(scope: Locator): Promise<string[][]> {
  const out: string[][] = [];
  for (const name of ['张三', '李四']) {
    const m = member(scope, name);
    out.push([name, await shown(m.getByTestId('share-finished')), await shown(m.getByTestId('share-defective')), await shown(m.getByTestId('share-amount'))]);
  }
  return out;
}

const EXPECTED = [
  ['张三', '571', '0', '211.43'],
  ['李四', '429', '0', '158.57'],
];

describe.skipIf(skipBrowserTests('crew.test.ts'))('crew work in the console', () => {
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp({}, '2026-03-01T08:00:00+08:00'), launchBrowser()]);
    day = await weldingDay(app);
    manager = day.manager;
    const r = await day.w.A.submit(day.sessions.A, [{ productId: day.productId, finishedQty: 1000, defectiveQty: 0, crew: [A, B] }]);
    expect(r.status).toBe(201);
    reportId = r.body.reportId;
    // B in a team, for the coefficient
    await app.login('13800000011', 'worker', '赵班长');
    const post = async (path: string, body: unknown) => expect((await app.request('POST', path, { token: manager, body })).status).toBeLessThan(300);
    await post('/api/workshops', { code: 'H1', name: '焊接车间' });
    await post('/api/teams', { code: 'H1-A', name: '焊接一班', workshopCode: 'H1', leaders: ['13800000011'] });
    await post('/api/memberships', { phone: B, teamCode: 'H1-A', validFrom: '2026-03-01' });
    const c = await openConsole(browser, app);
    page = c.page;
    pageErrors.push(c.errors);
    await signIn(page, ADMIN);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  afterEach(() => expectNoPageErrors(pageErrors));

  it('the review drawer shows each member’s minutes, coefficient, weight and share: A 571 / 211.43, B 429 / 158.57', async () => {
    await menu(page, '审核');
    await page.getByTestId('pending-table').locator('tbody tr').first().click();
    const drawer = page.getByTestId('review-drawer');
    await drawer.getByTestId('crew').waitFor();
    expect(await shares(drawer)).toEqual(EXPECTED);
    // minutes on 焊机 01 in A's window, coefficient, weight
    const a = (await member(drawer, '张三').locator('td').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(a).toEqual([`张三 ${A}`, '480', '1.00', '28,800', '571', '0', '211.43']);
    const b = (await member(drawer, '李四').locator('td').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(b).toEqual([`李四 ${B}`, '360', '1.00', '21,600', '429', '0', '158.57']);
    // as the API gives them
    const api = (await app.request('GET', `/api/reports/${reportId}`, { token: manager })).body;
    expect(api.lines[0].shares.map((s: any) => [s.finishedQty, s.amount])).toEqual([
      [571, '211.43'],
      [429, '158.57'],
    ]);
    expect(await shown(drawer.getByTestId('crew').locator('h3'))).toContain('成品 1000');
    for (const v of [DESKTOP, PHONE]) {
      await page.setViewportSize(v);
      await expect.poll(() => shares(drawer)).toEqual(EXPECTED); // a table at a desk, cards on a phone
      for (const name of ['张三', '李四']) {
        expect(await seen(member(drawer, name).getByTestId('share-finished')), `${name}'s pieces at ${v.width}px`).toBe('');
        expect(await seen(member(drawer, name).getByTestId('share-amount')), `${name}'s amount at ${v.width}px`).toBe('');
      }
      if (v === PHONE) expect(await shown(member(drawer, '张三'))).toContain('在机 480 分钟 · 系数 1.00 · 权重 28,800');
    }
    await page.setViewportSize(DESKTOP);
    await shoot(page, 'crew-review');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('after approval the report page shows the same shares', async () => {
    await page.getByTestId('approve').click();
    await page.getByTestId('review-drawer').waitFor({ state: 'hidden' });
    await page.goto(`${app.url}/console/reports/${reportId}`);
    const main = page.locator('.page');
    await main.getByTestId('crew').waitFor();
    for (const v of [DESKTOP, PHONE]) {
      await page.setViewportSize(v);
      await expect.poll(() => shares(main)).toEqual(EXPECTED);
      for (const name of ['张三', '李四']) expect(await seen(member(main, name).getByTestId('share-amount')), `${name} at ${v.width}px`).toBe('');
    }
    await page.setViewportSize(DESKTOP);
    await fitsBothWidths(page, [main.getByTestId('crew').locator('h3')]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('车间班组: a manager sets B’s coefficient to 1.20 from a date; the list and the API show it', async () => {
    const c = await openConsole(browser, app);
    const p = c.page;
    pageErrors.push(c.errors);
    await signIn(p, MANAGER);
    await menu(p, '车间班组');
    await p.getByTestId('teams-H1').locator('tbody tr').first().getByRole('button', { name: '组员' }).click();
    const row = p.getByTestId('members-table').locator('tbody tr').filter({ hasText: '李四' });
    expect(await shown(row.getByTestId('member-coefficient'))).toBe('1.00');
    await row.getByTestId('set-coefficient').click();
    const dialog = p.getByRole('dialog', { name: '李四 的系数' });
    // today (03-02) is the earliest day after the membership's first
    expect(await dialog.getByTestId('coef-from').locator('input').inputValue()).toBe('2026-03-02');
    await dialog.getByTestId('coef-value').locator('input').fill('1.2');
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => shown(p.getByTestId('members-table').locator('tbody tr').filter({ hasText: '李四' }).getByTestId('member-coefficient'))).toBe('1.20');
    expect((await app.request('GET', `/api/people/${B}/memberships`, { token: manager })).body.items).toEqual([
      { teamCode: 'H1-A', teamName: '焊接一班', workshopCode: 'H1', workshopName: '焊接车间', validFrom: '2026-03-02', validTo: null, coefficient: 1.2 },
      { teamCode: 'H1-A', teamName: '焊接一班', workshopCode: 'H1', workshopName: '焊接车间', validFrom: '2026-03-01', validTo: '2026-03-01', coefficient: 1 },
    ]);
    // the submitted report keeps the coefficient it was split with
    const api = (await app.request('GET', `/api/reports/${reportId}`, { token: manager })).body;
    expect(api.lines[0].shares[1]).toMatchObject({ phone: B, coefficient: 1, finishedQty: 429 });
    for (const v of [DESKTOP, PHONE]) {
      await p.setViewportSize(v);
      const r = p.getByTestId('members-table').locator('tbody tr').filter({ hasText: '李四' });
      expect(await seen(r.getByTestId('member-coefficient')), `coefficient at ${v.width}px`).toBe('');
      expect(await seen(r.getByTestId('set-coefficient')), `系数 at ${v.width}px`).toBe('');
    }
    await p.setViewportSize(DESKTOP);
    expect(await axeViolations(p)).toEqual([]);
    await p.context().close();
  });

  it('修正明细后通过: the reviewer unticks B on A’s crew line (A cannot be unticked); A gets all 1,000 and 370.00, the audit shows the crew before → after', async () => {
    // the next day, the same times on 焊机 01
    app.clock.set('2026-03-03T08:00:00+08:00');
    const a = await day.w.A.start('焊机 01');
    app.clock.set('2026-03-03T10:00:00+08:00');
    expect((await day.w.B.start('焊机 01')).status).toBe(200);
    app.clock.set('2026-03-03T16:00:00+08:00');
    expect((await day.w.A.finish('焊机 01')).status).toBe(200);
    expect((await day.w.B.finish('焊机 01')).status).toBe(200);
    const r = await day.w.A.submit(a.body.sessionId, [{ productId: day.productId, finishedQty: 1000, defectiveQty: 0, crew: [A, B] }]);
    expect(r.status).toBe(201);
    const id = r.body.reportId as string;
    await page.setViewportSize(DESKTOP);
    await page.goto(`${app.url}/console/review?report=${id}`);
    const drawer = page.getByTestId('review-drawer');
    await drawer.getByTestId('crew').waitFor();
    await drawer.getByTestId('correct').click();
    const keep = (name: string) => drawer.getByTestId('crew-editor').getByTestId('crew-keep').filter({ hasText: name });
    for (const v of [DESKTOP, PHONE]) {
      await page.setViewportSize(v);
      expect(await shown(keep('张三'))).toBe('张三（480 分钟，提交人）');
      expect(await shown(keep('李四'))).toBe('李四（360 分钟）');
      for (const name of ['张三', '李四']) expect(await seen(keep(name)), `${name}'s checkbox at ${v.width}px`).toBe('');
      expect(await keep('张三').locator('input').isDisabled()).toBe(true);
      expect(await keep('李四').locator('input').isChecked()).toBe(true);
    }
    await keep('李四').click(); // on a phone's width
    expect(await keep('李四').locator('input').isChecked()).toBe(false);
    expect(await shown(drawer.getByTestId('crew-note'))).toBe('只留提交人：保存后这一行全部算提交人的');
    expect(await seen(drawer.getByTestId('crew-note'))).toBe('');
    await page.setViewportSize(DESKTOP);
    expect(await keep('李四').locator('input').isChecked()).toBe(false); // the desk's table keeps the choice
    expect(await axeViolations(page)).toEqual([]);
    await drawer.getByTestId('save-correction').click();
    await page.getByText('已修正并通过').waitFor();

    // the service's figures: A's own line of 1,000 (no shares), priced 370.00 in A's wages; nothing of it in B's
    const report = (await app.request('GET', `/api/reports/${id}`, { token: manager })).body;
    expect([report.status, report.lines[0].finishedQty, report.lines[0].shares]).toEqual(['approved', 1000, undefined]);
    await app.catchUpAll();
    const wages = async (phone: string) => (await app.request('GET', `/api/wages/${phone}?month=2026-03`, { token: manager })).body;
    const aLine = (await wages(A)).reports.find((x: any) => x.reportId === id).lines[0];
    expect([aLine.finishedQty, aLine.amount, aLine.crew]).toEqual([1000, '370.00', undefined]);
    expect((await wages(B)).reports.map((x: any) => x.reportId)).not.toContain(id);

    // the report page: the line is A's alone; the audit trail shows the crew before → after
    await page.goto(`${app.url}/console/reports/${id}`);
    const main = page.locator('.page');
    const corrected = main.getByTestId('audit-trail').locator('.detail').filter({ hasText: '→' });
    await corrected.waitFor();
    expect(await shown(corrected)).toBe('焊接件（焊接） 成品 1000 不良 0（班组 张三 571、李四 429） → 焊接件（焊接） 成品 1000 不良 0');
    expect(await main.getByTestId('crew').count()).toBe(0);
    for (const v of [DESKTOP, PHONE]) {
      await page.setViewportSize(v);
      expect(await shown(main.getByTestId('line-finished').locator('visible=true'))).toBe('1000');
      expect(await seen(corrected), `the correction at ${v.width}px`).toBe('');
    }
    await page.setViewportSize(DESKTOP);
  });
});
