/**
 * Scoped review end to end, through the real service and its API only: a manager creates two
 * workshops with a team each and puts a worker in each team, scopes a reviewer to the first workshop; the worker of
 * the second workshop clocks in at 08:00 and out at 17:00 and submits; the report is placed in the second workshop
 * (recorded at submission, part A), so the scoped reviewer neither sees it (pending queue, the report, its audit
 * trail: 404) nor can approve it (404, nothing written), while the unscoped reviewer sees and approves it. The first
 * workshop's worker's report is the scoped reviewer's to approve.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, workerClient } from '../clock/helpers.ts';

let app: TestApp;
let manager: string;
let scoped: string;
let unscoped: string;
const W1_WORKER = '13700000101';
const W2_WORKER = '13700000102';
let product: number;

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-02T07:00:00+08:00');
  manager = await app.login('13900000201', 'manager', '厂长');
  scoped = await app.login('13900000202', 'admin', '冲压审核员');
  unscoped = await app.login('13900000203', 'admin', '总审核员');
  await app.login(W1_WORKER, 'worker', '张冲压');
  await app.login(W2_WORKER, 'worker', '李焊接');
  const ok = async (method: string, path: string, body: unknown) => {
    const r = await app.request(method, path, { token: manager, body });
    expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  };
  await ok('POST', '/api/workshops', { code: 'W1', name: '冲压车间' });
  await ok('POST', '/api/workshops', { code: 'W2', name: '焊接车间' });
  await ok('POST', '/api/teams', { code: 'T1', name: '冲压一班', workshopCode: 'W1', leaders: [W1_WORKER] });
  await ok('POST', '/api/teams', { code: 'T2', name: '焊接一班', workshopCode: 'W2', leaders: [W2_WORKER] });
  await ok('POST', '/api/memberships', { phone: W1_WORKER, teamCode: 'T1', validFrom: '2026-03-02' });
  await ok('POST', '/api/memberships', { phone: W2_WORKER, teamCode: 'T2', validFrom: '2026-03-02' });
  await ok('PUT', '/api/people/13900000202/scope', { role: 'admin', workshops: ['W1'], teams: [] });
  product = await addProduct(app, 'JC-01');
});
afterAll(() => app?.close());

/** The worker `phone` clocks in at 08:00 and out at 17:00 on JC-01 and submits 100 pieces; → the report id. */
async function workDay(phone: string): Promise<string> {
  const w = workerClient(app, await app.login(phone, 'worker'));
  app.clock.set('2026-03-02T08:00:00+08:00');
  const started = await w.start('JC-01');
  expect(started.status).toBe(200);
  app.clock.set('2026-03-02T17:00:00+08:00');
  expect((await w.finish('JC-01')).status).toBe(200);
  const r = await w.submit(started.body.sessionId, [{ productId: product, finishedQty: 100, defectiveQty: 0 }]);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.reportId;
}

describe('a reviewer scoped to one workshop', () => {
  it('neither sees nor can approve the other workshop’s report; the unscoped reviewer can', async () => {
    const other = await workDay(W2_WORKER);
    const row = await app.service.ctx.db.pool.query(`SELECT workshop_code, team_code FROM reports WHERE report_id = $1`, [other]);
    expect(row.rows[0]).toEqual({ workshop_code: 'W2', team_code: 'T2' });

    const queue = await app.request('GET', '/api/reviews/pending', { token: scoped });
    expect(queue.body.items.map((i: any) => i.reportId)).toEqual([]);
    for (const path of [`/api/reports/${other}`, `/api/reports/${other}/audit-logs`]) {
      const r = await app.request('GET', path, { token: scoped });
      expect([r.status, r.body.error.code]).toEqual([404, 'REPORT_NOT_FOUND']);
    }
    const refused = await app.request('POST', `/api/reviews/${other}/approve`, { token: scoped, body: {} });
    expect([refused.status, refused.body.error.code]).toEqual([404, 'REPORT_NOT_FOUND']);

    const all = await app.request('GET', '/api/reviews/pending', { token: unscoped });
    expect(all.body.items).toEqual([expect.objectContaining({ reportId: other, workshopCode: 'W2', workshopName: '焊接车间', teamCode: 'T2', teamName: '焊接一班' })]);
    const approved = await app.request('POST', `/api/reviews/${other}/approve`, { token: unscoped, body: {} });
    expect([approved.status, approved.body.status]).toEqual([200, 'approved']);
  });

  it('the own workshop’s report is the scoped reviewer’s to see and approve', async () => {
    const mine = await workDay(W1_WORKER);
    const queue = await app.request('GET', '/api/reviews/pending', { token: scoped });
    expect(queue.body.items.map((i: any) => [i.reportId, i.teamName])).toEqual([[mine, '冲压一班']]);
    const approved = await app.request('POST', `/api/reviews/${mine}/approve`, { token: scoped, body: {} });
    expect(approved.status).toBe(200);
    const decided = await app.request('GET', '/api/reviews/mine', { token: scoped });
    expect(decided.body.items.map((i: any) => i.reportId)).toEqual([mine]);
  });
});
