/**
 * A multipart upload cut short never ends the process. busboy's part streams report a body
 * that ends before its closing boundary ("Unexpected end of form") as an `error` event; every one of them (the
 * file read, and parts that are skipped) is listened to, and the request answers 400 MALFORMED_UPLOAD. A client
 * that drops the connection mid-upload gets no answer, and the service goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { multipart, rawRequest } from '../helpers/raw-http.ts';
import { connect } from 'node:net';

let app: TestApp;
let token: string;
beforeAll(async () => {
  app = await startTestApp();
  token = await app.login('13900000014', 'admin');
});
afterAll(() => app.close());

const post = (path: string, contentType: string, body: Buffer) =>
  rawRequest(app.service.port, `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${contentType}`, body);

async function expectHealthy(): Promise<void> {
  const h = await app.request('GET', '/api/health');
  expect(h.status).toBe(200);
}

describe.each(['/api/products/import', '/api/people/import'])('%s', (path) => {
  it('a file part without its closing boundary: 400 MALFORMED_UPLOAD, and the service goes on', async () => {
    const { contentType, body } = multipart('file', 'list.xlsx', Buffer.from('PK\x03\x04 half a workbook'), { close: false });
    const r = await post(path, contentType, body);
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json.error.code).toBe('MALFORMED_UPLOAD');
    await expectHealthy();
  });

  it('a skipped part (another field) cut short: 400 MALFORMED_UPLOAD', async () => {
    const { contentType, body } = multipart('other', 'x.bin', Buffer.alloc(1000, 1), { close: false });
    const r = await post(path, contentType, body);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('MALFORMED_UPLOAD');
    await expectHealthy();
  });

  it('a client that drops the connection mid-upload: no answer, the service goes on', async () => {
    const { contentType, body } = multipart('file', 'list.xlsx', Buffer.alloc(200_000, 7));
    await new Promise<void>((resolve) => {
      const s = connect(app.service.port, '127.0.0.1', () => {
        s.write(
          `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        s.write(body.subarray(0, 100_000), () => setTimeout(() => s.destroy(), 50));
      });
      s.on('error', () => {});
      s.on('close', () => resolve());
    });
    await new Promise((r) => setTimeout(r, 100));
    await expectHealthy();
  });
});
