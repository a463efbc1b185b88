/**
 * Workshops, teams and shifts, end to end through the HTTP API on a fresh database: a manager creates two workshops with
 * a team each and a day shift with a lunch window, scopes one reviewer to the first workshop; a worker of the
 * second workshop clocks in at 08:00 and out at 17:00 and their report shows 60 minutes of break from the shift;
 * the scoped reviewer neither sees nor can approve it, the unscoped one can; a worker who clocks out at 11:30 has
 * no break deducted. The arithmetic is the test's own: 9 h of presence − the 12:00–13:00 window = 8 h effective.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, workerClient } from '../clock/helpers.ts';

const DAY = '2026-03-02';
let app: TestApp;
let manager: string;
let scoped: string;
let whole: string;
let fullDay: string;
let morning: string;

beforeAll(async () => {
  app = await startTestApp({}, `${DAY}T07:00:00+08:00`);
  manager = await app.login('13900000002', 'manager', '李经理');
  scoped = await app.login('13900000011', 'admin', '一车间审核员');
  whole = await app.login('13900000012', 'admin', '总审核员');
  const ok = async (method: string, path: string, body: unknown, status = [200, 201, 204]) => {
    const r = await app.request(method, path, { token: manager, body });
    expect(status, `${method} ${path}: ${JSON.stringify(r.body)}`).toContain(r.status);
    return r.body;
  };
  await ok('POST', '/api/workshops', { code: 'W1', name: '一车间' });
  await ok('POST', '/api/workshops', { code: 'W2', name: '二车间' });
  await app.login('13700000009', 'worker', '王组长');
  await ok('POST', '/api/teams', { code: 'T1', name: '冲压一班', workshopCode: 'W1', leaders: ['13700000009'] });
  await ok('POST', '/api/teams', { code: 'T2', name: '焊接一班', workshopCode: 'W2', leaders: ['13700000009'] });
  const shift = await ok('POST', '/api/shifts', { name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '13:00' }] });
  await ok('POST', '/api/teams/T2/shift-assignments', { validFrom: '2026-03-01', rotation: [shift.shiftId], daysEach: 1 });
  await ok('PUT', '/api/people/13900000011/scope', { role: 'admin', workshops: ['W1'], teams: [] });

  const product = await addProduct(app, 'HJ-01', { name: '后围', cycle: 30, workload: 960 });
  const w1 = workerClient(app, await app.login('13700000001', 'worker', '张三'));
  const w2 = workerClient(app, await app.login('13700000002', 'worker', '李四'));
  await ok('POST', '/api/memberships', { phone: '13700000001', teamCode: 'T2', validFrom: '2026-03-01' });
  await ok('POST', '/api/memberships', { phone: '13700000002', teamCode: 'T2', validFrom: '2026-03-01' });

  app.clock.set(`${DAY}T08:00:00+08:00`);
  const s1 = (await w1.start('HJ-01')).body.sessionId;
  const s2 = (await w2.start('HJ-01')).body.sessionId;
  app.clock.set(`${DAY}T11:30:00+08:00`);
  expect((await w2.finish('HJ-01')).status).toBe(200);
  const d2 = await w2.draft(s2);
  expect(d2.body).toMatchObject({ breakMinutes: 0, breakSource: 'shift' });
  morning = (await w2.submit(s2, [{ productId: product, finishedQty: 100, defectiveQty: 0 }])).body.reportId;
  app.clock.set(`${DAY}T17:00:00+08:00`);
  expect((await w1.finish('HJ-01')).status).toBe(200);
  const d1 = await w1.draft(s1);
  expect(d1.body).toMatchObject({ breakMinutes: 60, breakSource: 'shift', shift: { name: '白班' } });
  fullDay = (await w1.submit(s1, [{ productId: product, finishedQty: 900, defectiveQty: 0 }])).body.reportId;
});
afterAll(() => app?.close());

describe('workshops, teams and shifts, end to end', () => {
  it('the full day shows 60 minutes of break from the shift, and 8 h effective; the morning has none', async () => {
    const r = (await app.request('GET', `/api/reports/${fullDay}`, { token: whole })).body;
    expect(r).toMatchObject({ breakMinutes: 60, breakSource: 'shift', workshopCode: 'W2', teamCode: 'T2' });
    expect(r.effectiveSeconds).toBe(9 * 3600 - 3600);
    const m = (await app.request('GET', `/api/reports/${morning}`, { token: whole })).body;
    expect(m).toMatchObject({ breakMinutes: 0, breakSource: 'shift' });
    expect(m.effectiveSeconds).toBe(3.5 * 3600);
  });

  it('the reviewer scoped to the other workshop neither sees nor can approve it', async () => {
    const queue = (await app.request('GET', '/api/reviews/pending', { token: scoped })).body;
    expect(queue.items.map((i: { reportId: string }) => i.reportId)).not.toContain(fullDay);
    expect(queue.total).toBe(0);
    expect((await app.request('GET', `/api/reports/${fullDay}`, { token: scoped })).status).toBe(404);
    const refused = await app.request('POST', `/api/reviews/${fullDay}/approve`, { token: scoped, body: {} });
    expect(refused.status).toBe(404);
  });

  it('the whole-factory reviewer sees both and approves the full day', async () => {
    const queue = (await app.request('GET', '/api/reviews/pending', { token: whole })).body;
    expect(queue.items.map((i: { reportId: string }) => i.reportId).sort()).toEqual([fullDay, morning].sort());
    const approved = await app.request('POST', `/api/reviews/${fullDay}/approve`, { token: whole, body: {} });
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('approved');
  });
});
