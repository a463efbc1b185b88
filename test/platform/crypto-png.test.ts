import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decryptOpenData, encryptOpenData, OpenDataError } from '../../src/platform/crypto.ts';
import { encodeGrayPng } from '../../src/platform/png.ts';
import { decodePng } from './png.ts';
import { FIXTURES } from '../helpers/fixtures.ts';

// The platform's official open-data decryption sample (read from the shared fixtures, tests only).
const vector = JSON.parse(readFileSync(`${FIXTURES}/platform-decrypt-vector.json`, 'utf8'));

const reasonOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof OpenDataError) return err.reason;
    throw err;
  }
  return 'no error';
};

describe('open data decryption (AES-128-CBC, PKCS#7, watermark.appid)', () => {
  it('decrypts the official sample vector to the documented user object', () => {
    const out = decryptOpenData({ sessionKey: vector.sessionKey, encryptedData: vector.encryptedData, iv: vector.iv, appId: vector.appId });
    expect(out).toEqual(vector.decrypted);
  });

  it('refuses a wrong session key', () => {
    const wrongKey = Buffer.from(vector.sessionKey, 'base64');
    wrongKey[0] ^= 0x01;
    expect(reasonOf(() => decryptOpenData({ ...vector, sessionKey: wrongKey.toString('base64') }))).toBe('decrypt_failed');
  });

  it('refuses a wrong iv (the first block no longer decrypts to JSON)', () => {
    const wrongIv = Buffer.from(vector.iv, 'base64');
    wrongIv[0] ^= 0x40;
    expect(reasonOf(() => decryptOpenData({ ...vector, iv: wrongIv.toString('base64') }))).toBe('decrypt_failed');
  });

  it('refuses data whose watermark names another mini-program', () => {
    expect(reasonOf(() => decryptOpenData({ ...vector, appId: 'wx0000000000000000' }))).toBe('foreign_app');
  });

  it('refuses malformed input: short key, non-base64 data, partial blocks', () => {
    expect(reasonOf(() => decryptOpenData({ ...vector, sessionKey: 'c2hvcnQ=' }))).toBe('malformed');
    expect(reasonOf(() => decryptOpenData({ ...vector, encryptedData: '***' }))).toBe('malformed');
    expect(reasonOf(() => decryptOpenData({ ...vector, encryptedData: Buffer.alloc(20).toString('base64') }))).toBe('malformed');
  });

  it('round-trips with encryptOpenData (as the simulator hands out legacy phone data)', () => {
    const payload = { purePhoneNumber: '13800138000', countryCode: '86', watermark: { appid: 'wxabc', timestamp: 1 } };
    const key = Buffer.alloc(16, 7).toString('base64');
    const iv = Buffer.alloc(16, 9).toString('base64');
    expect(decryptOpenData({ sessionKey: key, iv, encryptedData: encryptOpenData(payload, key, iv), appId: 'wxabc' })).toEqual(payload);
  });
});

describe('PNG encoder', () => {
  it('writes a PNG a decoder accepts, with the pixels given', () => {
    const png = encodeGrayPng(5, 3, (x, y) => (x + y) % 2 ? 0 : 255);
    const d = decodePng(png);
    expect([d.width, d.height, d.bitDepth, d.colourType]).toEqual([5, 3, 8, 0]);
    expect(d.raw.length).toBe((5 + 1) * 3);
    expect([...d.raw.subarray(0, 6)]).toEqual([0, 255, 0, 255, 0, 255]);
    expect([...d.raw.subarray(6, 12)]).toEqual([0, 0, 255, 0, 255, 0]);
  });

  it('refuses impossible sizes', () => {
    expect(() => encodeGrayPng(0, 10, () => 0)).toThrow(RangeError);
  });
});
