/**
 * A minimal PNG encoder (PNG specification, ISO/IEC 15948): 8-bit grayscale, no interlace, filter 0 on every
 * scanline, one zlib-deflated IDAT chunk. Used by the platform simulator to answer real PNG mini-program codes
 * (decisions.md "Platform simulator": generated codes are real PNG images) without an image dependency.
 *
 * `encodeGrayPng(width, height, pixel)` → PNG bytes; `pixel(x, y)` gives 0 (black) … 255 (white).
 * `PNG_SIGNATURE` is the 8-byte magic every PNG starts with; `crc32` is the chunk checksum (exported for tests).
 */
import { deflateSync } from 'node:zlib';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (ISO 3309, as PNG uses it) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** PNG bytes of a `width` × `height` grayscale image (both 1 … 10000 pixels). Throws RangeError otherwise. */
export function encodeGrayPng(width: number, height: number, pixel: (x: number, y: number) => number): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 10000 || height > 10000) {
    throw new RangeError(`PNG size out of range: ${width}x${height}`);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // colour type: grayscale
  ihdr[10] = 0; // compression: deflate
  ihdr[11] = 0; // filter method 0
  ihdr[12] = 0; // no interlace
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width + 1);
    raw[row] = 0; // filter type None
    for (let x = 0; x < width; x++) raw[row + 1 + x] = Math.max(0, Math.min(255, Math.round(pixel(x, y))));
  }
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
