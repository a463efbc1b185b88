/**
 * The break computed from the shift, through the service (its "Done when"): a
 * worker of a team with a day shift 08:00–17:00 and lunch 12:00–13:00 clocks in at 08:00 and out at 17:00 → the
 * draft and the report show 60 minutes from the shift 白班; out at 11:30 → 0; a worker in no team → the default
 * break; a manager's change → `manager`; a night shift 22:00–06:00 with 00:00–00:30 → 30. The events carry it, the
 * report views show it, and a shift or an override changed after a worker's calendar was kept (by a submission or by
 * the draft) still gives the new break.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { addProduct, workerClient } from '../clock/helpers.ts';

let app: TestApp;
let manager: string;
let admin: string;
let product: number;
const shiftIds: Record<string, string> = {};
const DEVICE = 'JC-B1';
const call = (method: string, path: string, body?: unknown, token = manager) => app.request(method, path, { token, body });

/** One session of `phone` from `inAt` to `outAt` (local ISO with offset), submitted at `outAt` + 2 min. */
async function session(phone: string, inAt: string, outAt: string) {
  const token = await app.login(phone, 'worker', `员工${phone.slice(-2)}`);
  const w = workerClient(app, token);
  app.clock.set(inAt);
  const started = await w.start(DEVICE);
  expect(started.status).toBe(200);
  app.clock.set(outAt);
  expect((await w.finish(DEVICE)).status).toBe(200);
  app.clock.advance(2 * 60_000);
  const draft = await w.draft(started.body.sessionId);
  expect(draft.status).toBe(200);
  const submitted = await w.submit(started.body.sessionId, [{ productId: product, finishedQty: 10, defectiveQty: 0 }]);
  expect(submitted.status).toBe(201);
  const report = await call('GET', `/api/reports/${submitted.body.reportId}`, undefined, admin);
  const event = await app.service.ctx.db.pool.query(`SELECT data FROM events WHERE stream_id = $1 AND event_type = 'ReportSubmitted'`, [`report-${submitted.body.reportId}`]);
  return { token, draft: draft.body, reportId: submitted.body.reportId as string, report: report.body, event: event.rows[0].data, w };
}

beforeAll(async () => {
  app = await startTestApp({ DEFAULT_BREAK_MINUTES: '45' });
  manager = await app.login('13800000002', 'manager', '李经理');
  admin = await app.login('13800000004', 'admin', '王管理');
  product = await addProduct(app, DEVICE);
  for (const [code, name] of [['W1', '一车间'], ['W2', '二车间']]) expect((await call('POST', '/api/workshops', { code, name })).status).toBe(201);
  for (const [code, name, workshopCode] of [['DAY', '白班组', 'W2'], ['NIGHT', '夜班组', 'W1']]) {
    expect((await call('POST', '/api/teams', { code, name, workshopCode, leaders: ['13800000002'] })).status).toBe(201);
  }
  const day = await call('POST', '/api/shifts', { name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '13:00' }, { start: '15:00', end: '15:10', paid: true }] });
  const night = await call('POST', '/api/shifts', { name: '夜班', start: '22:00', end: '06:00', breaks: [{ start: '00:00', end: '00:30' }] });
  shiftIds.day = day.body.shiftId;
  shiftIds.night = night.body.shiftId;
  expect((await call('POST', '/api/teams/DAY/shift-assignments', { validFrom: '2026-03-01', rotation: [shiftIds.day] })).status).toBe(201);
  expect((await call('POST', '/api/teams/NIGHT/shift-assignments', { validFrom: '2026-03-01', rotation: [shiftIds.night] })).status).toBe(201);
  for (const [phone, teamCode] of [['13900000001', 'DAY'], ['13900000002', 'DAY'], ['13900000004', 'NIGHT'], ['13900000005', 'DAY']]) {
    await app.login(phone, 'worker');
    expect((await call('POST', '/api/memberships', { phone, teamCode, validFrom: '2026-03-01' })).status).toBe(200);
  }
});
afterAll(() => app.close());

describe('the break of a report comes from the worker’s shift', () => {
  let dayReport = '';

  it('08:00–17:00 under 白班 (lunch 12:00–13:00, a paid 10-minute break) → 60 minutes from the shift, in the draft, the event and the report', async () => {
    const s = await session('13900000001', '2026-03-02T08:00:00+08:00', '2026-03-02T17:00:00+08:00');
    dayReport = s.reportId;
    expect(s.draft).toMatchObject({ breakMinutes: 60, breakSource: 'shift', shift: { shiftId: shiftIds.day, name: '白班' } });
    expect(s.event).toMatchObject({ breakMinutes: 60, breakSource: 'shift', shift: { shiftId: shiftIds.day, name: '白班' }, workshopCode: 'W2', teamCode: 'DAY' });
    expect(s.report).toMatchObject({ breakMinutes: 60, breakSource: 'shift', shiftName: '白班', effectiveSeconds: 8 * 3600 });
    const mine = await s.w.mine();
    expect(mine.body.items[0]).toMatchObject({ reportId: s.reportId, breakMinutes: 60, breakSource: 'shift', shiftName: '白班' });
  });

  it('a worker who clocks out at 11:30 has no break deducted (0, from the shift)', async () => {
    const s = await session('13900000002', '2026-03-02T08:00:00+08:00', '2026-03-02T11:30:00+08:00');
    expect(s.draft).toMatchObject({ breakMinutes: 0, breakSource: 'shift', shift: { name: '白班' } });
    expect(s.report).toMatchObject({ breakMinutes: 0, breakSource: 'shift', shiftName: '白班', effectiveSeconds: 3.5 * 3600 });
  });

  it('a worker in no team: DEFAULT_BREAK_MINUTES, source default, no shift', async () => {
    const s = await session('13900000003', '2026-03-02T08:00:00+08:00', '2026-03-02T17:00:00+08:00');
    expect(s.draft).toMatchObject({ breakMinutes: 45, breakSource: 'default', shift: null });
    expect(s.event).toMatchObject({ breakMinutes: 45, breakSource: 'default', shift: null, workshopCode: null, teamCode: null });
    expect(s.report).toMatchObject({ breakMinutes: 45, breakSource: 'default', shiftName: null });
  });

  it('a night shift 22:00–06:00 with 00:00–00:30: the window after midnight counts → 30, dated the day of submission', async () => {
    const s = await session('13900000004', '2026-03-02T22:00:00+08:00', '2026-03-03T06:00:00+08:00');
    expect(s.draft).toMatchObject({ breakMinutes: 30, breakSource: 'shift', shift: { shiftId: shiftIds.night, name: '夜班' } });
    expect(s.report).toMatchObject({ reportDate: '2026-03-03', breakMinutes: 30, breakSource: 'shift', shiftName: '夜班' });
  });

  it('a manager changes the break → source manager (audited as before); the pending queue shows it', async () => {
    const changed = await call('PATCH', `/api/reports/${dayReport}/break-minutes`, { breakMinutes: 30, reason: '午休缩短' });
    expect(changed.status).toBe(200);
    const report = await call('GET', `/api/reports/${dayReport}`, undefined, admin);
    expect(report.body).toMatchObject({ breakMinutes: 30, breakSource: 'manager', shiftName: null });
    const audit = await call('GET', `/api/reports/${dayReport}/audit-logs`, undefined, admin);
    expect(audit.body.items.map((i: any) => i.action)).toContain('break_changed');
    const pending = await call('GET', '/api/reviews/pending?pageSize=50', undefined, admin);
    const sources = Object.fromEntries(pending.body.items.map((i: any) => [i.reportId, [i.breakSource, i.shiftName]]));
    expect(sources[dayReport]).toEqual(['manager', null]);
  });

  it('a shift changed after the worker’s calendar was read (and cached) gives the new break at the next submission', async () => {
    // The first session of the day fills this process's cache of the worker's calendar for 2026-03-04.
    const first = await session('13900000005', '2026-03-04T08:00:00+08:00', '2026-03-04T09:00:00+08:00');
    expect(first.report).toMatchObject({ breakMinutes: 0, breakSource: 'shift' });
    const put = await call('PUT', `/api/shifts/${shiftIds.day}`, { name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '12:30' }] });
    expect(put.status).toBe(200);
    const second = await session('13900000005', '2026-03-04T10:00:00+08:00', '2026-03-04T17:00:00+08:00');
    expect(second.draft).toMatchObject({ breakMinutes: 30, breakSource: 'shift' });
    expect(second.report).toMatchObject({ breakMinutes: 30, breakSource: 'shift', shiftName: '白班' });
  });

  it('the calendar changed between the draft (which kept it) and the submission: the report and a new draft follow the change', async () => {
    const token = await app.login('13900000002', 'worker', '员工02');
    const w = workerClient(app, token);
    app.clock.set('2026-03-06T08:00:00+08:00');
    const started = await w.start(DEVICE);
    app.clock.set('2026-03-06T17:00:00+08:00');
    expect((await w.finish(DEVICE)).status).toBe(200);
    const before = await w.draft(started.body.sessionId);
    expect(before.body).toMatchObject({ breakMinutes: 30, breakSource: 'shift', shift: { name: '白班' } });
    // Kept in the process with its stream heads; the override moves team-shifts-DAY.
    expect(app.service.ctx.calendars?.get('13900000002', '2026-03-06')?.days.map((d) => d.shift?.name ?? null)).toEqual(['白班', '白班', '白班']);
    expect((await call('PUT', `/api/teams/DAY/shift-overrides/2026-03-06`, { shiftId: shiftIds.night })).status).toBe(204);
    const after = await w.draft(started.body.sessionId);
    expect(after.body).toMatchObject({ breakMinutes: 0, breakSource: 'shift', shift: { name: '夜班' } });
    expect((await call('PUT', `/api/teams/DAY/shift-overrides/2026-03-06`, { shiftId: null })).status).toBe(204);
    const submitted = await w.submit(started.body.sessionId, [{ productId: product, finishedQty: 10, defectiveQty: 0 }]);
    expect(submitted.status).toBe(201);
    const report = await call('GET', `/api/reports/${submitted.body.reportId}`, undefined, admin);
    expect(report.body).toMatchObject({ breakMinutes: 45, breakSource: 'default', shiftName: null });
  });

  it('a day off by override: the default break', async () => {
    expect((await call('PUT', `/api/teams/DAY/shift-overrides/2026-03-05`, { shiftId: null })).status).toBe(204);
    const s = await session('13900000001', '2026-03-05T08:00:00+08:00', '2026-03-05T17:00:00+08:00');
    expect(s.report).toMatchObject({ breakMinutes: 45, breakSource: 'default', shiftName: null });
  });
});
