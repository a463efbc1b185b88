/**
 * What the service asks of the messaging platform (spec section 1 rule 3; the WeChat mini-program server
 * API). Implemented by the axios client in this folder, which talks either to the real API or to the built-in
 * simulator. Failures throw `PlatformError` carrying the platform's errcode, errmsg and rid.
 */
export class PlatformError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
    readonly rid?: string,
  ) {
    super(`platform error ${errcode}: ${errmsg}${rid ? ` (rid ${rid})` : ''}`);
    this.name = 'PlatformError';
  }
}

export interface SubscribeMessage {
  /** openid of the recipient. */
  toUser: string;
  templateId: string;
  /** Mini-program page opened from the message, e.g. `pages/report/report?id=…`. */
  page?: string;
  /** Template data by key (`thing1`, `time2`, `phrase3`, …); values are cut to the key type's limit by the client. */
  data: Record<string, string>;
}

/** A phone number as the platform gives it: `countryCode` always as a string (the platform may send a number). */
export interface PhoneInfo {
  /** With country code for foreign numbers, e.g. `+85261234567`; a mainland number without it. */
  phoneNumber: string;
  /** Without country code, e.g. `13800138000`. */
  purePhoneNumber: string;
  /** `86` for mainland China. */
  countryCode: string;
}

export interface PlatformApi {
  /** `GET /sns/jscode2session`: login code → openid and session key. */
  code2Session(code: string): Promise<{ openid: string; sessionKey: string; unionid?: string }>;
  /** `POST /wxa/business/getuserphonenumber`: phone credential → phone number. */
  getPhoneNumber(phoneCode: string): Promise<PhoneInfo>;
  /**
   * Legacy phone credential: `encryptedData` + `iv` decrypted with the session key of `code2Session`
   * (src/platform/crypto.ts; the watermark must carry this platform's appid). Throws OpenDataError.
   * Optional so that test doubles of the platform need not implement it (login then answers 503).
   */
  decryptPhoneData?(sessionKey: string, encryptedData: string, iv: string): PhoneInfo;
  /** `POST /cgi-bin/message/subscribe/send`. Throws PlatformError (43101: the user gave no grant). */
  sendSubscribeMessage(msg: SubscribeMessage): Promise<void>;
  /** `POST /wxa/getwxacodeunlimit`: PNG (or JPEG) bytes of a mini-program code. */
  getUnlimitedQrCode(opts: { scene: string; page: string; checkPath?: boolean; envVersion?: string; width?: number }): Promise<Buffer>;
  /** Stops timers and any simulator this client started. */
  close?(): Promise<void>;
}
