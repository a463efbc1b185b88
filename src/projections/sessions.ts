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
 */
import type { EventData } from '../events/catalog.ts';
import type { ProjectedEvent, Projection, RowChange } from './projection.ts';

const TABLE = 'sessions';
const iso = (at: string) => new Date(at).toISOString();

export const sessionsProjection: Projection = {
  name: 'sessions',
  mode: 'inline',
  tables: [{ name: TABLE, key: ['session_id'], columns: ['session_id', 'employee_phone', 'status', 'clock_in_at', 'clock_out_at', 'expires_at', 'devices', 'report_id', 'opened_version', 'updated_at'] }],
  eventTypes: ['ClockedIn', 'DeviceSwitched', 'ClockedOut', 'SessionAbandoned', 'SessionReported'],

  touches(event: ProjectedEvent) {
    // ClockedIn writes a new row without reading one (a fresh session id): nothing to load.
    return event.type === 'ClockedIn' ? [] : [{ table: TABLE, key: [event.data.sessionId] }];
  },

  apply(event: ProjectedEvent, view): RowChange[] {
    const ref = { table: TABLE, key: [event.data.sessionId] as const };
    const at = iso(event.data.at);
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
          },
        },
      ];
    }
    const row = view.get(TABLE, ref.key);
    if (!row) return [];
    switch (event.type) {
      case 'DeviceSwitched': {
        const d = event.data as EventData<'DeviceSwitched'>;
        const devices = row.devices as string[];
        return [{ ...ref, row: { ...row, devices: devices.includes(d.deviceNo) ? devices : [...devices, d.deviceNo], updated_at: at } }];
      }
      case 'ClockedOut': {
        const d = event.data as EventData<'ClockedOut'>;
        return [{ ...ref, row: { ...row, status: 'reporting', clock_out_at: at, expires_at: iso(d.expiresAt), updated_at: at } }];
      }
      case 'SessionAbandoned':
        return [{ ...ref, row: { ...row, status: 'abandoned', updated_at: at } }];
      case 'SessionReported': {
        const d = event.data as EventData<'SessionReported'>;
        return [{ ...ref, row: { ...row, status: 'reported', report_id: d.reportId, updated_at: at } }];
      }
      default:
        return [];
    }
  },
};
