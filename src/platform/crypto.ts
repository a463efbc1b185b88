/**
 * Decryption of the platform's legacy open data (`encryptedData` + `iv` from `getPhoneNumber`), per the
 * platform's "open data verification and decryption" rules: AES-128-CBC with PKCS#7 padding, key =
 * base64-decoded session key (16 bytes), iv = base64-decoded `iv` (16 bytes), plaintext JSON whose
 * `watermark.appid` must equal our appid (data encrypted for another mini-program is refused).
 *
 * `decryptOpenData(input)` → the parsed object; throws `OpenDataError` with `reason`:
 * - `malformed`: key, iv or data are not base64 of the right size;
 * - `decrypt_failed`: wrong key or iv (bad padding) or the plaintext is not a JSON object;
 * - `foreign_app`: `watermark.appid` differs from the expected appid.
 * `encryptOpenData` is its inverse, used by the simulator to hand out legacy phone data.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';

export type OpenDataErrorReason = 'malformed' | 'decrypt_failed' | 'foreign_app';

/** Failure of decryptOpenData; `reason` is `malformed`, `decrypt_failed` or `foreign_app` (module docstring). */
export class OpenDataError extends Error {
  constructor(
    readonly reason: OpenDataErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'OpenDataError';
  }
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function decode16(name: string, value: string): Buffer {
  if (!BASE64.test(value)) throw new OpenDataError('malformed', `${name} is not base64`);
  const b = Buffer.from(value, 'base64');
  if (b.length !== 16) throw new OpenDataError('malformed', `${name} must decode to 16 bytes, got ${b.length}`);
  return b;
}

export interface OpenDataInput {
  sessionKey: string;
  encryptedData: string;
  iv: string;
  /** The appid the data must carry in `watermark.appid`. */
  appId: string;
}

/** The decrypted open data object. Throws OpenDataError (see the module docstring). */
export function decryptOpenData(input: OpenDataInput): Record<string, unknown> & { watermark: { appid: string; timestamp?: number } } {
  const key = decode16('sessionKey', input.sessionKey);
  const iv = decode16('iv', input.iv);
  if (!BASE64.test(input.encryptedData)) throw new OpenDataError('malformed', 'encryptedData is not base64');
  const data = Buffer.from(input.encryptedData, 'base64');
  if (data.length === 0 || data.length % 16 !== 0) throw new OpenDataError('malformed', 'encryptedData is not a whole number of AES blocks');
  let text: string;
  try {
    const d = createDecipheriv('aes-128-cbc', key, iv);
    d.setAutoPadding(true);
    text = Buffer.concat([d.update(data), d.final()]).toString('utf8');
  } catch {
    throw new OpenDataError('decrypt_failed', 'decryption failed (wrong session key or iv)');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new OpenDataError('decrypt_failed', 'decrypted data is not JSON (wrong session key or iv)');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new OpenDataError('decrypt_failed', 'decrypted data is not a JSON object');
  }
  const wm = (parsed as { watermark?: { appid?: unknown } }).watermark;
  if (!wm || typeof wm.appid !== 'string' || wm.appid !== input.appId) {
    throw new OpenDataError('foreign_app', 'watermark.appid does not match this mini-program');
  }
  return parsed as Record<string, unknown> & { watermark: { appid: string; timestamp?: number } };
}

/** Encrypts `payload` as the platform does (the inverse of decryptOpenData); base64 key and iv. */
export function encryptOpenData(payload: unknown, sessionKey: string, iv: string): string {
  const c = createCipheriv('aes-128-cbc', decode16('sessionKey', sessionKey), decode16('iv', iv));
  return Buffer.concat([c.update(JSON.stringify(payload), 'utf8'), c.final()]).toString('base64');
}
