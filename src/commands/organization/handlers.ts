/**
 * The organization's commands: each is one `runCommand` (command.ts) of a decider of
 * ./decider.ts on its whole stream, with the facts it relies on (commands/facts.ts), for an administrator or a
 * manager (the routes' `access.organization`), or for a personnel import's confirmation (inside its transaction:
 * `commandsIn`). Local dates `YYYY-MM-DD` in APP_TIMEZONE; a membership's `validFrom` defaults to today there.
 * Each answers the stream's state after the command (also when nothing changed).
 *
 * Scope (domain/scope.ts, the rule of writes): a person with a narrow scope changes only the workshops, teams,
 * workers (by their open team) and devices inside it, and creates no workshop; every command asks its targets as
 * the `writeScope` fact, checked again in its append. Refusals: NOT_IN_SCOPE (404), WHOLE_FACTORY_ONLY (403).
 */
import { streams } from '../../events/catalog.ts';
import { localDate } from '../../time.ts';
import type { Membership } from '../../domain/membership.ts';
import { runCommand, type CommandActor, type CommandDeps } from '../command.ts';
import { deviceDecider, memberDecider, teamDecider, workshopDecider, type TeamFields } from './decider.ts';

/** A workshop as the commands answer it. */
export interface WorkshopAnswer {
  code: string;
  name: string;
}

/**
 * Defines (`create`) or renames a workshop. Throws WORKSHOP_EXISTS (create of a taken code), WORKSHOP_NOT_FOUND
 * (rename of an unknown code), ROLE_REVOKED.
 */
export function saveWorkshop(deps: CommandDeps, actor: CommandActor, input: { code: string; name: string; create: boolean }): Promise<WorkshopAnswer> {
  return runCommand(deps, actor, {
    decider: workshopDecider,
    stream: { streamId: streams.workshop(input.code), fold: workshopDecider },
    facts: { writeScope: [input.create ? { kind: 'factory', write: 'createWorkshop' } : { kind: 'workshop', code: input.code }] },
    command: (_, now) => ({ type: input.create ? ('DefineWorkshop' as const) : ('RenameWorkshop' as const), code: input.code, name: input.name, at: now.toISOString() }),
    answer: (state) => ({ code: input.code, name: state.name ?? input.name }),
  });
}

/** A team as the commands answer it. */
export interface TeamAnswer extends TeamFields {
  code: string;
}

/**
 * Defines (`create`) or changes a team; a move to another workshop counts from `workshopFrom` (local date in
 * `timeZone`, APP_TIMEZONE; default today). Facts: the workshop, the leaders' roles. Throws TEAM_EXISTS,
 * TEAM_NOT_FOUND, WORKSHOP_NOT_FOUND, LEADER_NOT_FOUND, TEAM_MOVE_DATE, ROLE_REVOKED.
 */
export function saveTeam(
  deps: CommandDeps,
  actor: CommandActor,
  input: TeamFields & { code: string; create: boolean; workshopFrom?: string },
  timeZone: string,
): Promise<TeamAnswer> {
  return runCommand(deps, actor, {
    decider: teamDecider,
    stream: { streamId: streams.team(input.code), fold: teamDecider },
    facts: {
      workshopCodes: [input.workshopCode],
      people: [...input.leaders],
      writeScope: [
        ...(input.create ? [] : [{ kind: 'team', code: input.code } as const]),
        { kind: 'workshop', code: input.workshopCode, ...(input.create ? {} : { team: input.code }) },
      ],
    },
    command: (facts, now) => ({
      type: input.create ? ('DefineTeam' as const) : ('ChangeTeam' as const),
      code: input.code,
      name: input.name,
      workshopCode: input.workshopCode,
      leaders: input.leaders,
      at: now.toISOString(),
      workshopExists: (facts.workshops ?? []).includes(input.workshopCode),
      knownPeople: (facts.people ?? []).map((p) => p.phone),
      today: localDate(now, timeZone),
      ...(input.workshopFrom ? { workshopFrom: input.workshopFrom } : {}),
    }),
    answer: (state) => {
      const t = state.team!;
      return { code: input.code, name: t.name, workshopCode: t.workshopCode, leaders: [...t.leaders] };
    },
  });
}

/** A worker's membership history after a command, oldest first. */
export interface MembershipAnswer {
  phone: string;
  history: Membership[];
}

/**
 * The worker `phone` joins team `teamCode` from `validFrom` (default: today), or moves there: the open membership
 * ends the day before; `coefficient` (系数, hundredths; absent: 1.00 for a new team, unchanged in the same team) from
 * that day on. `timeZone`: APP_TIMEZONE (today's date). Facts: the team, the phone's roles. Throws NOT_A_WORKER, TEAM_NOT_FOUND,
 * MEMBERSHIP_DATE_TOO_EARLY (with the earliest date allowed), ROLE_REVOKED.
 */
export function startMembership(
  deps: CommandDeps,
  actor: CommandActor,
  input: { phone: string; teamCode: string; validFrom?: string; coefficient?: number },
  timeZone: string,
): Promise<MembershipAnswer> {
  return runCommand(deps, actor, {
    decider: memberDecider,
    stream: { streamId: streams.member(input.phone), fold: memberDecider },
    facts: { teamCodes: [input.teamCode], people: [input.phone], writeScope: [{ kind: 'team', code: input.teamCode }, { kind: 'member', code: input.phone }] },
    command: (facts, now) => ({
      type: 'StartMembership' as const,
      phone: input.phone,
      teamCode: input.teamCode,
      validFrom: input.validFrom ?? localDate(now, timeZone),
      at: now.toISOString(),
      teamExists: (facts.teams ?? []).includes(input.teamCode),
      isWorker: (facts.people ?? []).some((p) => p.phone === input.phone && p.roles.includes('worker')),
      ...(input.coefficient !== undefined ? { coefficient: input.coefficient } : {}),
    }),
    answer: (state) => ({ phone: input.phone, history: [...state.history] }),
  });
}

/**
 * The worker `phone` leaves their team: `validTo` (default: today) is the last day in it. Throws
 * NO_OPEN_MEMBERSHIP, MEMBERSHIP_DATE_TOO_EARLY, ROLE_REVOKED.
 */
export function endMembership(deps: CommandDeps, actor: CommandActor, input: { phone: string; validTo?: string }, timeZone: string): Promise<MembershipAnswer> {
  return runCommand(deps, actor, {
    decider: memberDecider,
    stream: { streamId: streams.member(input.phone), fold: memberDecider },
    facts: { writeScope: [{ kind: 'member', code: input.phone }] },
    command: (_, now) => ({ type: 'EndMembership' as const, phone: input.phone, validTo: input.validTo ?? localDate(now, timeZone), at: now.toISOString() }),
    answer: (state) => ({ phone: input.phone, history: [...state.history] }),
  });
}

/**
 * Sets the workshop of device `deviceNo` (null: none). Facts: the device (some product uses it), the workshop.
 * Throws DEVICE_NOT_FOUND, WORKSHOP_NOT_FOUND, ROLE_REVOKED.
 */
export function setDeviceWorkshop(
  deps: CommandDeps,
  actor: CommandActor,
  input: { deviceNo: string; workshopCode: string | null },
): Promise<{ deviceNo: string; workshopCode: string | null }> {
  return runCommand(deps, actor, {
    decider: deviceDecider,
    stream: { streamId: streams.device(input.deviceNo), fold: deviceDecider },
    facts: {
      deviceNo: input.deviceNo,
      ...(input.workshopCode !== null ? { workshopCodes: [input.workshopCode] } : {}),
      writeScope: [{ kind: 'device', code: input.deviceNo }, ...(input.workshopCode !== null ? [{ kind: 'workshop', code: input.workshopCode } as const] : [])],
    },
    command: (facts, now) => ({
      type: 'SetDeviceWorkshop' as const,
      deviceNo: input.deviceNo,
      workshopCode: input.workshopCode,
      at: now.toISOString(),
      workshopExists: input.workshopCode === null || (facts.workshops ?? []).includes(input.workshopCode),
    }),
    answer: (state) => ({ deviceNo: input.deviceNo, workshopCode: state.workshopCode }),
  });
}
