/**
 * New sessions' and reports' ids are time-ordered UUIDs (src/ids.ts): version 7, the instant in their first 48 bits,
 * so later ones sort after earlier ones (as text and as PostgreSQL's uuid), and still accepted wherever a UUID is.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { timeOrderedId } from '../../src/ids.ts';
import { startTestApp } from '../helpers/app.ts';
import { addProduct, MIN, workerClient } from '../clock/helpers.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('time-ordered ids', () => {
  it('are version 7 UUIDs carrying the instant in milliseconds', () => {
    const at = new Date('2026-03-02T08:00:00.123+08:00');
    const id = timeOrderedId(at);
    expect(id).toMatch(V7);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at.getTime());
    expect(z.uuid().safeParse(id).success).toBe(true);
  });

  it('sort by their instant, and differ within one millisecond', () => {
    const base = Date.parse('2026-03-02T00:00:00Z');
    const ids = [0, 1, 1000, 3_600_000, 86_400_000 * 400].map((ms) => timeOrderedId(new Date(base + ms)));
    expect([...ids].sort()).toEqual(ids);
    const same = new Set(Array.from({ length: 1000 }, () => timeOrderedId(new Date(base))));
    expect(same.size).toBe(1000);
  });

  it('a clock-in and a submission over HTTP get ids of the instant of the service clock', async () => {
    const app = await startTestApp({}, '2026-03-02T08:00:00+08:00');
    try {
      const worker = workerClient(app, await app.login('13800000011', 'worker', '张三'));
      const product = await addProduct(app, 'D1');
      const started = await worker.start('D1');
      expect(started.status).toBe(200);
      app.clock.advance(8 * 60 * MIN);
      expect((await worker.finish('D1')).status).toBe(200);
      const submitted = await worker.submit(started.body.sessionId, [{ productId: product, finishedQty: 10, defectiveQty: 0 }]);
      expect(submitted.status).toBe(201);
      const instant = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);
      expect(started.body.sessionId).toMatch(V7);
      expect(instant(started.body.sessionId)).toBe(Date.parse('2026-03-02T08:00:00+08:00'));
      expect(submitted.body.reportId).toMatch(V7);
      expect(instant(submitted.body.reportId)).toBe(Date.parse('2026-03-02T16:00:00+08:00'));
    } finally {
      await app.close();
    }
  });
});
