/**
 * The messaging platform client (WeChat mini-program server API) over axios, implementing `PlatformApi`
 * against the real origin (`WX_API_BASE`) or the built-in simulator.
 *
 * Wire rules kept here, in one place:
 * - Access token: `POST /cgi-bin/stable_token` through `AccessTokenCache` (clamped refresh margin, one fetch
 *   in flight). On errcode 40001 / 40014 / 42001 the token is dropped and the call retried once.
 * - errcode -1 (platform busy), HTTP 5xx and network failures are retried with backoff (`retryDelaysMs`,
 *   default 300 ms then 1 s); every other errcode is thrown at once as `PlatformError`.
 * - `getwxacodeunlimit` answers image bytes on success and JSON on failure, even with HTTP 200: an answer is
 *   an image only when its content type is `image/*` AND its bytes start with the PNG or JPEG magic; anything
 *   else is an error, so a JSON error can never be stored as an image.
 * - Subscription message values are cut to the platform's per-type limits (`message-values.ts`); errcode 43101
 *   (the user gave no grant) is normal: logged at info level and thrown for the caller to record.
 * - An answer cut short, a connection reset mid-answer or an answer over MAX_ANSWER_BYTES is a transport failure
 *   (axios handles the response stream's errors and stops reading at the limit), retried like one.
 * - Every platform error is logged with its API, errcode, errmsg and rid; the secret, the session key and the
 *   access token never reach a log line (request configs are never logged).
 */
import axios, { type AxiosInstance, type AxiosRequestConfig } from 'axios';
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import { AccessTokenCache } from './access-token.ts';
import { decryptOpenData } from './crypto.ts';
import { cutTemplateValue } from './message-values.ts';
import { PlatformError, type PhoneInfo, type PlatformApi, type SubscribeMessage } from './types.ts';

export interface PlatformClientOptions {
  appId: string;
  secret: string;
  /** Origin of the API, e.g. `https://api.weixin.qq.com` or the simulator's `http://127.0.0.1:<port>`. */
  apiBase: string;
  clock: Clock;
  log: Logger;
  /** The factory's time zone, for time/date template values. */
  timeZone: string;
  /** Waits before each retry of a busy (-1) answer, in milliseconds. Default [300, 1000]. */
  retryDelaysMs?: readonly number[];
  /** Per-request timeout in milliseconds. Default 10000. */
  timeoutMs?: number;
  /** WX_ENV_VERSION: which mini-program version subscription messages open (release → formal). Default release. */
  envVersion?: 'release' | 'trial' | 'develop';
  /** Called by close() (e.g. to stop the simulator this client talks to). */
  onClose?: () => Promise<void>;
}

/**
 * The largest answer read from the platform, in bytes (8 MiB; a mini-program code image is some 100 kB): a larger
 * one is a failure of the call (axios stops reading it), never a buffer as large as the sender likes.
 */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** errcodes meaning "this access token is invalid or expired". */
export const TOKEN_ERRCODES: ReadonlySet<number> = new Set([40001, 40014, 42001]);
/** errcodes that are expected outcomes rather than faults (logged at info level). */
const EXPECTED_ERRCODES: ReadonlySet<number> = new Set([43101]);

/** subscribe/send `miniprogram_state` for each WX_ENV_VERSION. */
const MINIPROGRAM_STATE = { release: 'formal', trial: 'trial', develop: 'developer' } as const;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/** True when `bytes` start with the PNG or JPEG signature. */
export const hasImageMagic = (bytes: Buffer): boolean =>
  (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_MAGIC)) || (bytes.length >= 3 && bytes.subarray(0, 3).equals(JPEG_MAGIC));

/** The `rid` the platform appends to errmsg (`invalid code, rid: 668f2aa4-51c08c03-3d141241`). */
export const ridOf = (errmsg: string): string | undefined => /rid:\s*([\w-]+)/.exec(errmsg)?.[1];

type Answer = { json: Record<string, unknown> } | { image: Buffer; contentType: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * PlatformApi over the platform's HTTP API at `opts.apiBase` (the real origin or the simulator) with the wire rules
 * of the module docstring: cached access token, retries of busy / 5xx / network failures, strict image answers.
 * Failures are thrown as PlatformError (errcode, errmsg, rid).
 */
export class WxPlatformClient implements PlatformApi {
  readonly appId: string;
  private readonly http: AxiosInstance;
  private readonly tokens: AccessTokenCache;
  private readonly retryDelaysMs: readonly number[];

  constructor(private readonly opts: PlatformClientOptions) {
    this.appId = opts.appId;
    this.retryDelaysMs = opts.retryDelaysMs ?? [300, 1000];
    this.http = axios.create({
      baseURL: opts.apiBase.replace(/\/$/, ''),
      timeout: opts.timeoutMs ?? 10_000,
      responseType: 'arraybuffer',
      validateStatus: () => true,
      maxRedirects: 0,
      maxContentLength: MAX_ANSWER_BYTES,
    });
    this.tokens = new AccessTokenCache(async () => {
      const a = await this.call('stable_token', {
        method: 'post',
        url: '/cgi-bin/stable_token',
        data: { grant_type: 'client_credential', appid: opts.appId, secret: opts.secret, force_refresh: false },
      });
      const token = a.access_token;
      const expiresIn = Number(a.expires_in);
      if (typeof token !== 'string' || token === '') throw new PlatformError(-2, 'stable_token answered without access_token');
      return { accessToken: token, expiresIn };
    }, opts.clock);
  }

  /**
   * Fetches the access token (`stable_token`, cached like every other call's): a check of WX_APPID and WX_SECRET
   * (doctor, and the start in production). Throws PlatformError (40013 invalid appid, 40125 invalid secret, …).
   */
  async accessToken(): Promise<string> {
    return this.tokens.get();
  }

  async code2Session(code: string): Promise<{ openid: string; sessionKey: string; unionid?: string }> {
    const a = await this.call('jscode2session', {
      method: 'get',
      url: '/sns/jscode2session',
      params: { appid: this.opts.appId, secret: this.opts.secret, js_code: code, grant_type: 'authorization_code' },
    });
    if (typeof a.openid !== 'string' || typeof a.session_key !== 'string') throw new PlatformError(-2, 'jscode2session answered without openid');
    return { openid: a.openid, sessionKey: a.session_key, ...(typeof a.unionid === 'string' ? { unionid: a.unionid } : {}) };
  }

  async getPhoneNumber(phoneCode: string): Promise<PhoneInfo> {
    const a = await this.call('getuserphonenumber', { method: 'post', url: '/wxa/business/getuserphonenumber', data: { code: phoneCode } }, true);
    const info = a.phone_info as Record<string, unknown> | undefined;
    if (!info || typeof info.purePhoneNumber !== 'string') throw new PlatformError(-2, 'getuserphonenumber answered without phone_info');
    return toPhoneInfo(info);
  }

  decryptPhoneData(sessionKey: string, encryptedData: string, iv: string): PhoneInfo {
    const data = decryptOpenData({ sessionKey, encryptedData, iv, appId: this.opts.appId });
    if (typeof data.purePhoneNumber !== 'string') throw new PlatformError(-2, 'decrypted data holds no phone number');
    return toPhoneInfo(data);
  }

  async sendSubscribeMessage(msg: SubscribeMessage): Promise<void> {
    const data: Record<string, { value: string }> = {};
    for (const [k, v] of Object.entries(msg.data)) data[k] = { value: cutTemplateValue(k, v, this.opts.timeZone) };
    await this.call(
      'subscribe_send',
      {
        method: 'post',
        url: '/cgi-bin/message/subscribe/send',
        data: { touser: msg.toUser, template_id: msg.templateId, ...(msg.page ? { page: msg.page } : {}), data, miniprogram_state: MINIPROGRAM_STATE[this.opts.envVersion ?? 'release'], lang: 'zh_CN' },
      },
      true,
    );
  }

  async getUnlimitedQrCode(o: { scene: string; page: string; checkPath?: boolean; envVersion?: string; width?: number }): Promise<Buffer> {
    const a = await this.request(
      'getwxacodeunlimit',
      {
        method: 'post',
        url: '/wxa/getwxacodeunlimit',
        data: { scene: o.scene, page: o.page, check_path: o.checkPath ?? true, env_version: o.envVersion ?? 'release', width: o.width ?? 430 },
      },
      true,
      true,
    );
    if (!('image' in a)) throw new PlatformError(-2, 'getwxacodeunlimit answered no image');
    return a.image;
  }

  async close(): Promise<void> {
    await this.opts.onClose?.();
  }

  /** A JSON call; throws PlatformError for any errcode other than 0. */
  private async call(api: string, cfg: AxiosRequestConfig, withToken = false): Promise<Record<string, any>> {
    const a = await this.request(api, cfg, withToken, false);
    if (!('json' in a)) throw new PlatformError(-2, `${api} answered no JSON`);
    return a.json;
  }

  private async request(api: string, cfg: AxiosRequestConfig, withToken: boolean, image: boolean): Promise<Answer> {
    let tokenRetried = false;
    let busyRetries = 0;
    for (;;) {
      const token = withToken ? await this.tokens.get() : undefined;
      const answer = await this.send(cfg, token, image);
      const errcode = 'json' in answer ? Number(answer.json.errcode ?? 0) : 0;
      if (errcode === 0) return answer;
      const errmsg = String((answer as { json: Record<string, unknown> }).json.errmsg ?? '');
      const rid = ridOf(errmsg);
      if (token !== undefined && TOKEN_ERRCODES.has(errcode) && !tokenRetried) {
        this.opts.log.warn({ platformApi: api, errcode, errmsg, rid }, 'platform access token refused; fetching a new one and retrying once');
        this.tokens.invalidate(token);
        tokenRetried = true;
        continue;
      }
      if (errcode === -1 && busyRetries < this.retryDelaysMs.length) {
        this.opts.log.warn({ platformApi: api, errcode, errmsg, rid, retry: busyRetries + 1 }, 'platform busy; retrying');
        await sleep(this.retryDelaysMs[busyRetries++]);
        continue;
      }
      const level = EXPECTED_ERRCODES.has(errcode) ? 'info' : 'warn';
      this.opts.log[level]({ platformApi: api, errcode, errmsg, rid }, 'platform error');
      throw new PlatformError(errcode, errmsg, rid);
    }
  }

  /** One HTTP exchange, turned into an Answer; transport failures become errcode -1 (retried). */
  private async send(cfg: AxiosRequestConfig, token: string | undefined, image: boolean): Promise<Answer> {
    let status: number;
    let body: Buffer;
    let contentType: string;
    try {
      const res = await this.http.request({ ...cfg, params: { ...(cfg.params ?? {}), ...(token ? { access_token: token } : {}) } });
      status = res.status;
      body = Buffer.from(res.data as ArrayBuffer);
      contentType = String(res.headers['content-type'] ?? '').toLowerCase();
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'ERROR';
      return { json: { errcode: -1, errmsg: `network failure (${code})` } };
    }
    if (image && contentType.startsWith('image/')) {
      if (hasImageMagic(body)) return { image: body, contentType: contentType.split(';')[0] };
      return { json: { errcode: -2, errmsg: `answer claims ${contentType} but is not a PNG or JPEG image` } };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      parsed = undefined;
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const json = parsed as Record<string, unknown>;
      if (image && Number(json.errcode ?? 0) === 0) return { json: { errcode: -2, errmsg: 'answered JSON without an image' } };
      return { json };
    }
    if (status >= 500) return { json: { errcode: -1, errmsg: `HTTP ${status}` } };
    return { json: { errcode: -2, errmsg: `unexpected answer: HTTP ${status} ${contentType || 'without content type'}` } };
  }
}

function toPhoneInfo(info: Record<string, unknown>): PhoneInfo {
  return {
    phoneNumber: String(info.phoneNumber ?? info.purePhoneNumber),
    purePhoneNumber: String(info.purePhoneNumber),
    countryCode: String(info.countryCode ?? '86'),
  };
}
