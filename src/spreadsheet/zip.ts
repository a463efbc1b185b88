/**
 * Unzips an `.xlsx` (or another zip workbook) into memory with a cap on the bytes actually inflated, counted
 * while inflating, never from the sizes the zip declares (a 2 MB file whose directory says
 * 4 kB inflated to 2 GiB). The zip is read by yauzl, which checks the directory's structure and stops an entry
 * the moment its inflated bytes differ from what its directory entry declares; this module adds the running
 * total over all entries (MAX_INFLATED_BYTES) and refuses an entry whose declared size alone passes it before
 * inflating a byte of it.
 *
 * `unzipWorkbook(buffer)` → `Map<entry name, bytes>` (directories left out). Throws AppError 422
 * SPREADSHEET_TOO_LARGE (more than MAX_INFLATED_BYTES in all, declared or actual) or UNREADABLE_SPREADSHEET
 * (a zip that yauzl refuses: truncated, encrypted, an entry inflating to another size than it declares, a
 * broken deflate stream, unsafe entry names).
 */
import yauzl from 'yauzl';
import { unprocessable } from '../errors.ts';
import { spreadsheetTooLarge } from './too-large.ts';

/**
 * Most bytes the entries of one workbook may inflate to, in all: 48 MiB. An honest 50,000-row product list
 * (every column of spec 2.1) inflates to about 23 MB; a larger file is one that repeats itself to exhaust memory.
 */
export const MAX_INFLATED_BYTES = 48 * 1024 * 1024;

export const tooLargeWhenInflated = () =>
  spreadsheetTooLarge(`这个 Excel 文件解压后超过 ${MAX_INFLATED_BYTES / 1024 / 1024} MB，请删除多余的工作表、图片或空白格式后再导入`, {
    maxInflatedBytes: MAX_INFLATED_BYTES,
  });

const unreadable = () => unprocessable('UNREADABLE_SPREADSHEET', '无法读取这个 Excel 文件（压缩包已损坏、被截断或已加密），请用 Excel 另存为 .xlsx 后再上传');

/** The entries of zip `buffer` inflated, at most `maxBytes` in all (module docstring). */
export function unzipWorkbook(buffer: Buffer, maxBytes = MAX_INFLATED_BYTES): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (openErr, zip) => {
      if (openErr || !zip) return reject(unreadable());
      const entries = new Map<string, Buffer>();
      let total = 0;
      let settled = false;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        zip.close();
        reject(err);
      };
      zip.on('error', () => fail(unreadable()));
      zip.on('end', () => {
        if (settled) return;
        settled = true;
        resolve(entries);
      });
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        // An honest bomb says what it is: refused before inflating (the running count below catches liars).
        if (total + entry.uncompressedSize > maxBytes) return fail(tooLargeWhenInflated());
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr || !stream) return fail(unreadable());
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => {
            total += c.length;
            if (total > maxBytes) {
              (stream as typeof stream & { destroy(): void }).destroy();
              fail(tooLargeWhenInflated());
              return;
            }
            chunks.push(c);
          });
          // yauzl: "too many bytes in the stream" the moment an entry outgrows its declared size, a broken stream…
          stream.on('error', () => fail(unreadable()));
          stream.on('end', () => {
            if (settled) return;
            entries.set(entry.fileName, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
