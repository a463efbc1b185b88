/** The crew tests' day: 焊接件 (操作人数 2, 0.37) on 焊机 01, and three workers (test/crew/done-when.test.ts). */
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { workerClient } from '../clock/helpers.ts';

export const A = '13900000001';
export const B = '13900000002';
export const C = '13900000003';

/** A factory with 焊接件 (操作人数 2, 0.37) and the three workers' day on 2026-03-02, each until clock-out. */
export async function weldingDay(app: TestApp) {
  const manager = await app.login('13800000002', 'manager', '李经理');
  const admin = await app.login('13800000004', 'admin', '王管理');
  const w = {
    A: workerClient(app, await app.login(A, 'worker', '张三')),
    B: workerClient(app, await app.login(B, 'worker', '李四')),
    C: workerClient(app, await app.login(C, 'worker', '王五')),
  };
  const product = await app.request('POST', '/api/products', {
    token: manager,
    body: { projectNo: 'P-7', productName: '焊接件', deviceNo: '焊机 01', processName: '焊接', operatorCount: 2, standardCycleSeconds: 20, pieceRate: '0.37', effectiveFrom: '2026-03-01' },
  });
  expect(product.status).toBe(200);
  const other = await app.request('POST', '/api/products', {
    token: manager,
    body: { projectNo: 'P-7', productName: '支架', deviceNo: '焊机 02', processName: '焊接', operatorCount: 1, standardCycleSeconds: 20 },
  });
  expect(other.status).toBe(200);
  app.clock.set('2026-03-02T08:00:00+08:00');
  const a = await w.A.start('焊机 01');
  const c = await w.C.start('焊机 02');
  app.clock.set('2026-03-02T09:00:00+08:00');
  expect((await w.C.finish('焊机 02')).status).toBe(200);
  app.clock.set('2026-03-02T10:00:00+08:00');
  const b = await w.B.start('焊机 01');
  app.clock.set('2026-03-02T16:00:00+08:00');
  expect((await w.A.finish('焊机 01')).status).toBe(200);
  expect((await w.B.finish('焊机 01')).status).toBe(200);
  return { manager, admin, w, productId: product.body.product.id as number, sessions: { A: a.body.sessionId, B: b.body.sessionId, C: c.body.sessionId } };
}


/** What `weldingDay` gives: the managers' tokens, the workers' clients and the day's sessions. */
export type WeldingDay = Awaited<ReturnType<typeof weldingDay>>;

/**
 * A test file's service with the welding day on it: registers `beforeAll` (a fresh service whose clock starts at
 * 2026-03-01 08:00 +08:00, then `weldingDay`) and `afterAll` (closes it). The returned object's `app` and `day` are set
 * once `beforeAll` has run: read them inside the tests, never at the top of the file.
 */
export function useWeldingDay(): { app: TestApp; day: WeldingDay } {
  const t = {} as { app: TestApp; day: WeldingDay };
  beforeAll(async () => {
    t.app = await startTestApp({}, '2026-03-01T08:00:00+08:00');
    t.day = await weldingDay(t.app);
  });
  afterAll(() => t.app?.close());
  return t;
}
