/**
 * The `stops` read model (migrations/020), inline on the streams `stops-<deviceNo>`: one row per stop, as it stands.
 * StopStarted writes it (end_at null while it lasts; recorded_by the person); StopEnded sets end_at and ended_by
 * (the person's phone, or `system`); StopCorrected sets reason and times after the correction and its note. The
 * audit of a correction (before → after) is the event itself, read by GET /api/stops/{stopId} history.
 */
import type { EventData } from '../events/catalog.ts';
import type { Projection, RowChange } from './projection.ts';
import { utcIso } from '../time.ts';

const TABLE = 'stops';
/** An instant as stored (UTC ISO text), null for none. */
const iso = (at: unknown) => (at === null || at === undefined ? null : utcIso(at));

export const stopsProjection: Projection = {
  name: 'stops',
  mode: 'inline',
  tables: [
    {
      name: TABLE,
      key: ['stop_id'],
      columns: ['stop_id', 'device_no', 'reason_code', 'start_at', 'end_at', 'ended_by', 'note', 'recorded_by', 'recorded_name', 'stream_version', 'updated_at'],
    },
  ],
  eventTypes: ['StopStarted', 'StopEnded', 'StopCorrected'],
  touches(event) {
    return event.type === 'StopStarted' ? [] : [{ table: TABLE, key: [(event.data as { stopId: string }).stopId] }];
  },
  apply(event, view): RowChange[] {
    const key = [(event.data as { stopId: string }).stopId];
    if (event.type === 'StopStarted') {
      const d = event.data as EventData<'StopStarted'>;
      const row = {
        stop_id: d.stopId,
        device_no: d.deviceNo,
        reason_code: d.reasonCode,
        start_at: iso(d.startAt),
        end_at: iso(d.endAt),
        ended_by: d.endAt === null ? null : d.by.phone,
        note: d.note,
        recorded_by: d.by.phone,
        recorded_name: d.by.name,
        stream_version: event.streamVersion,
        updated_at: iso(d.at),
      };
      return [{ table: TABLE, key, row }];
    }
    const before = view.get(TABLE, key);
    if (!before) return [];
    if (event.type === 'StopEnded') {
      const d = event.data as EventData<'StopEnded'>;
      return [{ table: TABLE, key, row: { ...before, end_at: iso(d.endAt), ended_by: d.bySystem ? 'system' : (d.by?.phone ?? 'system'), stream_version: event.streamVersion, updated_at: iso(d.at) } }];
    }
    if (event.type === 'StopCorrected') {
      const d = event.data as EventData<'StopCorrected'>;
      const a = d.after;
      const endedBy = a.endAt === null ? null : a.endAt === d.before.endAt ? before.ended_by : d.by.phone;
      const row = { ...before, reason_code: a.reasonCode, start_at: iso(a.startAt), end_at: iso(a.endAt), ended_by: endedBy, note: d.note, stream_version: event.streamVersion, updated_at: iso(d.at) };
      return [{ table: TABLE, key, row }];
    }
    return [];
  },
};
