/** Test helper: reads a PNG as a decoder would (signature, chunk CRCs with node:zlib, IHDR, inflated IDAT). */
import { crc32, inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  /** Raw scanlines (filter byte + pixels). */
  raw: Buffer;
}

export function decodePng(bytes: Buffer): DecodedPng {
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!bytes.subarray(0, 8).equals(sig)) throw new Error('no PNG signature');
  let off = 8;
  let ihdr: Buffer | undefined;
  const idat: Buffer[] = [];
  let ended = false;
  while (off < bytes.length) {
    const len = bytes.readUInt32BE(off);
    const type = bytes.subarray(off + 4, off + 8).toString('latin1');
    const data = bytes.subarray(off + 8, off + 8 + len);
    const crc = bytes.readUInt32BE(off + 8 + len);
    if (crc32(bytes.subarray(off + 4, off + 8 + len)) !== crc) throw new Error(`bad CRC in ${type}`);
    if (type === 'IHDR') ihdr = data;
    if (type === 'IDAT') idat.push(data);
    if (type === 'IEND') ended = true;
    off += 12 + len;
  }
  if (!ihdr || !ended) throw new Error('missing IHDR or IEND');
  return { width: ihdr.readUInt32BE(0), height: ihdr.readUInt32BE(4), bitDepth: ihdr[8], colourType: ihdr[9], raw: inflateSync(Buffer.concat(idat)) };
}
