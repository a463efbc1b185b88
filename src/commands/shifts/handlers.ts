/**
 * The shift commands: each one `runCommand` (command.ts) of a decider of
 * ./decider.ts on its whole stream; the actor (phone, name, role) goes into the events' metadata.
 *
 * - `defineShift`: a new shift on `shift-<new uuid>`; `changeShift`: the whole new definition of an existing one.
 * - `assignShifts`, `overrideShift`, `removeOverride`: a team's calendar on `team-shifts-<teamCode>`; the shift
 *   ids named are a fact (they must exist).
 * Scope (domain/scope.ts): shifts are the whole factory's (a narrowly scoped person defines or changes none:
 * WHOLE_FACTORY_ONLY); a team's calendar changes only inside the person's scope (NOT_IN_SCOPE).
 * Run by the routes of src/http/routes/shifts.ts.
 */
import { randomUUID } from 'node:crypto';
import { streams } from '../../events/catalog.ts';
import type { BreakWindow } from '../../domain/shift-breaks.ts';
import type { ShiftAssignment } from '../../domain/shift-schedule.ts';
import { runCommand, type CommandActor, type CommandDeps } from '../command.ts';
import { shiftDecider, teamShiftsDecider, type ShiftDefinition } from './decider.ts';

/** A shift's definition as a request gives it (no id). */
export interface ShiftInput {
  name: string;
  start: string;
  end: string;
  breaks: BreakWindow[];
}

const shiftRun = (shiftId: string, input: ShiftInput, type: 'DefineShift' | 'ChangeShift') => ({
  decider: shiftDecider,
  stream: { streamId: streams.shift(shiftId), fold: shiftDecider },
  facts: { writeScope: [{ kind: 'factory', write: 'shift' } as const] },
  command: (_: unknown, now: Date) => ({ type, shiftId, ...input, at: now.toISOString() }),
  answer: (state: { shift: ShiftDefinition | undefined }) => {
    if (!state.shift) throw new Error('no shift after a shift command');
    return state.shift;
  },
});

/** Defines a new shift → its definition with its new id. Throws INVALID_SHIFT, ROLE_REVOKED. */
export function defineShift(deps: CommandDeps, actor: CommandActor, input: ShiftInput): Promise<ShiftDefinition> {
  return runCommand(deps, actor, shiftRun(randomUUID(), input, 'DefineShift'));
}

/** Changes shift `shiftId` to `input` → the definition as it stands. Throws SHIFT_NOT_FOUND, INVALID_SHIFT, ROLE_REVOKED. */
export function changeShift(deps: CommandDeps, actor: CommandActor, shiftId: string, input: ShiftInput): Promise<ShiftDefinition> {
  return runCommand(deps, actor, shiftRun(shiftId, input, 'ChangeShift'));
}

/** A team's calendar is inside a narrow scope when the team is (domain/scope.ts). */
const teamScope = (teamCode: string) => [{ kind: 'team', code: teamCode } as const];

const teamStream = (teamCode: string) => ({ streamId: streams.teamShifts(teamCode), fold: teamShiftsDecider });

/**
 * Assigns `input` (a rotation from validFrom) to team `teamCode` → the assignment. Throws INVALID_ROTATION,
 * UNKNOWN_SHIFT, TEAM_NOT_FOUND, ROLE_REVOKED.
 */
export function assignShifts(deps: CommandDeps, actor: CommandActor, teamCode: string, input: ShiftAssignment): Promise<ShiftAssignment> {
  const shiftIds = input.rotation.filter((id): id is string => id !== null);
  return runCommand(deps, actor, {
    decider: teamShiftsDecider,
    stream: teamStream(teamCode),
    facts: { shiftIds, teamCodes: [teamCode], writeScope: teamScope(teamCode) },
    command: (facts, now) => ({
      type: 'AssignShifts' as const,
      teamCode,
      teamExists: facts.teams?.includes(teamCode) ?? false,
      validFrom: input.validFrom,
      rotation: input.rotation,
      daysEach: input.daysEach,
      knownShiftIds: facts.knownShiftIds ?? [],
      at: now.toISOString(),
    }),
    answer: () => ({ validFrom: input.validFrom, rotation: [...input.rotation], daysEach: input.daysEach }),
  });
}

/** On `date` team `teamCode` works `shiftId` (null: a day off). Throws UNKNOWN_SHIFT, TEAM_NOT_FOUND, ROLE_REVOKED. */
export function overrideShift(deps: CommandDeps, actor: CommandActor, teamCode: string, date: string, shiftId: string | null): Promise<void> {
  return runCommand(deps, actor, {
    decider: teamShiftsDecider,
    stream: teamStream(teamCode),
    facts: { shiftIds: shiftId === null ? [] : [shiftId], teamCodes: [teamCode], writeScope: teamScope(teamCode) },
    command: (facts, now) => ({ type: 'OverrideShift' as const, teamCode, teamExists: facts.teams?.includes(teamCode) ?? false, date, shiftId, knownShiftIds: facts.knownShiftIds ?? [], at: now.toISOString() }),
    answer: () => undefined,
  });
}

/** Removes the override of `date` of team `teamCode` (none: nothing to do). Throws TEAM_NOT_FOUND, ROLE_REVOKED. */
export function removeOverride(deps: CommandDeps, actor: CommandActor, teamCode: string, date: string): Promise<void> {
  return runCommand(deps, actor, {
    decider: teamShiftsDecider,
    stream: teamStream(teamCode),
    facts: { teamCodes: [teamCode], writeScope: teamScope(teamCode) },
    command: (facts, now) => ({ type: 'RemoveOverride' as const, teamCode, teamExists: facts.teams?.includes(teamCode) ?? false, date, at: now.toISOString() }),
    answer: () => undefined,
  });
}
