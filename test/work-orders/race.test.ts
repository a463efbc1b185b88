/**
 * A cancel racing a submission that names the order (commands/facts.ts: the submission's guard takes the order's
 * lock shared and checks its stream head, the cancel's takes it exclusive and checks no report names it): never both.
 * On PostgreSQL (TEST_DATABASE_URL) the two run on separate connections at the same moment; on PGlite one after the
 * other, in either order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, MIN, workerClient } from '../clock/helpers.ts';

const N = 8;
let app: TestApp;
let manager: string;
let product = 0;
const sessions: { token: string; sessionId: string }[] = [];

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-02T08:00:00+08:00');
  manager = await app.login('13800000002', 'manager', '李经理');
  product = await addProduct(app, 'D1', { project: 'P1', name: '支架', process: '冲压', cycle: 1 });
  for (let i = 0; i < N; i++) {
    const r = await app.request('POST', '/api/work-orders', { token: manager, body: { orderNo: `WO-R${i}`, projectNo: 'P1', productName: '支架', plannedQty: 100, operations: ['冲压'] } });
    expect(r.status).toBe(201);
    const token = await app.login(`1370000010${i}`, 'worker', `工人${i}`);
    const started = await workerClient(app, token).start('D1');
    sessions.push({ token, sessionId: started.body.sessionId });
  }
  app.clock.advance(8 * 60 * MIN);
  for (const s of sessions) expect((await workerClient(app, s.token).finish('D1')).status).toBe(200);
});
afterAll(() => app?.close());

describe('a cancel racing a submission naming the order', () => {
  it('never both: either the report names a live order, or the order was cancelled and the line refused', async () => {
    const outcomes = await Promise.all(
      sessions.map(async (s, i) => {
        const submit = workerClient(app, s.token).submit(s.sessionId, [{ productId: product, finishedQty: 10, defectiveQty: 0, workOrderNo: `WO-R${i}` }]);
        const cancel = app.request('POST', `/api/work-orders/WO-R${i}/cancel`, { token: manager });
        const [a, b] = i % 2 ? [await cancel, await submit] : await Promise.all([submit, cancel]).then(([x, y]) => [y, x]);
        return { cancel: a, submit: b };
      }),
    );
    for (const [i, o] of outcomes.entries()) {
      const pair = [o.submit.status, o.cancel.status];
      expect([[201, 409], [422, 200]], `WO-R${i}: ${JSON.stringify([o.submit.body, o.cancel.body])}`).toContainEqual(pair);
      if (o.cancel.status === 409) expect(o.cancel.body.error.code).toBe('WORK_ORDER_REPORTED');
      if (o.submit.status === 422) expect(o.submit.body.error.code).toBe('WORK_ORDER_NOT_OPEN');
      const order = (await app.request('GET', `/api/work-orders/WO-R${i}`, { token: manager })).body;
      expect(order.status).toBe(o.cancel.status === 200 ? 'cancelled' : 'in_progress');
    }
  });
});
