/**
 * The `sessions` read model (migrations/004_sessions_reports.sql), inline: one row per clock session
 * (spec 2.3), written in the same transaction as the worker-stream event, so the worker's next request on any
 * instance sees it.
 *
 * Events of the `worker-<phone>` stream (src/events/catalog.ts):
 * - ClockedIn: a new row, status `active`, devices [deviceNo], `opened_version` = the event's stream version.
 * - DeviceSwitched: the device is added to `devices` (a set, in order of first appearance).
 * - ClockedOut (下班报工, and 重新报工 with `reopened`): status `reporting`, `clock_out_at`, `expires_at`.
 * - SessionAbandoned: status `abandoned`.
 * - SessionReported: status `reported`, `report_id`.
 * Timestamps are written as ISO 8601 text (UTC).
 *
 * The device presence (migrations/020, kept in this row since migrations/030): where the session's worker was, as
 * device segments `[{deviceNo, from, to}]` in order — from the clock-in or a switch to a device, to the switch away or
 * the clock-out (`to` null while it lasts); `current_device` the device of the open segment, `ended_at` the end of the
 * last one. The OEE read takes the attended time of a device from it (the union of its segments, domain/oee.ts), a
 * stop command the fact "clocked in on this device" (commands/facts.ts), the crew the sessions on a device.
 * - ClockedIn: one open segment on the device.
 * - DeviceSwitched: the open segment ends, a new one opens on the device switched to.
 * - ClockedOut: the open segment ends at the clock-out; a 重新报工 (`reopened`, a later clock-out of a session
 *   already clocked out) moves the end of the last segment to the new clock-out, as the report's clock-out moves.
 * - SessionAbandoned: the open segment ends at the abandonment, `abandoned` true (the reads cap it at clock-in +
 *   SESSION_MAX_HOURS: an abandonment found at a later clock-in says nothing about the hours between).
 */
import type { EventData } from '../events/catalog.ts';
import type { ProjectedEvent, Projection, RowChange } from './projection.ts';
import { utcIso } from '../time.ts';

const TABLE = 'sessions';

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

export const sessionsProjection: Projection = {
  name: 'sessions',
  mode: 'inline',
  tables: [
    {
      name: TABLE,
      key: ['session_id'],
      columns: ['session_id', 'employee_phone', 'status', 'clock_in_at', 'clock_out_at', 'expires_at', 'devices', 'report_id', 'opened_version', 'updated_at', 'ended_at', 'abandoned', 'current_device', 'segments'],
    },
  ],
  eventTypes: ['ClockedIn', 'DeviceSwitched', 'ClockedOut', 'SessionAbandoned', 'SessionReported'],

  touches(event: ProjectedEvent) {
    // ClockedIn writes a new row without reading one (a fresh session id): nothing to load.
    return event.type === 'ClockedIn' ? [] : [{ table: TABLE, key: [event.data.sessionId] }];
  },

  apply(event: ProjectedEvent, view): RowChange[] {
    const ref = { table: TABLE, key: [event.data.sessionId] as const };
    const at = utcIso(event.data.at);
    if (event.type === 'ClockedIn') {
      const d = event.data as EventData<'ClockedIn'>;
      return [
        {
          ...ref,
          row: {
            session_id: d.sessionId,
            employee_phone: d.employeePhone,
            status: 'active',
            clock_in_at: at,
            clock_out_at: null,
            expires_at: null,
            devices: [d.deviceNo],
            report_id: null,
            opened_version: event.streamVersion,
            updated_at: at,
            ended_at: null,
            abandoned: false,
            current_device: d.deviceNo,
            segments: [{ deviceNo: d.deviceNo, from: at, to: null }],
          },
        },
      ];
    }
    const row = view.get(TABLE, ref.key);
    if (!row) return [];
    const segments = row.segments as PresenceSegment[];
    switch (event.type) {
      case 'DeviceSwitched': {
        const d = event.data as EventData<'DeviceSwitched'>;
        const devices = row.devices as string[];
        const presence = row.current_device === null ? {} : { current_device: d.deviceNo, segments: [...endLast(segments, at, false), { deviceNo: d.deviceNo, from: at, to: null }] };
        return [{ ...ref, row: { ...row, devices: devices.includes(d.deviceNo) ? devices : [...devices, d.deviceNo], updated_at: at, ...presence } }];
      }
      case 'ClockedOut': {
        const d = event.data as EventData<'ClockedOut'>;
        const next = endLast(segments, at, true);
        const presence = { current_device: null, ended_at: next[next.length - 1]?.to ?? at, segments: next };
        return [{ ...ref, row: { ...row, status: 'reporting', clock_out_at: at, expires_at: utcIso(d.expiresAt), updated_at: at, ...presence } }];
      }
      case 'SessionAbandoned': {
        const presence =
          row.current_device === null ? { abandoned: true } : { current_device: null, abandoned: true, ended_at: at, segments: endLast(segments, at, false) };
        return [{ ...ref, row: { ...row, status: 'abandoned', updated_at: at, ...presence } }];
      }
      case 'SessionReported': {
        const d = event.data as EventData<'SessionReported'>;
        return [{ ...ref, row: { ...row, status: 'reported', report_id: d.reportId, updated_at: at } }];
      }
      default:
        return [];
    }
  },
};
