/**
 * Declared uncompressed size of a zip container (an `.xlsx`), read from its central directory without
 * inflating anything, so that a small upload that would expand to gigabytes (a "zip bomb") is refused before
 * the spreadsheet reader touches it (src/spreadsheet/table.ts).
 *
 * `zipDeclaredSize(buf)` → total bytes the entries declare, `Infinity` for ZIP64 entries or an unreadable
 * directory (treated as too large), or undefined when the buffer has no end-of-central-directory record.
 */
const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;

/**
 * Total uncompressed bytes the central directory of zip `buf` declares; Infinity for ZIP64 or an unreadable
 * directory, undefined without an end-of-central-directory record. Reads the directory only, inflates nothing.
 */
export function zipDeclaredSize(buf: Uint8Array): number | undefined {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  // The end record is 22 bytes plus a comment of at most 65,535 bytes, at the very end of the file.
  const stop = Math.max(0, buf.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = buf.length - 22; i >= stop; i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const entries = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if (entries === 0xffff || offset === 0xffffffff) return Infinity;
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > buf.length || view.getUint32(offset, true) !== CENTRAL) return Infinity;
    const size = view.getUint32(offset + 24, true);
    if (size === 0xffffffff) return Infinity;
    total += size;
    offset += 46 + view.getUint16(offset + 28, true) + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
  }
  return total;
}
