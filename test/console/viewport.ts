/**
 * What a person sees at a given width ("assert the key numbers are visible, inside the viewport, not only
 * present"), for the browser tests:
 * - `seen(locator)`: scrolls the page (and any box that scrolls up and down) so that the element is in view — never
 *   sideways, since a number a person must scroll sideways to find is the fault to catch — then tells whether it
 *   lies wholly inside the viewport and is the topmost thing at its centre (not covered by a pinned column, a
 *   drawer's edge or a toast). Returns the reason when it is not.
 * - `snap(page, name)`: a screenshot at the page's current width, `<name>-<width>.png` in test-output/console/.
 * - `menu(page, title)`: follows the main menu's link to a page, through the drawer on a phone's width.
 * - `shown(locator)`: what an element shows, spaces collapsed.
 * - `tableCells(page, testId)`: the rows of the Element Plus table `testId` as its cells' texts, spaces collapsed.
 * - `fitsBothWidths(page, inside)`: at 1366 px and at a phone's 390 px nothing scrolls sideways and each of `inside`
 *   lies within the viewport's width (the pages; the page is left at 1366 px).
 */
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS } from './browser.ts';

/** '' when the element is wholly inside the viewport and uncovered (module docstring), else what is wrong. */
export async function seen(locator: Locator): Promise<string> {
  await locator.first().waitFor();
  // Judged at rest: no drawer or dialog half-way in (spinners, which never end, aside), no loading mask over a table
  // or page that is fetching (it goes once the answer is in), and the element where it was a few frames ago (a
  // transition may not have started when the element appeared).
  await locator.first().evaluate(async (el: any) => {
    const g = globalThis as any;
    const frame = () => new Promise((r) => g.requestAnimationFrame(r));
    const at = () => JSON.stringify(el.getBoundingClientRect());
    const moving = () => g.document.getAnimations().some((a: any) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity);
    const loading = () => [...g.document.querySelectorAll('.el-loading-mask')].some((m: any) => m.getClientRects().length > 0);
    for (let i = 0; i < 300; i++) {
      const before = at();
      for (let f = 0; f < 5; f++) await frame();
      if (!moving() && !loading() && at() === before) return;
    }
  });
  return locator.first().evaluate((el: any) => {
    const g = globalThis as any;
    const doc = g.document;
    // Up and down only: each ancestor that scrolls vertically, then the page, brings the element to its middle.
    for (let p = el.parentElement; p; p = p.parentElement) {
      const oy = g.getComputedStyle(p).overflowY;
      if ((oy === 'auto' || oy === 'scroll') && p.scrollHeight > p.clientHeight) {
        const r = el.getBoundingClientRect();
        const box = p.getBoundingClientRect();
        p.scrollTop += r.top + r.height / 2 - (box.top + box.height / 2);
      }
    }
    const r0 = el.getBoundingClientRect();
    g.scrollBy(0, r0.top + r0.height / 2 - g.innerHeight / 2);
    const r = el.getBoundingClientRect();
    const text = (el.textContent ?? '').trim().slice(0, 40);
    if (r.width === 0 || r.height === 0) return `"${text}" has no size`;
    const outside = r.left < -0.5 || r.top < -0.5 || r.right > g.innerWidth + 0.5 || r.bottom > g.innerHeight + 0.5;
    if (outside) return `"${text}" lies outside the ${g.innerWidth}×${g.innerHeight} viewport: ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`;
    const top = doc.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!top || !(el === top || el.contains(top) || top.contains(el))) return `"${text}" is covered by ${top?.className || top?.tagName}`;
    return '';
  });
}

/** A screenshot of the whole page at its current width (module docstring). */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width;
  await page.waitForTimeout(200); // charts resize, drawers settle
  await page.screenshot({ path: `${SCREENSHOTS}${name}-${width}.png`, fullPage: true });
}

/** Follows the main menu's link `title` (on a phone's width through the menu drawer); resolves once there. */
export async function menu(page: Page, title: string): Promise<void> {
  const side = page.getByRole('navigation', { name: '主菜单', exact: true });
  if (await side.isVisible()) {
    await side.getByRole('link', { name: title, exact: true }).click();
  } else {
    await page.getByRole('button', { name: '打开菜单' }).click();
    await page.getByRole('navigation', { name: '主菜单（手机）' }).getByRole('link', { name: title, exact: true }).click();
  }
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

/**
 * Takes out of a page's logged errors the `count` lines the browser logs for answers with `status` that the test
 * itself provoked (a refusal the page then shows in words); fails when they are not there. Every other error stays.
 */
export function expectRefusals(errors: string[], status: number, count = 1): void {
  for (let i = 0; i < count; i++) {
    const at = errors.findIndex((e) => e.includes(`status of ${status}`));
    if (at < 0) throw new Error(`expected the browser to log a ${status} answer; logged: ${JSON.stringify(errors)}`);
    errors.splice(at, 1);
  }
}

/** Fails, quoting them, when the pages logged errors (the messages are in the failure's first line, which CI keeps). */
export function expectNoPageErrors(errors: string[][]): void {
  const all = errors.flat();
  expect(all, `the page logged: ${all.join(' | ')}`).toEqual([]);
}

/**
 * Waits for an edit dialog to close after 保存; when it stays open, fails with the refusal it shows (or "open"),
 * so that a failure says why rather than timing out on what the save should have shown.
 */
export async function expectSaved(dialog: Locator): Promise<void> {
  await expect
    .poll(async () => {
      if (!(await dialog.isVisible())) return 'closed';
      const refusal = dialog.getByTestId('dialog-error');
      return (await refusal.isVisible()) ? `refused: ${await shown(refusal)}` : 'open';
    }, { timeout: 30_000 })
    .toBe('closed');
}

/** The rows of an Element Plus table as the cells' texts, spaces collapsed (module docstring). */
export const tableCells = (p: Page, testId: string) =>
  p
    .getByTestId(testId)
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...(tr as any).querySelectorAll('td')].map((td: any) => td.textContent.replace(/\s+/g, ' ').trim())));

/** What an element shows, spaces collapsed. */
export const shown = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** At both widths: nothing to scroll sideways, and each of `inside` lies within the viewport's width. */
export async function fitsBothWidths(p: Page, inside: Locator[]): Promise<void> {
  for (const v of [DESKTOP, PHONE]) {
    await p.setViewportSize(v);
    await p.waitForTimeout(200);
    const sideways = await p.evaluate(() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth);
    expect(sideways, `page wider than ${v.width}px`).toBeLessThanOrEqual(0);
    for (const l of inside) {
      await l.scrollIntoViewIfNeeded();
      const box = await l.boundingBox();
      expect(box, `${l} shown at ${v.width}px`).not.toBeNull();
      expect(box!.x, `${l} left edge at ${v.width}px`).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `${l} right edge at ${v.width}px`).toBeLessThanOrEqual(v.width);
    }
  }
  await p.setViewportSize(DESKTOP);
}
