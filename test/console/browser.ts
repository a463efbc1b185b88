/**
 * Browser tests of the web console: Debian's Chromium driven by playwright-core (no browser download),
 * headless, against the service of the test harness (test/helpers/app.ts), with the console built first
 * (web/scripts/build.ts, only when stale).
 *
 * `browserMissing`: why the browser tests cannot run here, or undefined: no Chromium at CHROMIUM_PATH or
 * /usr/bin/chromium, or no font with Chinese glyphs for it (fontconfig's `fc-list :lang=zh` lists none: the pages
 * and the print sheet's PDF would hold no Chinese text). Where either is missing the tests are skipped
 * with one line saying what to install; on CI (`CI` set) they fail instead, at launch, with that line (.ci/run
 * installs both). A browser that is there but fails is a failure, never a skip.
 * `openConsole(app, viewport)` → a page of a fresh context on the app's `/console/`; `shoot(page, name)` takes the
 * screenshots at 1366×768 and 390×844 into `test-output/console/` (the README shows three of them, copied to
 * docs/console/); `axeViolations(page)` runs axe-core in the page; `signIn(page, phone)` signs in through 模拟扫码.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium, selectors, type Browser, type Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const SCREENSHOTS = fileURLToPath(new URL('../../test-output/console/', import.meta.url));
export const DESKTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };

/** Why no CJK font is there for Chromium (module docstring), or undefined when fontconfig lists one. */
function cjkFontMissing(): string | undefined {
  let fonts: string;
  try {
    fonts = execFileSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8', timeout: 10_000 });
  } catch {
    return 'browser tests not run: fontconfig (fc-list) not found (apt-get install -y fontconfig fonts-wqy-microhei) / 没有 fontconfig，浏览器测试未运行';
  }
  return fonts.trim()
    ? undefined
    : 'browser tests not run: no font with Chinese glyphs (fc-list :lang=zh lists none; apt-get install -y fonts-wqy-microhei) / 没有中文字体，浏览器测试未运行';
}

export const browserMissing: string | undefined = existsSync(CHROMIUM)
  ? cjkFontMissing()
  : `browser tests not run: no Chromium at ${CHROMIUM} (apt-get install -y chromium fonts-wqy-microhei, or set CHROMIUM_PATH) / 没有找到 Chromium，浏览器测试未运行`;

/** True when the browser tests are to be skipped (missing browser, not on CI); prints why once per file. */
export function skipBrowserTests(file: string): boolean {
  if (!browserMissing) return false;
  if (process.env.CI) return false; // on CI the tests run and fail at launch: the browser and its font must be there
  console.warn(`[${file}] ${browserMissing}`);
  return true;
}

/** Chromium's flags for every browser test (headless, no sandbox, nothing fetched in the background). */
export const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** Builds the console if its build is stale, then launches Chromium. Throws `browserMissing` (on CI) when it applies. */
export async function launchBrowser(): Promise<Browser> {
  if (browserMissing) throw new Error(browserMissing);
  const { buildConsole } = await import('../../web/scripts/build.ts');
  await buildConsole({ ifStale: true, log: () => {} });
  selectors.setTestIdAttribute('data-test');
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

export interface ConsolePage {
  page: Page;
  /** Messages of the page's console at error level and uncaught errors (CSP violations among them). */
  errors: string[];
}

/** A fresh browser context (own cookies) on `app`'s console at `path`. */
export async function openConsole(browser: Browser, app: TestApp, path = '/console/', viewport = DESKTOP): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    // A 401 of GET /api/auth/me before signing in is how the console learns it has no session.
    if (m.type() === 'error' && !/status of 401/.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(app.url + path);
  return { page, errors };
}

/** Screenshots of the page as it is, at 1366×768 and 390×844 (`<name>-1366.png`, `<name>-390.png`). */
export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const before = page.viewportSize() ?? DESKTOP;
  for (const v of [DESKTOP, PHONE]) {
    await page.setViewportSize(v);
    await page.waitForTimeout(300); // charts resize, drawers settle
    await page.screenshot({ path: `${SCREENSHOTS}${name}-${v.width}.png`, fullPage: true });
  }
  await page.setViewportSize(before);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page (WCAG 2.1 A and AA rules), as `rule: target` lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Toasts fade over whatever lies under them: let them go first (they last 3 s).
  await page.locator('.el-message').last().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  // Judged at rest: not under the mouse of the last click, no transition half-way (a fading tag has no contrast).
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => (globalThis as any).document.getAnimations().every((a: any) => a.playState !== 'running'));
  // Through the driver: the console's CSP rightly refuses an injected inline script.
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const g = globalThis as any; // runs in the page
    return g.axe.run(g.document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  });
  return (result.violations as { id: string; impact: string; nodes: { target: string[]; html: string }[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(', ')}`);
}

/** Signs in on the login page shown by `page` through 模拟扫码 as `phone` (in `role` when they hold two). */
export async function signIn(page: Page, phone: string, role?: '管理员' | '经理'): Promise<void> {
  await page.getByTestId('sim-person').click();
  await page.getByRole('option', { name: new RegExp(phone) }).click();
  if (role) {
    await page.getByTestId('sim-role').click();
    await page.getByRole('option', { name: role, exact: true }).click();
  }
  await page.locator('[data-test=sim-scan]:enabled').click();
  await page.getByTestId('account').waitFor();
}

/** The page count and the text of each page of a PDF (pdfjs-dist, Mozilla's PDF reader). */
export async function pdfPages(data: Uint8Array): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  await doc.destroy();
  return pages;
}
