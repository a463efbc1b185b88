/**
 * Navigation between pages (the one place that calls wx's navigation). Page addresses carry only values that
 * need no encoding (ids, dates, phones) and, for a code, `scene` encoded once exactly as the platform hands a
 * code's scene over, so a page reads its options the same way whether WeChat opened it from a code or we did
 * (core/scene.ts); the login page's `back` (the page to return to, core/back.ts) is encoded once too.
 */
import { addressOf } from '../core/back';
import { sceneQuery } from '../core/scene';

export const PAGES = {
  home: '/pages/index/index',
  login: '/pages/login/login',
  confirm: '/pages/login/confirm',
  clock: '/pages/clock/clock',
  report: '/pages/report/report',
  mine: '/pages/mine/mine',
  mineDetail: '/pages/mine/detail',
  wages: '/pages/wages/wages',
  review: '/pages/review/review',
  reviewDetail: '/pages/review/detail',
  dashboard: '/pages/dashboard/dashboard',
  breaks: '/pages/dashboard/breaks',
} as const;

export type PageName = keyof typeof PAGES;
type Params = Record<string, string | undefined>;

const SAFE = /^[A-Za-z0-9._~-]*$/;

/** The address of `page` with `params` (`scene` is encoded once; every other value must need no encoding). */
export function pageUrl(page: PageName, params: Params = {}): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    if (k === 'scene') parts.push(sceneQuery(v));
    else if (k === 'back') parts.push(`back=${encodeURIComponent(v)}`);
    else if (SAFE.test(v)) parts.push(`${k}=${v}`);
    else throw new Error(`page parameter ${k} needs encoding: ${v}`);
  }
  return parts.length ? `${PAGES[page]}?${parts.join('&')}` : PAGES[page];
}

/** Opens `page` on top of this one. */
export const go = (page: PageName, params?: Params): void => void wx.navigateTo({ url: pageUrl(page, params) });
/** Replaces this page by `page`. */
export const replace = (page: PageName, params?: Params): void => void wx.redirectTo({ url: pageUrl(page, params) });
/** Closes every page and opens `page` (after login, logout). */
export const restart = (page: PageName, params?: Params): void => void wx.reLaunch({ url: pageUrl(page, params) });
/** Back to the previous page. */
export const back = (): void => void wx.navigateBack({ delta: 1 });
/** Closes every page and opens `address` (a whole page address, e.g. core/back.ts `backTarget`). */
export const restartAt = (address: string): void => void wx.reLaunch({ url: address });

/**
 * The address of the page on top (`getCurrentPages()`: its route and options as it got them), for the login page
 * to return to (core/back.ts); undefined on a login page, 首页 or when there is none.
 */
export function currentAddress(): string | undefined {
  try {
    const stack = getCurrentPages();
    const top = stack[stack.length - 1] as { route?: string; options?: Record<string, string | undefined> } | undefined;
    const address = top?.route ? addressOf(top.route, top.options) : undefined;
    return address === PAGES.home ? undefined : address;
  } catch {
    return undefined;
  }
}
