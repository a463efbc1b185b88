/**
 * Lays out a page of the mini-program in Chromium as a phone would (used by layout.test.ts): the page's tree as
 * miniprogram-simulate rendered it (`wx-view`, `wx-button`, `wx-input`, … with the page's classes), the app's
 * WXSS (app.wxss, then the page's own .wxss when it has one) with rpx converted for the screen (750 rpx = the
 * screen's width, WeChat's rule), and the platform's default styles of its components (`PLATFORM_WXSS` below).
 *
 * - `pageMarkup(comp)`: the rendered tree as HTML, the tool's class prefix (`main--`) taken off, each element
 *   numbered (`data-k`) so that two layouts of it can be compared element by element.
 * - `toCss(wxss, screenWidth)`: WXSS as the browser reads it: rpx → px, `page` → `body`, component tags
 *   (`button`, `view`, …) → their `wx-` elements.
 * - `layOut(browser, markup, appCss, screenWidth)`: two layouts of the page at that width: `actual`, the platform's
 *   defaults (`PLATFORM_WXSS` and `PLATFORM_BUTTON_SIZE`) and the app's rules in one cascade (as on the phone: a more
 *   specific platform rule beats an app rule), and `designed`, the app's stylesheet as its author meant it: the
 *   platform's defaults but the button size in a lower cascade layer (`@layer`), so that every property the app's
 *   stylesheet sets is as it says and the platform fills in only what the app leaves unsaid. For each:
 *   the screen's scroll width, every element's box, and for each button its box, its container's content box and
 *   whether its label is cut off.
 * - `layoutProblems(...)`: what a person would see wrong, as sentences: anything beyond the screen's edges, a page
 *   wider than the screen, a button whose box is not its designed box (narrower, centred, lower), a button label cut off.
 */
import type { Browser } from 'playwright-core';
import type { SimComponent } from './harness.ts';

/**
 * The platform's default styles the layout relies on, for `"style": "v2"` (app.json), in the browser's terms.
 *
 * Sources, and what is assumed (the base library's stylesheet is not published as a file; what is here is taken
 * from where its rules can be read):
 * - The button of style v2: WeChat's "style v2" is "指定使用升级后的 weui 样式" (app.json reference, base library
 *   2.8.0); its button takes WeUI 2's `.weui-btn` box (Tencent/weui-wxss, dist/style/weui.wxss: display block,
 *   width 184px, auto side margins, padding 8px 24px, border-box, 17px bold, line-height 1.41176471, radius 4px)
 *   under the selector `wx-button:not([size=mini])` for the width and the margins, as DevTools' element panel shows
 *   it (specificity 0,1,1: above a rule of one class such as `.btn`; developers' reports of buttons stuck at 184px
 *   in style v2 quote this selector). The colours are WeUI 2's default button (#06ae56 on #f2f2f2).
 * - `wx-button:after` (the hairline border), `wx-button[size=mini]`, `wx-input`, `wx-view`, `wx-navigator`,
 *   `wx-image`: the base library's component styles as a page's HTML carries them in the web renderer (a
 *   DevTools/web-view dump of the base library's `<style>`, seen in public repositories: `wx-input{display:block;
 *   height:1.4rem;min-height:1.4rem;overflow:hidden;white-space:nowrap;…}`).
 * - `wx-textarea` 300 × 150 px, block (the textarea component's documented default size), `wx-picker` and
 *   `wx-scroll-view` block: assumed from the components' documentation (a picker is a block around its content).
 * - The page: no margin (`page`, WXSS's root, is the document's body in the web renderer), 16px type.
 * The type itself: Chromium draws Chinese with the machine's CJK font (WenQuanYi Micro Hei here), a phone with
 * PingFang or its Android peer: Chinese characters are 1 em wide in all of them, digits and Latin letters differ
 * by a few per cent.
 */
export const PLATFORM_WXSS = `
html, body { margin: 0; padding: 0; }
body { font-size: 16px; }
wx-view { display: block; }
wx-text { display: inline; }
wx-navigator { display: block; height: auto; width: auto; }
wx-image { display: inline-block; width: 320px; height: 240px; overflow: hidden; }
wx-button {
  position: relative; display: block; margin-left: auto; margin-right: auto; padding: 8px 24px; box-sizing: border-box;
  font-size: 17px; font-weight: 700; text-align: center; text-decoration: none; line-height: 1.41176471;
  border-radius: 4px; overflow: hidden; color: #06ae56; background-color: #f2f2f2;
}
wx-button:after {
  content: " "; width: 200%; height: 200%; position: absolute; top: 0; left: 0; border: 1px solid rgba(0, 0, 0, .2);
  transform: scale(.5); transform-origin: 0 0; box-sizing: border-box; border-radius: 10px;
}
wx-button[size=mini] { display: inline-block; line-height: 2.3; font-size: 13px; padding: 0 1.34em; }
wx-input { cursor: auto; display: block; height: 1.4rem; min-height: 1.4rem; text-overflow: clip; overflow: hidden; white-space: nowrap; }
wx-textarea { display: block; position: relative; width: 300px; height: 150px; }
wx-picker { display: block; }
wx-scroll-view { display: block; width: 100%; }
`;

/**
 * The size style v2 gives every button that is not `size="mini"` (sources above): 184px wide, centred. Apart from
 * `PLATFORM_WXSS` because the design does not take it: the app's buttons are blocks whose width the app's
 * stylesheet says (full width unless a class gives one).
 */
export const PLATFORM_BUTTON_SIZE = `wx-button:not([size=mini]) { width: 184px; margin-left: auto; margin-right: auto; }\n`;

/** The component tags a page uses that the web renderer names `wx-<tag>`. */
const TAGS = ['view', 'text', 'button', 'input', 'textarea', 'picker', 'picker-view', 'image', 'navigator', 'scroll-view', 'swiper', 'icon', 'label', 'form', 'switch', 'checkbox', 'radio', 'slider', 'block'];
const TAG_IN_SELECTOR = new RegExp(`(^|[\\s,>+~(])(${TAGS.join('|')})(?=$|[\\s.,:#\\[>+~)])`, 'g');

/** WXSS as the browser reads it at `screenWidth` px (module docstring). Flat rules only (no @media in the app). */
export function toCss(wxss: string, screenWidth: number): string {
  const px = (n: number) => `${+(n * screenWidth / 750).toFixed(4)}px`;
  return wxss
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/([^{}]+)\{([^{}]*)\}/g, (_all, selectors: string, body: string) => {
      const sel = selectors
        .split(',')
        .map((s) => s.trim().replace(/^page(?=$|[\s.:#[>+~])/, 'body').replace(TAG_IN_SELECTOR, (_m, before: string, tag: string) => `${before}wx-${tag}`))
        .join(', ');
      return `${sel} {${body.replace(/(-?\d*\.?\d+)rpx/g, (_m, n: string) => px(Number(n)))}}\n`;
    });
}

/** The rendered tree of `comp` as HTML (module docstring). */
export function pageMarkup(comp: SimComponent): string {
  const root = (comp.dom as any).cloneNode(true); // a jsdom element
  let k = 0;
  for (const el of [root, ...Array.from(root.querySelectorAll('*') as ArrayLike<any>)]) {
    el.setAttribute('data-k', String(k++));
    const cls = el.getAttribute('class');
    if (cls) el.setAttribute('class', cls.split(/\s+/).map((c: string) => c.replace(/^[\w-]*?--/, '')).join(' '));
  }
  return root.outerHTML;
}

export interface Box {
  left: number;
  right: number;
  top: number;
  width: number;
  height: number;
}
export interface ButtonBox extends Box {
  k: string;
  text: string;
  classes: string;
  /** The content box of the button's parent (where a full-width button goes). */
  container: Box;
  /** Its label is wider or taller than the button shows (cut off). */
  clipped: boolean;
}
export interface Layout {
  screenWidth: number;
  /** The document's scroll width (wider than the screen: the page scrolls sideways). */
  scrollWidth: number;
  /** Every element that takes space on the page. */
  elements: (Box & { k: string; tag: string; classes: string; text: string })[];
  buttons: ButtonBox[];
}

/** The actual and designed layouts of `markup` at `screenWidth` (module docstring). */
export async function layOut(browser: Browser, markup: string, appCss: string, screenWidth: number): Promise<{ actual: Layout; designed: Layout }> {
  const context = await browser.newContext({ viewport: { width: screenWidth, height: 800 }, deviceScaleFactor: 2, locale: 'zh-CN' });
  try {
    const page = await context.newPage();
    const measure = async (css: string): Promise<Layout> => {
      await page.setContent(`<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><style>${css}</style></head><body>${markup}</body></html>`);
      return page.evaluate(() => {
        const g = globalThis as any; // runs in the page
        const doc = g.document;
        const box = (r: any): Box => ({ left: r.left, right: r.right, top: r.top, width: r.width, height: r.height });
        const text = (el: any) => (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
        const elements = Array.from(doc.body.querySelectorAll('[data-k]') as any[])
          .map((el: any) => ({ el, r: el.getBoundingClientRect() }))
          .filter(({ r }) => r.width > 0 || r.height > 0)
          .map(({ el, r }) => ({ k: el.dataset.k, tag: el.tagName.toLowerCase(), classes: el.getAttribute('class') ?? '', text: text(el), ...box(r) }));
        const buttons = Array.from(doc.body.querySelectorAll('wx-button') as any[]).map((el: any) => {
          const parent = el.parentElement;
          const pr = parent.getBoundingClientRect();
          const ps = g.getComputedStyle(parent);
          const n = (v: string) => parseFloat(v) || 0;
          const left = pr.left + n(ps.borderLeftWidth) + n(ps.paddingLeft);
          const right = pr.right - n(ps.borderRightWidth) - n(ps.paddingRight);
          return {
            k: el.dataset.k,
            text: text(el),
            classes: el.getAttribute('class') ?? '',
            ...box(el.getBoundingClientRect()),
            container: { left, right, top: pr.top, width: right - left, height: pr.height },
            clipped: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
          };
        });
        return { screenWidth: g.innerWidth, scrollWidth: doc.scrollingElement.scrollWidth, elements, buttons };
      });
    };
    const actual = await measure(`${PLATFORM_WXSS}\n${PLATFORM_BUTTON_SIZE}\n${appCss}`);
    const designed = await measure(`@layer platform {\n${PLATFORM_WXSS}\n}\n${appCss}`);
    return { actual, designed };
  } finally {
    await context.close();
  }
}

const TOLERANCE = 0.5;
const f = (n: number) => n.toFixed(1);
const name = (e: { tag: string; classes: string; text: string }) => `${e.tag}${e.classes ? `.${e.classes.split(/\s+/).join('.')}` : ''} “${e.text}”`;

/** What is wrong with the actual layout (module docstring), one sentence each; empty when nothing is. */
export function layoutProblems({ actual, designed }: { actual: Layout; designed: Layout }): string[] {
  const out: string[] = [];
  const w = actual.screenWidth;
  if (actual.scrollWidth > w + TOLERANCE) out.push(`the page is ${actual.scrollWidth}px wide on a ${w}px screen (it scrolls sideways)`);
  for (const e of actual.elements) {
    if (e.right > w + TOLERANCE || e.left < -TOLERANCE) out.push(`${name(e)} reaches beyond the screen: ${f(e.left)}–${f(e.right)}px of ${w}px`);
  }
  const design = new Map(designed.buttons.map((b) => [b.k, b]));
  for (const b of actual.buttons) {
    const d = design.get(b.k)!;
    const who = name({ tag: 'wx-button', ...b });
    const fills = Math.abs(d.width - d.container.width) <= TOLERANCE;
    if (Math.abs(b.width - d.width) > TOLERANCE || Math.abs(b.left - d.left) > TOLERANCE) {
      out.push(
        `${who} is ${f(b.width)}px wide at ${f(b.left)}px; designed ${f(d.width)}px at ${f(d.left)}px` +
          (fills ? ` (the full width of its container, ${f(d.container.width)}px)` : ''),
      );
    }
    if (Math.abs(b.height - d.height) > TOLERANCE) out.push(`${who} is ${f(b.height)}px high; designed ${f(d.height)}px`);
    if (b.clipped) out.push(`${who}: its label is cut off (${f(b.width)} × ${f(b.height)}px)`);
  }
  return out;
}
