/**
 * Who counts what of a crew report beyond wages (domain/report-line.ts countedPieces), through HTTP, figures by hand:
 * A's report holds a crew line of 焊接件 (1,000 成品 + 100 不良, crew [A, B], weights 28,800 : 21,600) and a line of
 * his own of 打磨件 on the same device (50 成品 + 5 不良), approved with the own line corrected to 40 + 5:
 * - shares: 成品 571.43 → 571, 428.57 → 428 + the piece left = 429; 不良 57.14 → 57, 42.86 → 42 + 1 = 43;
 * - quality by worker: A 57 + 5 = 62, B 43 (not A 105, and never B counting A's own line);
 * - the dashboard: B's day holds B's share only (429 + 43), A's his share and his own line (571 + 40, 57 + 5);
 * - the quality and dashboard projections rebuilt from the events equal the ones built as they came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardProjection } from '../../src/projections/dashboard.ts';
import { qualityProjection } from '../../src/projections/quality.ts';
import { replayProjection } from '../../src/projections/replay.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { tablesOf } from '../helpers/test-projection.ts';
import { A, B, weldingDay } from './helpers.ts';

let app: TestApp;
let day: Awaited<ReturnType<typeof weldingDay>>;
let grinding = 0;
beforeAll(async () => {
  app = await startTestApp({}, '2026-03-01T08:00:00+08:00');
  app.clock.set('2026-03-01T08:00:00+08:00');
  day = await weldingDay(app);
  const p = await app.request('POST', '/api/products', {
    token: day.manager,
    body: { projectNo: 'P-7', productName: '打磨件', deviceNo: '焊机 01', processName: '打磨', operatorCount: 1, standardCycleSeconds: 10 },
  });
  expect(p.status).toBe(200);
  grinding = p.body.product.id;
  const r = await day.w.A.submit(day.sessions.A, [
    { productId: day.productId, finishedQty: 1000, defectiveQty: 100, crew: [A, B] },
    { productId: grinding, finishedQty: 50, defectiveQty: 5 },
  ]);
  expect(r.status).toBe(201);
  const approve = await app.request('POST', `/api/reviews/${r.body.reportId}/approve`, {
    token: day.admin,
    body: { lines: [{ productId: day.productId, finishedQty: 1000, defectiveQty: 100 }, { productId: grinding, finishedQty: 40, defectiveQty: 5 }] },
  });
  expect(approve.status).toBe(200);
  expect(approve.body.lines[0].shares.map((s: any) => [s.phone, s.finishedQty, s.defectiveQty])).toEqual([
    [A, 571, 57],
    [B, 429, 43],
  ]);
  await app.catchUpAll();
});
afterAll(() => app?.close());

describe("a crew report's pieces by person", () => {
  it('quality by worker: A 62 (his share and his own line), B 43 (his share only)', async () => {
    const r = await app.request('GET', '/api/quality/defects?startDate=2026-03-01&endDate=2026-03-31&groupBy=worker', { token: day.manager });
    expect(r.status).toBe(200);
    expect(r.body.items.map((i: any) => [i.key, i.label, i.defectiveQty])).toEqual([
      [A, '张三', 62],
      [B, '李四', 43],
    ]);
    // The whole month reads the monthly rows; a part of it reads the days: the same figures.
    const part = await app.request('GET', '/api/quality/defects?startDate=2026-03-02&endDate=2026-03-02&groupBy=worker', { token: day.manager });
    expect(part.body.items.map((i: any) => [i.key, i.defectiveQty])).toEqual([
      [A, 62],
      [B, 43],
    ]);
  });

  it("the dashboard's days: B holds 429 + 43, A 611 + 62", async () => {
    const t = await tablesOf(app.service.ctx.db.pool, dashboardProjection);
    const dayOf = (phone: string) => t.dashboard_daily.filter((r: any) => r.employee_phone === phone).map((r: any) => [Number(r.finished_qty), Number(r.defective_qty)]);
    expect(dayOf(B)).toEqual([[429, 43]]);
    expect(dayOf(A)).toEqual([[611, 62]]);
  });

  it('replays equal the projections built as the events came', async () => {
    const pool = app.service.ctx.db.pool;
    for (const projection of [qualityProjection, dashboardProjection]) {
      const incremental = await tablesOf(pool, projection);
      await replayProjection(pool, app.service.ctx.store, projection, 2);
      expect(await tablesOf(pool, projection)).toEqual(incremental);
    }
  });
});
