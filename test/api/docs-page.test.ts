/**
 * The API document's page `/api/docs` in the browser (Scalar's API reference served by the service, http/docs-page.ts):
 * it opens with the guide, in Chinese; a person finds an operation by its Chinese summary with the search; try-it sends
 * `GET /api/health` to the same service and shows the answer, and with a token typed in the token field calls an
 * operation that needs one; at 1366 px and at a phone's 390 px the reference is shown. The whole time no message of
 * the page's console is an error (a refused style or script would be one) and no request leaves the service's origin:
 * the page works offline, in a factory's closed network.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { CHROMIUM, DESKTOP, FLAGS, PHONE, skipBrowserTests } from '../console/browser.ts';
import { seen } from '../console/viewport.ts';

let app: TestApp;
let browser: Browser;

interface DocsPage {
  page: Page;
  context: BrowserContext;
  /** Error messages of the page's console and uncaught errors. */
  errors: string[];
  /** Every request the page made (its URL). */
  requests: string[];
}

/** A fresh context on `/api/docs` at `viewport`, recording the console's errors and every request. */
async function openDocs(viewport = DESKTOP): Promise<DocsPage> {
  const context = await browser.newContext({ viewport, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  context.on('request', (r) => requests.push(r.url()));
  await page.goto(`${app.url}/api/docs`);
  await page.getByRole('heading', { name: '报工服务 Shift Reporting API' }).waitFor();
  return { page, context, errors, requests };
}

/** The requests of `requests` that went anywhere but the test service (its scheme, host and port). */
const elsewhere = (requests: string[]) => requests.filter((u) => new URL(u).origin !== new URL(app.url).origin);

/** Searches for `text` with the search box and follows the operation whose result shows `path`. */
async function searchAndOpen(page: Page, text: string, path: string): Promise<void> {
  await page.getByRole('button', { name: /打开搜索/ }).filter({ visible: true }).first().click();
  const search = page.getByRole('dialog', { name: '搜索' });
  await search.getByRole('combobox').fill(text);
  await search.getByRole('option').filter({ hasText: path }).first().click();
  await search.waitFor({ state: 'hidden' });
}

/** The operation's section (its heading `summary`) and its try-it button. */
const tryIt = (page: Page, summary: string) =>
  page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: summary, exact: true }) })
    .last()
    .getByRole('button', { name: /测试请求/ });

describe.skipIf(skipBrowserTests('docs-page.test.ts'))('/api/docs in the browser', () => {
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), chromium.launch({ executablePath: CHROMIUM, args: FLAGS })]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('opens with the guide in Chinese; the search finds an operation by its Chinese summary and shows it', async () => {
    const { page, context, errors, requests } = await openDocs();
    expect(await seen(page.getByRole('heading', { name: '接入指南（小程序开发者先读这里）' }))).toBe('');
    // The sidebar names the groups in Chinese and the renderer's own words are Chinese too.
    expect(await seen(page.getByRole('button', { name: /打开搜索/ }).first())).toBe('');
    await expect.poll(() => page.getByText('扫码打卡', { exact: true }).first().isVisible()).toBe(true);

    await searchAndOpen(page, '开始上班', '/api/clock/start');
    await expect.poll(() => page.url()).toContain('/api/clock/start');
    expect(await seen(page.getByRole('heading', { name: '开始上班', exact: true }))).toBe('');

    await searchAndOpen(page, '月份列表', '/api/periods');
    expect(await seen(page.getByRole('heading', { name: /^月份列表与结账状态/ }))).toBe('');

    expect(errors).toEqual([]);
    expect(elsewhere(requests)).toEqual([]);
    expect(requests.some((u) => u.includes('/api/docs/scalar.js?v='))).toBe(true);
    await context.close();
  });

  it('sends GET /api/health through try-it and shows its 200 and body; with a token in the token field, calls GET /api/auth/me', async () => {
    const { page, context, errors, requests } = await openDocs();
    await searchAndOpen(page, '健康检查', '/api/health');
    await tryIt(page, '健康检查（含数据库状态）').click();
    const client = page.getByRole('dialog', { name: 'API 客户端' });
    await client.getByRole('button', { name: /发送 get 请求/ }).click();
    await expect.poll(() => client.innerText()).toMatch(/200 OK/);
    const answer = await client.innerText();
    expect(answer).toContain('"status": "ok"');
    expect(answer).toContain(`"kind": "${app.service.ctx.db.kind}"`);
    expect(requests.filter((u) => new URL(u).pathname === '/api/health')).toHaveLength(1);
    await page.keyboard.press('Escape');
    await client.waitFor({ state: 'hidden' });

    // An operation that needs the token: without it 401, with the worker's token typed in, the worker's own record.
    const token = await app.login('13800138021', 'worker', '试调用');
    await searchAndOpen(page, '当前账号', '/api/auth/me');
    await tryIt(page, '当前账号、当前角色及同一手机号下的全部角色').click();
    await client.getByRole('button', { name: /发送 get 请求/ }).click();
    await expect.poll(() => client.innerText()).toMatch(/401 Unauthorized/);
    await client.getByPlaceholder('令牌').fill(token);
    await client.getByRole('button', { name: /发送 get 请求/ }).click();
    await expect.poll(() => client.innerText()).toMatch(/200 OK/);
    expect(await client.innerText()).toContain('试调用');

    // The 401 of the call without a token is the only error the page's console shows (the browser logs it).
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    expect(elsewhere(requests)).toEqual([]);
    await context.close();
  });

  it('at a phone width of 390 px shows the reference: its title, the guide and the menu, nothing wider than the screen', async () => {
    const { page, context, errors, requests } = await openDocs(PHONE);
    expect(await seen(page.getByRole('heading', { name: '报工服务 Shift Reporting API' }))).toBe('');
    expect(await seen(page.getByRole('heading', { name: '接入指南（小程序开发者先读这里）' }))).toBe('');
    const sideways = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth);
    expect(sideways).toBeLessThanOrEqual(0);
    // The menu opens the sidebar with the groups and the search.
    await page.getByRole('button', { name: '打开菜单' }).filter({ visible: true }).click();
    expect(await seen(page.getByText('扫码打卡', { exact: true }).filter({ visible: true }).first())).toBe('');
    await searchAndOpen(page, '开始上班', '/api/clock/start');
    expect(await seen(page.getByRole('heading', { name: '开始上班', exact: true }))).toBe('');
    expect(errors).toEqual([]);
    expect(elsewhere(requests)).toEqual([]);
    await context.close();
  });
});
