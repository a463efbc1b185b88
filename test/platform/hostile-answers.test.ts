/**
 * An answer cut mid-body, a connection reset mid-answer and
 * an answer larger than any the platform gives are failures of that call (PlatformError after the retries),
 * never an unhandled stream error, and the client reads no more than MAX_ANSWER_BYTES of an answer.
 */
import { createServer, type Server } from 'node:http';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.ts';
import { MAX_ANSWER_BYTES, WxPlatformClient } from '../../src/platform/client.ts';
import { PlatformError } from '../../src/platform/types.ts';

let server: Server;
let mode: 'cut' | 'reset' | 'huge' = 'cut';
let hugeBytesSent = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/cgi-bin/stable_token')) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ access_token: 'tok', expires_in: 7200 }));
      return;
    }
    if (mode === 'cut') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '100000' });
      res.write(Buffer.alloc(1000, 0x89));
      setTimeout(() => res.destroy(), 10);
    } else if (mode === 'reset') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"errcode": 0, "phone_info": {');
      setTimeout(() => req.socket.resetAndDestroy(), 10);
    } else {
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024, 0x89);
      const pump = () => {
        while (hugeBytesSent < 200 * 1024 * 1024 && !res.destroyed) {
          hugeBytesSent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => undefined);
      pump();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = () =>
  new WxPlatformClient({
    appId: 'wx-test',
    secret: 'secret',
    apiBase: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    clock: new ManualClock('2026-03-02T08:00:00+08:00'),
    log: pino({ level: 'silent' }),
    timeZone: 'Asia/Shanghai',
    retryDelaysMs: [1],
  });

it.each(['cut', 'reset'] as const)('an answer %s mid-body: a PlatformError of that call', async (m) => {
  mode = m;
  const err = await client().getUnlimitedQrCode({ scene: 'a=1', page: 'pages/clock/clock' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(PlatformError);
  const phone = await client().getPhoneNumber('code').catch((e: unknown) => e);
  expect(phone).toBeInstanceOf(PlatformError);
});

it('an answer larger than any the platform gives: refused after MAX_ANSWER_BYTES, not read to its end', async () => {
  mode = 'huge';
  hugeBytesSent = 0;
  const err = await client().getUnlimitedQrCode({ scene: 'a=1', page: 'pages/clock/clock' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(PlatformError);
  expect(hugeBytesSent).toBeLessThan(2 * 60 * 1024 * 1024);
  expect(MAX_ANSWER_BYTES).toBeLessThan(20 * 1024 * 1024);
});
