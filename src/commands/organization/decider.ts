/**
 * The organization deciders, pure. Local dates are `YYYY-MM-DD` in
 * APP_TIMEZONE; `at` is the ISO 8601 instant of the decision. Facts (what exists besides the stream) come in the
 * command, read by commands/facts.ts and guarded in the append.
 *
 * - `workshopDecider`, stream `workshop-<code>`: DefineWorkshop → WorkshopDefined (WORKSHOP_EXISTS when the code is
 *   taken: codes are unique because each names its stream); RenameWorkshop → WorkshopRenamed (WORKSHOP_NOT_FOUND;
 *   the same name again decides nothing).
 * - `teamDecider`, stream `team-<code>`: DefineTeam → TeamDefined (TEAM_EXISTS); ChangeTeam → TeamChanged
 *   (TEAM_NOT_FOUND; nothing when unchanged). A move to another workshop is dated (`workshopFrom`, default today):
 *   from the day after the last move up to today (TEAM_MOVE_DATE), so a team's past stays under its old workshop. The team's workshop must exist (WORKSHOP_NOT_FOUND, a fact) and every
 *   leader must be a person in personnel (LEADER_NOT_FOUND, a fact); leaders are kept once each, in the order given.
 * - `memberDecider`, stream `member-<phone>` (the worker's whole membership history: the consistency boundary of
 *   "at most one team at any date"): StartMembership (join or move) → MembershipStarted, preceded by MembershipEnded
 *   of the open membership the day before `validFrom` when the worker is in another team. The member must be a
 *   person with the worker role (NOT_A_WORKER, a fact), the team must exist (TEAM_NOT_FOUND, a fact); `validFrom`
 *   before `earliestStart` (domain/membership.ts) would rewrite history (MEMBERSHIP_DATE_TOO_EARLY with the
 *   earliest date); the team the worker is in already (open membership) decides nothing, unless the command gives
 *   another coefficient (系数, crew work): then the membership of the same team starts again from `validFrom` with it,
 *   the open one ending the day before (a coefficient is dated like a membership). A membership's coefficient is
 *   recorded only when it is not 1.00, and MembershipEnded repeats it. EndMembership →
 *   MembershipEnded of the open membership (NO_OPEN_MEMBERSHIP; `validTo` before its first day:
 *   MEMBERSHIP_DATE_TOO_EARLY).
 * - `deviceDecider`, stream `device-<deviceNo>`: SetDeviceWorkshop → DeviceWorkshopSet (the device must be in use,
 *   checked by the command path's device fact; the workshop must exist unless null; unchanged: nothing).
 */
import type { Decider } from '../decider.ts';
import type { DeviceEvent, MemberEvent, TeamEvent, WorkshopEvent } from '../../events/catalog.ts';
import { domainError } from '../../domain/errors.ts';
import { earliestEnd, earliestStart, openMembership, type Membership } from '../../domain/membership.ts';
import { COEFFICIENT_DEFAULT } from '../../domain/crew-split.ts';
import { addDays } from '../../time.ts';

// ---- workshops --------------------------------------------------------------------------------------------
export interface WorkshopState {
  /** The workshop's name; undefined while the code is not defined. */
  readonly name?: string;
}
export type WorkshopCommand =
  | { readonly type: 'DefineWorkshop'; readonly code: string; readonly name: string; readonly at: string }
  | { readonly type: 'RenameWorkshop'; readonly code: string; readonly name: string; readonly at: string };

export const workshopDecider: Decider<WorkshopCommand, WorkshopState, WorkshopEvent> = {
  initialState: {},
  decide(c, state) {
    if (c.type === 'DefineWorkshop') {
      if (state.name !== undefined) throw domainError('WORKSHOP_EXISTS', { code: c.code });
      return [{ type: 'WorkshopDefined', data: { code: c.code, name: c.name, at: c.at } }];
    }
    if (state.name === undefined) throw domainError('WORKSHOP_NOT_FOUND', { code: c.code });
    if (state.name === c.name) return [];
    return [{ type: 'WorkshopRenamed', data: { code: c.code, name: c.name, before: state.name, at: c.at } }];
  },
  evolve: (_, e) => ({ name: e.data.name }),
};

// ---- teams ------------------------------------------------------------------------------------------------
export interface TeamFields {
  readonly name: string;
  readonly workshopCode: string;
  /** Phones of the team's leaders (班组长), in order. */
  readonly leaders: readonly string[];
}
export interface TeamState {
  readonly team?: TeamFields;
  /** The first day in its workshop after the last dated move (undefined: in it from the beginning). */
  readonly workshopSince?: string;
}
export type TeamCommand = TeamFields & {
  readonly type: 'DefineTeam' | 'ChangeTeam';
  readonly code: string;
  readonly at: string;
  /** Whether the workshop `workshopCode` exists (a fact). */
  readonly workshopExists: boolean;
  /** Which of the leaders' phones are people in personnel (a fact). */
  readonly knownPeople: readonly string[];
  /** Today, local date: a move's default first day and its latest. */
  readonly today: string;
  /** The first day in the new workshop, when the team moves (default today). */
  readonly workshopFrom?: string;
};

const sameTeam = (a: TeamFields, b: TeamFields) =>
  a.name === b.name && a.workshopCode === b.workshopCode && a.leaders.length === b.leaders.length && a.leaders.every((p, i) => p === b.leaders[i]);

export const teamDecider: Decider<TeamCommand, TeamState, TeamEvent> = {
  initialState: {},
  decide(c, state) {
    if (c.type === 'DefineTeam' && state.team) throw domainError('TEAM_EXISTS', { code: c.code });
    if (c.type === 'ChangeTeam' && !state.team) throw domainError('TEAM_NOT_FOUND', { code: c.code });
    if (!c.workshopExists) throw domainError('WORKSHOP_NOT_FOUND', { code: c.workshopCode });
    const leaders = [...new Set(c.leaders)];
    const unknown = leaders.find((p) => !c.knownPeople.includes(p));
    if (unknown !== undefined) throw domainError('LEADER_NOT_FOUND', { phone: unknown });
    const fields = { name: c.name, workshopCode: c.workshopCode, leaders };
    if (!state.team) return [{ type: 'TeamDefined', data: { code: c.code, ...fields, at: c.at } }];
    if (sameTeam(state.team, fields)) return [];
    const moved = fields.workshopCode !== state.team.workshopCode;
    const workshopFrom = moved ? (c.workshopFrom ?? c.today) : null;
    if (workshopFrom !== null) {
      // A move is dated like a membership: not before the last move (history is not rewritten), not in the future.
      const earliest = state.workshopSince === undefined ? undefined : addDays(state.workshopSince, 1);
      if ((earliest !== undefined && workshopFrom < earliest) || workshopFrom > c.today) {
        throw domainError('TEAM_MOVE_DATE', { earliest: earliest ?? null, latest: c.today });
      }
    }
    const before = { name: state.team.name, workshopCode: state.team.workshopCode, leaders: [...state.team.leaders] };
    return [{ type: 'TeamChanged', data: { code: c.code, ...fields, before, at: c.at, workshopFrom } }];
  },
  evolve: (state, e) => ({
    team: { name: e.data.name, workshopCode: e.data.workshopCode, leaders: e.data.leaders },
    workshopSince: e.type === 'TeamChanged' && e.data.workshopFrom ? e.data.workshopFrom : state.workshopSince,
  }),
};

// ---- memberships ------------------------------------------------------------------------------------------
export interface MemberState {
  /** The worker's memberships, oldest first; never overlapping. */
  readonly history: readonly Membership[];
}
export type MemberCommand =
  | {
      readonly type: 'StartMembership';
      readonly phone: string;
      readonly teamCode: string;
      /** First day in the team (local date). */
      readonly validFrom: string;
      readonly at: string;
      /** Whether the team exists (a fact). */
      readonly teamExists: boolean;
      /** Whether the phone is a person with the worker role (a fact). */
      readonly isWorker: boolean;
      /** The member's coefficient (系数) from `validFrom` on, hundredths 10 … 999 (domain/crew-split.ts); absent: 1.00. */
      readonly coefficient?: number;
    }
  | { readonly type: 'EndMembership'; readonly phone: string; /** Last day in the team (local date). */ readonly validTo: string; readonly at: string };

export const memberDecider: Decider<MemberCommand, MemberState, MemberEvent> = {
  initialState: { history: [] },
  decide(c, state) {
    const open = openMembership(state.history);
    if (c.type === 'EndMembership') {
      if (!open) throw domainError('NO_OPEN_MEMBERSHIP', { phone: c.phone });
      if (c.validTo < earliestEnd(open)) throw domainError('MEMBERSHIP_DATE_TOO_EARLY', { earliest: earliestEnd(open) }, { action: 'end' });
      const coefficient = open.coefficient !== undefined ? { coefficient: open.coefficient } : {};
      return [{ type: 'MembershipEnded', data: { phone: c.phone, teamCode: open.teamCode, validFrom: open.validFrom, validTo: c.validTo, at: c.at, ...coefficient } }];
    }
    if (!c.isWorker) throw domainError('NOT_A_WORKER', { phone: c.phone });
    if (!c.teamExists) throw domainError('TEAM_NOT_FOUND', { code: c.teamCode });
    // In the team already: nothing, unless the coefficient changes (a new membership of the same team from validFrom).
    const sameCoefficient = c.coefficient === undefined || c.coefficient === (open?.coefficient ?? COEFFICIENT_DEFAULT);
    if (open?.teamCode === c.teamCode && sameCoefficient && c.validFrom >= open.validFrom) return [];
    const earliest = earliestStart(state.history);
    if (earliest !== undefined && c.validFrom < earliest) throw domainError('MEMBERSHIP_DATE_TOO_EARLY', { earliest }, { action: 'join' });
    const coefficient = c.coefficient !== undefined && c.coefficient !== COEFFICIENT_DEFAULT ? { coefficient: c.coefficient } : {};
    const started: MemberEvent = { type: 'MembershipStarted', data: { phone: c.phone, teamCode: c.teamCode, validFrom: c.validFrom, at: c.at, ...coefficient } };
    if (!open) return [started];
    const ended: MemberEvent = {
      type: 'MembershipEnded',
      data: {
        phone: c.phone,
        teamCode: open.teamCode,
        validFrom: open.validFrom,
        validTo: addDays(c.validFrom, -1),
        at: c.at,
        ...(open.coefficient !== undefined ? { coefficient: open.coefficient } : {}),
      },
    };
    return [ended, started];
  },
  evolve(state, e) {
    if (e.type === 'MembershipStarted') {
      const coefficient = e.data.coefficient !== undefined ? { coefficient: e.data.coefficient } : {};
      return { history: [...state.history, { teamCode: e.data.teamCode, validFrom: e.data.validFrom, validTo: null, ...coefficient }] };
    }
    return { history: state.history.map((m) => (m.validFrom === e.data.validFrom ? { ...m, validTo: e.data.validTo } : m)) };
  },
};

// ---- device workshops -------------------------------------------------------------------------------------
export interface DeviceState {
  /** The device's workshop; null: none. */
  readonly workshopCode: string | null;
}
export interface SetDeviceWorkshop {
  readonly type: 'SetDeviceWorkshop';
  readonly deviceNo: string;
  readonly workshopCode: string | null;
  readonly at: string;
  /** Whether the workshop exists (a fact; true when null is set). */
  readonly workshopExists: boolean;
}

export const deviceDecider: Decider<SetDeviceWorkshop, DeviceState, DeviceEvent> = {
  initialState: { workshopCode: null },
  decide(c, state) {
    if (c.workshopCode !== null && !c.workshopExists) throw domainError('WORKSHOP_NOT_FOUND', { code: c.workshopCode });
    if (state.workshopCode === c.workshopCode) return [];
    return [{ type: 'DeviceWorkshopSet', data: { deviceNo: c.deviceNo, workshopCode: c.workshopCode, before: state.workshopCode, at: c.at } }];
  },
  evolve: (_, e) => ({ workshopCode: e.data.workshopCode }),
};
