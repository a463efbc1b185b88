/**
 * From the rows of a personnel sheet (columns 手机号 / 姓名 / 角色, spec 2.2) to checked records, one per
 * phone + role (decisions.md "Spreadsheet import").
 *
 * Within the sheet the first row of a phone fixes its name: a later row giving the phone another name is an
 * error row (`phone_bound_to_other_name`) naming that first row; a later row repeating a phone + role already
 * given is an error row (`duplicate_key`). A phone may hold several roles (several rows, or several roles in one
 * cell). The optional columns 车间 and 班组 (codes or names) are carried as written; whether they name a
 * team, and the membership change they make, is decided against the stored organization (people/import.ts).
 */
import type { Role } from '../auth/roles.ts';
import { readTable, type SheetRow } from '../spreadsheet/table.ts';
import { cellText, type CellValue } from '../spreadsheet/cells.ts';
import type { ColumnSpec } from '../spreadsheet/headers.ts';
import { cellProblem, rowError, type ErrorRow } from '../imports/problems.ts';
import { checkPerson } from './rules.ts';

export type PersonField = 'phone' | 'name' | 'role' | 'workshop' | 'team';

export const PERSON_COLUMNS: readonly ColumnSpec<PersonField>[] = [
  { key: 'phone', header: '手机号', required: true },
  { key: 'name', header: '姓名', required: true },
  { key: 'role', header: '角色', required: true },
  // optional; codes or names (people/import.ts resolves them against the organization)
  { key: 'workshop', header: '车间', required: false },
  { key: 'team', header: '班组', required: false },
];

/**
 * A membership change the import makes for a worker, shown in the preview: 加入 (join: in no team
 * now) or 调动 (move: from the open membership's team), effective from the day of the confirmation.
 */
export interface MembershipChange {
  action: 'join' | 'move';
  from: { teamCode: string; teamName: string; workshopCode: string; workshopName: string | null } | null;
  to: { teamCode: string; teamName: string; workshopCode: string; workshopName: string | null };
}

/** One personnel record of the sheet. */
export interface PersonRecordRow {
  /** Sheet row number as shown by the spreadsheet program. */
  row: number;
  phone: string;
  name: string;
  role: Role;
  /** The 车间 and 班组 cells as written (codes or names), absent when blank. */
  workshop?: string;
  team?: string;
  /** The membership change of this worker record (classified against the organization, people/import.ts). */
  membership?: MembershipChange;
}

/** The cells of a personnel row by Chinese column name (手机号, 姓名, 角色), for error rows. */
export const personValues = (cells: Readonly<Record<PersonField, CellValue>>): Record<string, CellValue> => ({
  手机号: cells.phone,
  姓名: cells.name,
  角色: cells.role,
  ...(cellText(cells.workshop ?? null) !== null ? { 车间: cells.workshop } : {}),
  ...(cellText(cells.team ?? null) !== null ? { 班组: cells.team } : {}),
});

/**
 * Checks the personnel sheet's rows (module docstring) → `{valid, errors}`: one record per phone + role of each good
 * row, and error rows (the rules' problems, `phone_bound_to_other_name`, `duplicate_key`) in sheet order.
 */
export function peopleFromSheet(rows: readonly SheetRow<PersonField>[]): { valid: PersonRecordRow[]; errors: ErrorRow[] } {
  const valid: PersonRecordRow[] = [];
  const errors: ErrorRow[] = [];
  const firstOfPhone = new Map<string, { row: number; name: string }>();
  const rowOfRecord = new Map<string, number>();
  for (const r of rows) {
    const c = checkPerson(r.cells);
    // the optional 车间 and 班组 cells must be readable text too.
    const orgProblems = [cellProblem('车间', 'workshop', r.cells.workshop ?? null), cellProblem('班组', 'team', r.cells.team ?? null)].filter((p) => p !== undefined);
    if (!c.ok || orgProblems.length) {
      errors.push(rowError(r.row, [...(c.ok ? [] : c.problems), ...orgProblems], personValues(r.cells)));
      continue;
    }
    const first = firstOfPhone.get(c.phone);
    if (first && first.name !== c.name) {
      errors.push(
        rowError(
          r.row,
          [{ code: 'phone_bound_to_other_name', reason: `手机号 ${c.phone} 在第 ${first.row} 行已登记为「${first.name}」，同一手机号只能对应一个姓名` }],
          personValues(r.cells),
        ),
      );
      continue;
    }
    const repeated = c.roles.map((role) => rowOfRecord.get(`${c.phone}|${role}`)).find((n) => n !== undefined);
    if (repeated !== undefined) {
      errors.push(
        rowError(r.row, [{ code: 'duplicate_key', reason: `与第 ${repeated} 行重复：同一手机号和角色只需登记一次` }], personValues(r.cells)),
      );
      continue;
    }
    if (!first) firstOfPhone.set(c.phone, { row: r.row, name: c.name });
    const workshop = cellText(r.cells.workshop ?? null) ?? undefined;
    const team = cellText(r.cells.team ?? null) ?? undefined;
    for (const role of c.roles) {
      rowOfRecord.set(`${c.phone}|${role}`, r.row);
      valid.push({ row: r.row, phone: c.phone, name: c.name, role, ...(workshop ? { workshop } : {}), ...(team ? { team } : {}) });
    }
  }
  return { valid, errors };
}

/**
 * Reads and checks a personnel list file (src/spreadsheet/table.ts, then peopleFromSheet) → `{valid, errors}`.
 * Run in the parse worker (src/imports/parse-worker.ts). Throws the reader's AppError 422s.
 */
export async function readPeopleSheet(buffer: Uint8Array, maxRows: number): Promise<{ valid: PersonRecordRow[]; errors: ErrorRow[] }> {
  return peopleFromSheet((await readTable(buffer, PERSON_COLUMNS, { maxRows })).rows);
}
