/**
 * The platform simulator: a wire-compatible fake of the WeChat mini-program server endpoints the service uses
 * (decisions.md "Platform simulator"), as its own express app on a loopback port. The
 * service starts it when `WX_APPID` is unset; it is never used in production (config.ts refuses that start).
 *
 * Conventions:
 * - login `code` `sim:<anything>` → a stable openid for `<anything>` (`openidFor`); a suffix `#<nonce>` is not
 *   part of it, so `sim:alice#1`, `sim:alice#2` are two single-use codes of the same user, as two wx.login
 *   calls are. The session key is stable per openid (`sessionKeyFor`); `legacyPhoneData` makes legacy phone data.
 * - phone credential `sim:<11-digit phone>` → that phone (country code 86); `sim:<cc>-<number>` → a foreign one;
 *   a `#<nonce>` suffix is allowed here too (`sim:13800138000#2`).
 * - every code is single-use: a login code again → 40163, a phone code again → 40029; other codes → 40029.
 * - access tokens from `POST /cgi-bin/stable_token` live `tokenExpiresIn` seconds on the injected clock, the
 *   same token to every caller while valid (a new one in its last 5 minutes); unknown → 40001, expired → 42001.
 * - `getwxacodeunlimit` answers a real PNG (a code-like picture of the scene) or, on error, JSON with HTTP 200;
 *   scene and page are checked as the platform documents them (40169, 41030).
 * - subscription messages are checked per key type (47003), then need a grant, as on the platform: each accepted
 *   `wx.requestSubscribeMessage` of a template gives its user one message of that template (one-time
 *   subscription). A send without a grant answers 43101 and is not recorded; a delivered one uses a grant and is
 *   recorded in `messages`. Grants come from `grant(openid, templateId)` or, for a client under test, from the
 *   simulator-only endpoint `POST /sim/subscribe` (below); `denyGrant(openid)` makes every send to that user answer
 *   43101 (messages switched off in the user's settings).
 * Switches for tests: `failNext(api, errcode, {times, contentType})`, `expireTokens()`, `tokenExpiresIn`,
 * `countryCodeAsNumber`; `calls` records every request by API name.
 *
 * Endpoints that are not the platform's (the simulator only; the service has no such route): `GET /sim/legacy-phone`
 * (legacy phone data for a login code) and `POST /sim/subscribe` `{user | openid, templateIds}` → `{granted}`, what
 * the platform records when the person taps 允许 in `wx.requestSubscribeMessage`'s dialog: one grant per template id
 * for the user named by `openid`, or by `user`, a login code of the simulator (`sim:<seed>`, not consumed).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Request, type Response, type NextFunction } from 'express';
import { systemClock, type Clock } from '../clock.ts';
import { encryptOpenData } from './crypto.ts';
import { encodeGrayPng } from './png.ts';
import { templateValueProblem } from './message-values.ts';

export type SimApi = 'stable_token' | 'jscode2session' | 'getuserphonenumber' | 'subscribe_send' | 'getwxacodeunlimit';

export interface SimulatorOptions {
  appId?: string;
  secret?: string;
  clock?: Clock;
  /** Published pages (check_path). Default: the mini-program's pages. */
  pages?: readonly string[];
}

export interface SimSentMessage {
  touser: string;
  template_id: string;
  page?: string;
  data: Record<string, { value: string }>;
  miniprogram_state?: string;
  lang?: string;
}

export interface SimGeneratedCode {
  scene: string;
  page: string;
  checkPath: boolean;
  envVersion: string;
  width: number;
}

const ERRMSG: Record<number, string> = {
  [-1]: 'system error',
  40001: 'invalid credential, access_token is invalid or not latest',
  40002: 'invalid grant_type',
  40003: 'invalid openid',
  40013: 'invalid appid',
  40029: 'invalid code',
  40037: 'invalid template_id',
  40097: 'invalid args',
  40125: 'invalid appsecret',
  40163: 'code been used',
  40169: 'invalid length for scene, or the data is not json string',
  40226: 'code blocked',
  41030: 'invalid page',
  42001: 'access_token expired',
  43101: 'user refuse to accept the msg',
  45009: 'reach max api daily quota limit',
  45011: 'api minute-quota reach limit mustslower retry next minute',
  47001: 'data format error',
  47003: 'argument invalid!',
};

/** At most this many recent calls, messages and codes are kept (a development server runs for days). */
const MAX_RECORDS = 10_000;
const SCENE_CHARS = /^[0-9A-Za-z!#$&'()*+,/:;=?@\-._~]{1,32}$/;
const DEFAULT_PAGES = [
  'pages/index/index',
  'pages/clock/clock',
  'pages/report/report',
  'pages/mine/mine',
  'pages/mine/detail',
  'pages/review/review',
  'pages/review/detail',
  'pages/login/login',
  'pages/login/confirm',
];

class SimFailure {
  constructor(
    readonly errcode: number,
    readonly errmsg?: string,
  ) {}
}

/**
 * In-process fake of the platform's server API for development and tests (module docstring): `start(port)` serves
 * it on 127.0.0.1 and returns the origin; recorded traffic (`calls`, `messages`, `generatedCodes`) and test
 * switches (`failNext`, `expireTokens`, `denyGrant`) live on the instance.
 */
export class PlatformSimulator {
  readonly appId: string;
  readonly secret: string;
  /** Lifetime in seconds of newly issued access tokens. */
  tokenExpiresIn = 7200;
  /** Answer `countryCode` as a number (the platform does both). */
  countryCodeAsNumber = false;
  readonly calls: { api: SimApi }[] = [];
  readonly messages: SimSentMessage[] = [];
  readonly generatedCodes: SimGeneratedCode[] = [];
  private readonly clock: Clock;
  private readonly pages: ReadonlySet<string>;
  private readonly tokens = new Map<string, number>();
  private currentToken?: string;
  private readonly usedLoginCodes = new Set<string>();
  private readonly usedPhoneCodes = new Set<string>();
  private readonly denied = new Set<string>();
  /** openid → template id → messages the user still accepts (one per accepted request). */
  private readonly grants = new Map<string, Map<string, number>>();
  private readonly failures = new Map<SimApi, { errcode: number; errmsg?: string; contentType?: string; remaining: number }[]>();
  private server?: Server;
  private baseUrl = '';

  constructor(opts: SimulatorOptions = {}) {
    this.appId = opts.appId ?? 'wxsimulator0000001';
    this.secret = opts.secret ?? 'simulator-secret';
    this.clock = opts.clock ?? systemClock;
    this.pages = new Set(opts.pages ?? DEFAULT_PAGES);
  }

  /** Listens on 127.0.0.1 (port 0: any free port) and returns the origin, e.g. `http://127.0.0.1:40123`. */
  async start(port = 0): Promise<string> {
    const app = this.app();
    this.server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(port, '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  get url(): string {
    return this.baseUrl;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  }

  /** The next `times` calls of `api` answer `errcode` (with HTTP 200 JSON, or the given content type). */
  failNext(api: SimApi, errcode: number, opts: { times?: number; errmsg?: string; contentType?: string } = {}): void {
    const list = this.failures.get(api) ?? [];
    list.push({ errcode, errmsg: opts.errmsg, contentType: opts.contentType, remaining: opts.times ?? 1 });
    this.failures.set(api, list);
  }

  /** Forgets every pending forced failure. */
  clearFailures(): void {
    this.failures.clear();
  }

  /** Every access token issued so far is expired from now on (calls with it answer 42001). */
  expireTokens(): void {
    const now = this.clock.now().getTime();
    for (const t of this.tokens.keys()) this.tokens.set(t, now);
  }

  /** Every subscription message to `openid` answers 43101, grants or not (messages switched off by the user). */
  denyGrant(openid: string): void {
    this.denied.add(openid);
  }

  /**
   * The user `openid` accepted template `templateId` `times` times (default once) in `wx.requestSubscribeMessage`:
   * that many messages of it may be sent to them.
   */
  grant(openid: string, templateId: string, times = 1): void {
    const byTemplate = this.grants.get(openid) ?? new Map<string, number>();
    byTemplate.set(templateId, (byTemplate.get(templateId) ?? 0) + times);
    this.grants.set(openid, byTemplate);
  }

  /** How many more messages of `templateId` may be sent to `openid` (its unused grants). */
  grantsLeft(openid: string, templateId: string): number {
    return this.grants.get(openid)?.get(templateId) ?? 0;
  }

  /** Uses one grant of `templateId` for `openid`; false when none is left. */
  private useGrant(openid: string, templateId: string): boolean {
    const left = this.grantsLeft(openid, templateId);
    if (left <= 0) return false;
    this.grants.get(openid)!.set(templateId, left - 1);
    return true;
  }

  /** How many requests `api` has received. */
  callCount(api: SimApi): number {
    return this.calls.filter((c) => c.api === api).length;
  }

  /** The openid a login code `sim:<seed>` yields (28 characters, like the platform's). */
  openidFor(seed: string): string {
    return 'o' + createHash('sha256').update(`${this.appId}\0${seed}`).digest('base64url').slice(0, 27);
  }

  /** The session key (base64 of 16 bytes) of an openid; stable, as the platform's is between logins. */
  sessionKeyFor(openid: string): string {
    return createHmac('sha256', this.secret).update(openid).digest().subarray(0, 16).toString('base64');
  }

  /**
   * Legacy phone credential for the user of login code `sim:<seed>`: what `getPhoneNumber` hands the
   * mini-program (AES-128-CBC with the user's session key, watermark of `appId`, default this simulator's).
   */
  legacyPhoneData(loginCode: string, phone: string, appId = this.appId): { encryptedData: string; iv: string } {
    const openid = this.openidFor(seedOf(loginCode));
    const iv = randomBytes(16).toString('base64');
    const payload = {
      phoneNumber: phone,
      purePhoneNumber: phone,
      countryCode: '86',
      watermark: { timestamp: Math.floor(this.clock.now().getTime() / 1000), appid: appId },
    };
    return { encryptedData: encryptOpenData(payload, this.sessionKeyFor(openid), iv), iv };
  }

  private rid(): string {
    const h = randomBytes(12).toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 16)}-${h.slice(16, 24)}`;
  }

  private fail(res: Response, errcode: number, errmsg = ERRMSG[errcode] ?? 'error', contentType = 'application/json; encoding=utf-8'): void {
    res.status(200).type(contentType).send(JSON.stringify({ errcode, errmsg: `${errmsg} rid: ${this.rid()}` }));
  }

  /** A forced failure for `api`, if one is pending (consumed). */
  private forced(api: SimApi): { errcode: number; errmsg?: string; contentType?: string } | undefined {
    const list = this.failures.get(api);
    const f = list?.[0];
    if (!f) return undefined;
    if (--f.remaining <= 0) list!.shift();
    if (f.remaining < 0) return this.forced(api);
    return f;
  }

  /** Checks `?access_token=`: throws SimFailure 40001 (unknown) or 42001 (expired). */
  private checkToken(req: Request): void {
    const t = String(req.query.access_token ?? '');
    const exp = this.tokens.get(t);
    if (exp === undefined) throw new SimFailure(40001);
    if (this.clock.now().getTime() >= exp) throw new SimFailure(42001);
  }

  private app(): express.Express {
    const app = express();
    app.disable('x-powered-by');
    app.set('query parser', 'simple');
    app.use(express.json({ type: () => true, limit: '1mb' }));
    const route =
      (api: SimApi, needsToken: boolean, handler: (req: Request, res: Response) => void) => (req: Request, res: Response) => {
        this.calls.push({ api });
        if (this.calls.length > MAX_RECORDS) this.calls.splice(0, this.calls.length - MAX_RECORDS);
        try {
          const f = this.forced(api);
          if (f) return this.fail(res, f.errcode, f.errmsg, f.contentType);
          if (needsToken) this.checkToken(req);
          handler(req, res);
        } catch (err) {
          if (err instanceof SimFailure) return this.fail(res, err.errcode, err.errmsg);
          throw err;
        }
      };

    app.post('/cgi-bin/stable_token', route('stable_token', false, (req, res) => {
      const b = req.body ?? {};
      if (b.grant_type !== 'client_credential') throw new SimFailure(40002);
      if (b.appid !== this.appId) throw new SimFailure(40013);
      if (b.secret !== this.secret) throw new SimFailure(40125);
      const now = this.clock.now().getTime();
      const cur = this.currentToken;
      const left = cur ? (this.tokens.get(cur) ?? 0) - now : 0;
      if (!cur || b.force_refresh === true || left <= 300_000) {
        if (cur && b.force_refresh === true) this.tokens.set(cur, now);
        this.currentToken = randomBytes(24).toString('base64url');
        this.tokens.set(this.currentToken, now + this.tokenExpiresIn * 1000);
      }
      const token = this.currentToken!;
      res.json({ access_token: token, expires_in: Math.max(0, Math.floor(((this.tokens.get(token) ?? now) - now) / 1000)) });
    }));

    app.get('/sns/jscode2session', route('jscode2session', false, (req, res) => {
      const q = req.query as Record<string, string | undefined>;
      if (q.appid !== this.appId) throw new SimFailure(40013);
      if (q.secret !== this.secret) throw new SimFailure(40125);
      if (q.grant_type !== 'authorization_code') throw new SimFailure(40002);
      const code = q.js_code ?? '';
      if (!code.startsWith('sim:') || code.length <= 4) throw new SimFailure(40029);
      if (this.usedLoginCodes.has(code)) throw new SimFailure(40163);
      this.usedLoginCodes.add(code);
      const openid = this.openidFor(seedOf(code));
      res.json({ openid, session_key: this.sessionKeyFor(openid) });
    }));

    app.post('/wxa/business/getuserphonenumber', route('getuserphonenumber', true, (req, res) => {
      const code = String(req.body?.code ?? '');
      const m = /^sim:(?:(\d{1,4})-)?(\d{5,15})(?:#[^#]*)?$/.exec(code);
      if (!m || this.usedPhoneCodes.has(code)) throw new SimFailure(40029);
      this.usedPhoneCodes.add(code);
      const cc = m[1] ?? '86';
      const pure = m[2];
      res.json({
        errcode: 0,
        errmsg: 'ok',
        phone_info: {
          phoneNumber: cc === '86' ? pure : `+${cc}${pure}`,
          purePhoneNumber: pure,
          countryCode: this.countryCodeAsNumber ? Number(cc) : cc,
          watermark: { timestamp: Math.floor(this.clock.now().getTime() / 1000), appid: this.appId },
        },
      });
    }));

    app.post('/cgi-bin/message/subscribe/send', route('subscribe_send', true, (req, res) => {
      const b = (req.body ?? {}) as SimSentMessage;
      if (typeof b.touser !== 'string' || !/^o[\w-]{27}$/.test(b.touser)) throw new SimFailure(40003);
      if (typeof b.template_id !== 'string' || b.template_id === '') throw new SimFailure(40037);
      if (typeof b.data !== 'object' || b.data === null) throw new SimFailure(47003, 'argument invalid! data is empty');
      for (const [k, v] of Object.entries(b.data)) {
        const value = v && typeof v === 'object' ? (v as { value?: unknown }).value : undefined;
        if (typeof value !== 'string' || templateValueProblem(k, value) !== null) {
          throw new SimFailure(47003, `argument invalid! data.${k}.value invalid`);
        }
      }
      if (this.denied.has(b.touser) || !this.useGrant(b.touser, b.template_id)) throw new SimFailure(43101);
      this.messages.push(b);
      if (this.messages.length > MAX_RECORDS) this.messages.shift();
      res.json({ errcode: 0, errmsg: 'ok' });
    }));

    app.post('/wxa/getwxacodeunlimit', route('getwxacodeunlimit', true, (req, res) => {
      const b = req.body ?? {};
      const scene = b.scene;
      if (typeof scene !== 'string' || !SCENE_CHARS.test(scene)) throw new SimFailure(40169);
      const page = b.page === undefined ? 'pages/index/index' : b.page;
      const checkPath = b.check_path === undefined ? true : b.check_path === true;
      const envVersion = b.env_version ?? 'release';
      if (typeof page !== 'string' || page.startsWith('/') || page.includes('?')) throw new SimFailure(41030);
      if (!['release', 'trial', 'develop'].includes(envVersion)) throw new SimFailure(40097);
      if (checkPath && !this.pages.has(page)) throw new SimFailure(41030);
      const width = Math.min(1280, Math.max(280, Number.isFinite(Number(b.width)) ? Math.round(Number(b.width)) : 430));
      this.generatedCodes.push({ scene, page, checkPath, envVersion, width });
      if (this.generatedCodes.length > MAX_RECORDS) this.generatedCodes.shift();
      res.status(200).type('image/png').send(codePicture(`${scene}\0${page}\0${envVersion}`, width));
    }));

    // Development helper (not a platform endpoint): legacy phone data for a login code.
    app.get('/sim/legacy-phone', (req, res) => {
      const code = String(req.query.code ?? '');
      const phone = String(req.query.phone ?? '');
      res.json(this.legacyPhoneData(code, phone));
    });

    // Simulator-only (not a platform endpoint): what the platform records when the person accepts
    // wx.requestSubscribeMessage (module docstring). A client under test calls it in place of the dialog.
    app.post('/sim/subscribe', (req, res) => {
      const b = (req.body ?? {}) as { user?: unknown; openid?: unknown; templateIds?: unknown };
      const openid = typeof b.openid === 'string' ? b.openid : typeof b.user === 'string' && b.user.startsWith('sim:') ? this.openidFor(seedOf(b.user)) : undefined;
      const ids = Array.isArray(b.templateIds) ? b.templateIds.filter((t): t is string => typeof t === 'string' && t !== '') : [];
      if (!openid || !/^o[\w-]{27}$/.test(openid) || ids.length === 0) return this.fail(res, 40097);
      for (const id of ids) this.grant(openid, id);
      res.json({ errcode: 0, errmsg: 'ok', openid, granted: ids });
    });

    app.use((_req: Request, res: Response) => {
      res.status(404).json({ errcode: 40066, errmsg: 'invalid url' });
    });
    app.use((err: { type?: string }, _req: Request, res: Response, _next: NextFunction) => {
      if (err?.type === 'entity.parse.failed') return this.fail(res, 47001);
      this.fail(res, -1);
    });
    return app;
  }
}

/** The user part of a simulator login code: `sim:alice#2` → `alice`. */
const seedOf = (code: string) => code.replace(/^sim:/, '').replace(/#[^#]*$/, '');

/** A square PNG that looks like a 2D code: a 25×25 module grid from a hash of `content`, three finder marks. */
function codePicture(content: string, width: number): Buffer {
  const n = 25;
  const bits: boolean[] = [];
  let seed = createHash('sha256').update(content).digest();
  while (bits.length < n * n) {
    for (const byte of seed) for (let i = 0; i < 8; i++) bits.push(((byte >> i) & 1) === 1);
    seed = createHash('sha256').update(seed).digest();
  }
  const finder = (x: number, y: number): boolean | undefined => {
    for (const [fx, fy] of [[0, 0], [n - 7, 0], [0, n - 7]]) {
      const dx = x - fx;
      const dy = y - fy;
      if (dx >= 0 && dx < 7 && dy >= 0 && dy < 7) {
        const ring = Math.min(dx, dy, 6 - dx, 6 - dy);
        return ring !== 1;
      }
    }
    return undefined;
  };
  const quiet = 2;
  const module = width / (n + 2 * quiet);
  return encodeGrayPng(width, width, (px, py) => {
    const x = Math.floor(px / module) - quiet;
    const y = Math.floor(py / module) - quiet;
    if (x < 0 || y < 0 || x >= n || y >= n) return 255;
    const f = finder(x, y);
    return (f ?? bits[y * n + x]) ? 0 : 255;
  });
}
