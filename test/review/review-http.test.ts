/**
 * Review, break minutes and the audit trail over HTTP: access per role, 404/409/422 answers, the race of two
 * administrators, "my reviews" by date, and the audit log (and its rebuild from the events).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayProjection } from '../../src/projections/replay.ts';
import { auditLogProjection } from '../../src/projections/audit-log.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { line, submitReport, WORKER } from './fixtures.ts';

let app: TestApp;
let admin: string;
let admin2: string;
let manager: string;
let worker: string;
let candidateId: number;

const submit = (s: Parameters<typeof submitReport>[1] = {}) => submitReport(app.service.ctx, s).then((d) => d.reportId);
const approve = (id: string, body: unknown = {}, token = admin) => app.request('POST', `/api/reviews/${id}/approve`, { token, body });
const reject = (id: string, reason: unknown, token = admin) => app.request('POST', `/api/reviews/${id}/reject`, { token, body: { reason } });
const patchBreak = (id: string, body: unknown, token = manager) => app.request('PATCH', `/api/reports/${id}/break-minutes`, { token, body });
const audit = (id: string, token = manager) => app.request('GET', `/api/reports/${id}/audit-logs`, { token });
/** The report stream's events after the submission: type, payload and who (metadata), in order. */
const newEvents = async (id: string) =>
  (
    await app.service.ctx.db.pool.query(
      `SELECT event_type AS type, data, metadata->>'actorPhone' AS phone, metadata->>'actorName' AS name, metadata->>'role' AS role
         FROM events WHERE stream_id = $1 AND stream_version > 1 ORDER BY stream_version`,
      [`report-${id}`],
    )
  ).rows;

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-02T18:00:00+08:00');
  admin = await app.login('13900000001', 'admin', '审核员甲');
  admin2 = await app.login('13900000003', 'admin', '审核员丙');
  manager = await app.login('13900000002', 'manager', '经理乙');
  worker = await app.login(WORKER, 'worker', '张三');
  const p = await app.service.ctx.db.pool.query(
    `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     VALUES ('P9', '支架', 'D1', '折弯', 15.5, 1858), ('P8', '别的', 'D2', '折弯', 9, 3200) RETURNING id`,
  );
  candidateId = Number(p.rows[0].id);
});
afterAll(() => app?.close());

describe('access', () => {
  it('lets only administrators review, only managers change breaks, managers and administrators read audit logs', async () => {
    const id = await submit();
    expect((await approve(id, {}, worker)).status).toBe(403);
    expect((await approve(id, {}, manager)).status).toBe(403);
    expect((await reject(id, 'x', manager)).status).toBe(403);
    expect((await app.request('GET', '/api/reviews/pending', { token: manager })).status).toBe(403);
    expect((await app.request('GET', '/api/reviews/mine', { token: worker })).status).toBe(403);
    expect((await patchBreak(id, { breakMinutes: 10 }, admin)).status).toBe(403);
    expect((await patchBreak(id, { breakMinutes: 10 }, worker)).status).toBe(403);
    expect((await audit(id, worker)).status).toBe(403);
    expect((await audit(id, admin)).status).toBe(200);
    expect((await app.request('POST', `/api/reviews/${id}/approve`, { body: {} })).status).toBe(401);
  });
});

describe('approve and reject', () => {
  it('answers 404 for an unknown report or a malformed id', async () => {
    for (const id of ['6f1c1e9e-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const r = await approve(id);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('REPORT_NOT_FOUND');
      expect((await reject(id, '原因')).status).toBe(404);
      expect((await patchBreak(id, { breakMinutes: 1 })).status).toBe(404);
      expect((await audit(id)).status).toBe(404);
    }
  });

  it('approves once; a second decision is 409', async () => {
    const id = await submit();
    const r = await approve(id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ reportId: id, status: 'approved', corrected: false, breakMinutes: 60, effectiveSeconds: 8 * 3600 });
    expect(r.body.at).toBe('2026-03-02T18:00:00.000+08:00');
    for (const again of [await approve(id), await reject(id, '晚了')]) {
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('REPORT_ALREADY_REVIEWED');
    }
    expect(await newEvents(id)).toEqual([
      {
        type: 'ReportApproved',
        data: { reportId: id, employeePhone: WORKER, reportDate: '2026-03-02', workshopCode: null, teamCode: null, flags: [], at: '2026-03-02T10:00:00.000Z' },
        phone: '13900000001',
        name: '审核员甲',
        role: 'admin',
      },
    ]);
  });

  it('rejects with a reason; missing, blank or too long reasons are 422', async () => {
    const id = await submit();
    expect((await app.request('POST', `/api/reviews/${id}/reject`, { token: admin, body: {} })).status).toBe(422);
    expect((await reject(id, '  ')).body.error.code).toBe('INVALID_REASON');
    expect((await reject(id, '字'.repeat(201))).body.error.code).toBe('INVALID_REASON');
    const r = await reject(id, '数量不对，请重新报工');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'rejected', rejectReason: '数量不对，请重新报工' });
    expect((await patchBreak(id, { breakMinutes: 0 })).body.error.code).toBe('REPORT_REJECTED');
    expect(await newEvents(id)).toEqual([
      { type: 'ReportRejected', data: expect.objectContaining({ reportId: id, reason: '数量不对，请重新报工' }), phone: '13900000001', name: '审核员甲', role: 'admin' },
    ]);
  });

  it('counts a reason in characters, emoji included: 200 are taken (reject and break change), 201 are 422', async () => {
    const [a, b] = [await submit(), await submit()];
    expect((await reject(a, '😀'.repeat(201))).body.error.code).toBe('INVALID_REASON');
    const r = await reject(a, '😀'.repeat(200));
    expect([r.status, r.body.rejectReason]).toEqual([200, '😀'.repeat(200)]);
    expect((await approve(b)).status).toBe(200);
    expect((await patchBreak(b, { breakMinutes: 30, reason: '🕐'.repeat(201) })).body.error.code).toBe('INVALID_REASON');
    expect((await patchBreak(b, { breakMinutes: 30, reason: '🕐'.repeat(200) })).status).toBe(200);
  });

  it('validates corrected lines like a submission and accepts a candidate of the report’s devices', async () => {
    const id = await submit({ devices: ['D1'], lines: [line(901, 10, 2880, 10, 0)] });
    const bad = [
      [[], 'NO_LINES'],
      [[{ productId: 901, finishedQty: -3, defectiveQty: 0 }], 'INVALID_QUANTITY'],
      [[{ productId: 901, finishedQty: 3, defectiveQty: 1, outputQty: 3 }], 'OUTPUT_QTY_MISMATCH'],
      [[{ productId: candidateId + 1, finishedQty: 1, defectiveQty: 0 }], 'PRODUCT_NOT_ALLOWED'], // device D2
    ] as const;
    for (const [lines, code] of bad) {
      const r = await approve(id, { lines });
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe(code);
    }
    expect((await approve(id, { lines: [{ productId: 901, finishedQty: '3' }] })).status).toBe(422);
    expect(await newEvents(id)).toEqual([]); // refusals append nothing
    const ok = await approve(id, { lines: [{ productId: 901, finishedQty: 8, defectiveQty: 2 }, { productId: candidateId, finishedQty: 5, defectiveQty: 0, outputQty: 5 }] });
    expect(ok.status).toBe(200);
    expect(ok.body.lines[1]).toMatchObject({ productId: candidateId, projectNo: 'P9', productName: '支架', standardCycleSeconds: 15.5, standardWorkload: 1858, outputQty: 5 });
    const [approved] = await newEvents(id);
    expect(approved.data.correction).toEqual({ before: [line(901, 10, 2880, 10, 0)], after: ok.body.lines });
  });

  it('lets one of two administrators approving at once win; the other gets 409', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await submit();
      const results = await Promise.all([approve(id, {}, admin), approve(id, {}, admin2), reject(id, '同时操作', admin2)]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409, 409]);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('REPORT_ALREADY_REVIEWED');
      const logs = (await audit(id)).body.items.map((x: any) => x.action);
      expect(logs.filter((a: string) => a === 'approved' || a === 'rejected')).toHaveLength(1);
    }
  });
});

describe('break minutes', () => {
  it('changes pending and approved reports, refusing a negative effective time with the maximum', async () => {
    // 08:00–17:00: 540 minutes.
    const id = await submit();
    const r = await patchBreak(id, { breakMinutes: 45, reason: '午休只有 45 分钟' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'pending', breakMinutes: 45, effectiveSeconds: (540 - 45) * 60 });
    expect((await approve(id)).status).toBe(200);
    expect((await patchBreak(id, { breakMinutes: 540 })).body).toMatchObject({ status: 'approved', effectiveSeconds: 0 });
    const tooMuch = await patchBreak(id, { breakMinutes: 541 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error).toMatchObject({ code: 'BREAK_EXCEEDS_WORKING_TIME', details: { maxBreakMinutes: 540 } });
    expect((await patchBreak(id, { breakMinutes: -1 })).status).toBe(422);
    expect((await patchBreak(id, { breakMinutes: 2.5 })).status).toBe(422);
    expect((await patchBreak(id, {})).status).toBe(422);
    expect((await patchBreak(id, { breakMinutes: 540 })).status).toBe(200); // the same value: nothing to record
    const changes = (await newEvents(id)).filter((e) => e.type === 'BreakChanged');
    expect(changes.map((e) => [e.data.before, e.data.after, e.data.reason, e.name, e.role])).toEqual([
      [60, 45, '午休只有 45 分钟', '经理乙', 'manager'],
      [45, 540, undefined, '经理乙', 'manager'],
    ]);
  });
});

describe('audit trail', () => {
  it('keeps submitted, corrected (before/after per line), approved and break changed with who, role and when', async () => {
    const id = await submit({ lines: [line(901, 10, 2880, 100, 5), line(902, 12, 2400, 50, 0)] });
    app.clock.set('2026-03-02T19:00:00+08:00');
    await approve(id, { lines: [{ productId: 901, finishedQty: 98, defectiveQty: 7 }, { productId: candidateId, finishedQty: 3, defectiveQty: 0 }] });
    app.clock.set('2026-03-03T09:30:00+08:00');
    await patchBreak(id, { breakMinutes: 30, reason: '考勤更正' });
    const r = await audit(id);
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(6);
    const [submitted, c1, c2, c3, approved, changed] = r.body.items;
    expect(submitted).toMatchObject({ action: 'submitted', actorPhone: WORKER, actorName: '张三', role: 'worker', at: '2026-03-02T17:00:00.000+08:00' });
    expect(submitted.after.breakMinutes).toBe(60);
    // In the order of the corrected lines, removed lines last.
    expect(c1).toMatchObject({ action: 'corrected', productId: 901, before: { finishedQty: 100, defectiveQty: 5, outputQty: 105 }, after: { finishedQty: 98, defectiveQty: 7, outputQty: 105 } });
    expect(c2).toMatchObject({ action: 'corrected', productId: candidateId, before: null, after: { productName: '支架', finishedQty: 3 } });
    expect(c3).toMatchObject({ action: 'corrected', productId: 902, before: { finishedQty: 50 }, after: null });
    for (const x of [c1, c2, c3, approved]) {
      expect(x).toMatchObject({ actorPhone: '13900000001', actorName: '审核员甲', role: 'admin', at: '2026-03-02T19:00:00.000+08:00' });
    }
    expect(approved.action).toBe('approved');
    expect(changed).toMatchObject({
      action: 'break_changed',
      actorName: '经理乙',
      role: 'manager',
      at: '2026-03-03T09:30:00.000+08:00',
      before: { breakMinutes: 60 },
      after: { breakMinutes: 30 },
      reason: '考勤更正',
    });
  });

  it('rebuilds the same rows from the events', async () => {
    const pool = app.service.ctx.db.pool;
    const rows = async () => (await pool.query(`SELECT * FROM report_audit_logs ORDER BY report_id, stream_version, seq`)).rows;
    const before = await rows();
    expect(before.length).toBeGreaterThan(10);
    await replayProjection(pool, app.service.ctx.store, auditLogProjection);
    expect(await rows()).toEqual(before);
  });
});

describe('my reviews', () => {
  it('lists the reports this administrator decided, newest first, filtered by the local decision date', async () => {
    app.clock.set('2026-03-05T23:30:00+08:00'); // 15:30 UTC: still 03-05 in Shanghai
    const a = await submit();
    const b = await submit();
    await approve(a, {}, admin2);
    app.clock.set('2026-03-06T00:10:00+08:00'); // 03-05 16:10 UTC, but 03-06 locally
    await reject(b, '不清楚', admin2);
    const all = await app.request('GET', '/api/reviews/mine', { token: admin2 });
    expect(all.status).toBe(200);
    expect(all.body.items.slice(0, 2).map((x: any) => [x.reportId, x.status])).toEqual([
      [b, 'rejected'],
      [a, 'approved'],
    ]);
    expect(all.body.items[0]).toMatchObject({ reviewedBy: '13900000003', rejectReason: '不清楚', reviewedAt: '2026-03-06T00:10:00.000+08:00' });
    const day5 = await app.request('GET', '/api/reviews/mine?startDate=2026-03-05&endDate=2026-03-05', { token: admin2 });
    expect(day5.body.items.map((x: any) => x.reportId)).toEqual([a]);
    const day6 = await app.request('GET', '/api/reviews/mine?startDate=2026-03-06', { token: admin2 });
    expect(day6.body).toMatchObject({ total: 1, items: [{ reportId: b }] });
    const none = await app.request('GET', '/api/reviews/mine?startDate=2026-03-05&endDate=2026-03-06', { token: admin });
    expect(none.body.items.every((x: any) => x.reviewedBy === '13900000001')).toBe(true);
    expect((await app.request('GET', '/api/reviews/mine?startDate=2026-13-01', { token: admin2 })).status).toBe(422);
    expect((await app.request('GET', '/api/reviews/mine?startDate=2026-03-06&endDate=2026-03-05', { token: admin2 })).status).toBe(422);
  });
});

describe('API document', () => {
  it('documents every review, report-administration and dashboard endpoint with its errors', async () => {
    const r = await app.request('GET', '/api/openapi.json');
    expect(r.status).toBe(200);
    const paths = r.body.paths;
    expect(paths['/api/reviews/pending'].get.responses['200']).toBeDefined();
    expect(paths['/api/reviews/{reportId}/approve'].post.responses['409'].description).toContain('REPORT_ALREADY_REVIEWED');
    expect(paths['/api/reviews/{reportId}/reject'].post.requestBody).toBeDefined();
    expect(paths['/api/reviews/mine'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['startDate', 'endDate', 'page']));
    expect(paths['/api/reports/{reportId}/break-minutes'].patch.responses['422'].description).toContain('BREAK_EXCEEDS_WORKING_TIME');
    expect(paths['/api/reports/{reportId}/audit-logs'].get.responses['404']).toBeDefined();
    expect(paths['/api/dashboard/reports'].get.responses['422'].description).toContain('INVALID_DATE_RANGE');
    expect(Object.keys(paths['/api/dashboard/reports.xlsx'].get.responses['200'].content)).toEqual([
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
  });
});
