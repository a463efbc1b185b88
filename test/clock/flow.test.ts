/**
 * The worker's whole flow over HTTP on the real database: the label sequence across the window
 * edge, repeats, conflicts, device numbers with spaces and Chinese, device keys, ownership, validation, and
 * the report date at midnight in Asia/Shanghai while the process runs in UTC (vitest sets TZ=UTC).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceKeyOf } from '../../src/devices/device.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, MIN, workerClient } from './helpers.ts';

let app: TestApp;
const ISO_SHANGHAI = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+08:00$/;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

async function eventsOf(streamId: string): Promise<string[]> {
  const r = await app.service.ctx.db.pool.query(`SELECT event_type FROM events WHERE stream_id = $1 ORDER BY stream_version`, [streamId]);
  return r.rows.map((row) => row.event_type);
}

describe('the full label sequence across the window edge', () => {
  it('开始上班 → 换设备 → 下班报工 → 继续报工 (29:59) → 重新报工 (30:01) → submit → 开始上班', async () => {
    const phone = '13800000101';
    const w = workerClient(app, await app.login(phone, 'worker'));
    const A = 'A-01';
    const B = '冲床 2号';
    const pA = await addProduct(app, A, { name: '支架', cycle: 12.5, workload: 2304 });
    const pB = await addProduct(app, B, { name: '底板', cycle: 30, workload: 960 });
    app.clock.set('2026-03-02T08:00:00+08:00');

    expect((await w.state(A)).body).toEqual({ label: '开始上班', deviceNo: A });
    const started = await w.start(A);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ clockInAt: '2026-03-02T08:00:00.000+08:00', devices: [A], label: '下班报工' });
    const sessionId = started.body.sessionId;

    app.clock.advance(60 * MIN);
    expect((await w.state(B)).body).toEqual({ label: '换设备', deviceNo: B, sessionId, clockInAt: '2026-03-02T08:00:00.000+08:00' });
    expect((await w.state(A)).body).toEqual({ label: '下班报工', deviceNo: A, sessionId, clockInAt: '2026-03-02T08:00:00.000+08:00' });
    const sw = await w.switchDevice(B);
    expect(sw.status).toBe(200);
    expect(sw.body).toMatchObject({ sessionId, devices: [A, B], label: '下班报工' });
    expect((await w.state(B)).body.label).toBe('下班报工');

    app.clock.set('2026-03-02T17:00:00+08:00');
    const fin = await w.finish(B);
    expect(fin.status).toBe(200);
    expect(fin.body).toMatchObject({
      sessionId,
      clockOutAt: '2026-03-02T17:00:00.000+08:00',
      expiresAt: '2026-03-02T17:30:00.000+08:00',
      label: '继续报工',
    });

    app.clock.set('2026-03-02T17:29:59+08:00');
    expect((await w.state(A)).body).toEqual({ label: '继续报工', deviceNo: A, sessionId, clockInAt: '2026-03-02T08:00:00.000+08:00', expiresAt: '2026-03-02T17:30:00.000+08:00' });
    const draft = await w.draft(sessionId);
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({
      sessionId,
      clockInAt: '2026-03-02T08:00:00.000+08:00',
      clockOutAt: '2026-03-02T17:00:00.000+08:00',
      breakMinutes: 60,
      devices: [A, B],
      expiresAt: '2026-03-02T17:30:00.000+08:00',
    });
    expect(draft.body.candidates.map((c: any) => c.productId)).toEqual([pA, pB]);
    expect(draft.body.candidates[1]).toEqual({
      productId: pB,
      projectNo: 'P-100',
      productName: '底板',
      deviceNo: B,
      processName: '冲压',
      standardCycleSeconds: 30,
      standardWorkload: 960,
      // no open work order of the product
      workOrders: [],
    });

    app.clock.set('2026-03-02T17:30:01+08:00');
    expect((await w.state(A)).body).toEqual({ label: '重新报工', deviceNo: A, sessionId, clockInAt: '2026-03-02T08:00:00.000+08:00', expiresAt: '2026-03-02T17:30:00.000+08:00' });
    const lateDraft = await w.draft(sessionId);
    expect(lateDraft.status).toBe(409);
    expect(lateDraft.body.error).toMatchObject({ code: 'REPORT_WINDOW_EXPIRED', details: { label: '重新报工', sessionId } });
    expect(lateDraft.body.error.message).toContain('重新报工');
    const lateSubmit = await w.submit(sessionId, [{ productId: pA, finishedQty: 1, defectiveQty: 0 }]);
    expect(lateSubmit.status).toBe(409);
    expect(lateSubmit.body.error.code).toBe('REPORT_WINDOW_EXPIRED');

    app.clock.set('2026-03-02T18:00:00+08:00');
    const reopened = await w.finish(A);
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ sessionId, clockOutAt: '2026-03-02T18:00:00.000+08:00', expiresAt: '2026-03-02T18:30:00.000+08:00' });
    expect((await w.state(A)).body.label).toBe('继续报工');

    app.clock.set('2026-03-02T18:29:59+08:00');
    const submitted = await w.submit(sessionId, [
      { productId: pA, finishedQty: 2000, defectiveQty: 12 },
      { productId: pB, finishedQty: 300, defectiveQty: 0, outputQty: 300 },
    ]);
    expect(submitted.status).toBe(201);
    expect(submitted.body).toEqual({ reportId: expect.any(String), reportDate: '2026-03-02', status: 'pending' });
    expect((await w.state(A)).body).toEqual({ label: '开始上班', deviceNo: A });
    const draftAfter = await w.draft(sessionId);
    expect([draftAfter.status, draftAfter.body.error.code]).toEqual([409, 'REPORT_ALREADY_SUBMITTED']);

    const row = (await app.service.ctx.db.pool.query(`SELECT * FROM reports WHERE report_id = $1`, [submitted.body.reportId])).rows[0];
    expect(row.session_id).toBe(sessionId);
    expect(row.clock_out_at.toISOString()).toBe('2026-03-02T10:00:00.000Z');
    expect(row.lines.map((l: any) => l.outputQty)).toEqual([2012, 300]);

    app.clock.advance(MIN);
    const next = await w.start(A);
    expect(next.status).toBe(200);
    expect(next.body.sessionId).not.toBe(sessionId);
    expect(await eventsOf(`worker-${phone}`)).toEqual(['ClockedIn', 'DeviceSwitched', 'ClockedOut', 'ClockedOut', 'SessionReported', 'ClockedIn']);
    expect(await eventsOf(`report-${submitted.body.reportId}`)).toEqual(['ReportSubmitted']);
  });
});

describe('repeats and conflicts', () => {
  it('repeated start, switch and finish answer as the first did and append nothing', async () => {
    const phone = '13800000102';
    const w = workerClient(app, await app.login(phone, 'worker'));
    await addProduct(app, 'R-1');
    await addProduct(app, 'R-2');
    app.clock.set('2026-03-03T08:00:00+08:00');
    const a = await w.start('R-1');
    app.clock.advance(2000);
    const b = await w.start('R-1');
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    const s1 = await w.switchDevice('R-2');
    const s2 = await w.switchDevice('R-2');
    expect(s2.body).toEqual(s1.body);
    const f1 = await w.finish('R-2');
    app.clock.advance(5 * MIN);
    const f2 = await w.finish('R-1');
    expect(f2.status).toBe(200);
    expect(f2.body).toEqual(f1.body);
    expect(await eventsOf(`worker-${phone}`)).toEqual(['ClockedIn', 'DeviceSwitched', 'ClockedOut']);
  });

  it('an operation that does not fit answers 409 CLOCK_STATE_CONFLICT with the label that does', async () => {
    const w = workerClient(app, await app.login('13800000103', 'worker'));
    await addProduct(app, 'K-1');
    await addProduct(app, 'K-2');
    app.clock.set('2026-03-03T08:00:00+08:00');
    const noSession = await w.finish('K-1');
    expect(noSession.status).toBe(409);
    expect(noSession.body.error).toMatchObject({ code: 'CLOCK_STATE_CONFLICT', details: { label: '开始上班' } });
    expect((await w.switchDevice('K-1')).body.error.details.label).toBe('开始上班');
    await w.start('K-1');
    const other = await w.start('K-2');
    expect(other.status).toBe(409);
    expect(other.body.error.details.label).toBe('换设备');
    expect(other.body.error.message).toMatch(/换设备/);
    expect((await w.finish('K-2')).body.error.details.label).toBe('换设备');
    const sid = (await w.state('K-1')).body.sessionId;
    const early = await w.submit(sid, [{ productId: 1, finishedQty: 1, defectiveQty: 0 }]);
    expect(early.status).toBe(409);
    expect(early.body.error.details.label).toBe('下班报工');
    expect((await w.draft(sid)).body.error.details.label).toBe('下班报工');
  });
});

describe('devices', () => {
  it('accepts device numbers with spaces and Chinese, exactly, and their device keys; unknown devices are 404', async () => {
    const w = workerClient(app, await app.login('13800000104', 'worker'));
    const token = await app.login('13800000104', 'worker');
    const odd = ' 压力机 #3 / 左 ';
    await addProduct(app, odd);
    app.clock.set('2026-03-03T08:00:00+08:00');
    expect((await w.state(odd)).body).toEqual({ label: '开始上班', deviceNo: odd });
    expect((await w.start(odd)).body.devices).toEqual([odd]);
    const byKey = await app.request('GET', `/api/clock/state?deviceKey=${deviceKeyOf(odd)}`, { token });
    expect(byKey.body).toMatchObject({ label: '下班报工', deviceNo: odd });
    const trimmed = await w.state(odd.trim());
    expect(trimmed.status).toBe(404);
    expect(trimmed.body.error.code).toBe('DEVICE_NOT_FOUND');
    expect((await w.start('没有这台')).status).toBe(404);
    expect((await app.request('GET', '/api/clock/state?deviceKey=nope', { token })).status).toBe(404);
    const finishByKey = await app.request('POST', '/api/clock/finish', { token, body: { deviceKey: deviceKeyOf(odd) } });
    expect(finishByKey.status).toBe(200);
    const none = await app.request('GET', '/api/clock/state', { token });
    expect(none.status).toBe(422);
    expect((await app.request('GET', '/api/clock/state?deviceNo=a%00b', { token })).status).toBe(422);
    expect((await app.request('POST', '/api/clock/start', { token, body: { deviceNo: 'a\u0000b' } })).status).toBe(422);
    expect((await app.request('POST', '/api/clock/start', { token, body: { deviceNo: 42 } })).status).toBe(422);
  });
});

describe('access and ownership', () => {
  it('clocking is for workers; another worker’s session is 404 for the draft and the submission', async () => {
    await addProduct(app, 'O-1');
    const admin = await app.login('13900000001', 'admin');
    expect((await app.request('GET', '/api/clock/state?deviceNo=O-1', { token: admin })).status).toBe(403);
    expect((await app.request('GET', '/api/clock/state?deviceNo=O-1')).status).toBe(401);
    const w1 = workerClient(app, await app.login('13800000105', 'worker'));
    const w2 = workerClient(app, await app.login('13800000106', 'worker'));
    app.clock.set('2026-03-03T08:00:00+08:00');
    const s = (await w1.start('O-1')).body.sessionId;
    await w1.finish('O-1');
    const d = await w2.draft(s);
    expect(d.status).toBe(404);
    expect(d.body.error.code).toBe('SESSION_NOT_FOUND');
    expect((await w2.submit(s, [{ productId: 1, finishedQty: 1, defectiveQty: 0 }])).status).toBe(404);
    expect((await w1.draft(s)).status).toBe(200);
    expect((await w2.draft('not-a-uuid')).status).toBe(422);
    // The worker is the token's person: a phone in the body changes nothing.
    const t2 = await app.login('13800000106', 'worker');
    const spoof = await app.request('POST', '/api/clock/start', { token: t2, body: { deviceNo: 'O-1', employeePhone: '13800000105' } });
    expect(spoof.status).toBe(200);
    expect(spoof.body.sessionId).not.toBe(s);
    const rows = await app.service.ctx.db.pool.query(`SELECT employee_phone FROM sessions WHERE session_id = $1`, [spoof.body.sessionId]);
    expect(rows.rows[0].employee_phone).toBe('13800000106');
  });
});

describe('submission rules over HTTP', () => {
  it('validates the lines (422 in Chinese) and copies the product fields as they were at submission', async () => {
    const w = workerClient(app, await app.login('13800000107', 'worker'));
    const p1 = await addProduct(app, 'V-1', { cycle: 20, workload: 1440 });
    const p2 = await addProduct(app, 'V-1', { cycle: 10 });
    const other = await addProduct(app, 'V-9');
    app.clock.set('2026-03-04T08:00:00+08:00');
    const s = (await w.start('V-1')).body.sessionId;
    app.clock.set('2026-03-04T16:00:00+08:00');
    await w.finish('V-1');
    const cases: [unknown[], number, string][] = [
      [[], 422, 'NO_LINES'],
      [[{ productId: p1, finishedQty: -1, defectiveQty: 0 }], 422, 'INVALID_QUANTITY'],
      [[{ productId: p1, finishedQty: 2.5, defectiveQty: 0 }], 422, 'INVALID_QUANTITY'],
      [[{ productId: p1, finishedQty: '3', defectiveQty: 0 }], 422, 'VALIDATION_FAILED'],
      [[{ productId: p1, finishedQty: 3, defectiveQty: 1, outputQty: 5 }], 422, 'OUTPUT_QTY_MISMATCH'],
      [[{ productId: p1, finishedQty: 3, defectiveQty: 0 }, { productId: p1, finishedQty: 1, defectiveQty: 0 }], 422, 'DUPLICATE_PRODUCT'],
      [[{ productId: other, finishedQty: 3, defectiveQty: 0 }], 422, 'PRODUCT_NOT_CANDIDATE'],
    ];
    for (const [lines, status, code] of cases) {
      const r = await w.submit(s, lines);
      expect([r.status, r.body.error?.code]).toEqual([status, code]);
      expect(r.body.error.message).toMatch(/[\u4e00-\u9fff]/);
    }
    const bad = await app.request('POST', '/api/reports', { token: await app.login('13800000107', 'worker'), body: '{"sessionId":' });
    expect(bad.status).toBe(400);

    const ok = await w.submit(s, [
      { productId: p1, finishedQty: 100, defectiveQty: 4 },
      { productId: p2, finishedQty: 0, defectiveQty: 0 },
    ]);
    expect(ok.status).toBe(201);
    await app.service.ctx.db.pool.query(`UPDATE products SET standard_cycle_seconds = 99, standard_workload = 1 WHERE id = $1`, [p1]);
    const mine = await w.mine();
    expect(mine.body.items[0].lines[0]).toMatchObject({ productId: p1, standardCycleSeconds: 20, standardWorkload: 1440, outputQty: 104 });
    expect(mine.body.items[0].effectiveSeconds).toBe(8 * 3600 - 60 * 60);
    const again = await w.submit(s, [{ productId: p1, finishedQty: 1, defectiveQty: 0 }]);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'REPORT_ALREADY_SUBMITTED', details: { reportId: ok.body.reportId } });
  });

  it('a submission at 00:10 Beijing time carries that Beijing date while the process runs in UTC', async () => {
    expect(new Date('2026-03-05T00:10:00+08:00').getDate()).toBe(4); // the process's own zone is UTC
    const w = workerClient(app, await app.login('13800000108', 'worker'));
    const p = await addProduct(app, 'N-1');
    app.clock.set('2026-03-04T20:00:00+08:00');
    const s = (await w.start('N-1')).body.sessionId;
    app.clock.set('2026-03-05T00:05:00+08:00');
    await w.finish('N-1');
    app.clock.set('2026-03-05T00:10:00+08:00');
    const r = await w.submit(s, [{ productId: p, finishedQty: 10, defectiveQty: 0 }]);
    expect(r.body.reportDate).toBe('2026-03-05');
    const mine = await w.mine('startDate=2026-03-05&endDate=2026-03-05');
    expect(mine.body.total).toBe(1);
    expect(mine.body.items[0].submittedAt).toMatch(ISO_SHANGHAI);
    expect(mine.body.items[0].submittedAt).toBe('2026-03-05T00:10:00.000+08:00');
  });
});

describe('API document', () => {
  it('lists the clocking and report endpoints with their error codes', async () => {
    const doc = (await app.request('GET', '/api/openapi.json')).body;
    for (const [path, method] of [
      ['/api/clock/state', 'get'],
      ['/api/clock/start', 'post'],
      ['/api/clock/switch-device', 'post'],
      ['/api/clock/finish', 'post'],
      ['/api/reports/draft', 'get'],
      ['/api/reports', 'post'],
      ['/api/reports/mine', 'get'],
    ]) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(doc.paths['/api/clock/finish'].post.responses['409'].description).toContain('CLOCK_STATE_CONFLICT');
    expect(doc.paths['/api/reports'].post.responses['409'].description).toContain('REPORT_WINDOW_EXPIRED');
    // One exploded object parameter: exactly one of the two (oneOf).
    expect(Object.keys(doc.paths['/api/clock/state'].get.parameters[0].schema.properties)).toEqual(['deviceNo', 'deviceKey']);
  });
});
