/**
 * The personnel spreadsheet's optional columns 车间 and 班组, with workbooks built in the test:
 * the preview lists each membership change (加入 / 调动 from → to) and the refusals (unknown or ambiguous team, a
 * team of another workshop, a workshop without a team, a team on a row without the worker role, a planned move);
 * confirming starts and moves memberships from the confirmation day through the membership command (events on the
 * member streams); a list without the columns imports as before; a move between preview and confirmation makes the
 * preview stale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { upload, workbook } from '../products/support.ts';

let app: TestApp;
let manager: string;

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-10T09:00:00+08:00');
  manager = await app.login('13800000002', 'manager', '李经理');
  await app.login('13800000011', 'worker', '赵班长');
  const post = (path: string, body: unknown) => app.request('POST', path, { token: manager, body });
  await post('/api/workshops', { code: 'C1', name: '冲压车间' });
  await post('/api/workshops', { code: 'Z2', name: '装配车间' });
  await post('/api/teams', { code: 'C1-A', name: '一班', workshopCode: 'C1', leaders: ['13800000011'] });
  await post('/api/teams', { code: 'Z2-A', name: '一班', workshopCode: 'Z2', leaders: ['13800000011'] });
  await post('/api/teams', { code: 'Z2-B', name: '装配二班', workshopCode: 'Z2', leaders: ['13800000011'] });
  // An existing worker in C1-A since 03-01, one with a planned move, one in no team.
  await app.login('13900000001', 'worker', '张三');
  await app.login('13900000002', 'worker', '李四');
  await app.login('13900000003', 'worker', '王五');
  await post('/api/memberships', { phone: '13900000001', teamCode: 'C1-A', validFrom: '2026-03-01' });
  await post('/api/memberships', { phone: '13900000002', teamCode: 'C1-A', validFrom: '2026-03-20' });
});
afterAll(() => app.close());

const HEADER = ['手机号', '姓名', '角色', '车间', '班组'];
const preview = (rows: unknown[][]) => upload(app, '/api/people/import', manager, workbook(rows));
const confirm = (id: string) => app.request('POST', `/api/people/import/${id}/confirm`, { token: manager });
const history = async (phone: string) => (await app.request('GET', `/api/people/${phone}/memberships`, { token: manager })).body.items;

describe('personnel list with 车间 and 班组', () => {
  it('the preview lists 加入 and 调动 with from → to and every refusal with its reason; confirming applies them from the confirmation day', async () => {
    app.clock.set('2026-03-11T23:50:00+08:00');
    const pre = await preview([
      HEADER,
      ['13900000001', '张三', '员工', '装配车间', '一班'], // 调动 C1-A → Z2-A (name within the workshop)
      ['13900000003', '王五', '员工', null, 'Z2-B'], // 加入 by code
      ['13900000004', '钱六', '员工', null, '装配二班'], // new person, 加入 by unique name
      ['13900000005', '孙七', '员工', null, null], // no team: as before
      ['13900000006', '周八', '员工', null, '一班'], // two teams named 一班
      ['13900000007', '吴九', '员工', '冲压车间', 'Z2-B'], // team of another workshop
      ['13900000008', '郑十', '员工', '冲压车间', null], // workshop alone
      ['13900000009', '冯一', '员工', null, '九班'], // unknown team
      ['13800000021', '陈管', '管理员', null, 'Z2-B'], // not a worker
      ['13900000002', '李四', '员工', null, 'Z2-B'], // planned move on 03-20
      ['13800000022', '楚双', '员工、管理员', null, 'C1-A'], // worker and admin in one row: the worker joins
    ]);
    expect(pre.status).toBe(200);
    const to = (teamCode: string, teamName: string, workshopCode: string, workshopName: string) => ({ teamCode, teamName, workshopCode, workshopName });
    expect(pre.body.update).toEqual([
      {
        row: 2,
        phone: '13900000001',
        name: '张三',
        role: 'worker',
        workshop: '装配车间',
        team: '一班',
        membership: { action: 'move', from: to('C1-A', '一班', 'C1', '冲压车间'), to: to('Z2-A', '一班', 'Z2', '装配车间') },
      },
      { row: 3, phone: '13900000003', name: '王五', role: 'worker', team: 'Z2-B', membership: { action: 'join', from: null, to: to('Z2-B', '装配二班', 'Z2', '装配车间') } },
    ]);
    expect(pre.body.create.map((r: any) => [r.phone, r.role, r.membership?.action ?? null, r.membership?.to.teamCode ?? null])).toEqual([
      ['13900000004', 'worker', 'join', 'Z2-B'],
      ['13900000005', 'worker', null, null],
      ['13800000022', 'worker', 'join', 'C1-A'],
      ['13800000022', 'admin', null, null],
    ]);
    expect(pre.body.errors.map((e: any) => [e.row, e.code])).toEqual([
      [6, 'ambiguous_team'],
      [7, 'team_not_in_workshop'],
      [8, 'team_required'],
      [9, 'unknown_team'],
      [10, 'team_not_for_role'],
      [11, 'membership_planned'],
    ]);
    const reasons = Object.fromEntries(pre.body.errors.map((e: any) => [e.code, e.reason]));
    expect(reasons.ambiguous_team).toContain('C1-A、Z2-A');
    expect(reasons.team_not_in_workshop).toContain('装配车间');
    expect(reasons.membership_planned).toContain('2026-03-20');
    expect(pre.body.errors[0].values).toMatchObject({ 手机号: '13900000006', 班组: '一班' });

    // Confirmed after midnight (within the preview's 30 minutes): the changes take effect from the confirmation day.
    app.clock.set('2026-03-12T00:05:00+08:00');
    const done = await confirm(pre.body.importId);
    expect(done.status).toBe(200);
    expect(done.body.counts).toEqual({ created: 4, updated: 2, unchanged: 0, errors: 6 });
    expect(await history('13900000001')).toEqual([
      { teamCode: 'Z2-A', teamName: '一班', workshopCode: 'Z2', workshopName: '装配车间', validFrom: '2026-03-12', validTo: null, coefficient: 1 },
      { teamCode: 'C1-A', teamName: '一班', workshopCode: 'C1', workshopName: '冲压车间', validFrom: '2026-03-01', validTo: '2026-03-11', coefficient: 1 },
    ]);
    expect((await history('13900000004'))[0]).toMatchObject({ teamCode: 'Z2-B', validFrom: '2026-03-12', validTo: null });
    expect((await history('13800000022'))[0]).toMatchObject({ teamCode: 'C1-A', validFrom: '2026-03-12' });
    expect(await history('13900000005')).toEqual([]);
    const events = await app.service.ctx.store.readStream(app.service.ctx.db.pool, 'member-13900000003', 1);
    expect(events.map((e) => [e.type, (e.data as any).teamCode, (e.data as any).validFrom, e.metadata.actorPhone])).toEqual([['MembershipStarted', 'Z2-B', '2026-03-12', '13800000002']]);
  });

  it('the same list again: no change (already in those teams); a list without the columns imports as before', async () => {
    const again = await preview([HEADER, ['13900000001', '张三', '员工', '装配车间', '一班']]);
    expect(again.body.counts).toEqual({ create: 0, update: 0, unchanged: 1, errors: 0 });
    expect(again.body.unchanged[0].membership).toBeUndefined();
    const plain = await preview([['手机号', '姓名', '角色'], ['13900000031', '新人', '员工']]);
    expect(plain.body.create).toEqual([{ row: 2, phone: '13900000031', name: '新人', role: 'worker' }]);
  });

  it('a move between preview and confirmation makes the preview stale (409 IMPORT_STALE), nothing written', async () => {
    await app.login('13900000041', 'worker', '褚四一');
    await app.request('POST', '/api/memberships', { token: manager, body: { phone: '13900000041', teamCode: 'C1-A', validFrom: '2026-03-01' } });
    const pre = await preview([HEADER, ['13900000041', '褚四一', '员工', null, 'Z2-B']]);
    expect(pre.body.update[0].membership).toMatchObject({ action: 'move', from: { teamCode: 'C1-A' }, to: { teamCode: 'Z2-B' } });
    await app.request('POST', '/api/memberships', { token: manager, body: { phone: '13900000041', teamCode: 'Z2-A', validFrom: '2026-03-15' } });
    const stale = await confirm(pre.body.importId);
    expect(stale).toMatchObject({ status: 409, body: { error: { code: 'IMPORT_STALE' } } });
    expect((await history('13900000041')).map((m: any) => m.teamCode)).toEqual(['Z2-A', 'C1-A']);
  });
});
