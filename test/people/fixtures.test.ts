/**
 * personnel.xlsx of ../shared/fixtures against EXPECTED.json: numeric and dashed phones, a two-role phone,
 * the four error rows; the people list after confirming; importing twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { roleOf } from '../../src/people/rules.ts';
import { EXPECTED, fixture, upload } from '../products/support.ts';

let app: TestApp;
let token: string;
const exp = EXPECTED['personnel.xlsx'];

beforeAll(async () => {
  app = await startTestApp();
  token = await app.login('13900000002', 'manager', '经理乙');
});
afterAll(() => app.close());

describe('personnel fixture', () => {
  it('previews the valid records and the four error rows with their codes, writes on confirm', async () => {
    const pre = await upload(app, '/api/people/import', token, fixture('personnel.xlsx'), 'personnel.xlsx');
    expect(pre.status).toBe(200);
    expect(pre.body.counts).toEqual({ create: exp.valid, update: 0, unchanged: 0, errors: exp.errors.length });
    expect(pre.body.errors.map((e: any) => ({ row: e.row, reason: e.code }))).toEqual(exp.errors);
    const bound = pre.body.errors.find((e: any) => e.code === 'phone_bound_to_other_name');
    expect(bound.reason).toContain('第 5 行');
    expect(bound.reason).toContain('赵芳伟');
    // Dashed text and numeric cells normalise to 11 digits.
    expect(pre.body.create.find((r: any) => r.row === 3)).toEqual({ row: 3, phone: '17560649547', name: '吴强敏', role: 'worker' });
    expect(pre.body.create.find((r: any) => r.row === 2)).toEqual({ row: 2, phone: '14772515419', name: '杨娜', role: 'worker' });

    expect((await app.request('GET', '/api/people?keyword=1477', { token })).body.total).toBe(0);
    const conf = await app.request('POST', `/api/people/import/${pre.body.importId}/confirm`, { token });
    expect(conf.status).toBe(200);
    expect(conf.body.counts).toEqual({ created: exp.valid, updated: 0, unchanged: 0, errors: exp.errors.length });

    const list = await app.request('GET', '/api/people?pageSize=100', { token });
    const byPhone = new Map(list.body.items.map((p: any) => [p.phone, p]));
    // The expected people plus the manager who logged in.
    expect(list.body.total).toBe(new Set(exp.people.map((p: any) => p.phone)).size + 1);
    for (const p of exp.people) {
      const got: any = byPhone.get(p.phone);
      expect(got?.name, p.phone).toBe(p.name);
      expect(got.roles, p.phone).toContain(roleOf(p.role));
    }
    expect((byPhone.get('14282201328') as any).roles).toEqual(['admin', 'manager']);
    expect((byPhone.get('19086958109') as any).name).toBe('赵芳伟');
    expect(byPhone.has('13912345678')).toBe(false);
    expect(byPhone.has('13987654321')).toBe(false);
  });

  it('the same file again: every record unchanged, the same error rows', async () => {
    const pre = await upload(app, '/api/people/import', token, fixture('personnel.xlsx'));
    expect(pre.body.counts).toEqual({ create: 0, update: 0, unchanged: exp.valid, errors: exp.errors.length });
    expect(pre.body.errors.map((e: any) => ({ row: e.row, reason: e.code }))).toEqual(exp.errors);
  });
});
