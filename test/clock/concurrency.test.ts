/**
 * Races over HTTP on the real database: 50 identical parallel starts give one session, 50 parallel
 * submissions one report, racing starts at different devices one open session, two workers on one device at
 * once each their own session, and (PostgreSQL) 40 workers at once through the group commit and two API instances
 * on one database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withSecondInstance, type TestApp } from '../helpers/app.ts';
import { onPostgres } from '../helpers/db.ts';
import { addProduct, MIN, workerClient } from './helpers.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
  for (const d of ['C-1', 'C-2', 'C-3', 'C-4', 'C-5']) await addProduct(app, d);
});
afterAll(() => app?.close());

const count = async (sql: string, params: unknown[]) => Number((await app.service.ctx.db.pool.query(sql, params)).rows[0].n);

describe('races', () => {
  it('50 parallel identical starts → one session, every answer the same', async () => {
    const phone = '13800000201';
    const w = workerClient(app, await app.login(phone, 'worker'));
    app.clock.set('2026-03-02T08:00:00+08:00');
    const answers = await Promise.all(Array.from({ length: 50 }, () => w.start('C-1')));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((a) => a.body.sessionId)).size).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM sessions WHERE employee_phone = $1`, [phone])).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM events WHERE stream_id = $1`, [`worker-${phone}`])).toBe(1);
  });

  it('racing starts at different devices → still one open session; the others answer 409 换设备', async () => {
    const phone = '13800000202';
    const w = workerClient(app, await app.login(phone, 'worker'));
    app.clock.set('2026-03-02T08:00:00+08:00');
    const devices = Array.from({ length: 40 }, (_, i) => `C-${(i % 5) + 1}`);
    const answers = await Promise.all(devices.map((d) => w.start(d)));
    const ok = answers.filter((a) => a.status === 200);
    expect(new Set(ok.map((a) => a.body.sessionId)).size).toBe(1);
    const winner = ok[0].body.devices[0];
    answers.forEach((a, i) => {
      if (devices[i] === winner) expect(a.status).toBe(200);
      else expect([a.status, a.body.error.details.label]).toEqual([409, '换设备']);
    });
    expect(await count(`SELECT count(*) AS n FROM sessions WHERE employee_phone = $1`, [phone])).toBe(1);
  });

  it('50 parallel submissions → one report; the others 409 REPORT_ALREADY_SUBMITTED naming it', async () => {
    const phone = '13800000203';
    const w = workerClient(app, await app.login(phone, 'worker'));
    const product = await addProduct(app, 'C-1', { name: '并发件' });
    app.clock.set('2026-03-02T08:00:00+08:00');
    const s = (await w.start('C-1')).body.sessionId;
    app.clock.advance(8 * 60 * MIN);
    await w.finish('C-1');
    app.clock.advance(MIN);
    const answers = await Promise.all(Array.from({ length: 50 }, () => w.submit(s, [{ productId: product, finishedQty: 10, defectiveQty: 1 }])));
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(1);
    for (const a of answers) {
      if (a.status !== 201) expect(a.body.error).toMatchObject({ code: 'REPORT_ALREADY_SUBMITTED', details: { reportId: created[0].body.reportId } });
    }
    expect(await count(`SELECT count(*) AS n FROM reports WHERE session_id = $1`, [s])).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM events WHERE event_type = 'ReportSubmitted' AND data->>'sessionId' = $1`, [s])).toBe(1);
  });

  it('two workers on one device at once: each gets their own session, labels and report', async () => {
    const p = await addProduct(app, 'C-5', { name: '共用设备件' });
    const [t1, t2] = [await app.login('13800000204', 'worker'), await app.login('13800000205', 'worker')];
    const [w1, w2] = [workerClient(app, t1), workerClient(app, t2)];
    app.clock.set('2026-03-02T08:00:00+08:00');
    const [a, b] = await Promise.all([w1.start('C-5'), w2.start('C-5')]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.sessionId).not.toBe(b.body.sessionId);
    expect((await w1.state('C-5')).body).toMatchObject({ label: '下班报工', sessionId: a.body.sessionId });
    expect((await w2.state('C-5')).body).toMatchObject({ label: '下班报工', sessionId: b.body.sessionId });
    app.clock.advance(4 * 60 * MIN);
    await Promise.all([w1.finish('C-5'), w2.finish('C-5')]);
    const [r1, r2] = await Promise.all([
      w1.submit(a.body.sessionId, [{ productId: p, finishedQty: 5, defectiveQty: 0 }]),
      w2.submit(b.body.sessionId, [{ productId: p, finishedQty: 7, defectiveQty: 0 }]),
    ]);
    expect([r1.status, r2.status]).toEqual([201, 201]);
    const m1 = (await w1.mine()).body;
    const m2 = (await w2.mine()).body;
    expect(m1.items.map((r: any) => r.lines[0].finishedQty)).toEqual([5]);
    expect(m2.items.map((r: any) => r.lines[0].finishedQty)).toEqual([7]);
  });

  // On PostgreSQL the commands' appends go through the group commit (src/db/group-commit.ts).
  it.runIf(onPostgres)('40 workers clocking in at once: 40 sessions, each its own; their appends share commits', async () => {
    const phones = Array.from({ length: 40 }, (_, i) => `138000003${String(i).padStart(2, '0')}`);
    const workers = await Promise.all(phones.map(async (p) => workerClient(app, await app.login(p, 'worker'))));
    app.clock.set('2026-03-05T08:00:00+08:00');
    const answers = await Promise.all(workers.map((w) => w.start('C-5')));
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
    expect(new Set(answers.map((a) => a.body.sessionId)).size).toBe(40);
    const r = await app.service.ctx.db.pool.query(
      `SELECT s.employee_phone, s.session_id::text AS session_id, e.transaction_id::text AS tx
         FROM sessions s JOIN events e ON e.stream_id = 'worker-' || s.employee_phone AND e.event_type = 'ClockedIn'
        WHERE s.employee_phone = ANY($1::text[]) AND s.status = 'active'`,
      [phones],
    );
    expect(new Map(r.rows.map((x) => [x.employee_phone, x.session_id]))).toEqual(new Map(phones.map((p, i) => [p, answers[i].body.sessionId])));
    expect(new Set(r.rows.map((x) => x.tx)).size).toBeLessThan(40);
  });

  // Two API instances need two processes' worth of connections to one database: PGlite in memory is private
  // to the test's own instance, so this runs on PostgreSQL only.
  it.runIf(onPostgres)('two API instances on one database: racing starts still give one session', async () => {
    await withSecondInstance(app, async (second) => {
      const phone = '13800000206';
      const token = await app.login(phone, 'worker');
      app.clock.set('2026-03-02T08:00:00+08:00');
      const instances = [app.request, second.request];
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => instances[i % 2]('POST', '/api/clock/start', { token, body: { deviceNo: 'C-2' } })),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(new Set(answers.map((a) => a.body.sessionId)).size).toBe(1);
      expect(await count(`SELECT count(*) AS n FROM sessions WHERE employee_phone = $1`, [phone])).toBe(1);
    });
  });
});
