/**
 * A value matched against a table of names (`__proto__`, `constructor`, `toString`,
 * `hasOwnProperty` …) is looked up among the table's own names only, so such a role is an unknown role (422 for
 * `POST /api/people`, an error row in a personnel sheet), never Object.prototype's member reaching the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleOf } from '../../src/people/rules.ts';
import { fromSheetCell } from '../../src/spreadsheet/cells.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { upload, workbook } from '../products/support.ts';

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__', 'propertyIsEnumerable'];

let app: TestApp;
let token: string;
beforeAll(async () => {
  app = await startTestApp();
  token = await app.login('13900000015', 'admin');
});
afterAll(() => app.close());

describe('prototype names', () => {
  it('are no role, no error code of a cell', () => {
    for (const n of NAMES) {
      expect(roleOf(n), n).toBeUndefined();
      expect(roleOf(n.toUpperCase()), n).toBeUndefined();
    }
    expect(fromSheetCell({ t: 'e', v: 'constructor' })).toEqual(expect.objectContaining({ text: '#ERROR' }));
  });

  it.each(NAMES)('POST /api/people with role %s: 422 PERSON_INVALID (unknown_role), nothing stored', async (role) => {
    const r = await app.request('POST', '/api/people', { token, body: { phone: '13800138000', name: '张三', role } });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('PERSON_INVALID');
    expect(r.body.error.details.map((p: { code: string }) => p.code)).toEqual(['unknown_role']);
    const n = await app.service.ctx.db.pool.query(`SELECT count(*)::int AS n FROM personnel WHERE phone = '13800138000'`);
    expect(n.rows[0].n).toBe(0);
  });

  it('a personnel sheet with such roles: every one an error row; the confirmation writes only the good row', async () => {
    const rows: unknown[][] = [['手机号', '姓名', '角色']];
    NAMES.forEach((role, i) => rows.push([`1370000${String(i).padStart(4, '0')}`, `人${i}`, role]));
    rows.push(['13600000000', '好人', '员工']);
    const p = await upload(app, '/api/people/import', token, workbook(rows));
    expect(p.status).toBe(200);
    expect(p.body.counts).toEqual({ create: 1, update: 0, unchanged: 0, errors: NAMES.length });
    expect(p.body.errors.map((e: { code: string }) => e.code)).toEqual(NAMES.map(() => 'unknown_role'));
    for (const row of p.body.create) expect(['worker', 'admin', 'manager']).toContain(row.role);
    const c = await app.request('POST', `/api/people/import/${p.body.importId}/confirm`, { token });
    expect(c.status).toBe(200);
    expect(c.body.counts).toMatchObject({ created: 1, errors: NAMES.length });
  });
});
