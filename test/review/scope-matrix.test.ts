/**
 * The scope matrix, as the role matrix is for roles: every route
 * that shows or acts on a report × {unscoped admin, admin scoped to workshop W1, admin scoped to team T2, manager
 * scoped to workshop W2} × {report in W1/T1, report in W2/T2, report in no team} → the exact visibility or status.
 * One rule (domain/scope.ts): in scope when the scope is empty, or the report's workshop is in its workshops, or
 * its team in its teams; a report in no team only for unscoped people. Out of scope: 404 for one report (as an
 * unknown one), left out of lists and sums. A role the route does not allow: 403 (the role matrix's business).
 */
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/auth/roles.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { submitReport } from './fixtures.ts';
import { replayProjection } from '../../src/projections/replay.ts';
import { dashboardProjection } from '../../src/projections/dashboard.ts';
import { wagesProjection } from '../../src/projections/wages.ts';
import type { Repository, StreamQuery } from '../../src/commands/repository.ts';
import type { FactQuery } from '../../src/commands/facts.ts';
import type { Queryable } from '../../src/db/transaction.ts';

let app: TestApp;

type Actor = 'admin*' | 'admin W1' | 'admin T2' | 'manager W2';
type Place = 'W1/T1' | 'W2/T2' | 'none';
const ACTORS: Actor[] = ['admin*', 'admin W1', 'admin T2', 'manager W2'];
const PLACES: Place[] = ['W1/T1', 'W2/T2', 'none'];
const PEOPLE: Record<Actor, { phone: string; role: Role; scope?: { workshops: string[]; teams: string[] } }> = {
  'admin*': { phone: '13900000001', role: 'admin' },
  'admin W1': { phone: '13900000002', role: 'admin', scope: { workshops: ['W1'], teams: [] } },
  'admin T2': { phone: '13900000003', role: 'admin', scope: { workshops: [], teams: ['T2'] } },
  'manager W2': { phone: '13900000004', role: 'manager', scope: { workshops: ['W2'], teams: [] } },
};
const PLACEMENT: Record<Place, { workshopCode: string | null; teamCode: string | null }> = {
  'W1/T1': { workshopCode: 'W1', teamCode: 'T1' },
  'W2/T2': { workshopCode: 'W2', teamCode: 'T2' },
  none: { workshopCode: null, teamCode: null },
};
/** The expected visibility: the one rule, written out as a table. */
const VISIBLE: Record<Actor, Record<Place, boolean>> = {
  'admin*': { 'W1/T1': true, 'W2/T2': true, none: true },
  'admin W1': { 'W1/T1': true, 'W2/T2': false, none: false },
  'admin T2': { 'W1/T1': false, 'W2/T2': true, none: false },
  'manager W2': { 'W1/T1': false, 'W2/T2': true, none: false },
};
const WORKER: Record<Place, string> = { 'W1/T1': '13800000011', 'W2/T2': '13800000012', none: '13800000013' };
const tokens = {} as Record<Actor, string>;
/** Pending reports, by place (read-only routes). */
const pending = {} as Record<Place, string>;
/** Approved reports, by place (dashboard, wages; dated 2026-02 so that wages and the dashboard see them). */
const approved = {} as Record<Place, string>;
const cells = (fn: (a: Actor, p: Place) => void) => ACTORS.forEach((a) => PLACES.forEach((p) => fn(a, p)));

beforeAll(async () => {
  app = await startTestApp();
  const q = app.service.ctx.db.pool;
  await q.query(`INSERT INTO workshops (code, name, updated_at) VALUES ('W1', '冲压车间', now()), ('W2', '焊接车间', now())`);
  await q.query(`INSERT INTO teams (code, name, workshop_code, leaders, updated_at) VALUES ('T1', '冲压一班', 'W1', '{}', now()), ('T2', '焊接二班', 'W2', '{}', now())`);
  for (const a of ACTORS) tokens[a] = await app.login(PEOPLE[a].phone, PEOPLE[a].role, a);
  const boss = await app.login('13900000009', 'manager', '厂长');
  for (const a of ACTORS) {
    const scope = PEOPLE[a].scope;
    if (!scope) continue;
    const r = await app.request('PUT', `/api/people/${PEOPLE[a].phone}/scope`, { token: boss, body: { role: PEOPLE[a].role, ...scope } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  for (const p of PLACES) {
    pending[p] = (await submitReport(app.service.ctx, { phone: WORKER[p], reportDate: '2026-03-02', ...PLACEMENT[p] })).reportId;
    approved[p] = (await submitReport(app.service.ctx, { phone: WORKER[p], reportDate: '2026-02-20', ...PLACEMENT[p] })).reportId;
    const r = await app.request('POST', `/api/reviews/${approved[p]}/approve`, { token: tokens['admin*'], body: {} });
    expect(r.status).toBe(200);
  }
  await app.catchUpAll();
});
afterAll(() => app?.close());

const get = (a: Actor, path: string) => app.request('GET', path, { token: tokens[a] });
const roleAllows = (a: Actor, roles: readonly Role[]) => roles.includes(PEOPLE[a].role);

describe('scope matrix: reading one report', () => {
  it.each(['/api/reports/{id}', '/api/reports/{id}/audit-logs'])('GET %s: 200 in scope, 404 REPORT_NOT_FOUND out of it', async (route) => {
    const seen: string[] = [];
    const expected: string[] = [];
    for (const a of ACTORS) {
      for (const p of PLACES) {
        const r = await get(a, route.replace('{id}', pending[p]));
        seen.push(`${a} × ${p}: ${r.status} ${r.body?.error?.code ?? ''}`.trim());
        expected.push(`${a} × ${p}: ${VISIBLE[a][p] ? '200' : '404 REPORT_NOT_FOUND'}`);
      }
    }
    expect(seen).toEqual(expected);
  });
});

describe('scope matrix: lists and sums', () => {
  /** Each list route, who may call it, and whether the report of `p` is in its answer. */
  const LISTS: [string, readonly Role[], (body: any, p: Place) => boolean][] = [
    ['/api/reviews/pending?pageSize=100', ['admin'], (b, p) => b.items.some((i: any) => i.reportId === pending[p])],
    ['/api/reports?pageSize=100', ['admin', 'manager'], (b, p) => b.items.some((i: any) => i.reportId === pending[p])],
    ['/api/dashboard/reports?startDate=2026-02-01&endDate=2026-02-28&pageSize=100', ['admin', 'manager'], (b, p) => b.items.some((i: any) => i.employeePhone === WORKER[p])],
    ['/api/dashboard/summary?startDate=2026-02-01&endDate=2026-02-28', ['admin', 'manager'], (b, p) => b.byEmployee.some((i: any) => i.employeePhone === WORKER[p])],
    ['/api/wages?month=2026-02&pageSize=100', ['admin', 'manager'], (b, p) => b.items.some((i: any) => i.employeePhone === WORKER[p])],
    [`/api/wages/{worker}?month=2026-02`, ['admin', 'manager'], (b) => b.reports.length === 1],
  ];
  it.each(LISTS)('GET %s: the report is listed exactly when in scope (403 for a role not allowed)', async (route, roles, listed) => {
    const seen: string[] = [];
    const expected: string[] = [];
    for (const a of ACTORS) {
      for (const p of PLACES) {
        const r = await get(a, route.replace('{worker}', WORKER[p]));
        if (!roleAllows(a, roles)) {
          seen.push(`${a} × ${p}: ${r.status}`);
          expected.push(`${a} × ${p}: 403`);
          continue;
        }
        seen.push(`${a} × ${p}: ${r.status} ${listed(r.body, p) ? 'listed' : 'absent'}`);
        expected.push(`${a} × ${p}: 200 ${VISIBLE[a][p] ? 'listed' : 'absent'}`);
      }
    }
    expect(seen).toEqual(expected);
  });

  it.each([
    ['/api/dashboard/reports.xlsx?startDate=2026-02-01&endDate=2026-02-28', '看板', 1],
    ['/api/wages.xlsx?month=2026-02', '汇总', 0],
  ] as const)('GET %s: the worker is in the workbook exactly when the report is in scope', async (route, sheet, column) => {
    const seen: string[] = [];
    const expected: string[] = [];
    for (const a of ACTORS) {
      const res = await fetch(`${app.url}${route}`, { headers: { authorization: `Bearer ${tokens[a]}` } });
      expect(res.status).toBe(200);
      const book = XLSX.read(Buffer.from(await res.arrayBuffer()));
      const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[sheet], { header: 1 }).slice(1);
      for (const p of PLACES) {
        seen.push(`${a} × ${p}: ${rows.some((row) => String(row[column]) === WORKER[p]) ? 'listed' : 'absent'}`);
        expected.push(`${a} × ${p}: ${VISIBLE[a][p] ? 'listed' : 'absent'}`);
      }
    }
    expect(seen).toEqual(expected);
  });

  it('the totals add up only what is in scope: the wages summary and the pending count', async () => {
    for (const a of ACTORS) {
      const r = await get(a, '/api/wages?month=2026-02');
      const visible = PLACES.filter((p) => VISIBLE[a][p]).length;
      expect([a, r.body.totals.reports, r.body.total]).toEqual([a, visible, visible]);
      const m = await get(a, '/api/wages?month=2026-03');
      expect([a, m.body.totals.pendingReports]).toEqual([a, visible]);
    }
  });

  it('dashboard and wage rows name the team and the workshop', async () => {
    const d = await get('admin*', '/api/dashboard/reports?startDate=2026-02-01&endDate=2026-02-28');
    const row = d.body.items.find((i: any) => i.employeePhone === WORKER['W1/T1']);
    expect(row).toMatchObject({ workshopCode: 'W1', workshopName: '冲压车间', teamCode: 'T1', teamName: '冲压一班' });
    expect(d.body.items.find((i: any) => i.employeePhone === WORKER.none)).toMatchObject({ workshopCode: null, teamCode: null, teamName: null });
    const w = await get('admin*', '/api/wages?month=2026-02');
    expect(w.body.items.find((i: any) => i.employeePhone === WORKER['W2/T2'])).toMatchObject({ workshopCode: 'W2', workshopName: '焊接车间', teamCode: 'T2', teamName: '焊接二班' });
  });

  it('filters narrow within the scope: a filter outside it gives nothing', async () => {
    const phones = async (a: Actor, query: string) =>
      (await get(a, `/api/dashboard/reports?startDate=2026-02-01&endDate=2026-02-28&${query}`)).body.items.map((i: any) => i.employeePhone);
    expect(await phones('admin*', 'workshop=W1')).toEqual([WORKER['W1/T1']]);
    expect(await phones('admin*', 'team=T2')).toEqual([WORKER['W2/T2']]);
    expect(await phones('admin W1', 'workshop=W2')).toEqual([]);
    expect(await phones('manager W2', 'team=T2')).toEqual([WORKER['W2/T2']]);
    const wages = await get('admin*', '/api/wages?month=2026-02&team=T1');
    expect(wages.body.items.map((i: any) => i.employeePhone)).toEqual([WORKER['W1/T1']]);
    expect(wages.body.totals.reports).toBe(1);
    const summary = await get('admin*', '/api/dashboard/summary?startDate=2026-02-01&endDate=2026-02-28&workshop=W2');
    expect(summary.body.byEmployee.map((i: any) => i.employeePhone)).toEqual([WORKER['W2/T2']]);
  });
});

describe('scope matrix: the months (GET /api/periods)', () => {
  it('counts only the reports in scope, for the same months; wholeFactory says whose scope is the whole factory', async () => {
    for (const a of ACTORS) {
      const r = await get(a, '/api/periods');
      expect(r.status).toBe(200);
      const visible = PLACES.filter((p) => VISIBLE[a][p]).length;
      const month = (m: string) => r.body.items.find((i: any) => i.month === m);
      expect([a, r.body.wholeFactory, r.body.items.map((i: any) => i.month)]).toEqual([a, a === 'admin*', ['2026-03', '2026-02']]);
      // 2026-02: one approved report per place; 2026-03: one pending per place.
      expect([a, month('2026-02').reports, month('2026-02').pendingReports, month('2026-03').reports, month('2026-03').pendingReports]).toEqual([a, visible, 0, 0, visible]);
    }
  });
});

describe('scope matrix: acting on one report', () => {
  /** Each action: who may call it, its request, and the status when allowed and in scope. */
  const ACTIONS: [string, readonly Role[], string, unknown][] = [
    ['approve', ['admin'], 'POST /api/reviews/{id}/approve', {}],
    ['reject', ['admin'], 'POST /api/reviews/{id}/reject', { reason: '数量不对' }],
    ['change break', ['manager'], 'PATCH /api/reports/{id}/break-minutes', { breakMinutes: 30 }],
  ];
  it.each(ACTIONS)('%s: 200 in scope, 404 REPORT_NOT_FOUND out of it (nothing written), 403 for a role not allowed', async (_, roles, route, body) => {
    const [method, path] = route.split(' ');
    const seen: string[] = [];
    const expected: string[] = [];
    for (const a of ACTORS) {
      for (const p of PLACES) {
        const id = (await submitReport(app.service.ctx, { phone: WORKER[p], reportDate: '2026-03-03', ...PLACEMENT[p] })).reportId;
        const r = await app.request(method, path.replace('{id}', id), { token: tokens[a], body });
        const events = await app.service.ctx.db.pool.query(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1`, [`report-${id}`]);
        seen.push(`${a} × ${p}: ${r.status} ${r.body?.error?.code ?? ''} events ${events.rows[0].n}`);
        const want = !roleAllows(a, roles) ? '403 FORBIDDEN events 1' : VISIBLE[a][p] ? '200  events 2' : '404 REPORT_NOT_FOUND events 1';
        expected.push(`${a} × ${p}: ${want}`);
      }
    }
    expect(seen).toEqual(expected);
  });

  it('a scope narrowed after the report was read refuses the action: the scope is read by the action, not kept in the token', async () => {
    const boss = await app.login('13900000009', 'manager', '厂长');
    const phone = '13900000005';
    const token = await app.login(phone, 'admin', '临时审核员');
    const id = (await submitReport(app.service.ctx, { phone: WORKER['W1/T1'], reportDate: '2026-03-04', ...PLACEMENT['W1/T1'] })).reportId;
    expect((await app.request('GET', `/api/reports/${id}`, { token })).status).toBe(200);
    expect((await app.request('PUT', `/api/people/${phone}/scope`, { token: boss, body: { role: 'admin', workshops: ['W2'] } })).status).toBe(200);
    const r = await app.request('POST', `/api/reviews/${id}/approve`, { token, body: {} });
    expect([r.status, r.body.error.code]).toEqual([404, 'REPORT_NOT_FOUND']);
  });
});

describe('close: only a manager of the whole factory', () => {
  it('a scoped manager gets 403 CLOSE_NEEDS_WHOLE_FACTORY for close and reopen; nothing is closed', async () => {
    const close = await app.request('POST', '/api/periods/2026-02/close', { token: tokens['manager W2'] });
    expect([close.status, close.body.error.code]).toEqual([403, 'CLOSE_NEEDS_WHOLE_FACTORY']);
    expect(close.body.error.message).toContain('全厂');
    const reopen = await app.request('POST', '/api/periods/2026-02/reopen', { token: tokens['manager W2'], body: { reason: '补录' } });
    expect([reopen.status, reopen.body.error.code]).toEqual([403, 'CLOSE_NEEDS_WHOLE_FACTORY']);
    const periods = await app.service.ctx.db.pool.query(`SELECT count(*)::int AS n FROM periods`);
    expect(periods.rows[0].n).toBe(0);
  });
});

describe('nobody reviews their own report', () => {
  it('a worker who is also an administrator or manager: 403 SELF_REVIEW for approve, reject and break change; nothing written', async () => {
    const phone = '13800000021';
    await app.login(phone, 'worker', '赵六');
    const asAdmin = await app.login(phone, 'admin', '赵六');
    const asManager = await app.login(phone, 'manager', '赵六');
    const id = (await submitReport(app.service.ctx, { phone, reportDate: '2026-03-05' })).reportId;
    const answers = [
      await app.request('POST', `/api/reviews/${id}/approve`, { token: asAdmin, body: {} }),
      await app.request('POST', `/api/reviews/${id}/approve`, { token: asAdmin, body: { lines: [{ productId: 901, finishedQty: 1, defectiveQty: 0 }] } }),
      await app.request('POST', `/api/reviews/${id}/reject`, { token: asAdmin, body: { reason: '自己驳回' } }),
      await app.request('PATCH', `/api/reports/${id}/break-minutes`, { token: asManager, body: { breakMinutes: 0 } }),
    ];
    expect(answers.map((r) => [r.status, r.body.error.code])).toEqual(Array(4).fill([403, 'SELF_REVIEW']));
    expect(answers[0].body.error.message).toBe('这是您自己的报工单，不能由您审核，请交给其他管理员审核');
    expect(answers[3].body.error.message).toBe('这是您自己的报工单，不能由您修改休息时间，请让其他经理修改');
    const events = await app.service.ctx.db.pool.query(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1`, [`report-${id}`]);
    expect(events.rows[0].n).toBe(1);
    // Another administrator may.
    expect((await app.request('POST', `/api/reviews/${id}/approve`, { token: tokens['admin*'], body: {} })).status).toBe(200);
  });

  it('the people list shows each reviewing role\'s scope', async () => {
    const boss = await app.login('13900000009', 'manager', '厂长');
    const r = await app.request('GET', '/api/people?keyword=1390000000&pageSize=100', { token: boss });
    const scopeOf = (phone: string) => r.body.items.find((i: any) => i.phone === phone).scope;
    expect(scopeOf(PEOPLE['admin W1'].phone)).toEqual([{ role: 'admin', workshops: ['W1'], teams: [] }]);
    expect(scopeOf(PEOPLE['manager W2'].phone)).toEqual([{ role: 'manager', workshops: ['W2'], teams: [] }]);
    expect(scopeOf(PEOPLE['admin*'].phone)).toEqual([{ role: 'admin', workshops: [], teams: [] }]);
  });
});

describe('sums by placement: replay equals the incremental result', () => {
  it('the dashboard and wage tables rebuilt from the events are the same rows, keyed by workshop and team', async () => {
    const pool = app.service.ctx.db.pool;
    // A break change after approval and a report of the W1 worker moved to T2 on the same day: two rows that day.
    const moved = (await submitReport(app.service.ctx, { phone: WORKER['W1/T1'], reportDate: '2026-02-20', ...PLACEMENT['W2/T2'] })).reportId;
    expect((await app.request('POST', `/api/reviews/${moved}/approve`, { token: tokens['admin*'], body: {} })).status).toBe(200);
    const boss = await app.login('13900000009', 'manager', '厂长');
    expect((await app.request('PATCH', `/api/reports/${approved['W1/T1']}/break-minutes`, { token: boss, body: { breakMinutes: 30 } })).status).toBe(200);
    await app.catchUpAll();
    const snapshot = async () => ({
      daily: (await pool.query(`SELECT * FROM dashboard_daily ORDER BY report_date, employee_phone, workshop_key, team_key`)).rows,
      days: (await pool.query(`SELECT * FROM dashboard_days ORDER BY report_date, workshop_key, team_key`)).rows,
      contributions: (await pool.query(`SELECT * FROM dashboard_report_contributions ORDER BY report_id`)).rows,
      wages: (await pool.query(`SELECT * FROM wage_lines ORDER BY report_id, line_no`)).rows,
    });
    const before = await snapshot();
    const feb = before.daily.filter((r: any) => r.employee_phone === WORKER['W1/T1'] && r.report_date === '2026-02-20').map((r: any) => [r.workshop_key, r.team_key, r.report_count]);
    expect(feb).toEqual([
      ['W1', 'T1', 1],
      ['W2', 'T2', 1],
    ]);
    expect(before.days.filter((d: any) => d.report_date === '2026-02-20').map((d: any) => [d.workshop_key, d.team_key, d.row_count])).toEqual([
      ['', '', 1],
      ['W1', 'T1', 1],
      ['W2', 'T2', 2],
    ]);
    await replayProjection(pool, app.service.ctx.store, dashboardProjection);
    await replayProjection(pool, app.service.ctx.store, wagesProjection);
    await app.catchUpAll();
    expect(await snapshot()).toEqual(before);
    // The W2 reviewer's dashboard: the W1 worker's T2 row only.
    const d = await get('manager W2', '/api/dashboard/reports?startDate=2026-02-01&endDate=2026-02-28');
    expect(d.body.items.map((i: any) => [i.employeePhone, i.teamCode])).toEqual([
      [WORKER['W1/T1'], 'T2'],
      [WORKER['W2/T2'], 'T2'],
    ]);
    expect(d.body.total).toBe(2);
  });
});

describe('the scope is a guarded fact of a review (commands/facts.ts reportInScope)', () => {
  it('a scope narrowed between the decision and the append writes nothing: the append is refused, the retry reads the new scope → REPORT_NOT_FOUND', async () => {
    const ctx = app.service.ctx;
    const phone = '13900000006';
    await app.login(phone, 'admin', '并发审核员');
    const id = (await submitReport(ctx, { phone: WORKER['W1/T1'], reportDate: '2026-03-06', ...PLACEMENT['W1/T1'] })).reportId;
    let loads = 0;
    const repository = ctx.commands.repository;
    const racing: Repository = {
      async load<S>(q: Queryable, stream: StreamQuery<S>, query: FactQuery, fresh: boolean) {
        const loaded = await repository.load(q, stream, query, fresh);
        // Right after the first load (the decision is made on it), another manager narrows the scope to W2.
        if (++loads === 1) {
          await ctx.db.pool.query(
            `INSERT INTO scopes (phone, role, workshops, teams, set_at) VALUES ($1, 'admin', '{W2}', '{}', now())
             ON CONFLICT (phone, role) DO UPDATE SET workshops = '{W2}'`,
            [phone],
          );
        }
        return loaded;
      },
      remember: repository.remember.bind(repository),
      forget: repository.forget.bind(repository),
    };
    const { approveReport } = await import('../../src/commands/review/handlers.ts');
    const deps = { commands: { ...ctx.commands, repository: racing }, clockSettings: ctx.clockSettings };
    await expect(approveReport(deps, { phone, role: 'admin' }, id, undefined)).rejects.toMatchObject({ code: 'REPORT_NOT_FOUND' });
    expect(loads).toBe(2); // the first decision's append was refused by its guard; the second load saw the scope
    const events = await ctx.db.pool.query(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1`, [`report-${id}`]);
    expect(events.rows[0].n).toBe(1);
  });
});
