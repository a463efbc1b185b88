/**
 * The `device_presence` read model (migrations/020), inline on the worker streams: where each clock session's worker
 * was, as device segments `[{deviceNo, from, to}]` in order — from the clock-in or a switch to a device, to the
 * switch away or the clock-out (`to` null while it lasts). The OEE read takes the attended time of a device from it
 * (the union of its segments, domain/oee.ts), and a stop command the fact "clocked in on this device"
 * (`current_device`, commands/facts.ts).
 *
 * - ClockedIn: a new row, one open segment on the device.
 * - DeviceSwitched: the open segment ends, a new one opens on the device switched to.
 * - ClockedOut: the open segment ends at the clock-out; a 重新报工 (`reopened`, a later clock-out of a session
 *   already clocked out) moves the end of the last segment to the new clock-out, as the report's clock-out moves.
 * - SessionAbandoned: the open segment ends at the abandonment, `abandoned` true (the reads cap it at clock-in +
 *   SESSION_MAX_HOURS: an abandonment found at a later clock-in says nothing about the hours between).
 * Instants are ISO 8601 text (UTC).
 */
import type { EventData } from '../events/catalog.ts';
import type { ProjectedEvent, Projection, RowChange } from './projection.ts';

const TABLE = 'device_presence';
const iso = (at: string) => new Date(at).toISOString();

/** One segment of a session on a device: ISO instants, `to` null while it lasts. */
export interface PresenceSegment {
  readonly deviceNo: string;
  readonly from: string;
  readonly to: string | null;
}

/** `segments` with the open (last) one ended at `at`; a closed last one moved to `at` when `move`. */
function endLast(segments: readonly PresenceSegment[], at: string, move: boolean): PresenceSegment[] {
  const last = segments[segments.length - 1];
  if (!last || (last.to !== null && !move)) return [...segments];
  return [...segments.slice(0, -1), { ...last, to: at < last.from ? last.from : at }];
}

export const devicePresenceProjection: Projection = {
  name: 'device-presence',
  mode: 'inline',
  tables: [
    {
      name: TABLE,
      key: ['session_id'],
      columns: ['session_id', 'employee_phone', 'clock_in_at', 'ended_at', 'abandoned', 'current_device', 'devices', 'segments'],
    },
  ],
  eventTypes: ['ClockedIn', 'DeviceSwitched', 'ClockedOut', 'SessionAbandoned'],

  touches(event: ProjectedEvent) {
    return event.type === 'ClockedIn' ? [] : [{ table: TABLE, key: [event.data.sessionId] }];
  },

  apply(event: ProjectedEvent, view): RowChange[] {
    const ref = { table: TABLE, key: [event.data.sessionId] as const };
    const at = iso(event.data.at);
    if (event.type === 'ClockedIn') {
      const d = event.data as EventData<'ClockedIn'>;
      const segments: PresenceSegment[] = [{ deviceNo: d.deviceNo, from: at, to: null }];
      return [{ ...ref, row: { session_id: d.sessionId, employee_phone: d.employeePhone, clock_in_at: at, ended_at: null, abandoned: false, current_device: d.deviceNo, devices: [d.deviceNo], segments } }];
    }
    const row = view.get(TABLE, ref.key);
    if (!row) return [];
    const segments = row.segments as PresenceSegment[];
    const devices = row.devices as string[];
    switch (event.type) {
      case 'DeviceSwitched': {
        const d = event.data as EventData<'DeviceSwitched'>;
        if (row.current_device === null) return [];
        const next = [...endLast(segments, at, false), { deviceNo: d.deviceNo, from: at, to: null }];
        return [{ ...ref, row: { ...row, current_device: d.deviceNo, devices: devices.includes(d.deviceNo) ? devices : [...devices, d.deviceNo], segments: next } }];
      }
      case 'ClockedOut': {
        const next = endLast(segments, at, true);
        return [{ ...ref, row: { ...row, current_device: null, ended_at: next[next.length - 1]?.to ?? at, segments: next } }];
      }
      case 'SessionAbandoned': {
        if (row.current_device === null) return [{ ...ref, row: { ...row, abandoned: true } }];
        const next = endLast(segments, at, false);
        return [{ ...ref, row: { ...row, current_device: null, abandoned: true, ended_at: at, segments: next } }];
      }
      default:
        return [];
    }
  },
};
