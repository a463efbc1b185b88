/**
 * The personnel list as an import kind (src/imports/kind.ts). Records are phone + role. A record is
 * `unchanged` when the phone already holds the role under the same name, `create` when the role is new; a
 * phone stored under another name is an error row (`phone_bound_to_other_name`, decisions.md "Spreadsheet
 * import") — the import never renames anybody.
 *
 * The optional columns 车间 and 班组. 班组 names a team by its code or, when no code matches, by
 * its name (within the 车间 when one is given; a name two teams share is an error row `ambiguous_team`); 车间
 * (code or name) alone places nobody (`team_required`) and, with a 班组, must be that team's workshop
 * (`team_not_in_workshop`). Only the worker record of a row joins a team (a row without the worker role and with a
 * 班组: `team_not_for_role`). A blank 班组 changes nothing (the import never ends a membership). The worker record
 * then carries its membership change: 加入 (in no team now) or 调动 (from the open membership's team), effective
 * from the confirmation day; its team already: no change. A worker already holding the role with a change is an
 * `update`. When the open membership begins on or after today (a planned move), a change is an error row
 * (`membership_planned`): it would rewrite that plan. The stored records include each phone's open membership, so
 * a move made between preview and confirmation makes the preview stale. The confirmation inserts the new
 * personnel records, then runs each change as the membership command (commands/organization/handlers.ts) inside
 * its transaction, as the confirming person.
 */
import type { ImportKind } from '../imports/kind.ts';
import { rowError, type ErrorRow } from '../imports/problems.ts';
import { parseInWorker } from '../imports/parse-pool.ts';
import { commandsIn } from '../commands/command.ts';
import { startMembership } from '../commands/organization/handlers.ts';
import { openMemberships, type OpenMembership, type OrganizationCatalog } from '../queries/organization.ts';
import { localDate } from '../time.ts';
import type { MembershipChange, PersonRecordRow } from './sheet.ts';
import { findPeople, insertPersonnel, type Person } from './store.ts';

/** What a row is compared with: the person (absent when the phone is not in personnel) and the open membership. */
export interface StoredPerson {
  person?: Person;
  open: OpenMembership | null;
}

type Team = OrganizationCatalog['teams'][number];

/** The team the 车间 and 班组 texts name (module docstring), or the problem. */
function resolveTeam(org: OrganizationCatalog, workshopText: string | undefined, teamText: string | undefined): { team: Team } | { code: string; reason: string } {
  if (teamText === undefined) return { code: 'team_required', reason: `只填了车间「${workshopText}」没有填班组：员工按班组归属，车间由班组决定，请填写班组` };
  let workshop: OrganizationCatalog['workshops'][number] | undefined;
  if (workshopText !== undefined) {
    workshop = org.workshops.find((w) => w.code === workshopText) ?? org.workshops.find((w) => w.name === workshopText);
    if (!workshop) return { code: 'unknown_workshop', reason: `车间「${workshopText}」不存在，请填写“车间班组”中已有车间的编号或名称` };
  }
  const byCode = org.teams.find((t) => t.code === teamText);
  const byName = org.teams.filter((t) => t.name === teamText && (!workshop || t.workshopCode === workshop.code));
  const team = byCode ?? (byName.length === 1 ? byName[0] : undefined);
  if (!byCode && byName.length > 1) {
    return { code: 'ambiguous_team', reason: `有 ${byName.length} 个班组都叫「${teamText}」（${byName.map((t) => t.code).join('、')}），请改填班组编号，或同时填写车间` };
  }
  if (!team) return { code: 'unknown_team', reason: `班组「${teamText}」不存在${workshop ? `于车间「${workshop.name}」` : ''}，请填写“车间班组”中已有班组的编号或名称` };
  if (workshop && team.workshopCode !== workshop.code) {
    return { code: 'team_not_in_workshop', reason: `班组「${team.name}」属于车间「${team.workshopName ?? team.workshopCode}」，不属于「${workshop.name}」，请改正车间或班组` };
  }
  return { team };
}

const refusalValues = (r: PersonRecordRow) => ({ 手机号: r.phone, 姓名: r.name, 角色: r.role, ...(r.workshop ? { 车间: r.workshop } : {}), ...(r.team ? { 班组: r.team } : {}) });

export const peopleImport: ImportKind<PersonRecordRow, StoredPerson> = {
  name: 'people',
  parse: (buffer, maxRows) => parseInWorker('people', buffer, maxRows) as Promise<{ valid: PersonRecordRow[]; errors: ErrorRow[] }>,
  async loadStored(q, rows) {
    const phones = rows.map((r) => r.phone);
    const [people, open] = [await findPeople(q, phones), await openMemberships(q, phones)];
    const out = new Map<string, StoredPerson>();
    for (const phone of new Set([...people.keys(), ...open.keys()])) out.set(phone, { person: people.get(phone), open: open.get(phone) ?? null });
    return out;
  },
  canonical: (s) => [s.person?.name ?? null, s.person?.roles ?? [], s.open ? [s.open.teamCode, s.open.validFrom] : null],
  classify(rows, stored, context) {
    const out = { create: [] as PersonRecordRow[], update: [] as PersonRecordRow[], unchanged: [] as PersonRecordRow[], errors: [] as ErrorRow[] };
    const refused = new Set<number>();
    const refuse = (r: PersonRecordRow, code: string, reason: string) => {
      if (refused.has(r.row)) return;
      refused.add(r.row);
      out.errors.push(rowError(r.row, [{ code, reason }], refusalValues(r)));
    };
    const workerRows = new Set(rows.filter((r) => r.role === 'worker').map((r) => r.row));
    for (const r of rows) {
      const s = stored.get(r.phone)?.person;
      if (s && s.name !== r.name) {
        refuse(r, 'phone_bound_to_other_name', `手机号 ${r.phone} 在系统中登记的姓名是「${s.name}」，与表中的「${r.name}」不一致；如需改名，请在人员管理中修改`);
        continue;
      }
      let record = r;
      if (r.team !== undefined || r.workshop !== undefined) {
        if (r.role !== 'worker') {
          // The worker record of the same row carries the team; a row without the worker role cannot.
          if (!workerRows.has(r.row)) refuse(r, 'team_not_for_role', '只有员工才能加入班组：这一行的角色不是员工，请删去车间和班组，或加上员工角色');
        } else {
          const found = resolveTeam(context.organization ?? { workshops: [], teams: [] }, r.workshop, r.team);
          if ('code' in found) {
            refuse(r, found.code, found.reason);
            continue;
          }
          const open = stored.get(r.phone)?.open ?? null;
          if (open?.teamCode !== found.team.code) {
            if (open && open.validFrom >= context.today) {
              refuse(r, 'membership_planned', `此人已安排从 ${open.validFrom} 起加入班组「${open.teamName}」，不能再从今天调动；请在“车间班组”中处理`);
              continue;
            }
            const to = { teamCode: found.team.code, teamName: found.team.name, workshopCode: found.team.workshopCode, workshopName: found.team.workshopName };
            const membership: MembershipChange = open
              ? { action: 'move', from: { teamCode: open.teamCode, teamName: open.teamName, workshopCode: open.workshopCode, workshopName: open.workshopName }, to }
              : { action: 'join', from: null, to };
            record = { ...r, membership };
          }
        }
      }
      if (!s?.roles.includes(r.role)) out.create.push(record);
      else if (record.membership) out.update.push(record);
      else out.unchanged.push(record);
    }
    // A row with several roles is refused whole when any of its records is.
    if (refused.size) {
      for (const list of ['create', 'update', 'unchanged'] as const) out[list] = out[list].filter((r) => !refused.has(r.row));
    }
    return out;
  },
  async lock(tx) {
    await tx.query('LOCK TABLE personnel IN SHARE ROW EXCLUSIVE MODE');
  },
  async write(tx, create, update, now, by) {
    await insertPersonnel(tx, create, now);
    const changes = [...create, ...update].filter((r) => r.membership);
    if (changes.length === 0) return;
    const commands = commandsIn(by.commands, tx);
    const today = localDate(now, by.timeZone);
    for (const r of changes) await startMembership(commands, by.actor, { phone: r.phone, teamCode: r.membership!.to.teamCode, validFrom: today }, by.timeZone);
  },
};
