/**
 * The `defect_reasons` read model (migrations/018), inline: written by the reason commands' own statements, so a
 * submission's facts read a new or deactivated reason at once.
 *
 * DefectReasonDefined writes the row (active); DefectReasonChanged rewrites name, category and active, keeping
 * `defined_at` (it reads the row).
 */
import type { EventData } from '../events/catalog.ts';
import type { Projection } from './projection.ts';

const TABLE = 'defect_reasons';
const iso = (at: unknown) => (at instanceof Date ? at.toISOString() : new Date(String(at)).toISOString());

export const defectReasonsProjection: Projection = {
  name: 'defect-reasons',
  mode: 'inline',
  tables: [{ name: TABLE, key: ['code'], columns: ['code', 'name', 'category', 'active', 'defined_at', 'changed_at'] }],
  eventTypes: ['DefectReasonDefined', 'DefectReasonChanged'],
  touches(event) {
    return event.type === 'DefectReasonChanged' ? [{ table: TABLE, key: [(event.data as EventData<'DefectReasonChanged'>).code] }] : [];
  },
  apply(event, view) {
    if (event.type === 'DefectReasonDefined') {
      const d = event.data as EventData<'DefectReasonDefined'>;
      return [{ table: TABLE, key: [d.code], row: { code: d.code, name: d.name, category: d.category, active: true, defined_at: iso(d.at), changed_at: iso(d.at) } }];
    }
    if (event.type === 'DefectReasonChanged') {
      const d = event.data as EventData<'DefectReasonChanged'>;
      const before = view.get(TABLE, [d.code]);
      const row = { code: d.code, name: d.name, category: d.category, active: d.active, defined_at: before ? iso(before.defined_at) : iso(d.at), changed_at: iso(d.at) };
      return [{ table: TABLE, key: [d.code], row }];
    }
    return [];
  },
};
