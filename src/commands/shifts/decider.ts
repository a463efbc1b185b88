/**
 * The shift deciders, pure.
 *
 * `shiftDecider` on the stream `shift-<shiftId>` (state: the shift's definition, or none):
 * - DefineShift {shiftId, name, start, end, breaks} on no shift → ShiftDefined;
 * - ChangeShift {…the whole definition} → ShiftChanged; SHIFT_NOT_FOUND when the stream is empty; the same
 *   definition again decides nothing. Reports submitted before keep the break they were given (it is in their
 *   events); only later submissions use the new windows.
 * Both check the name (1–SHIFT_NAME_MAX characters after trimming) and the times (domain/shift-breaks.ts
 * `validateShiftTimes`: HH:mm, windows inside the shift, not empty, not overlapping): INVALID_SHIFT.
 *
 * `teamShiftsDecider` on the stream `team-shifts-<teamCode>` (state: the team's TeamSchedule,
 * domain/shift-schedule.ts):
 * - AssignShifts {validFrom, rotation, daysEach, knownShiftIds} → ShiftAssigned (`replaced` when an assignment of
 *   the same validFrom existed; the same one again decides nothing); INVALID_ROTATION (1–MAX_ROTATION elements,
 *   daysEach 1–MAX_DAYS_EACH, not all days off), UNKNOWN_SHIFT for an id not among `knownShiftIds` (a fact).
 * - OverrideShift {date, shiftId | null} → ShiftOverridden (the same again: nothing); UNKNOWN_SHIFT.
 * - RemoveOverride {date} → ShiftOverrideRemoved when the date has an override, else nothing.
 * Each refuses TEAM_NOT_FOUND when the team does not exist (`teamExists`, a fact: part A's teams).
 */
import type { Decider } from '../decider.ts';
import type { ShiftEvent, TeamShiftEvent } from '../../events/catalog.ts';
import { domainError } from '../../domain/errors.ts';
import { validateShiftTimes, type BreakWindow } from '../../domain/shift-breaks.ts';
import { EMPTY_SCHEDULE, MAX_DAYS_EACH, MAX_ROTATION, type TeamSchedule } from '../../domain/shift-schedule.ts';

export const SHIFT_NAME_MAX = 30;

/** A shift's definition as commands give it and events carry it. */
export interface ShiftDefinition {
  readonly shiftId: string;
  readonly name: string;
  readonly start: string;
  readonly end: string;
  readonly breaks: readonly BreakWindow[];
}

export type ShiftCommand = (ShiftDefinition & { type: 'DefineShift'; at: string }) | (ShiftDefinition & { type: 'ChangeShift'; at: string });

export interface ShiftState {
  readonly shift: ShiftDefinition | undefined;
}

/** The definition with its name trimmed and each window's `paid` only when true; INVALID_SHIFT when out of rules. */
export function checkedDefinition(d: ShiftDefinition): ShiftDefinition {
  const name = d.name.trim();
  if (name.length === 0 || [...name].length > SHIFT_NAME_MAX) throw domainError('INVALID_SHIFT', { problem: 'name', max: SHIFT_NAME_MAX });
  const breaks = d.breaks.map((w) => ({ start: w.start, end: w.end, ...(w.paid ? { paid: true } : {}) }));
  const problem = validateShiftTimes({ start: d.start, end: d.end, breaks });
  if (problem) throw domainError('INVALID_SHIFT', problem);
  return { shiftId: d.shiftId, name, start: d.start, end: d.end, breaks };
}

const sameDefinition = (a: ShiftDefinition, b: ShiftDefinition) => JSON.stringify(a) === JSON.stringify(b);

export const shiftDecider: Decider<ShiftCommand, ShiftState, ShiftEvent> = {
  initialState: { shift: undefined },
  decide(c, state) {
    if (c.type === 'ChangeShift' && !state.shift) throw domainError('SHIFT_NOT_FOUND');
    const def = checkedDefinition(c);
    if (state.shift && sameDefinition(state.shift, def)) return [];
    const data = { ...def, breaks: [...def.breaks], at: c.at };
    return [state.shift ? { type: 'ShiftChanged', data } : { type: 'ShiftDefined', data }];
  },
  evolve(_, e) {
    const { at: _at, ...shift } = e.data;
    return { shift };
  },
};

interface TeamBase {
  readonly teamCode: string;
  /** Whether the team exists (a fact; part A's teams). */
  readonly teamExists: boolean;
  readonly at: string;
}
export type TeamShiftCommand =
  | (TeamBase & { type: 'AssignShifts'; validFrom: string; rotation: readonly (string | null)[]; daysEach: number; knownShiftIds: readonly string[] })
  | (TeamBase & { type: 'OverrideShift'; date: string; shiftId: string | null; knownShiftIds: readonly string[] })
  | (TeamBase & { type: 'RemoveOverride'; date: string });

function checkKnown(ids: readonly (string | null)[], known: readonly string[]): void {
  for (const id of ids) if (id !== null && !known.includes(id)) throw domainError('UNKNOWN_SHIFT', { shiftId: id });
}

export const teamShiftsDecider: Decider<TeamShiftCommand, TeamSchedule, TeamShiftEvent> = {
  initialState: EMPTY_SCHEDULE,
  decide(c, state) {
    if (!c.teamExists) throw domainError('TEAM_NOT_FOUND', { code: c.teamCode });
    switch (c.type) {
      case 'AssignShifts': {
        if (c.rotation.length < 1 || c.rotation.length > MAX_ROTATION || c.rotation.every((id) => id === null)) {
          throw domainError('INVALID_ROTATION', { field: 'rotation', max: MAX_ROTATION });
        }
        if (!Number.isInteger(c.daysEach) || c.daysEach < 1 || c.daysEach > MAX_DAYS_EACH) throw domainError('INVALID_ROTATION', { field: 'daysEach', max: MAX_DAYS_EACH });
        checkKnown(c.rotation, c.knownShiftIds);
        const same = state.assignments.find((a) => a.validFrom === c.validFrom);
        if (same && same.daysEach === c.daysEach && JSON.stringify(same.rotation) === JSON.stringify(c.rotation)) return [];
        return [{ type: 'ShiftAssigned', data: { teamCode: c.teamCode, validFrom: c.validFrom, rotation: [...c.rotation], daysEach: c.daysEach, replaced: same !== undefined, at: c.at } }];
      }
      case 'OverrideShift': {
        checkKnown([c.shiftId], c.knownShiftIds);
        if (Object.hasOwn(state.overrides, c.date) && state.overrides[c.date] === c.shiftId) return [];
        return [{ type: 'ShiftOverridden', data: { teamCode: c.teamCode, date: c.date, shiftId: c.shiftId, at: c.at } }];
      }
      case 'RemoveOverride':
        if (!Object.hasOwn(state.overrides, c.date)) return [];
        return [{ type: 'ShiftOverrideRemoved', data: { teamCode: c.teamCode, date: c.date, at: c.at } }];
    }
  },
  evolve(state, e) {
    switch (e.type) {
      case 'ShiftAssigned': {
        const { validFrom, rotation, daysEach } = e.data;
        return { ...state, assignments: [...state.assignments.filter((a) => a.validFrom !== validFrom), { validFrom, rotation, daysEach }] };
      }
      case 'ShiftOverridden':
        return { ...state, overrides: { ...state.overrides, [e.data.date]: e.data.shiftId } };
      case 'ShiftOverrideRemoved': {
        const { [e.data.date]: _, ...overrides } = state.overrides;
        return { ...state, overrides };
      }
    }
  },
};
