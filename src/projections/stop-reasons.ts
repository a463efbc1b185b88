/**
 * The `stop_reasons` read model (migrations/020), inline: written by the reason commands' own statements, so a stop
 * command's facts read a new or deactivated reason at once. As projections/defect-reasons.ts:
 * StopReasonDefined writes the row (active); StopReasonChanged rewrites name, category and active, keeping
 * `defined_at` (it reads the row).
 */
import type { EventData } from '../events/catalog.ts';
import type { Projection } from './projection.ts';

const TABLE = 'stop_reasons';
const iso = (at: unknown) => (at instanceof Date ? at.toISOString() : new Date(String(at)).toISOString());

export const stopReasonsProjection: Projection = {
  name: 'stop-reasons',
  mode: 'inline',
  tables: [{ name: TABLE, key: ['code'], columns: ['code', 'name', 'category', 'active', 'defined_at', 'changed_at'] }],
  eventTypes: ['StopReasonDefined', 'StopReasonChanged'],
  touches(event) {
    return event.type === 'StopReasonChanged' ? [{ table: TABLE, key: [(event.data as EventData<'StopReasonChanged'>).code] }] : [];
  },
  apply(event, view) {
    if (event.type === 'StopReasonDefined') {
      const d = event.data as EventData<'StopReasonDefined'>;
      return [{ table: TABLE, key: [d.code], row: { code: d.code, name: d.name, category: d.category, active: true, defined_at: iso(d.at), changed_at: iso(d.at) } }];
    }
    if (event.type === 'StopReasonChanged') {
      const d = event.data as EventData<'StopReasonChanged'>;
      const before = view.get(TABLE, [d.code]);
      const row = { code: d.code, name: d.name, category: d.category, active: d.active, defined_at: before ? iso(before.defined_at) : iso(d.at), changed_at: iso(d.at) };
      return [{ table: TABLE, key: [d.code], row }];
    }
    return [];
  },
};
