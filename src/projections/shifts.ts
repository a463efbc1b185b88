/**
 * The shift read models (migrations/014), inline: written by the shift commands'
 * own statements, so the next submission's facts and the calendar read them at once.
 *
 * - `shifts` (stream `shift-<shiftId>`): ShiftDefined writes the row; ShiftChanged rewrites it whole, keeping
 *   `defined_at` (it reads the row, from the loaded stream). `version` is the stream version of the last event.
 * - `team_shift_assignments` (stream `team-shifts-<teamCode>`): ShiftAssigned writes the row of (team, validFrom),
 *   replacing one of the same date.
 * - `team_shift_overrides`: ShiftOverridden writes the row of (team, date); ShiftOverrideRemoved deletes it.
 */
import type { EventData } from '../events/catalog.ts';
import type { Projection } from './projection.ts';
import { utcIso } from '../time.ts';

const SHIFTS = 'shifts';
const ASSIGNMENTS = 'team_shift_assignments';
const OVERRIDES = 'team_shift_overrides';

export const shiftsProjection: Projection = {
  name: 'shifts',
  mode: 'inline',
  tables: [
    { name: SHIFTS, key: ['shift_id'], columns: ['shift_id', 'name', 'start_time', 'end_time', 'breaks', 'version', 'defined_at', 'changed_at'] },
    { name: ASSIGNMENTS, key: ['team_code', 'valid_from'], columns: ['team_code', 'valid_from', 'rotation', 'days_each', 'assigned_at'] },
    { name: OVERRIDES, key: ['team_code', 'date'], columns: ['team_code', 'date', 'shift_id', 'set_at'] },
  ],
  eventTypes: ['ShiftDefined', 'ShiftChanged', 'ShiftAssigned', 'ShiftOverridden', 'ShiftOverrideRemoved'],
  touches(event) {
    return event.type === 'ShiftChanged' ? [{ table: SHIFTS, key: [(event.data as EventData<'ShiftChanged'>).shiftId] }] : [];
  },
  apply(event, view) {
    switch (event.type) {
      case 'ShiftDefined':
      case 'ShiftChanged': {
        const d = event.data as EventData<'ShiftDefined'>;
        const before = event.type === 'ShiftChanged' ? view.get(SHIFTS, [d.shiftId]) : undefined;
        const row = {
          shift_id: d.shiftId,
          name: d.name,
          start_time: d.start,
          end_time: d.end,
          breaks: d.breaks,
          version: event.streamVersion,
          defined_at: before ? utcIso(before.defined_at) : utcIso(d.at),
          changed_at: utcIso(d.at),
        };
        return [{ table: SHIFTS, key: [d.shiftId], row }];
      }
      case 'ShiftAssigned': {
        const d = event.data as EventData<'ShiftAssigned'>;
        const row = { team_code: d.teamCode, valid_from: d.validFrom, rotation: d.rotation, days_each: d.daysEach, assigned_at: utcIso(d.at) };
        return [{ table: ASSIGNMENTS, key: [d.teamCode, d.validFrom], row }];
      }
      case 'ShiftOverridden': {
        const d = event.data as EventData<'ShiftOverridden'>;
        return [{ table: OVERRIDES, key: [d.teamCode, d.date], row: { team_code: d.teamCode, date: d.date, shift_id: d.shiftId, set_at: utcIso(d.at) } }];
      }
      case 'ShiftOverrideRemoved': {
        const d = event.data as EventData<'ShiftOverrideRemoved'>;
        return [{ table: OVERRIDES, key: [d.teamCode, d.date], row: null }];
      }
      default:
        return [];
    }
  },
};
