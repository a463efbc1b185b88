/**
 * Defect reasons on report lines, through the real service (commands/report-lines.ts): a worker submits a line
 * with reasons (recorded with each reason's category of that moment), the refusals (more reasons than defective
 * pieces, an unknown or deactivated reason, a reason twice), a reviewer's correction that changes the reasons (the
 * audit keeps before → after) or keeps them when a corrected line gives none, and DEFECT_REASONS_REQUIRED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, MIN, workerClient } from '../clock/helpers.ts';

let app: TestApp;
let manager: string;
let admin: string;
let worker: ReturnType<typeof workerClient>;
let product: number;
let day = 2;

/** A finished session of the worker on a new day at D1; returns its sessionId. */
async function session(a = app, w = worker): Promise<string> {
  a.clock.set(`2026-03-${String(day++).padStart(2, '0')}T08:00:00+08:00`);
  const started = await w.start('D1');
  expect(started.status).toBe(200);
  a.clock.advance(8 * 60 * MIN);
  expect((await w.finish('D1')).status).toBe(200);
  return started.body.sessionId;
}

async function setUp(a: TestApp) {
  const m = await a.login('13800000002', 'manager', '李经理');
  for (const [code, name, category] of [
    ['SCR', '划伤', 'operator'],
    ['CRK', '材料裂纹', 'material'],
    ['JAM', '卡模', 'other'],
    ['OLD', '旧原因', 'other'],
  ]) {
    expect((await a.request('POST', '/api/defect-reasons', { token: m, body: { code, name, category } })).status).toBe(201);
  }
  expect((await a.request('PUT', '/api/defect-reasons/OLD', { token: m, body: { active: false } })).status).toBe(200);
  return m;
}

beforeAll(async () => {
  app = await startTestApp();
  manager = await setUp(app);
  admin = await app.login('13800000004', 'admin', '王管理');
  worker = workerClient(app, await app.login('13800000011', 'worker', '张三'));
  product = await addProduct(app, 'D1');
});
afterAll(() => app.close());

describe('a line with defect reasons', () => {
  it('is recorded with each reason and its category; the pieces left are 未注明 (not recorded)', async () => {
    const sessionId = await session();
    const r = await worker.submit(sessionId, [{ productId: product, finishedQty: 100, defectiveQty: 6, defects: [{ reasonCode: 'SCR', qty: 2 }, { reasonCode: 'CRK', qty: 3 }] }]);
    expect(r.status).toBe(201);
    const ev = await app.service.ctx.db.pool.query(`SELECT data FROM events WHERE stream_id = $1`, [`report-${r.body.reportId}`]);
    expect(ev.rows[0].data.lines[0].defects).toEqual([
      { reasonCode: 'SCR', qty: 2, category: 'operator' },
      { reasonCode: 'CRK', qty: 3, category: 'material' },
    ]);
    const detail = await app.request('GET', `/api/reports/${r.body.reportId}`, { token: admin });
    expect(detail.body.lines[0].defects).toEqual(ev.rows[0].data.lines[0].defects);
  });

  it.each([
    ['more reasons than defective pieces', [{ reasonCode: 'SCR', qty: 4 }, { reasonCode: 'CRK', qty: 3 }], 'DEFECTS_SUM_MISMATCH', { line: 1, defectiveQty: 6, defectsQty: 7 }, '第 1 行各不良原因的数量合计 7，超过了不良数量 6，请核对'],
    ['an unknown reason', [{ reasonCode: 'NOPE', qty: 1 }], 'UNKNOWN_DEFECT_REASON', { line: 1, reasonCode: 'NOPE' }, '第 1 行的不良原因 NOPE 不存在，请刷新后重新选择'],
    ['a deactivated reason', [{ reasonCode: 'OLD', qty: 1 }], 'UNKNOWN_DEFECT_REASON', { line: 1, reasonCode: 'OLD' }, '第 1 行的不良原因 OLD 已停用，请刷新后重新选择'],
    ['a reason twice', [{ reasonCode: 'SCR', qty: 1 }, { reasonCode: 'SCR', qty: 1 }], 'INVALID_DEFECTS', { line: 1, index: 1, problem: 'duplicate' }, '第 1 行的第 2 个不良原因重复了，同一原因请合并数量'],
  ])('with %s is refused 422 and writes nothing', async (_, defects, code, details, message) => {
    const sessionId = await session();
    const r = await worker.submit(sessionId, [{ productId: product, finishedQty: 100, defectiveQty: 6, defects }]);
    expect([r.status, r.body.error.code, r.body.error.details, r.body.error.message]).toEqual([422, code, details, message]);
    const n = await app.service.ctx.db.pool.query(`SELECT count(*)::int AS n FROM reports WHERE session_id = $1`, [sessionId]);
    expect(n.rows[0].n).toBe(0);
  });

  it('a qty of 0 is refused by the route (422)', async () => {
    const sessionId = await session();
    const r = await worker.submit(sessionId, [{ productId: product, finishedQty: 1, defectiveQty: 1, defects: [{ reasonCode: 'SCR', qty: 0 }] }]);
    expect(r.status).toBe(422);
  });

  it('a correction changes the reasons (audited before → after); a corrected line without defects keeps them', async () => {
    const sessionId = await session();
    const r = await worker.submit(sessionId, [{ productId: product, finishedQty: 50, defectiveQty: 4, defects: [{ reasonCode: 'SCR', qty: 4 }] }]);
    expect(r.status).toBe(201);
    const ok = await app.request('POST', `/api/reviews/${r.body.reportId}/approve`, {
      token: admin,
      body: { lines: [{ productId: product, finishedQty: 50, defectiveQty: 4, defects: [{ reasonCode: 'SCR', qty: 1 }, { reasonCode: 'JAM', qty: 3 }] }] },
    });
    expect([ok.status, ok.body.corrected, ok.body.lines[0].defects]).toEqual([
      200,
      true,
      [{ reasonCode: 'SCR', qty: 1, category: 'operator' }, { reasonCode: 'JAM', qty: 3, category: 'other' }],
    ]);
    const ev = await app.service.ctx.db.pool.query(`SELECT data FROM events WHERE stream_id = $1 AND event_type = 'ReportApproved'`, [`report-${r.body.reportId}`]);
    expect(ev.rows[0].data.correction.before[0].defects).toEqual([{ reasonCode: 'SCR', qty: 4, category: 'operator' }]);
    // Only the reasons changed: the audit trail still has the line corrected, its reasons before → after.
    const trail = await app.request('GET', `/api/reports/${r.body.reportId}/audit-logs`, { token: admin });
    const corrected = trail.body.items.filter((x: any) => x.action === 'corrected');
    expect(corrected.map((x: any) => [x.before.defects, x.after.defects, x.before.finishedQty, x.after.finishedQty])).toEqual([
      [[{ reasonCode: 'SCR', category: 'operator', qty: 4 }], [{ reasonCode: 'SCR', category: 'operator', qty: 1 }, { reasonCode: 'JAM', category: 'other', qty: 3 }], 50, 50],
    ]);

    const s2 = await session();
    const r2 = await worker.submit(s2, [{ productId: product, finishedQty: 50, defectiveQty: 4, defects: [{ reasonCode: 'CRK', qty: 2 }] }]);
    const kept = await app.request('POST', `/api/reviews/${r2.body.reportId}/approve`, { token: admin, body: { lines: [{ productId: product, finishedQty: 48, defectiveQty: 6 }] } });
    expect([kept.status, kept.body.lines[0].defects]).toEqual([200, [{ reasonCode: 'CRK', qty: 2, category: 'material' }]]);

    const s3 = await session();
    const r3 = await worker.submit(s3, [{ productId: product, finishedQty: 50, defectiveQty: 4, defects: [{ reasonCode: 'CRK', qty: 4 }] }]);
    const tooFew = await app.request('POST', `/api/reviews/${r3.body.reportId}/approve`, { token: admin, body: { lines: [{ productId: product, finishedQty: 52, defectiveQty: 2 }] } });
    expect([tooFew.status, tooFew.body.error.code, tooFew.body.error.details]).toEqual([422, 'DEFECTS_SUM_MISMATCH', { line: 1, defectiveQty: 2, defectsQty: 4 }]);
  });

  it('recategorising a reason later leaves the recorded lines as they were', async () => {
    expect((await app.request('PUT', '/api/defect-reasons/SCR', { token: manager, body: { category: 'other', name: '刮伤' } })).status).toBe(200);
    const ev = await app.service.ctx.db.pool.query(`SELECT data FROM events WHERE event_type = 'ReportSubmitted' ORDER BY global_position LIMIT 1`);
    expect(ev.rows[0].data.lines[0].defects[0]).toEqual({ reasonCode: 'SCR', qty: 2, category: 'operator' });
    expect((await app.request('PUT', '/api/defect-reasons/SCR', { token: manager, body: { category: 'operator', name: '划伤' } })).status).toBe(200);
  });
});

describe('DEFECT_REASONS_REQUIRED=true', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await startTestApp({ DEFECT_REASONS_REQUIRED: 'true' });
    await setUp(strict);
  });
  afterAll(() => strict.close());

  it('the reasons must cover every defective piece; a line without defective pieces needs none', async () => {
    const w = workerClient(strict, await strict.login('13800000011', 'worker', '张三'));
    const p = await addProduct(strict, 'D1');
    const sessionId = await session(strict, w);
    const short = await w.submit(sessionId, [{ productId: p, finishedQty: 10, defectiveQty: 3, defects: [{ reasonCode: 'SCR', qty: 2 }] }]);
    expect([short.status, short.body.error.code, short.body.error.message]).toEqual([422, 'DEFECTS_SUM_MISMATCH', '第 1 行不良数量 3，已填原因的只有 2：每件不良都要填写原因，请补齐']);
    const full = await w.submit(sessionId, [{ productId: p, finishedQty: 10, defectiveQty: 3, defects: [{ reasonCode: 'SCR', qty: 2 }, { reasonCode: 'CRK', qty: 1 }] }]);
    expect(full.status).toBe(201);
    const s2 = await session(strict, w);
    expect((await w.submit(s2, [{ productId: p, finishedQty: 10, defectiveQty: 0 }])).status).toBe(201);
  });

  it('an unknown value of DEFECT_REASONS_REQUIRED stops the start with the variable named', async () => {
    const { loadConfig } = await import('../../src/config.ts');
    expect(() => loadConfig({ JWT_SECRET: 'x', DEFECT_REASONS_REQUIRED: 'yes' })).toThrow(/DEFECT_REASONS_REQUIRED/);
  });
});
