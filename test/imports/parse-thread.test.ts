/**
 * Issue #20: what keeps the event loop free while uploads are parsed. An upload's bytes are gathered into memory
 * shared with the parse thread (src/imports/shared-bytes.ts: no concatenation at the end, no copy for the thread),
 * and the parse thread lowers its own CPU priority (src/imports/parse-thread-priority.ts), on Linux for itself only.
 * Delays are measured by `npm run bench -- import`, not here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { Readable } from 'node:stream';
import type { Request } from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { closeParsePool, parseInWorker } from '../../src/imports/parse-pool.ts';
import { SharedBytes } from '../../src/imports/shared-bytes.ts';
import { readUpload } from '../../src/imports/upload.ts';
import { PARSE_THREAD_NICE } from '../../src/imports/parse-thread-priority.ts';
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

/** The nice values of this process's threads now (Linux: /proc/self/task/<tid>/stat, field 19). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // the thread ended meanwhile
    }
  });
}

describe.runIf(process.platform === 'linux')('the parse thread', () => {
  afterAll(() => closeParsePool());

  it(`runs ${PARSE_THREAD_NICE} nicer than the process while it parses; the event loop's thread keeps its priority`, async () => {
    const before = getPriority();
    const file = xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(PRODUCT_HEADER_XML + productRowsXml(20_000)) });
    const seen = new Set<number>();
    const parsing = parseInWorker('products', file, 50_000);
    let done = false;
    void parsing.finally(() => (done = true));
    while (!done) {
      for (const n of threadNiceValues()) seen.add(n);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect((await parsing).valid).toHaveLength(20_000);
    expect(seen).toContain(Math.min(19, before + PARSE_THREAD_NICE));
    expect(getPriority()).toBe(before);
  });
});
