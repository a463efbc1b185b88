/**
 * The abandonment job with a moved clock (SESSION_MAX_HOURS), and GET /api/reports/mine with its filters
 * (startDate, endDate, status, page), on the real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFold } from '../../src/commands/review/decider.ts';
import { recordEvents } from '../helpers/record.ts';
import { abandonOverAgeSessions } from '../../src/jobs/abandon-sessions.ts';
import { LOCKS, runExclusive } from '../../src/projections/leader.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { onPostgres } from '../helpers/db.ts';
import { addProduct, MIN, workerClient } from './helpers.ts';

let app: TestApp;
const HOUR = 60 * MIN;

beforeAll(async () => {
  app = await startTestApp({ SESSION_MAX_HOURS: '16' });
  await addProduct(app, 'J-1');
});
afterAll(() => app?.close());

const sessionStatus = async (sessionId: string) =>
  (await app.service.ctx.db.pool.query(`SELECT status FROM sessions WHERE session_id = $1`, [sessionId])).rows[0].status;

describe('abandoned sessions', () => {
  it('closes an active session older than SESSION_MAX_HOURS, not one second earlier; the next scan says 开始上班', async () => {
    const phone = '13800000301';
    const w = workerClient(app, await app.login(phone, 'worker'));
    app.clock.set('2026-03-02T08:00:00+08:00');
    const s = (await w.start('J-1')).body.sessionId;
    app.clock.set('2026-03-03T00:00:00+08:00'); // exactly 16 hours
    expect(await abandonOverAgeSessions(app.service.ctx)).toEqual({ ran: true, abandoned: 0 });
    expect(await sessionStatus(s)).toBe('active');
    app.clock.advance(1000);
    expect(await abandonOverAgeSessions(app.service.ctx)).toEqual({ ran: true, abandoned: 1 });
    expect(await sessionStatus(s)).toBe('abandoned');
    expect(await abandonOverAgeSessions(app.service.ctx)).toEqual({ ran: true, abandoned: 0 });
    expect((await w.state('J-1')).body).toEqual({ label: '开始上班', deviceNo: 'J-1' });
    const fin = await w.finish('J-1');
    expect(fin.body.error.details.label).toBe('开始上班');
    const ev = await app.service.ctx.db.pool.query(`SELECT event_type, data, metadata FROM events WHERE stream_id = $1 ORDER BY stream_version`, [
      `worker-${phone}`,
    ]);
    expect(ev.rows.map((r) => r.event_type)).toEqual(['ClockedIn', 'SessionAbandoned']);
    expect(ev.rows[1].data.at).toBe(new Date('2026-03-03T00:00:01+08:00').toISOString());
    const next = await w.start('J-1');
    expect(next.status).toBe(200);
    expect(next.body.sessionId).not.toBe(s);
  });

  it('a clocked-out session past the maximum is closed once its window is over; the draft then says SESSION_ABANDONED', async () => {
    const w = workerClient(app, await app.login('13800000302', 'worker'));
    app.clock.set('2026-03-04T08:00:00+08:00');
    const s = (await w.start('J-1')).body.sessionId;
    app.clock.set('2026-03-04T23:50:00+08:00');
    await w.finish('J-1');
    app.clock.set('2026-03-05T00:10:00+08:00'); // past 16 hours, window open until 00:20
    await abandonOverAgeSessions(app.service.ctx);
    expect(await sessionStatus(s)).toBe('reporting');
    expect((await w.draft(s)).status).toBe(200);
    app.clock.set('2026-03-05T00:20:01+08:00');
    expect((await abandonOverAgeSessions(app.service.ctx)).abandoned).toBeGreaterThanOrEqual(1);
    expect(await sessionStatus(s)).toBe('abandoned');
    const d = await w.draft(s);
    expect([d.status, d.body.error.code]).toEqual([409, 'SESSION_ABANDONED']);
  });

  it('a session the job has not reached yet is already gone for the worker: start closes it and opens a new one', async () => {
    const phone = '13800000303';
    const w = workerClient(app, await app.login(phone, 'worker'));
    app.clock.set('2026-03-06T08:00:00+08:00');
    const s = (await w.start('J-1')).body.sessionId;
    app.clock.advance(16 * HOUR + 1000);
    expect((await w.state('J-1')).body.label).toBe('开始上班');
    const next = await w.start('J-1');
    expect(next.status).toBe(200);
    expect(await sessionStatus(s)).toBe('abandoned');
    const events = await app.service.ctx.db.pool.query(`SELECT event_type FROM events WHERE stream_id = $1 ORDER BY stream_version`, [`worker-${phone}`]);
    expect(events.rows.map((r) => r.event_type)).toEqual(['ClockedIn', 'SessionAbandoned', 'ClockedIn']);
    await abandonOverAgeSessions(app.service.ctx);
    expect(await sessionStatus(next.body.sessionId)).toBe('active');
  });

  // Needs a second connection holding the job's transaction lock: PGlite's pool is a single connection (the
  // inner run would wait for it forever) and its connections share one backend, so PostgreSQL only.
  it.runIf(onPostgres)('runs in one instance at a time: while another holds the lock, a run skips', async () => {
    const w = workerClient(app, await app.login('13800000304', 'worker'));
    app.clock.set('2026-03-08T08:00:00+08:00');
    const s = (await w.start('J-1')).body.sessionId;
    app.clock.advance(17 * HOUR);
    let inner: unknown;
    await runExclusive(app.service.ctx.db.pool, LOCKS.abandonSessions, async () => {
      inner = await abandonOverAgeSessions(app.service.ctx);
    });
    expect(inner).toEqual({ ran: false, abandoned: 0 });
    expect(await sessionStatus(s)).toBe('active');
    expect((await abandonOverAgeSessions(app.service.ctx)).ran).toBe(true);
    expect(await sessionStatus(s)).toBe('abandoned');
  });

  it("closes sessions in the workers' order, whatever order they opened in (the group commit's lock order)", async () => {
    const phones = ['13800000323', '13800000321', '13800000322'];
    app.clock.set('2026-03-10T08:00:00+08:00');
    for (const phone of phones) expect((await workerClient(app, await app.login(phone, 'worker')).start('J-1')).status).toBe(200);
    app.clock.advance(17 * HOUR);
    await abandonOverAgeSessions(app.service.ctx);
    const r = await app.service.ctx.db.pool.query(
      `SELECT stream_id FROM events WHERE event_type = 'SessionAbandoned' AND stream_id = ANY($1::text[]) ORDER BY global_position`,
      [phones.map((p) => `worker-${p}`)],
    );
    expect(r.rows.map((x) => x.stream_id)).toEqual([...phones].sort().map((p) => `worker-${p}`));
  });
});

describe('GET /api/reports/mine', () => {
  const phone = '13800000310';
  let token: string;
  const ids: Record<string, string> = {};

  async function report(day: string, qty: number): Promise<{ reportId: string; reportDate: string }> {
    const w = workerClient(app, token);
    const p = await addProduct(app, 'J-1', { name: `件${day}-${qty}` });
    app.clock.set(`${day}T08:00:00+08:00`);
    const s = (await w.start('J-1')).body.sessionId;
    app.clock.set(`${day}T17:00:00+08:00`);
    await w.finish('J-1');
    app.clock.advance(MIN);
    return (await w.submit(s, [{ productId: p, finishedQty: qty, defectiveQty: 0 }])).body;
  }

  async function review(r: { reportId: string; reportDate: string }, type: 'ReportApproved' | 'ReportRejected') {
    const data = { reportId: r.reportId, employeePhone: phone, reportDate: r.reportDate, at: app.clock.now().toISOString() };
    await recordEvents(app.service.ctx, { actorPhone: '13900000399', role: 'admin' }, { streamId: `report-${r.reportId}`, fold: reportFold }, [
      type === 'ReportApproved' ? { type, data: { ...data, flags: [] } } : { type, data: { ...data, reason: '数量与记录不符' } },
    ]);
  }

  beforeAll(async () => {
    token = await app.login(phone, 'worker');
    const a = await report('2026-04-01', 1);
    const b = await report('2026-04-02', 2);
    const c = await report('2026-04-03', 3);
    const d = await report('2026-04-04', 4);
    Object.assign(ids, { a: a.reportId, b: b.reportId, c: c.reportId, d: d.reportId });
    await review(b, 'ReportApproved');
    await review(c, 'ReportRejected');
    // someone else's report in the same range
    const other = workerClient(app, await app.login('13800000311', 'worker'));
    app.clock.set('2026-04-02T08:00:00+08:00');
    const s = (await other.start('J-1')).body.sessionId;
    await other.finish('J-1');
    const p = await addProduct(app, 'J-1', { name: '别人的件' });
    await other.submit(s, [{ productId: p, finishedQty: 9, defectiveQty: 0 }]);
  });

  const mine = (q = '') => workerClient(app, token).mine(q);

  it('lists only the worker’s reports, newest date first, with lines, status and reject reason', async () => {
    const r = await mine();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, pageSize: 20, total: 4 });
    expect(r.body.items.map((i: any) => i.reportId)).toEqual([ids.d, ids.c, ids.b, ids.a]);
    expect(r.body.items.map((i: any) => i.status)).toEqual(['pending', 'rejected', 'approved', 'pending']);
    expect(r.body.items[1]).toMatchObject({ rejectReason: '数量与记录不符', reportDate: '2026-04-03' });
    expect(r.body.items[1].reviewedAt).toMatch(/\+08:00$/);
    expect(r.body.items[0]).toMatchObject({ rejectReason: null, reviewedAt: null, clockInAt: '2026-04-04T08:00:00.000+08:00' });
    expect(r.body.items[2].lines[0].finishedQty).toBe(2);
  });

  it('filters by inclusive dates and by status, and pages', async () => {
    const range = await mine('startDate=2026-04-02&endDate=2026-04-03');
    expect(range.body.items.map((i: any) => i.reportId)).toEqual([ids.c, ids.b]);
    expect((await mine('startDate=2026-04-03')).body.total).toBe(2);
    expect((await mine('endDate=2026-04-01')).body.items.map((i: any) => i.reportId)).toEqual([ids.a]);
    expect((await mine('status=pending')).body.items.map((i: any) => i.reportId)).toEqual([ids.d, ids.a]);
    expect((await mine('status=approved&startDate=2026-04-03')).body.total).toBe(0);
    const p2 = await mine('page=2&pageSize=3');
    expect(p2.body).toMatchObject({ page: 2, pageSize: 3, total: 4 });
    expect(p2.body.items.map((i: any) => i.reportId)).toEqual([ids.a]);
    const beyond = await mine('page=9&pageSize=3');
    expect(beyond.body).toMatchObject({ items: [], total: 4 });
  });

  it('refuses bad filters with 422', async () => {
    for (const q of ['startDate=2026-02-30', 'endDate=20260401', 'status=done', 'page=0', 'pageSize=101', 'startDate=2026-04-05&endDate=2026-04-01']) {
      const r = await mine(q);
      expect(r.status, q).toBe(422);
    }
  });
});
