/**
 * The personnel list as an import kind (src/imports/kind.ts). Records are phone + role. A record is
 * `unchanged` when the phone already holds the role under the same name, `create` when the role is new; a
 * phone stored under another name is an error row (`phone_bound_to_other_name`, decisions.md "Spreadsheet
 * import") — the import never renames anybody, so `update` stays empty.
 */
import type { ImportKind } from '../imports/kind.ts';
import { rowError, type ErrorRow } from '../imports/problems.ts';
import { parseInWorker } from '../imports/parse-pool.ts';
import type { PersonRecordRow } from './sheet.ts';
import { findPeople, insertPersonnel, type Person } from './store.ts';

export const peopleImport: ImportKind<PersonRecordRow, Person> = {
  name: 'people',
  parse: (buffer, maxRows) => parseInWorker('people', buffer, maxRows) as Promise<{ valid: PersonRecordRow[]; errors: ErrorRow[] }>,
  loadStored: (q, rows) => findPeople(q, rows.map((r) => r.phone)),
  canonical: (p) => [p.name, p.roles],
  classify(rows, stored) {
    const out = { create: [] as PersonRecordRow[], update: [] as PersonRecordRow[], unchanged: [] as PersonRecordRow[], errors: [] as ErrorRow[] };
    const refused = new Set<number>();
    for (const r of rows) {
      const s = stored.get(r.phone);
      if (s && s.name !== r.name) {
        if (!refused.has(r.row)) {
          refused.add(r.row);
          out.errors.push(
            rowError(
              r.row,
              [
                {
                  code: 'phone_bound_to_other_name',
                  reason: `手机号 ${r.phone} 在系统中登记的姓名是「${s.name}」，与表中的「${r.name}」不一致；如需改名，请在人员管理中修改`,
                },
              ],
              { 手机号: r.phone, 姓名: r.name, 角色: r.role },
            ),
          );
        }
      } else if (s?.roles.includes(r.role)) out.unchanged.push(r);
      else out.create.push(r);
    }
    // A row with several roles is refused whole when its phone conflicts.
    if (refused.size) {
      out.create = out.create.filter((r) => !refused.has(r.row));
      out.unchanged = out.unchanged.filter((r) => !refused.has(r.row));
    }
    return out;
  },
  async lock(tx) {
    await tx.query('LOCK TABLE personnel IN SHARE ROW EXCLUSIVE MODE');
  },
  async write(tx, create, _update, now) {
    await insertPersonnel(tx, create, now);
  },
};
