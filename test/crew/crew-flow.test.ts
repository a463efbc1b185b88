/**
 * Crew work beyond the done-when figures, through HTTP, figures by hand:
 * - a member who reported first is left out of the later crew line (the draft says why), and the line is then the
 *   submitter's alone;
 * - a reviewer's correction computes the shares again from the recorded weights, recorded before → after in the
 *   approval (the audit): 900 成品 on 28,800 : 21,600 → 514.29 → 514, 385.71 → 385 + the piece left = 386;
 * - a later rate reprices the crew line whole and splits it again: 900 × 0.40 = 360.00 = 36,000 fen →
 *   A 20,571.43 → 20,571, B 15,428.57 → 15,428 + the fen left = 15,429: 205.71 + 154.29 = 360.00;
 * - the close counts the crew line once and its member among the workers, and the wage and dashboard projections
 *   rebuilt from the events equal the ones built as they came.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { replayProjection } from '../../src/projections/replay.ts';
import { wagesProjection } from '../../src/projections/wages.ts';
import { dashboardProjection } from '../../src/projections/dashboard.ts';
import { tablesOf } from '../helpers/test-projection.ts';
import { A, B, useWeldingDay } from './helpers.ts';

const t = useWeldingDay();

const wages = async (phone: string) => {
  await t.app.catchUpAll();
  return (await t.app.request('GET', `/api/wages/${phone}?month=2026-03`, { token: t.day.manager })).body;
};

describe('a member who reported first', () => {
  let bReport: string;
  it("B reports 焊接件 first; A's draft leaves B out and says why; A's crew line then counts A alone", async () => {
    const b = await t.day.w.B.submit(t.day.sessions.B, [{ productId: t.day.productId, finishedQty: 400, defectiveQty: 0 }]);
    expect(b.status).toBe(201);
    bReport = b.body.reportId;
    const d = await t.day.w.A.draft(t.day.sessions.A);
    const weld = d.body.candidates.find((x: any) => x.productId === t.day.productId);
    expect(weld.crew.map((m: any) => m.phone)).toEqual([A]);
    expect(weld.crewLeftOut).toEqual([{ phone: B, name: '李四', reportId: bReport }]);
    const a = await t.day.w.A.submit(t.day.sessions.A, [{ productId: t.day.productId, finishedQty: 600, defectiveQty: 0, crew: [A, B] }]);
    expect(a.status).toBe(201);
    expect(a.body.crewLines).toBeUndefined();
  });
});

describe('a correction, a later rate, the close', () => {
  let reportId: string;
  beforeAll(async () => {
    t.app.clock.set('2026-03-03T08:00:00+08:00');
    const a = await t.day.w.A.start('焊机 01');
    t.app.clock.set('2026-03-03T10:00:00+08:00');
    const b = await t.day.w.B.start('焊机 01');
    t.app.clock.set('2026-03-03T16:00:00+08:00');
    await t.day.w.A.finish('焊机 01');
    await t.day.w.B.finish('焊机 01');
    const r = await t.day.w.A.submit(a.body.sessionId, [{ productId: t.day.productId, finishedQty: 1000, defectiveQty: 0, crew: [A, B] }]);
    expect(r.status).toBe(201);
    reportId = r.body.reportId;
    expect((await t.day.w.B.submit(b.body.sessionId, [{ productId: t.day.productId, finishedQty: 1, defectiveQty: 0 }])).body.error.code).toBe('CREW_LINE_REPORTED');
  });

  it('a correction to 900 成品 computes the shares again (514 and 386), recorded before → after', async () => {
    const r = await t.app.request('POST', `/api/reviews/${reportId}/approve`, { token: t.day.admin, body: { lines: [{ productId: t.day.productId, finishedQty: 900, defectiveQty: 0 }] } });
    expect(r.status).toBe(200);
    expect(r.body.lines[0].shares.map((s: any) => [s.phone, s.weight, s.finishedQty])).toEqual([
      [A, 28_800, 514],
      [B, 21_600, 386],
    ]);
    const approved = (await t.app.service.ctx.store.readStream(t.app.service.ctx.db.pool, `report-${reportId}`, 1)).find((e) => e.type === 'ReportApproved')!;
    const correction = (approved.data as any).correction;
    expect(correction.before[0].shares.map((s: any) => s.finishedQty)).toEqual([571, 429]);
    expect(correction.after[0].shares.map((s: any) => s.finishedQty)).toEqual([514, 386]);
    const b = await wages(B);
    const line = b.reports.find((x: any) => x.reportId === reportId).lines[0];
    // 900 × 0.37 = 333.00 = 33,300 fen: A 19,028.57 → 19,028 (0.57), B 14,271.43 → 14,271 (0.43): the fen left → A
    expect([line.finishedQty, line.amount, line.crew.amount, line.crew.shares.map((s: any) => s.amount)]).toEqual([386, '142.71', '333.00', ['190.29', '142.71']]);
  });

  it('a later rate prices the crew line whole again and splits it again: 205.71 and 154.29', async () => {
    const rate = await t.app.request('POST', `/api/products/${t.day.productId}/rates`, { token: t.day.manager, body: { pieceRate: '0.40', defectRate: '0', effectiveFrom: '2026-03-03' } });
    expect(rate.status).toBe(201);
    const [a, b] = [await wages(A), await wages(B)];
    const lineOf = (s: any) => s.reports.find((x: any) => x.reportId === reportId).lines[0];
    expect([lineOf(a).amount, lineOf(b).amount, lineOf(b).crew.amount]).toEqual(['205.71', '154.29', '360.00']);
  });

  it('the close counts the crew line once and B among the workers; a replay rebuilds the wages equal', async () => {
    // The reports of 03-02 (A's 600 and B's own 400, at 0.37) are pending: approve them so the month can close.
    const pending = (await t.app.request('GET', '/api/reviews/pending', { token: t.day.admin })).body.items.map((r: any) => r.reportId);
    for (const id of pending) {
      const approve = await t.app.request('POST', `/api/reviews/${id}/approve`, { token: t.day.admin, body: {} });
      expect(approve.status).toBe(200);
    }
    t.app.clock.set('2026-04-01T09:00:00+08:00');
    const closed = await t.app.request('POST', '/api/periods/2026-03/close', { token: t.day.manager, body: {} });
    expect(closed.status).toBe(200);
    // 03-02: A 600 × 0.37 = 222.00, B 400 × 0.37 = 148.00; 03-03: 900 × 0.40 = 360.00 → 730.00, 2 workers
    expect([closed.body.amount, closed.body.workers]).toEqual(['730.00', 2]);
    const pool = t.app.service.ctx.db.pool;
    await t.app.catchUpAll();
    const incremental = await tablesOf(pool, wagesProjection);
    await replayProjection(pool, t.app.service.ctx.store, wagesProjection, 3);
    expect(await tablesOf(pool, wagesProjection)).toEqual(incremental);
    // The dashboard too: B's day of 03-03 holds B's corrected share, 386.
    const dashboard = await tablesOf(pool, dashboardProjection);
    expect(dashboard.dashboard_daily.filter((r: any) => r.employee_phone === B).map((r: any) => Number(r.finished_qty)).sort((x: number, y: number) => x - y)).toEqual([386, 400]);
    await replayProjection(pool, t.app.service.ctx.store, dashboardProjection, 3);
    expect(await tablesOf(pool, dashboardProjection)).toEqual(dashboard);
  });
});
