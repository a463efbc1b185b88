/**
 * Crew work (班组报工) worked out by hand through HTTP (never by the code under test):
 *
 *   product  焊接件 on 焊机 01, 操作人数 2, piece rate 0.37
 *   A        焊机 01 08:00–16:00           in A's window: 8 h  = 28,800 s
 *   B        焊机 01 10:00–16:00           in A's window: 6 h  = 21,600 s
 *   C        焊机 02 08:00–09:00           never on 焊机 01
 *   A submits 1,000 成品 with crew [A, B]:
 *     pieces  A 1,000 × 28,800 / 50,400 = 571.43 → 571 (remainder 0.43)
 *             B 1,000 × 21,600 / 50,400 = 428.57 → 428 (remainder 0.57), the one piece left → B 429
 *     amount  1,000 × 0.37 = 370.00 = 37,000 fen; A 21,142.86 → 21,142 (0.86), B 15,857.14 → 15,857 (0.14);
 *             the fen left → A: 211.43 + 158.57 = 370.00
 *   adding C: refused (NOT_IN_CREW); B's own 焊接件 line that day: refused (CREW_LINE_REPORTED naming A's report).
 *   CREW_SPLIT=coefficient, B's coefficient 1.20: weights 28,800 and 21,600 × 1.20 = 25,920.
 */
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { A, B, C, weldingDay } from './helpers.ts';

describe('crew work: the done-when figures (CREW_SPLIT=presence)', () => {
  let app: TestApp;
  let day: Awaited<ReturnType<typeof weldingDay>>;
  let reportId: string;
  beforeAll(async () => {
    app = await startTestApp({ LOG_LEVEL: 'error' }, '2026-03-01T08:00:00+08:00');
    day = await weldingDay(app);
  });
  afterAll(() => app?.close());

  it("A's draft proposes B with 21,600 s on 焊机 01 (C was never on it)", async () => {
    const d = await day.w.A.draft(day.sessions.A);
    expect(d.status).toBe(200);
    const weld = d.body.candidates.find((x: any) => x.productId === day.productId);
    expect(weld.crew).toEqual([
      { phone: A, name: '张三', secondsOnDevice: 28_800, coefficient: 1, clockInAt: '2026-03-02T00:00:00.000Z' },
      { phone: B, name: '李四', secondsOnDevice: 21_600, coefficient: 1, clockInAt: '2026-03-02T02:00:00.000Z' },
    ]);
  });

  it('adding C is refused naming C and the times', async () => {
    const r = await day.w.A.submit(day.sessions.A, [{ productId: day.productId, finishedQty: 1000, defectiveQty: 0, crew: [A, B, C] }]);
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'NOT_IN_CREW', details: { line: 1, phone: C, name: '王五', deviceNo: '焊机 01' } });
    expect(r.body.error.message).toBe('第 1 行：王五 在 08:00–16:00 没有在设备 焊机 01 上班，不能加入班组报工');
  });

  it('A submits 1,000 成品 with crew [A, B]: weights 28,800 and 21,600 s, A 571 and B 429 pieces', async () => {
    const r = await day.w.A.submit(day.sessions.A, [{ productId: day.productId, finishedQty: 1000, defectiveQty: 0, crew: [A, B] }]);
    expect(r.status).toBe(201);
    reportId = r.body.reportId;
    expect(r.body.crewLines).toHaveLength(1);
    expect(r.body.crewLines[0].shares.map((s: any) => [s.phone, s.name, s.seconds, s.coefficient, s.weight, s.finishedQty, s.defectiveQty])).toEqual([
      [A, '张三', 28_800, 1, 28_800, 571, 0],
      [B, '李四', 21_600, 1, 21_600, 429, 0],
    ]);
  });

  it('the reviewer sees each share with its amount before approving: A 211.43, B 158.57 (the pending queue and the report)', async () => {
    const pending = (await app.request('GET', '/api/reviews/pending', { token: day.admin })).body;
    const one = (await app.request('GET', `/api/reports/${reportId}`, { token: day.admin })).body;
    for (const r of [pending.items[0], one]) {
      expect(r.reportId).toBe(reportId);
      expect(r.lines[0].shares.map((s: any) => [s.phone, s.finishedQty, s.amount])).toEqual([
        [A, 571, '211.43'],
        [B, 429, '158.57'],
      ]);
    }
  });

  it("B's own report of 焊接件 on 焊机 01 that day is refused naming A's report; B's draft says so", async () => {
    const d = await day.w.B.draft(day.sessions.B);
    const weld = d.body.candidates.find((x: any) => x.productId === day.productId);
    expect(weld.crewReportedBy).toEqual({ reportId, phone: A, name: '张三' });
    const r = await day.w.B.submit(day.sessions.B, [{ productId: day.productId, finishedQty: 400, defectiveQty: 0 }]);
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'CREW_LINE_REPORTED', details: { line: 1, productId: day.productId, reportId, submitter: A, submitterName: '张三' } });
  });

  it('after one approval each one\'s wages show their share: A 571 pieces 211.43, B 429 pieces 158.57, the crew line 370.00 beside it', async () => {
    expect((await app.request('POST', `/api/reviews/${reportId}/approve`, { token: day.admin, body: {} })).status).toBe(200);
    await app.catchUpAll();
    const wages = async (phone: string) => (await app.request('GET', `/api/wages/${phone}?month=2026-03`, { token: day.manager })).body;
    const [a, b] = [await wages(A), await wages(B)];
    expect([a.amount, a.reports[0].lines[0].finishedQty, a.reports[0].lines[0].amount]).toEqual(['211.43', 571, '211.43']);
    expect([b.amount, b.reports[0].reportId, b.reports[0].lines[0].finishedQty, b.reports[0].lines[0].amount]).toEqual(['158.57', reportId, 429, '158.57']);
    expect(b.reports[0].lines[0].crew).toEqual({
      submitter: A,
      finishedQty: 1000,
      defectiveQty: 0,
      amount: '370.00',
      shares: [
        { phone: A, name: '张三', weight: 28_800, finishedQty: 571, defectiveQty: 0, amount: '211.43' },
        { phone: B, name: '李四', weight: 21_600, finishedQty: 429, defectiveQty: 0, amount: '158.57' },
      ],
    });
    const mine = await day.w.B.mine();
    expect(mine.body.items).toHaveLength(1);
    expect(mine.body.items[0]).toMatchObject({ reportId, status: 'approved', submittedBy: { phone: A, name: '张三' } });
    expect(mine.body.items[0].lines[0].shares.find((x: any) => x.phone === B)).toMatchObject({ finishedQty: 429, weight: 21_600 });
    const dash = (await app.request('GET', '/api/dashboard/reports?startDate=2026-03-02&endDate=2026-03-02', { token: day.manager })).body;
    // B's day holds B's share (429) and no report of B's own yet: B's time is B's own report's.
    expect(dash.items.map((r: any) => [r.employeePhone, r.reportCount, r.finishedQty, r.reportedQty])).toEqual([
      [A, 1, 571, 571],
      [B, 0, 429, 429],
    ]);
    // The payroll workbook: each member's share is a 明细 row marked 班组报工 with who submitted it.
    const res = await fetch(`${app.url}/api/wages.xlsx?month=2026-03`, { headers: { authorization: `Bearer ${day.manager}` } });
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(XLSX.read(Buffer.from(await res.arrayBuffer())).Sheets['明细']);
    expect(rows.map((r) => [r.手机号, r.班组报工, r.成品数量, r.金额])).toEqual([
      [A, '是（张三 提交）', 571, 211.43],
      [B, '是（张三 提交）', 429, 158.57],
      ['合计', undefined, 1000, 370],
    ]);
    const summary = (await app.request('GET', '/api/wages?month=2026-03', { token: day.manager })).body;
    expect(summary.totals).toMatchObject({ reports: 1, finishedQty: 1000, amount: '370.00' });
    expect(summary.items.map((w: any) => [w.employeePhone, w.reports, w.finishedQty, w.amount])).toEqual([
      [A, 1, 571, '211.43'],
      [B, 1, 429, '158.57'],
    ]);
  });
});

describe('crew work: CREW_SPLIT=coefficient with B at 1.20', () => {
  let app: TestApp;
  afterAll(() => app?.close());

  it('weights 28,800 and 25,920', async () => {
    app = await startTestApp({ CREW_SPLIT: 'coefficient' }, '2026-03-01T08:00:00+08:00');
    const manager = await app.login('13800000002', 'manager', '李经理');
    await app.login('13800000011', 'worker', '赵班长');
    expect((await app.request('POST', '/api/workshops', { token: manager, body: { code: 'H1', name: '焊接车间' } })).status).toBe(201);
    expect((await app.request('POST', '/api/teams', { token: manager, body: { code: 'H1-A', name: '焊接一班', workshopCode: 'H1', leaders: ['13800000011'] } })).status).toBe(201);
    const day = await weldingDay(app);
    expect((await app.request('POST', '/api/memberships', { token: manager, body: { phone: B, teamCode: 'H1-A', validFrom: '2026-03-01', coefficient: 1.2 } })).status).toBe(200);
    const d = await day.w.A.draft(day.sessions.A);
    expect(d.body.candidates.find((x: any) => x.productId === day.productId).crew.map((m: any) => m.coefficient)).toEqual([1, 1.2]);
    const r = await day.w.A.submit(day.sessions.A, [{ productId: day.productId, finishedQty: 1000, defectiveQty: 0, crew: [A, B] }]);
    expect(r.status).toBe(201);
    // 1,000 × 28,800 / 54,720 = 526.32 → 526; 1,000 × 25,920 / 54,720 = 473.68 → 473, the piece left (0.68 > 0.32) → 474
    expect(r.body.crewLines[0].shares.map((s: any) => [s.phone, s.coefficient, s.weight, s.finishedQty])).toEqual([
      [A, 1, 28_800, 526],
      [B, 1.2, 25_920, 474],
    ]);
  });
});

