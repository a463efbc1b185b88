/**
 * The API document is an exact contract. Every answer of the end-to-end scenario (demo/scenario.ts: a
 * whole working day through HTTP), then of a tour through every other operation and the errors a client meets,
 * is checked against `/api/openapi.json` with ajv (test/helpers/contract.ts): status, content type and body, and
 * for accepted requests, that the document accepts them too. Zero deviations, and every documented operation
 * answered with its success status at least once. The examples of the document are checked against their schemas.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runScenario } from '../../demo/scenario.ts';
import { cliCommands } from '../../src/cli/commands.ts';
import { CONTROL_HEADER, openControlChannel, readControlFile } from '../../src/http/control-channel.ts';
import { startTestApp, type TestApp, type TestResponse } from '../helpers/app.ts';
import { SchemaChecker, contractDeviations, recordFetch, type Exchange } from '../helpers/contract.ts';
import { workbook } from '../products/support.ts';

let app: TestApp;
let doc: any;
let dir: string;
const exchanges: Exchange[] = [];

beforeAll(async () => {
  // PGLITE_DIR only names where the console-link control file goes (the database is the harness's).
  dir = mkdtempSync(join(tmpdir(), 'contract-'));
  app = await startTestApp({ PGLITE_DIR: join(dir, 'pglite') }, '2026-03-02T07:30:00+08:00');
  app.service.background.start();
  const recording = recordFetch();
  try {
    await firstAdministrator();
    await runScenario({
      baseUrl: app.url,
      setTime: (iso) => app.clock.set(iso),
      addFirstAdmin: async (phone, name) => {
        expect(await cliCommands['people:add'].run(app.service.ctx, [phone, name, 'admin'])).toBe(0);
      },
      print: () => {},
    });
    await tour();
  } finally {
    exchanges.push(...(await recording.stop()));
  }
  doc = (await app.request('GET', '/api/openapi.json')).body;
}, 120_000);
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Calls of the tour, through the recorded fetch. */
const call = (method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}) =>
  app.request(method, path, { token, body, headers });

async function upload(path: string, token: string, bytes: Buffer, name: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  return fetch(app.url + path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
}

/** Before the working day: the console's login page adds the first administrator (with the simulator). */
async function firstAdministrator(): Promise<void> {
  expect((await call('GET', '/api/auth/web-login/setup')).body).toMatchObject({ hasAdministrator: false, simulator: true });
  const added = await call('POST', '/api/auth/web-login/first-admin', undefined, { phone: '13800000001', name: '王管理' });
  expect([added.status, added.body.result]).toEqual([201, 'created']);
}

/** The web console's sign-in: scan-to-login, the mini-program's confirmation, the session, a link. */
async function consoleSignIn(admin: string, manager: string): Promise<void> {
  const started = await call('POST', '/api/auth/web-login');
  expect(started.status).toBe(201);
  const key = started.body.scene.slice('w='.length);
  const code = await call('GET', started.body.codeUrl);
  expect([code.status, code.headers.get('content-type')]).toEqual([200, 'image/png']);
  expect((await call('GET', `/api/auth/web-login/${started.body.ticket}`)).body.status).toBe('pending');
  expect((await call('POST', '/api/auth/web-login/confirm', admin, { key })).body.status).toBe('confirmed');
  const confirmed = await call('GET', `/api/auth/web-login/${started.body.ticket}`);
  expect([confirmed.status, confirmed.body.status, typeof confirmed.body.token]).toEqual([200, 'confirmed', 'string']);
  expect((await call('GET', `/api/auth/web-login/${started.body.ticket}`)).status).toBe(409);
  expect((await call('POST', '/api/auth/web-session/switch-role', manager, { role: 'admin' })).status).toBe(200);
  expect((await call('DELETE', '/api/auth/web-session')).status).toBe(204);
  openControlChannel(app.config, app.service.port);
  const secret = readControlFile(app.config)?.secret ?? '';
  const link = await call('POST', '/api/auth/console-link', undefined, { phone: '13800000001' }, { [CONTROL_HEADER]: secret });
  expect([link.status, link.body.role]).toEqual([201, 'admin']);
}

/** The operations and errors the scenario does not reach, each asserted as it goes. */
async function tour(): Promise<void> {
  const admin = await app.login('13800000001', 'admin', '王管理');
  const manager = await app.login('13800000002', 'manager', '李经理');
  const worker = await app.login('13900000011', 'worker', '张三');
  const expectStatus = async (p: Promise<TestResponse>, status: number, code?: string) => {
    const r = await p;
    expect([r.status, r.body?.error?.code]).toEqual([status, code]);
    return r;
  };

  // System.
  await expectStatus(call('GET', '/api/health'), 200);
  await expectStatus(call('GET', '/api/openapi.json'), 200);
  await expectStatus(call('GET', '/api/docs'), 200);
  await expectStatus(call('GET', '/api/docs/scalar.js'), 200);

  // Products: create, unchanged, update, list, delete, refusals.
  const product = { projectNo: 'XM-T', productName: '测试件', deviceNo: 'JC-01', processName: '冲压', standardCycleSeconds: 20 };
  expect((await expectStatus(call('POST', '/api/products', admin, product), 200)).body.result).toBe('created');
  expect((await expectStatus(call('POST', '/api/products', admin, product), 200)).body.result).toBe('unchanged');
  expect((await expectStatus(call('POST', '/api/products', admin, { ...product, standardWorkload: 100, operatorCount: null }), 200)).body.result).toBe('updated');
  await expectStatus(call('GET', '/api/products?keyword=%E6%B5%8B%E8%AF%95&deviceNo=JC-01&page=1&pageSize=5', admin), 200);
  const key = new URLSearchParams({ projectNo: 'XM-T', productName: '测试件', deviceNo: 'JC-01', processName: '冲压' });
  await expectStatus(call('DELETE', `/api/products?${key}`, admin), 200);
  await expectStatus(call('DELETE', `/api/products?${key}`, admin), 404, 'PRODUCT_NOT_FOUND');
  await expectStatus(call('POST', '/api/products', admin, { ...product, standardCycleSeconds: 0 }), 422, 'PRODUCT_INVALID');
  await expectStatus(call('POST', '/api/products', admin, { ...product, standardCycleSeconds: '20' }), 422, 'VALIDATION_FAILED');
  await expectStatus(call('GET', '/api/products', worker), 403, 'FORBIDDEN');

  // People: list, save, remove a role (204), refusals, body errors.
  await expectStatus(call('GET', '/api/people?role=worker&keyword=%E5%BC%A0', manager), 200);
  await expectStatus(call('POST', '/api/people', admin, { phone: '13900000099', name: '测试员', role: '员工' }), 200);
  await expectStatus(call('DELETE', '/api/people/13900000099?role=worker', admin), 204);
  await expectStatus(call('DELETE', '/api/people/13900000099?role=worker', admin), 404, 'PERSON_ROLE_NOT_FOUND');
  await expectStatus(call('POST', '/api/people', admin, { phone: '12345', name: '测试员', role: '员工' }), 422, 'PERSON_INVALID');
  await expectStatus(call('POST', '/api/people', admin, '{"phone":', { 'content-type': 'application/json' }), 400, 'MALFORMED_JSON');
  await expectStatus(call('POST', '/api/people', admin, '{}', { 'content-type': 'application/json; charset=latin1' }), 415, 'UNSUPPORTED_ENCODING');
  await expectStatus(call('POST', '/api/people', admin, { phone: 'x'.repeat(300_000) }), 413, 'PAYLOAD_TOO_LARGE');
  await expectStatus(call('GET', '/api/people?keyword=%00', admin), 422, 'INVALID_CHARACTERS');

  // Imports: refusals of the upload and the confirmation.
  const notMultipart = await fetch(`${app.url}/api/products/import`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'text/plain' }, body: 'x' });
  expect(notMultipart.status).toBe(400);
  expect((await upload('/api/people/import', admin, Buffer.from('not a workbook'), 'x.xlsx')).status).toBe(422);
  await expectStatus(call('POST', '/api/products/import/3d8f6a2c-1b4e-4f7a-9c5d-0e2f4a6b8c1d/confirm', admin), 404, 'IMPORT_NOT_FOUND');

  // Devices and their codes.
  await expectStatus(call('GET', '/api/devices?pageSize=50', admin), 200);
  const code = await expectStatus(call('POST', `/api/devices/${encodeURIComponent('2号 压机')}/qrcode`, manager), 200);
  await expectStatus(call('POST', '/api/devices/NO-SUCH/qrcode', manager), 404, 'DEVICE_NOT_FOUND');
  expect((await fetch(app.url + code.body.url)).status).toBe(200);
  await expectStatus(call('GET', '/api/device-codes/AAAAAAAAAA.png'), 404, 'DEVICE_CODE_NOT_FOUND');
  app.simulator.failNext('getwxacodeunlimit', 41030);
  await expectStatus(call('POST', '/api/devices/JC-01/qrcode', admin), 502, 'PLATFORM_PAGE_NOT_FOUND');

  // Accounts: me, role switch, the choose_phone → choose_role → ok path, refusals.
  await expectStatus(call('GET', '/api/auth/me', manager), 200);
  await expectStatus(call('GET', '/api/auth/me'), 401, 'UNAUTHORIZED');
  await expectStatus(call('GET', '/api/auth/me', 'not-a-token'), 401, 'INVALID_TOKEN');
  await expectStatus(call('POST', '/api/auth/switch-role', manager, { role: 'admin' }), 200);
  await expectStatus(call('POST', '/api/auth/switch-role', manager, { role: 'worker' }), 403, 'ROLE_NOT_HELD');
  const phones = await expectStatus(call('POST', '/api/auth/platform-login', undefined, { code: 'sim:tour#1', phoneCode: ['sim:13800000002#t', 'sim:13900000011#t'] }), 200);
  expect(phones.body.status).toBe('choose_phone');
  const roles = await expectStatus(call('POST', '/api/auth/platform-login/complete', undefined, { ticket: phones.body.ticket, phone: '13800000002' }), 200);
  expect(roles.body.status).toBe('choose_role');
  await expectStatus(call('POST', '/api/auth/platform-login/complete', undefined, { ticket: roles.body.ticket, role: 'worker' }), 403, 'ROLE_NOT_HELD');
  await expectStatus(call('POST', '/api/auth/platform-login/complete', undefined, { ticket: 'forged' }), 401, 'LOGIN_TICKET_INVALID');
  await expectStatus(call('POST', '/api/auth/platform-login', undefined, { code: 'sim:tour#2' }), 422, 'VALIDATION_FAILED');
  app.simulator.failNext('jscode2session', 40199);
  await expectStatus(call('POST', '/api/auth/platform-login', undefined, { code: 'sim:tour#3', phoneCode: 'sim:13900000011#t2' }), 502, 'PLATFORM_ERROR');
  for (let i = 0; i < 20; i++) await expectStatus(call('POST', '/api/auth/platform-login', undefined, { code: `sim:flood#${i}`, phoneCode: `sim:13911112222#${i}` }), 403, 'PHONE_NOT_REGISTERED');
  const limited = await expectStatus(call('POST', '/api/auth/platform-login', undefined, { code: 'sim:flood#x', phoneCode: 'sim:13911112222#x' }), 429, 'TOO_MANY_LOGIN_ATTEMPTS');
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

  // The worker's refusals.
  await expectStatus(call('GET', '/api/clock/state', worker), 422, 'VALIDATION_FAILED');
  await expectStatus(call('GET', '/api/clock/state?deviceNo=JC-01&deviceKey=x', worker), 422, 'VALIDATION_FAILED');
  await expectStatus(call('GET', '/api/clock/state?deviceNo=NO-SUCH', worker), 404, 'DEVICE_NOT_FOUND');
  await expectStatus(call('POST', '/api/clock/switch-device', worker, { deviceNo: 'JC-01' }), 409, 'CLOCK_STATE_CONFLICT');
  await expectStatus(call('GET', '/api/reports/draft?sessionId=8a6e0804-2bd0-4672-b79d-d97358571dd8', worker), 404, 'SESSION_NOT_FOUND');
  await expectStatus(call('POST', '/api/reports', worker, { sessionId: 'x', lines: [] }), 422, 'VALIDATION_FAILED');
  await expectStatus(call('GET', '/api/reports/mine?status=approved&startDate=2026-03-01&endDate=2026-03-31&page=1&pageSize=10', worker), 200);
  await expectStatus(call('GET', '/api/reports/mine?startDate=2026-03-31&endDate=2026-03-01', worker), 422, 'INVALID_DATE_RANGE');

  // Wages and the monthly close: the scenario closed March twice; it is reopened for the review's refusals below.
  await expectStatus(call('POST', '/api/periods/2026-03/reopen', manager, {}), 422, 'VALIDATION_FAILED');
  await expectStatus(call('POST', '/api/periods/2026-03/reopen', manager, { reason: ' ' }), 422, 'INVALID_REASON');
  await expectStatus(call('POST', '/api/periods/2026-03/reopen', manager, { reason: '核对审核记录' }), 200);
  await expectStatus(call('POST', '/api/periods/2026-03/reopen', manager, { reason: '核对审核记录' }), 409, 'PERIOD_NOT_CLOSED');
  await expectStatus(call('POST', '/api/periods/2026-13/close', manager), 422, 'VALIDATION_FAILED');
  const notEnded = await expectStatus(call('POST', '/api/periods/2026-04/close', manager), 409, 'PERIOD_NOT_ENDED');
  expect(notEnded.body.error.details.blockers).toEqual(['PERIOD_NOT_ENDED']);
  await expectStatus(call('POST', '/api/periods/2026-03/close', admin), 403, 'FORBIDDEN');
  await expectStatus(call('GET', '/api/periods', worker), 403, 'FORBIDDEN');
  await expectStatus(call('GET', '/api/wages?page=1&pageSize=5', admin), 200);
  await expectStatus(call('GET', '/api/wages?month=2026-3', manager), 422, 'VALIDATION_FAILED');
  await expectStatus(call('GET', '/api/wages/12345?month=2026-03', manager), 422, 'VALIDATION_FAILED');
  await expectStatus(call('GET', '/api/wages/13900000011?month=2026-03', worker), 403, 'FORBIDDEN');
  await expectStatus(call('GET', '/api/wages/mine', worker), 200);
  await expectStatus(call('GET', '/api/products/999999/rates', admin), 404, 'PRODUCT_NOT_FOUND');
  await expectStatus(call('POST', '/api/products/999999/rates', admin, { pieceRate: '1', effectiveFrom: '2026-04-01' }), 404, 'PRODUCT_NOT_FOUND');
  await expectStatus(call('POST', '/api/products/999999/rates', admin, { pieceRate: '1.00001', effectiveFrom: '2026-04-01' }), 422, 'VALIDATION_FAILED');

  // Review and report administration.
  const mine = await expectStatus(call('GET', '/api/reviews/mine?startDate=2026-03-02&endDate=2026-03-02', admin), 200);
  const rejected = mine.body.items.find((r: any) => r.status === 'rejected');
  const approved = mine.body.items.find((r: any) => r.status === 'approved');
  await expectStatus(call('POST', `/api/reviews/${approved.reportId}/reject`, admin, { reason: '再看看' }), 409, 'REPORT_ALREADY_REVIEWED');
  await expectStatus(call('POST', '/api/reviews/8a6e0804-2bd0-4672-b79d-d97358571dd8/approve', admin, {}), 404, 'REPORT_NOT_FOUND');
  await expectStatus(call('PATCH', `/api/reports/${rejected.reportId}/break-minutes`, manager, { breakMinutes: 30 }), 409, 'REPORT_REJECTED');
  await expectStatus(call('PATCH', `/api/reports/${approved.reportId}/break-minutes`, manager, { breakMinutes: 9999 }), 422, 'BREAK_EXCEEDS_WORKING_TIME');
  await expectStatus(call('PATCH', `/api/reports/${approved.reportId}/break-minutes`, manager, { breakMinutes: 1.5 }), 422, 'INVALID_BREAK_MINUTES');
  // The mini-program's way (wx.request has no PATCH): the same operation by POST.
  await expectStatus(call('POST', `/api/reports/${approved.reportId}/break-minutes`, manager, { breakMinutes: approved.breakMinutes }), 200);
  await expectStatus(call('GET', `/api/reports/${approved.reportId}/audit-logs?page=1`, admin), 200);
  await expectStatus(call('GET', '/api/reports/8a6e0804-2bd0-4672-b79d-d97358571dd8/audit-logs', admin), 404, 'REPORT_NOT_FOUND');
  await expectStatus(call('GET', '/api/dashboard/reports?startDate=2026-03-02', manager), 422, 'INVALID_DATE_RANGE');

  // March closed again, then every write into it refused.
  await expectStatus(call('POST', '/api/periods/2026-03/close', manager), 200);
  await expectStatus(call('POST', '/api/periods/2026-03/close', manager), 409, 'PERIOD_ALREADY_CLOSED');
  await expectStatus(call('POST', `/api/reviews/${approved.reportId}/reject`, admin, { reason: '再看看' }), 409, 'PERIOD_CLOSED');
  await expectStatus(call('POST', `/api/products/${approved.lines[0].productId}/rates`, manager, { pieceRate: '1', effectiveFrom: '2026-03-15' }), 409, 'PERIOD_CLOSED');

  // The console's reads and its sign-in.
  const listed = await expectStatus(call('GET', '/api/reports?startDate=2026-03-01&endDate=2026-03-31&status=approved&page=1&pageSize=5', manager), 200);
  await expectStatus(call('GET', `/api/reports/${listed.body.items[0].reportId}`, manager), 200);
  await expectStatus(call('GET', '/api/reports/8a6e0804-2bd0-4672-b79d-d97358571dd8', manager), 404, 'REPORT_NOT_FOUND');
  await expectStatus(call('GET', '/api/dashboard/summary?startDate=2026-03-01&endDate=2026-03-31', manager), 200);
  await consoleSignIn(admin, manager);

  // The organization: workshops, teams, memberships, devices' workshops, and their refusals.
  await expectStatus(call('POST', '/api/workshops', manager, { code: 'T1', name: '测试车间' }), 201);
  await expectStatus(call('POST', '/api/workshops', manager, { code: 'T1', name: '测试车间' }), 409, 'WORKSHOP_EXISTS');
  await expectStatus(call('PUT', '/api/workshops/T1', admin, { name: '测试一车间' }), 200);
  await expectStatus(call('PUT', '/api/workshops/T9', admin, { name: 'x' }), 404, 'WORKSHOP_NOT_FOUND');
  await expectStatus(call('POST', '/api/teams', manager, { code: 'T1-A', name: '测试一班', workshopCode: 'T1', leaders: ['13800000002'] }), 201);
  await expectStatus(call('POST', '/api/teams', manager, { code: 'T1-A', name: '测试一班', workshopCode: 'T1', leaders: ['13800000002'] }), 409, 'TEAM_EXISTS');
  await expectStatus(call('POST', '/api/teams', manager, { code: 'T1-B', name: '测试二班', workshopCode: 'T1', leaders: ['13999999990'] }), 422, 'LEADER_NOT_FOUND');
  await expectStatus(call('PUT', '/api/teams/T1-A', manager, { name: '测试甲班', workshopCode: 'T1', leaders: ['13800000002'] }), 200);
  await expectStatus(call('PUT', '/api/teams/T1-Z', manager, { name: '测试甲班', workshopCode: 'T1', leaders: ['13800000002'] }), 404, 'TEAM_NOT_FOUND');
  await expectStatus(call('POST', '/api/memberships', manager, { phone: '13900000011', teamCode: 'T1-A', validFrom: '2026-04-01' }), 200);
  await expectStatus(call('POST', '/api/memberships', manager, { phone: '13900000011', teamCode: 'T1-A', validFrom: '2026-03-01' }), 409, 'MEMBERSHIP_DATE_TOO_EARLY');
  await expectStatus(call('POST', '/api/memberships', manager, { phone: '13800000002', teamCode: 'T1-A' }), 422, 'NOT_A_WORKER');
  await expectStatus(call('POST', '/api/memberships/end', manager, { phone: '13900000011', validTo: '2026-04-30' }), 200);
  await expectStatus(call('POST', '/api/memberships/end', manager, { phone: '13900000011' }), 409, 'NO_OPEN_MEMBERSHIP');
  await expectStatus(call('GET', '/api/workshops?date=2026-04-01', manager), 200);
  await expectStatus(call('GET', '/api/teams/T1-A/members?date=2026-04-01', admin), 200);
  await expectStatus(call('GET', '/api/people/13900000011/memberships', admin), 200);
  await expectStatus(call('PUT', `/api/devices/${encodeURIComponent('2号 压机')}/workshop`, manager, { workshopCode: 'T1' }), 200);
  await expectStatus(call('PUT', '/api/devices/NO-SUCH/workshop', manager, { workshopCode: 'T1' }), 404, 'DEVICE_NOT_FOUND');
  await expectStatus(call('GET', '/api/workshops', worker), 403, 'FORBIDDEN');
  // shifts: shifts and a team's calendar.
  const shift = await expectStatus(call('POST', '/api/shifts', manager, { name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '13:00' }] }), 201);
  await expectStatus(call('POST', '/api/shifts', manager, { name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '18:00', end: '19:00' }] }), 422, 'INVALID_SHIFT');
  await expectStatus(call('PUT', `/api/shifts/${shift.body.shiftId}`, admin, { name: '白班', start: '08:00', end: '17:30', breaks: [{ start: '12:00', end: '13:00' }] }), 200);
  await expectStatus(call('PUT', '/api/shifts/nope', admin, { name: '白班', start: '08:00', end: '17:30', breaks: [] }), 404, 'SHIFT_NOT_FOUND');
  await expectStatus(call('GET', '/api/shifts', admin), 200);
  await expectStatus(call('POST', `/api/teams/${SHIFT_TEAM}/shift-assignments`, manager, { validFrom: '2026-04-01', rotation: [shift.body.shiftId, null], daysEach: 5 }), 201);
  await expectStatus(call('POST', `/api/teams/${SHIFT_TEAM}/shift-assignments`, manager, { validFrom: '2026-04-01', rotation: ['ghost'] }), 422, 'UNKNOWN_SHIFT');
  await expectStatus(call('POST', `/api/teams/${SHIFT_TEAM}/shift-assignments`, manager, { validFrom: '2026-04-01', rotation: [null] }), 422, 'INVALID_ROTATION');
  await expectStatus(call('PUT', `/api/teams/${SHIFT_TEAM}/shift-overrides/2026-04-04`, manager, { shiftId: null }), 204);
  await expectStatus(call('DELETE', `/api/teams/${SHIFT_TEAM}/shift-overrides/2026-04-04`, manager), 204);
  await expectStatus(call('GET', `/api/teams/${SHIFT_TEAM}/shift-calendar?month=2026-04`, admin), 200);
  await expectStatus(call('GET', '/api/teams/NO-TEAM/shift-calendar?month=2026-04', admin), 404, 'TEAM_NOT_FOUND');
  await expectStatus(call('GET', `/api/teams/${SHIFT_TEAM}/shift-schedule`, manager), 200);
  await expectStatus(call('GET', '/api/teams/NO-TEAM/shift-schedule', admin), 404, 'TEAM_NOT_FOUND');
  await expectStatus(call('PUT', '/api/teams/NO-TEAM/shift-overrides/2026-04-04', manager, { shiftId: null }), 404, 'TEAM_NOT_FOUND');
  // Scopes (set by a manager, never one's own) and the filters.
  await expectStatus(call('PUT', '/api/people/13800000001/scope', manager, { role: 'admin', workshops: [], teams: [] }), 200);
  await expectStatus(call('PUT', '/api/people/13800000002/scope', manager, { role: 'manager', workshops: [] }), 403, 'OWN_SCOPE');
  await expectStatus(call('PUT', '/api/people/13900000011/scope', manager, { role: 'admin' }), 404, 'SCOPE_PERSON_NOT_FOUND');
  await expectStatus(call('PUT', '/api/people/13800000001/scope', manager, { role: 'admin', workshops: ['NO-SUCH'] }), 422, 'UNKNOWN_SCOPE_CODES');
  await expectStatus(call('GET', '/api/dashboard/reports?startDate=2026-03-01&endDate=2026-03-31&workshop=W1&team=T1', manager), 200);
  await expectStatus(call('GET', '/api/wages?month=2026-03&workshop=W1', admin), 200);
  // Defect reasons (不良原因).
  await expectStatus(call('POST', '/api/defect-reasons', manager, { code: 'SCR', name: '划伤', category: 'operator' }), 201);
  await expectStatus(call('POST', '/api/defect-reasons', admin, { code: 'SCR', name: '划伤', category: 'operator' }), 409, 'DEFECT_REASON_EXISTS');
  await expectStatus(call('PUT', '/api/defect-reasons/SCR', admin, { active: false }), 200);
  await expectStatus(call('PUT', '/api/defect-reasons/NOPE', admin, { active: false }), 404, 'DEFECT_REASON_NOT_FOUND');
  await expectStatus(call('GET', '/api/defect-reasons?active=true', manager), 200);
  await expectStatus(call('GET', '/api/quality/defects?startDate=2026-03-01&endDate=2026-03-31&groupBy=category', manager), 200);
  await expectStatus(call('GET', '/api/quality/defects?startDate=2026-03-31&endDate=2026-03-01', admin), 422, 'INVALID_DATE_RANGE');
  await expectStatus(call('GET', '/api/quality/defects.xlsx?startDate=2026-03-01&endDate=2026-03-31', admin), 200);
  // Work orders (生产工单).
  await expectStatus(call('POST', '/api/products', admin, { projectNo: 'XM-W', productName: '工单件', deviceNo: 'JC-W', processName: '冲压', standardCycleSeconds: 20 }), 200);
  await expectStatus(call('POST', '/api/products', admin, { projectNo: 'XM-W', productName: '工单件', deviceNo: 'JC-W2', processName: '折弯', standardCycleSeconds: 20 }), 200);
  const order = { orderNo: 'WO-T1', projectNo: 'XM-W', productName: '工单件', plannedQty: 100, dueDate: '2026-03-06', operations: ['冲压'] };
  await expectStatus(call('POST', '/api/work-orders', manager, order), 201);
  await expectStatus(call('POST', '/api/work-orders', admin, order), 409, 'WORK_ORDER_EXISTS');
  await expectStatus(call('POST', '/api/work-orders', admin, { ...order, orderNo: 'WO-T2', operations: ['电镀'] }), 422, 'UNKNOWN_WORK_ORDER_OPERATION');
  await expectStatus(call('POST', '/api/work-orders', admin, { ...order, orderNo: 'WO-T2', productName: '没有' }), 422, 'UNKNOWN_WORK_ORDER_PRODUCT');
  await expectStatus(call('POST', '/api/work-orders', admin, { ...order, orderNo: 'WO-T2', operations: ['冲压', '冲压'] }), 422, 'INVALID_WORK_ORDER');
  await expectStatus(call('GET', '/api/work-orders?late=true&q=WO&page=1&pageSize=5', manager), 200);
  await expectStatus(call('GET', '/api/work-orders/WO-T1', admin), 200);
  await expectStatus(call('GET', '/api/work-orders/WO-404', admin), 404, 'WORK_ORDER_NOT_FOUND');
  await expectStatus(call('GET', '/api/work-orders/WO-T1/reports?processName=%E5%86%B2%E5%8E%8B', admin), 200);
  await expectStatus(call('PATCH', '/api/work-orders/WO-T1', manager, { plannedQty: 120, operations: ['冲压', '折弯'] }), 200);
  await expectStatus(call('POST', '/api/work-orders/WO-T1/reopen', manager, { reason: '追加' }), 409, 'WORK_ORDER_STATUS');
  await expectStatus(call('POST', '/api/work-orders/WO-T1/close', manager, { reason: '短缺关闭' }), 200);
  await expectStatus(call('POST', '/api/work-orders/WO-T1/reopen', manager, { reason: '追加' }), 200);
  await expectStatus(call('POST', '/api/work-orders/WO-T1/complete', admin), 200);
  await expectStatus(call('POST', '/api/work-orders', admin, { ...order, orderNo: 'WO-T3' }), 201);
  await expectStatus(call('POST', '/api/work-orders/WO-T3/cancel', admin), 200);
  await expectStatus(call('PATCH', '/api/work-orders/WO-T3', admin, { plannedQty: 5 }), 409, 'WORK_ORDER_STATUS');
  await expectStatus(call('GET', '/api/work-orders', worker), 403, 'FORBIDDEN');
  const orders = workbook([
    ['工单号', '项目号', '产品名称', '计划数量', '交期', '工序路线', '备注'],
    ['WO-T4', 'XM-W', '工单件', 30, '2026-04-01', '冲压→折弯', null],
    ['WO-T5', 'XM-W', '无此产品', 30, null, '冲压', null],
  ]);
  const preview = await upload('/api/work-orders/import', manager, orders, 'orders.xlsx');
  expect(preview.status).toBe(200);
  await expectStatus(call('POST', `/api/work-orders/import/${((await preview.json()) as { importId: string }).importId}/confirm`, manager), 200);
  await expectStatus(call('GET', '/api/work-orders/WO-T4/ticket.png', admin), 200);
  // Stops (停机) and OEE.
  await expectStatus(call('POST', '/api/stop-reasons', manager, { code: 'CHG', name: '换模', category: 'planned' }), 201);
  await expectStatus(call('POST', '/api/stop-reasons', admin, { code: 'CHG', name: '换模', category: 'planned' }), 409, 'STOP_REASON_EXISTS');
  await expectStatus(call('PUT', '/api/stop-reasons/CHG', admin, { name: '换模具' }), 200);
  await expectStatus(call('PUT', '/api/stop-reasons/NOPE', admin, { active: false }), 404, 'STOP_REASON_NOT_FOUND');
  await expectStatus(call('GET', '/api/stop-reasons?active=true', worker), 200);
  const before = (minutes: number) => new Date(app.clock.now().getTime() - minutes * 60_000).toISOString();
  const device = encodeURIComponent('2号 压机');
  const stop = await expectStatus(call('POST', `/api/devices/${device}/stops`, manager, { reasonCode: 'CHG', startAt: before(20), endAt: before(10), note: '补录' }), 201);
  await expectStatus(call('POST', `/api/devices/${device}/stops`, manager, { reasonCode: 'CHG', startAt: before(15), endAt: before(5), note: '补录' }), 422, 'STOP_OVERLAPS');
  await expectStatus(call('POST', `/api/devices/${device}/stops`, manager, { reasonCode: 'CHG', startAt: '2026-03-10T08:00:00+08:00', endAt: '2026-03-10T09:00:00+08:00', note: '补录' }), 409, 'PERIOD_CLOSED');
  await expectStatus(call('POST', `/api/devices/${device}/stops`, worker, { reasonCode: 'CHG' }), 409, 'NOT_ON_DEVICE');
  await expectStatus(call('POST', `/api/stops/${stop.body.stopId}/end`, manager), 200);
  await expectStatus(call('PUT', `/api/stops/${stop.body.stopId}`, admin, { startAt: before(25), note: '更正' }), 200);
  await expectStatus(call('PUT', `/api/stops/${stop.body.stopId}`, admin, { endAt: before(30), note: '更正' }), 422, 'INVALID_STOP');
  await expectStatus(call('PUT', '/api/stops/8a6e0804-2bd0-4672-b79d-d97358571dd8', admin, { note: '更正' }), 404, 'STOP_NOT_FOUND');
  await expectStatus(call('GET', '/api/stops?page=1&pageSize=5', manager), 200);
  const today = before(0).slice(0, 10);
  await expectStatus(call('GET', `/api/oee?startDate=2026-03-01&endDate=${today}&groupBy=day`, manager), 200);
  await expectStatus(call('GET', `/api/oee/losses?startDate=2026-03-01&endDate=${today}`, admin), 200);
  await expectStatus(call('GET', `/api/oee.xlsx?startDate=2026-03-01&endDate=${today}`, admin), 200);
  await expectStatus(call('GET', `/api/oee/losses.xlsx?startDate=2026-03-01&endDate=${today}`, admin), 200);
}

/** The team of the shift calendar's calls. */
const SHIFT_TEAM = 'T1-A'; // part A's team of the tour

it('every answer of the working day and the tour conforms to the document: zero deviations', () => {
  expect(exchanges.length).toBeGreaterThan(100);
  expect(contractDeviations(doc, exchanges)).toEqual([]);
});

it('every documented operation was answered with its success status at least once', () => {
  const answered = new Set<string>();
  for (const x of exchanges) {
    if (x.status >= 300) continue;
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      const re = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      if (re.test(x.url.pathname) && ops[x.method.toLowerCase()]) answered.add(`${x.method} ${path}`);
    }
  }
  const documented = Object.entries<any>(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
  expect(documented.filter((op) => !answered.has(op))).toEqual([]);
});

it("the document's examples conform to its schemas", () => {
  const checker = new SchemaChecker();
  const problems: string[] = [];
  let examples = 0;
  for (const [path, ops] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const at = `${method.toUpperCase()} ${path}`;
      const media = op.requestBody?.content?.['application/json'];
      if (media) {
        if (media.example === undefined) problems.push(`${at}: no request example`);
        else problems.push(...checker.problems(media.schema, media.example).map((p) => `${at} request: ${p}`));
        examples++;
      }
      for (const [status, r] of Object.entries<any>(op.responses)) {
        const json = Number(status) < 300 ? r.content?.['application/json'] : undefined;
        if (!json) continue;
        if (json.example === undefined) problems.push(`${at} ${status}: no answer example`);
        else problems.push(...checker.problems(json.schema, json.example).map((p) => `${at} ${status}: ${p}`));
        examples++;
      }
      for (const p of op.parameters ?? []) {
        if (p.required && p.example === undefined) problems.push(`${at}: no example of ${p.name}`);
        if (p.example !== undefined) problems.push(...checker.problems(p.schema, p.example).map((e) => `${at} ${p.name}: ${e}`));
      }
    }
  }
  expect(problems).toEqual([]);
  expect(examples).toBeGreaterThan(40);
});
