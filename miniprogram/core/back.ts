/**
 * Where the login page returns to (README "The mini-program", "Nothing typed is lost"): the page a person was on
 * when the service answered 401 or the stored login had expired, with its parameters, so a worker who logs in
 * again is back on the 报工单 of the same session (its typed quantities restored) and not on 首页. Plain
 * TypeScript, no `wx`.
 *
 * The address travels as the login page's one `back` parameter, encoded once (the page's own parameters inside it
 * stay as the page got them, a `scene` still encoded once); the login page decodes it once and opens it only when
 * it is one of the app's pages other than the login pages themselves.
 */

/** The pages a return never goes to: the login pages (a loop). */
const NEVER = ['/pages/login/login', '/pages/login/confirm'];

/**
 * The address of the page `route` (as `getCurrentPages()` names it, `pages/report/report`) with its `options` (as
 * the page got them, undecoded), or undefined for a login page.
 */
export function addressOf(route: string, options: Record<string, string | undefined> = {}): string | undefined {
  const path = `/${route.replace(/^\/+/, '')}`;
  if (NEVER.includes(path)) return undefined;
  const query = Object.entries(options)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return query ? `${path}?${query}` : path;
}

/**
 * The address to open after the login from the login page's `back` option (encoded once, as handed over), when it
 * names one of `pages` (`/pages/…` paths) other than the login pages; undefined otherwise (then 首页).
 */
export function backTarget(back: string | undefined, pages: readonly string[]): string | undefined {
  if (!back) return undefined;
  let address: string;
  try {
    address = decodeURIComponent(back);
  } catch {
    return undefined;
  }
  const path = address.split('?')[0];
  return pages.includes(path) && !NEVER.includes(path) ? address : undefined;
}
