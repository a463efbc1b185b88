/**
 * Devices: a device exists when some product uses it (`products.device_no`); device numbers are exact strings
 * (spaces and Chinese allowed, decisions.md "Clocking").
 *
 * The device key is a short stable id of a device number for mini-program code scenes that cannot carry the
 * number itself (decisions.md "Device codes": scene `d=<short key>`): the first 10 characters of the
 * base64url SHA-256 of the number. `scannedDeviceNo` turns `{deviceNo}` or `{deviceKey}` into the device number
 * (a key no device has: DEVICE_NOT_FOUND).
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/transaction.ts';
import { domainError } from '../domain/errors.ts';

/**
 * The short key of `deviceNo`: the first 10 characters of the base64url SHA-256 of its UTF-8 bytes
 * (decisions.md "Device codes").
 */
export const deviceKeyOf = (deviceNo: string): string =>
  createHash('sha256').update(deviceNo, 'utf8').digest('base64url').slice(0, 10);

/** A scanned device: its number, or the short key of a device code (decisions.md "Device codes"). */
export interface DeviceRef {
  deviceNo?: string;
  deviceKey?: string;
}

/** Domain error DEVICE_NOT_FOUND: no product uses the scanned device. */
export const deviceNotFound = () => domainError('DEVICE_NOT_FOUND');

/**
 * The device number a scan names: `deviceNo` as given (whether a product uses it is checked by the statement of
 * the command or query that uses it, in the same round trip), or the number whose key is `deviceKey`. Throws
 * DEVICE_NOT_FOUND for a key no device has (or neither given).
 */
export async function scannedDeviceNo(q: Queryable, ref: DeviceRef): Promise<string> {
  if (ref.deviceNo !== undefined) return ref.deviceNo;
  if (ref.deviceKey !== undefined) {
    const r = await q.query(`SELECT DISTINCT device_no FROM products`);
    const hit = r.rows.find((row) => deviceKeyOf(row.device_no) === ref.deviceKey);
    if (hit) return hit.device_no;
  }
  throw deviceNotFound();
}
