/**
 * Test harness of the mini-program: its pages rendered by miniprogram-simulate (the platform's component
 * test tool; WXML compiled by WeChat's own `wcc` compiler, which the package ships for Linux) in a jsdom, with a
 * scripted `wx`.
 *
 * - `buildMiniprogram()` compiles the pages' TypeScript to CommonJS with TypeScript's own `transpileModule`, as
 *   DevTools' compiler plugin does (type imports erased), into a temporary folder with the WXML, WXSS and JSON
 *   beside it and a package.json without `"type": "module"` (Node's `require` then reads the pages as CommonJS);
 *   the folder is removed when the test process ends.
 * - `installDom()` makes one jsdom, puts its window and document in place, and loads miniprogram-simulate; its event
 *   classes replace Node's only while the tool builds a page or dispatches an event (`withDomEvents`).
 * - `ScriptedWx` is the `wx` the pages see: storage in a Map, `wx.request` answered by a handler (a script in page
 *   tests, the real service over HTTP end to end), `wx.login` (codes of one simulator user per phone, so the openid
 *   stays the same between logins as on the platform), `wx.scanCode`, navigation and the end of a pull-down refresh
 *   recorded; `wx.showModal` recorded and answered from `modalAnswers` (confirm when none is left); the page stack of
 *   `getCurrentPages()` (the pages opened with it and not closed); and
 *   `wx.requestSubscribeMessage` as the platform has it: refused unless called while a tap is being handled, the
 *   person's answer scripted, an acceptance recorded at the platform simulator (`subscribeAt`) as one grant.
 * - `openPage(url)` loads the page of an address (`/pages/clock/clock?scene=…`, the query handed over undecoded as
 *   WeChat does), renders it, calls `onLoad(query)` and `onShow()` as the framework does, and gives a `PageDriver`
 *   to read the text a person sees and to tap, type and dispatch events.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { JSDOM } from 'jsdom';

export const SOURCE = fileURLToPath(new URL('../../miniprogram/', import.meta.url));
const require = createRequire(import.meta.url);

let built: string | undefined;

/** Compiles the mini-program into a temporary folder once per test file; answers the folder. */
export function buildMiniprogram(): string {
  if (built) return built;
  const out = mkdtempSync(join(tmpdir(), 'miniprogram-'));
  process.once('exit', () => rmSync(out, { recursive: true, force: true }));
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const from = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(from);
        continue;
      }
      const to = join(out, relative(SOURCE, from));
      mkdirSync(dirname(to), { recursive: true });
      if (e.name.endsWith('.d.ts')) continue;
      if (e.name.endsWith('.ts')) {
        const js = ts.transpileModule(readFileSync(from, 'utf8'), {
          compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true },
          fileName: from,
        }).outputText;
        writeFileSync(to.replace(/\.ts$/, '.js'), js);
      } else if (/\.(wxml|wxss|json)$/.test(e.name) && e.name !== 'package.json') {
        cpSync(from, to);
      }
    }
  };
  walk(SOURCE);
  writeFileSync(join(out, 'package.json'), '{ "private": true }\n');
  return (built = out);
}

type Simulate = {
  load(path: string, tag: string | Record<string, unknown>, options?: Record<string, unknown>): string;
  render(id: string, props?: Record<string, unknown>): SimComponent;
};
export interface SimComponent {
  dom: { textContent: string | null };
  instance: any;
  data: any;
  querySelector(sel: string): SimComponent | undefined;
  querySelectorAll(sel: string): SimComponent[];
  dispatchEvent(name: string, options?: Record<string, unknown>): void;
  attach(parent: unknown): void;
  detach(): void;
}

let simulate: Simulate | undefined;
let dom: JSDOM | undefined;

/** One jsdom for the test file, its globals in place, and miniprogram-simulate loaded (module docstring). */
export function installDom(): Simulate {
  if (simulate) return simulate;
  dom = new JSDOM('<!doctype html><html><head></head><body></body></html>', { pretendToBeVisual: true });
  const w = dom.window as unknown as Record<string, unknown>;
  const globals: Record<string, unknown> = { window: dom.window, document: dom.window.document, navigator: dom.window.navigator };
  for (const k of ['Node', 'Element', 'HTMLElement', 'getComputedStyle', 'requestAnimationFrame', 'cancelAnimationFrame']) globals[k] = w[k];
  for (const [k, v] of Object.entries(globals)) Object.defineProperty(globalThis, k, { value: v, configurable: true, writable: true });
  simulate = withDomEvents(() => require('miniprogram-simulate') as Simulate);
  return simulate;
}

const EVENT_CLASSES = ['Event', 'CustomEvent', 'EventTarget'] as const;

/**
 * Runs `fn` with jsdom's `Event`, `CustomEvent` and `EventTarget` in place of Node's (an event made with Node's
 * classes does nothing in a jsdom tree), and puts Node's back afterwards: the service of the end-to-end tests
 * runs in this process, and its database socket dispatches Node's events.
 */
export function withDomEvents<T>(fn: () => T): T {
  const g = globalThis as Record<string, unknown>;
  const saved = EVENT_CLASSES.map((k) => g[k]);
  const w = dom!.window as unknown as Record<string, unknown>;
  for (const k of EVENT_CLASSES) Object.defineProperty(globalThis, k, { value: w[k], configurable: true, writable: true });
  try {
    return fn();
  } finally {
    EVENT_CLASSES.forEach((k, i) => Object.defineProperty(globalThis, k, { value: saved[i], configurable: true, writable: true }));
  }
}

/** A `wx.request` answer of a script: status, JSON body, headers; or `'fail'` for no answer (network). */
export type ScriptedAnswer = { statusCode: number; data?: unknown; header?: Record<string, string> } | 'fail';
export interface RequestCall {
  method: string;
  url: string;
  data?: unknown;
  header: Record<string, string>;
}

/** The `wx` of a test (module docstring). */
export class ScriptedWx {
  readonly storage = new Map<string, unknown>();
  readonly requests: RequestCall[] = [];
  readonly navigations: { how: 'navigateTo' | 'redirectTo' | 'reLaunch' | 'navigateBack'; url: string }[] = [];
  pending = 0;
  loginCodes: (string | undefined)[] = [];
  scans: ({ path?: string } | 'cancel')[] = [];
  envVersion = 'develop';
  /** The dialogs shown (`wx.showModal`), in order. */
  readonly modals: { title?: string; content?: string; confirmText?: string }[] = [];
  /** How the next dialogs are answered (true: confirm); confirm when empty. */
  modalAnswers: boolean[] = [];
  /** The open pages, bottom first, as `getCurrentPages()` names them. */
  readonly stack: { route: string; options: Record<string, string> }[] = [];
  /** Times a page stopped the pull-down refresh spinner (`wx.stopPullDownRefresh`). */
  pullDownStops = 0;
  /** The simulator user of this phone: `wx.login` codes are `<user>#<n>` (one openid, as one WeChat user has). */
  readonly user = `sim:wx-${Math.random().toString(36).slice(2)}`;
  private logins = 0;
  /** While > 0 a tap is being handled (PageDriver.tap): the platform lets `wx.requestSubscribeMessage` ask only then. */
  tapping = 0;
  /**
   * What the person answers to each `wx.requestSubscribeMessage` dialog, in turn (then `subscribeAnswer`):
   * 'accept' or 'reject' for every template asked, or 'fail' (the call fails, e.g. messages switched off).
   */
  subscribeAnswers: ('accept' | 'reject' | 'fail')[] = [];
  subscribeAnswer: 'accept' | 'reject' | 'fail' = 'accept';
  /** Every `wx.requestSubscribeMessage` call: the ids asked, and how it ended ('accept', 'reject', or its fail errMsg). */
  readonly subscribeRequests: { tmplIds: string[]; outcome: string }[] = [];
  /** The platform simulator's origin: an accepted template is granted there (`POST /sim/subscribe`) for `user`. */
  subscribeAt?: string;

  constructor(public answer: (call: RequestCall) => ScriptedAnswer | Promise<ScriptedAnswer> = () => 'fail') {}

  /** The object installed as the global `wx`. */
  api(): Record<string, unknown> {
    return {
      request: (o: any) => {
        const call: RequestCall = { method: o.method ?? 'GET', url: o.url, data: o.data, header: o.header ?? {} };
        this.requests.push(call);
        this.pending++;
        Promise.resolve()
          .then(() => this.answer(call))
          .then(
            (a) => {
              this.pending--;
              if (a === 'fail') o.fail?.({ errMsg: 'request:fail timeout' });
              else o.success?.({ statusCode: a.statusCode, data: a.data ?? '', header: a.header ?? {} });
            },
            () => {
              this.pending--;
              o.fail?.({ errMsg: 'request:fail' });
            },
          );
        return { abort() {} };
      },
      login: (o: any) => {
        const code = this.loginCodes.length ? this.loginCodes.shift() : `${this.user}#${++this.logins}`;
        setTimeout(() => (code ? o.success?.({ code, errMsg: 'login:ok' }) : o.fail?.({ errMsg: 'login:fail' })), 0);
      },
      requestSubscribeMessage: (o: any) => {
        const tmplIds: string[] = Array.isArray(o.tmplIds) ? o.tmplIds : [];
        const fail = (errMsg: string, errCode?: number) => {
          this.subscribeRequests.push({ tmplIds, outcome: errMsg });
          setTimeout(() => o.fail?.({ errMsg, ...(errCode === undefined ? {} : { errCode }) }), 0);
        };
        // The platform's refusals: not from a tap, no ids (10001), messages switched off (20004).
        if (this.tapping === 0) return fail('requestSubscribeMessage:fail can only be invoked by user TAP gesture.');
        if (tmplIds.length === 0) return fail('requestSubscribeMessage:fail TmplIds can\'t be empty', 10001);
        const answer = this.subscribeAnswers.length ? this.subscribeAnswers.shift()! : this.subscribeAnswer;
        if (answer === 'fail') return fail('requestSubscribeMessage:fail 用户关闭了主开关，无法进行订阅', 20004);
        this.subscribeRequests.push({ tmplIds, outcome: answer });
        this.pending++;
        const grant =
          answer === 'accept' && this.subscribeAt
            ? globalThis.fetch(`${this.subscribeAt}/sim/subscribe`, { method: 'POST', body: JSON.stringify({ user: this.user, templateIds: tmplIds }) }).then((r) => r.json())
            : Promise.resolve();
        grant.then(
          () => {
            this.pending--;
            o.success?.({ errMsg: 'requestSubscribeMessage:ok', ...Object.fromEntries(tmplIds.map((id) => [id, answer])) });
          },
          () => {
            this.pending--;
            o.fail?.({ errMsg: 'requestSubscribeMessage:fail network' });
          },
        );
      },
      scanCode: (o: any) => {
        const next = this.scans.shift() ?? 'cancel';
        setTimeout(() => (next === 'cancel' ? o.fail?.({ errMsg: 'scanCode:fail cancel' }) : o.success?.({ result: '', scanType: 'WX_CODE', ...next })), 0);
      },
      getStorageSync: (k: string) => (this.storage.has(k) ? structuredClone(this.storage.get(k)) : ''),
      setStorageSync: (k: string, v: unknown) => void this.storage.set(k, structuredClone(v)),
      removeStorageSync: (k: string) => void this.storage.delete(k),
      getAccountInfoSync: () => ({ miniProgram: { appId: 'wx0000000000000000', envVersion: this.envVersion, version: '' } }),
      navigateTo: (o: any) => void this.navigations.push({ how: 'navigateTo', url: o.url }),
      redirectTo: (o: any) => void this.navigations.push({ how: 'redirectTo', url: o.url }),
      reLaunch: (o: any) => void this.navigations.push({ how: 'reLaunch', url: o.url }),
      navigateBack: () => void this.navigations.push({ how: 'navigateBack', url: '' }),
      showModal: (o: any) => {
        this.modals.push({ title: o.title, content: o.content, confirmText: o.confirmText });
        const yes = this.modalAnswers.length ? this.modalAnswers.shift()! : true;
        setTimeout(() => o.success?.({ confirm: yes, cancel: !yes, errMsg: 'showModal:ok' }), 0);
      },
      stopPullDownRefresh: () => void this.pullDownStops++,
    };
  }

  /** Installs this as the global `wx`, and its page stack as `getCurrentPages()`. */
  install(): this {
    (globalThis as any).wx = this.api();
    (globalThis as any).getCurrentPages = () => this.stack.map((p) => ({ route: p.route, options: { ...p.options } }));
    return this;
  }

  /** The last navigation (its address), or undefined. */
  get lastUrl(): string | undefined {
    return this.navigations.at(-1)?.url;
  }
}

/**
 * Waits until `check()` holds (polling every 5 ms), or fails after `ms` with `what`. Measured with
 * `performance.now()`: end-to-end tests fake `Date` to follow the service's manual clock.
 */
export async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = performance.now() + ms;
  for (;;) {
    if (check()) return;
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * `wx.request` forwarded to the service at `base` over HTTP with `globalThis.fetch` (looked up per call, so a
 * recording of fetch sees it): the answer's status, JSON body and headers as WeChat hands them over; no answer
 * (connection refused) is a failed request.
 */
export function forwardTo(base: string): (call: RequestCall) => Promise<ScriptedAnswer> {
  return async (call) => {
    const u = new URL(call.url);
    const body = call.method !== 'GET' && call.data !== undefined ? JSON.stringify(call.data) : undefined;
    let res: Response;
    try {
      res = await globalThis.fetch(base + u.pathname + u.search, { method: call.method, headers: call.header, body });
    } catch {
      return 'fail';
    }
    const text = await res.text();
    const data = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
    return { statusCode: res.status, data, header: Object.fromEntries(res.headers) };
  };
}

/** A rendered page (module docstring). */
export class PageDriver {
  constructor(
    readonly url: string,
    readonly comp: SimComponent,
    private readonly wx: ScriptedWx,
    /** Its entry in the page stack of `wx`. */
    private readonly entry: ScriptedWx['stack'][number] = { route: '', options: {} },
  ) {}

  /** The text a person sees, whitespace collapsed. */
  text(): string {
    return (this.comp.dom.textContent ?? '').replace(/\s+/g, ' ').trim();
  }

  /** The texts of the nodes of `selector` (`.class` or `#id`). */
  texts(selector: string): string[] {
    return this.comp.querySelectorAll(selector).map((c) => (c.dom.textContent ?? '').replace(/\s+/g, ' ').trim());
  }

  private one(selector: string, index = 0): SimComponent {
    const all = this.comp.querySelectorAll(selector);
    const c = all[index];
    if (!c) throw new Error(`${this.url}: no ${selector} [${index}] in: ${this.text()}`);
    return c;
  }

  /**
   * Taps the node of `selector` (the `index`th). The test tool delivers the event in a microtask; `wx` counts the
   * tap as being handled until the microtask after it, so only what the handler does before its first `await` is
   * done inside the tap (as the platform sees it).
   */
  tap(selector: string, index = 0): void {
    const c = this.one(selector, index);
    this.wx.tapping++;
    try {
      withDomEvents(() => c.dispatchEvent('tap'));
    } finally {
      queueMicrotask(() => this.wx.tapping--);
    }
  }

  /** Types `value` into the input of `selector` (its `input` event). */
  input(selector: string, value: string, index = 0): void {
    const c = this.one(selector, index);
    withDomEvents(() => c.dispatchEvent('input', { detail: { value, cursor: value.length, keyCode: 0 } }));
  }

  /** Dispatches `event` with `detail` on `selector`. */
  dispatch(selector: string, event: string, detail: unknown): void {
    const c = this.one(selector, 0);
    withDomEvents(() => c.dispatchEvent(event, { detail }));
  }

  /** Waits until every request is answered and the page has settled (a few turns of the event loop). */
  async settle(): Promise<void> {
    for (let stable = 0; stable < 3; ) {
      await new Promise((r) => setTimeout(r, 2));
      stable = this.wx.pending === 0 ? stable + 1 : 0;
    }
  }

  /** Waits until the page shows `text`. */
  async waitFor(text: string, ms = 5000): Promise<void> {
    await until(() => this.text().includes(text), `“${text}” on ${this.url}; it shows: ${this.text()}`, ms).catch((e) => {
      throw new Error(`${e.message}`);
    });
  }

  /** The page hidden and shown again (another page was on top and closed, or the app came back to the front). */
  async show(): Promise<void> {
    this.comp.instance.onHide?.();
    this.comp.instance.onShow?.();
    await this.settle();
  }

  close(): void {
    const i = this.wx.stack.lastIndexOf(this.entry);
    if (i >= 0) this.wx.stack.splice(i, 1);
    this.comp.instance.onUnload?.();
    this.comp.detach();
  }
}

/** The page path and the query of an address, the query undecoded (as WeChat hands `options` over). */
export function splitUrl(url: string): { path: string; query: Record<string, string> } {
  const [path, q = ''] = url.replace(/^\//, '').split('?');
  const query: Record<string, string> = {};
  for (const part of q.split('&').filter(Boolean)) {
    const eq = part.indexOf('=');
    query[eq < 0 ? part : part.slice(0, eq)] = eq < 0 ? '' : part.slice(eq + 1);
  }
  return { path, query };
}

/** Renders the page of `url` with `wx` installed, runs onLoad and onShow, and waits for it to settle. */
export async function openPage(url: string, wx: ScriptedWx): Promise<PageDriver> {
  const sim = installDom();
  const root = buildMiniprogram();
  wx.install();
  const { path, query } = splitUrl(url);
  const comp = withDomEvents(() => {
    const c = sim.render(sim.load(join(root, path), 'main', { rootPath: root }));
    c.attach(dom!.window.document.createElement('div'));
    return c;
  });
  const entry = { route: path, options: query };
  wx.stack.push(entry);
  const page = new PageDriver(url, comp, wx, entry);
  comp.instance.onLoad?.(query);
  comp.instance.onShow?.();
  await page.settle();
  return page;
}
