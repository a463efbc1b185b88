/**
 * People: rules on phones, names and roles, single-record create/update, the list, removing one role (its
 * tokens stop working at once), and imports that conflict with or race against the stored personnel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { checkPerson, normalizePhone, roleOf } from '../../src/people/rules.ts';
import { upload, workbook } from '../products/support.ts';

let app: TestApp;
let token: string;
const save = (body: unknown) => app.request('POST', '/api/people', { token, body });

beforeAll(async () => {
  app = await startTestApp();
  token = await app.login('13900000010', 'admin', '管理员丙');
});
afterAll(() => app.close());

describe('rules', () => {
  it('normalises phones to 11 digits', () => {
    expect(normalizePhone(13800138000)).toBe('13800138000');
    expect(normalizePhone('138-0013-8000')).toBe('13800138000');
    expect(normalizePhone(' 138 0013 8000 ')).toBe('13800138000');
    expect(normalizePhone('+86 138 0013 8000')).toBe('13800138000');
    expect(normalizePhone('１３８００１３８０００')).toBe('13800138000');
    for (const bad of ['1380013800', '138001380001', '23800138000', '1380013800a', 13800138000.5, '', 'abc']) {
      expect(normalizePhone(bad), String(bad)).toBeUndefined();
    }
  });

  it('maps every role alias of decisions.md and the stored values', () => {
    for (const [text, role] of [
      ['员工', 'worker'], ['工人', 'worker'], ['操作工', 'worker'], ['worker', 'worker'],
      ['管理员', 'admin'], ['审核员', 'admin'], ['ADMIN', 'admin'],
      ['经理', 'manager'], ['主管', 'manager'], ['管理者', 'manager'], ['manager', 'manager'],
    ]) expect(roleOf(text), text).toBe(role);
    expect(roleOf('保安')).toBeUndefined();
    expect(checkPerson({ phone: '13800138000', name: '张三', role: '员工、经理' })).toEqual({ ok: true, phone: '13800138000', name: '张三', roles: ['worker', 'manager'] });
    const bad = checkPerson({ phone: null, name: null, role: '门卫' });
    expect(bad.ok === false && bad.problems.map((p) => p.code)).toEqual(['no_phone', 'no_name', 'unknown_role']);
  });
});

describe('single records', () => {
  it('creates, adds a role, renames the phone for all roles, answers unchanged', async () => {
    const c = await save({ phone: '138-0013-8000', name: '张三', role: '员工' });
    expect(c.status).toBe(200);
    expect(c.body).toEqual({ person: { phone: '13800138000', name: '张三', roles: ['worker'] }, result: 'created' });
    const r2 = await save({ phone: '13800138000', name: '张三', role: 'manager' });
    expect(r2.body).toEqual({ person: { phone: '13800138000', name: '张三', roles: ['worker', 'manager'] }, result: 'updated' });
    const same = await save({ phone: '13800138000', name: '张三', role: '经理' });
    expect(same.body.result).toBe('unchanged');
    const renamed = await save({ phone: '13800138000', name: '张叁', role: 'worker' });
    expect(renamed.body).toEqual({ person: { phone: '13800138000', name: '张叁', roles: ['worker', 'manager'] }, result: 'updated' });
    const rows = await app.service.ctx.db.pool.query(`SELECT DISTINCT name FROM personnel WHERE phone = '13800138000'`);
    expect(rows.rows).toEqual([{ name: '张叁' }]);
  });

  it('refuses a bad phone, an unknown role, a blank name: 422 PERSON_INVALID', async () => {
    const r = await save({ phone: '1380013800', name: ' ', role: '保安' });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('PERSON_INVALID');
    expect(r.body.error.details.map((p: any) => p.code)).toEqual(['bad_phone', 'no_name', 'unknown_role']);
  });

  it('lists people with all roles, filtered by keyword (phone or name) and role, paginated', async () => {
    for (let i = 0; i < 12; i++) await save({ phone: `1370000${String(i).padStart(4, '0')}`, name: i < 3 ? `李${i}` : `王${i}`, role: i % 4 ? 'worker' : 'worker,admin' });
    const all = await app.request('GET', '/api/people?pageSize=100', { token });
    expect(all.body.total).toBe(14);
    const li = await app.request('GET', `/api/people?keyword=${encodeURIComponent('李')}`, { token });
    expect(li.body.items.map((p: any) => p.name)).toEqual(['李0', '李1', '李2']);
    const byPhone = await app.request('GET', '/api/people?keyword=00138', { token });
    expect(byPhone.body.items).toEqual([expect.objectContaining({ phone: '13800138000', roles: ['worker', 'manager'] })]);
    const admins = await app.request('GET', '/api/people?role=admin&pageSize=100', { token });
    expect(admins.body.items.map((p: any) => p.phone)).toEqual(['13700000000', '13700000004', '13700000008', '13900000010']);
    expect(admins.body.items[0].roles).toEqual(['worker', 'admin']);
    const p2 = await app.request('GET', '/api/people?page=2&pageSize=5', { token });
    expect(p2.body).toMatchObject({ page: 2, pageSize: 5, total: 14 });
    expect(p2.body.items.map((p: any) => p.phone)).toEqual(all.body.items.slice(5, 10).map((p: any) => p.phone));
    expect((await app.request('GET', '/api/people?role=boss', { token })).status).toBe(422);
  });

  it('DELETE one role: that role\'s token stops working at once, the other role keeps working', async () => {
    const asManager = await app.login('13600000001', 'manager', '赵经理');
    const asWorker = await app.login('13600000001', 'worker', '赵经理');
    expect((await app.request('GET', '/api/people', { token: asManager })).status).toBe(200);
    const d = await app.request('DELETE', '/api/people/136-0000-0001?role=manager', { token });
    expect(d.status).toBe(204);
    const after = await app.request('GET', '/api/people', { token: asManager });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('ROLE_REVOKED');
    const list = await app.request('GET', '/api/people?keyword=13600000001', { token });
    expect(list.body.items).toEqual([expect.objectContaining({ roles: ['worker'] })]);
    // The worker role is untouched (it may not see this list, but it is still logged in).
    expect((await app.request('GET', '/api/people', { token: asWorker })).status).toBe(403);
    const again = await app.request('DELETE', '/api/people/13600000001?role=manager', { token });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('PERSON_ROLE_NOT_FOUND');
    expect((await app.request('DELETE', '/api/people/13600000001', { token })).status).toBe(422);
  });
});

describe('imports against the stored personnel', () => {
  const sheet = (rows: unknown[][]) => workbook([['手机号', '姓名', '角色'], ...rows]);

  it('a phone stored under another name is an error row; several roles in one cell', async () => {
    const pre = await upload(app, '/api/people/import', token, sheet([[13800138000, '张三', '员工'], ['135 0000 0001', '孙七', '员工、审核员']]));
    expect(pre.status).toBe(200);
    expect(pre.body.errors).toHaveLength(1);
    expect(pre.body.errors[0]).toMatchObject({ row: 2, code: 'phone_bound_to_other_name' });
    expect(pre.body.errors[0].reason).toContain('张叁');
    expect(pre.body.create).toEqual([
      { row: 3, phone: '13500000001', name: '孙七', role: 'worker' },
      { row: 3, phone: '13500000001', name: '孙七', role: 'admin' },
    ]);
    expect(pre.body.update).toEqual([]);
  });

  it('a repeated phone + role in the sheet is a duplicate row', async () => {
    const pre = await upload(app, '/api/people/import', token, sheet([['13500000002', '周八', '员工'], ['13500000002', '周八', 'worker']]));
    expect(pre.body.errors.map((e: any) => [e.row, e.code])).toEqual([[3, 'duplicate_key']]);
    expect(pre.body.errors[0].reason).toContain('第 2 行');
  });

  it('stale: a role added meanwhile to a phone of the sheet refuses the confirmation', async () => {
    const pre = await upload(app, '/api/people/import', token, sheet([['13500000003', '吴九', '员工']]));
    expect(pre.body.counts.create).toBe(1);
    await save({ phone: '13500000003', name: '吴九', role: 'admin' });
    const c = await app.request('POST', `/api/people/import/${pre.body.importId}/confirm`, { token });
    expect(c.status).toBe(409);
    expect(c.body.error.code).toBe('IMPORT_STALE');
    const again = await upload(app, '/api/people/import', token, sheet([['13500000003', '吴九', '员工']]));
    const ok = await app.request('POST', `/api/people/import/${again.body.importId}/confirm`, { token });
    expect(ok.body.counts).toEqual({ created: 1, updated: 0, unchanged: 0, errors: 0 });
    const list = await app.request('GET', '/api/people?keyword=13500000003', { token });
    expect(list.body.items[0].roles).toEqual(['worker', 'admin']);
  });

  it('a sheet without 角色: 422 MISSING_HEADERS', async () => {
    const r = await upload(app, '/api/people/import', token, workbook([['手机号', '姓名'], ['13500000004', '郑十']]));
    expect(r.status).toBe(422);
    expect(r.body.error.details.missing).toEqual(['角色']);
  });
});
