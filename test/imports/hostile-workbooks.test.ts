/**
 * Hostile workbooks (test/helpers/hostile-workbooks.ts) are each answered as
 * expected — refused with a clear 413/422, or previewed when they are odd but harmless — by a parse that runs
 * in the parse thread with its memory and time bounded, and the service goes on answering. External links,
 * formulas and entity declarations never make the reader fetch anything. Times and memory are measured by
 * `npm run bench -- import`, not here.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeParsePool, setParseTimeLimit, IMPORT_RETRY_AFTER_SECONDS, MAX_QUEUED, PARSE_TIME_LIMIT_MS } from '../../src/imports/parse-pool.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { HOSTILE_FILES, PRODUCT_HEADER_XML, productRowsXml, sheetXml, xlsxOf } from '../helpers/hostile-workbooks.ts';
import { upload } from '../products/support.ts';

let app: TestApp;
let token: string;
beforeAll(async () => {
  app = await startTestApp();
  token = await app.login('13900000019', 'admin');
});
afterAll(async () => {
  await app.close();
  await closeParsePool();
});

describe('every hostile file', () => {
  it.each(HOSTILE_FILES.map((f) => [f.name, f] as const))('%s: answered as expected, and the service goes on', async (_, file) => {
    const r = await upload(app, '/api/products/import', token, file.build(), file.fileName);
    const got: [number, string?] = r.status === 200 ? [200] : [r.status, r.body?.error?.code];
    expect(file.expect.map((e) => JSON.stringify(e))).toContain(JSON.stringify(got));
    if (r.status !== 200) expect(typeof r.body.error.message).toBe('string');
    const h = await app.request('GET', '/api/health');
    expect(h.status).toBe(200);
  });
});

describe('the parse thread', () => {
  it('a parse running longer than its time limit is ended: 422 SPREADSHEET_TOO_LARGE, the next parse is served', async () => {
    const big = xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(PRODUCT_HEADER_XML + productRowsXml(40_000)) });
    setParseTimeLimit(1);
    try {
      const r = await upload(app, '/api/products/import', token, big);
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('SPREADSHEET_TOO_LARGE');
    } finally {
      setParseTimeLimit(PARSE_TIME_LIMIT_MS);
    }
    const ok = await upload(app, '/api/products/import', token, xlsxOf({}));
    expect(ok.status).toBe(200);
    expect(ok.body.counts.create).toBe(3);
  });

  it('uploads sent at once beyond the queue: 503 IMPORT_BUSY saying when to retry (Retry-After), every other one answered', async () => {
    // More uploads at once than the parse thread and its queue take (1 + MAX_QUEUED), each long enough to parse
    // that the others arrive while it runs (as test/api/contract-edges.test.ts provokes it).
    const file = xlsxOf({ 'xl/worksheets/sheet1.xml': sheetXml(PRODUCT_HEADER_XML + productRowsXml(10_000)) });
    const answers = await Promise.all(Array.from({ length: 10 }, () => upload(app, '/api/products/import', token, file)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1 + MAX_QUEUED);
    const busy = answers.filter((x) => x.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const a of busy) {
      expect(a.body.error).toMatchObject({ code: 'IMPORT_BUSY', message: `正在处理其他导入文件，请 ${IMPORT_RETRY_AFTER_SECONDS} 秒后重试`, details: { retryAfterSeconds: IMPORT_RETRY_AFTER_SECONDS } });
      expect(a.headers.get('retry-after')).toBe(String(IMPORT_RETRY_AFTER_SECONDS));
    }
    // Once the others are through, the same upload is taken.
    const again = await upload(app, '/api/products/import', token, file);
    expect(again.status).toBe(200);
    expect(again.headers.get('retry-after')).toBeNull();
  });
});

describe('nothing is fetched', () => {
  let server: Server;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      res.end('<x/>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('external links, WEBSERVICE formulas and external entities pointing at a server: never requested', async () => {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/book.xlsx`;
    const link = HOSTILE_FILES.find((f) => f.fileName === 'links.xlsx')!.build().toString('latin1');
    expect(link.length).toBeGreaterThan(0);
    const files = [
      xlsxOf({
        'xl/worksheets/sheet1.xml': sheetXml(PRODUCT_HEADER_XML + `<row r="2"><c r="B2" t="str"><f>WEBSERVICE("${url}")</f></c></row>`),
      }),
      xlsxOf({ 'xl/sharedStrings.xml': `<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY web SYSTEM "${url}">]><sst><si><t>&web;</t></si></sst>` }),
      xlsxOf({
        'xl/externalLinks/_rels/externalLink1.xml.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLinkPath" Target="${url}" TargetMode="External"/></Relationships>`,
        'xl/externalLinks/externalLink1.xml': `<?xml version="1.0"?><externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><externalBook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="rId1"/></externalLink>`,
      }),
    ];
    for (const f of files) {
      const r = await upload(app, '/api/products/import', token, f);
      expect(r.status === 200 || r.status === 422).toBe(true);
    }
    expect(hits).toBe(0);
  });
});
