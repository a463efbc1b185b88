/**
 * What keeps the event loop free while uploads are parsed. An upload's bytes are gathered into memory
 * shared with the parse thread (src/imports/shared-bytes.ts: no concatenation at the end, no copy for the thread),
 * and the thread runs one bundled JavaScript file (src/imports/parse-thread-code.ts), which starts with a fraction
 * of the CPU that TypeScript through tsx's loader took. Delays are measured by `npm run bench -- import`, not here.
 */
import { readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import type { Request } from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { closeParsePool, parseInWorker } from '../../src/imports/parse-pool.ts';
import { SharedBytes } from '../../src/imports/shared-bytes.ts';
import { readUpload } from '../../src/imports/upload.ts';
import { parseThreadEntry } from '../../src/imports/parse-thread-code.ts';
import { multipart } from '../helpers/raw-http.ts';
import { PRODUCT_HEADER_XML, productRowsXml, sheetXml, xlsxOf } from '../helpers/hostile-workbooks.ts';

describe('SharedBytes', () => {
  it('gathers chunks past the room it started with, in order, in shared memory', () => {
    const bytes = new SharedBytes(1500);
    const chunks = Array.from({ length: 40 }, (_, i) => Buffer.alloc(100 + i, i));
    for (const c of chunks) bytes.push(c);
    const out = bytes.bytes();
    expect(out.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(out.equals(Buffer.concat(chunks))).toBe(true);
  });
});

describe('readUpload', () => {
  it("gives the file's bytes in shared memory, whatever the chunks they came in", async () => {
    const data = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    const { contentType, body } = multipart('file', 'list.xlsx', data);
    const stream = Readable.from([body.subarray(0, 7), body.subarray(7, 65_000), body.subarray(65_000)]);
    const req = Object.assign(stream, { headers: { 'content-type': contentType, 'content-length': String(body.length) } });
    const file = await readUpload(req as unknown as Request);
    expect(file.fileName).toBe('list.xlsx');
    expect(file.buffer.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(file.buffer.equals(data)).toBe(true);
  });
});

describe('the parse thread', () => {
  afterAll(() => closeParsePool());

  it('runs one bundled JavaScript file from a private temporary folder, not TypeScript through a loader', async () => {
    const entry = await parseThreadEntry(() => {
      throw new Error('the bundle was not built');
    });
    expect(entry.filename).toMatch(/parse-worker\.cjs$/);
    expect(entry.filename.startsWith(tmpdir())).toBe(true);
    expect(entry.execArgv).toEqual([]);
    expect(statSync(dirname(entry.filename)).mode & 0o777).toBe(0o700);
    const code = readFileSync(entry.filename, 'utf8');
    expect(code).toContain('src/spreadsheet/zip.ts'); // esbuild's note of each module it took in
    expect(code).not.toMatch(/^import /m);
  });

  it('parses with it: the rows of a list, and its refusals as the reader gives them', async () => {
    const file = xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(PRODUCT_HEADER_XML + productRowsXml(2_000)) });
    expect((await parseInWorker('products', file, 50_000)).valid).toHaveLength(2_000);
    await expect(parseInWorker('products', file, 10)).rejects.toMatchObject({ status: 422, code: 'TOO_MANY_ROWS', details: { maxRows: 10 } });
  });
});
