/**
 * The read model of a list of reasons kept as master data (不良原因 `defect_reasons`, 停机原因 `stop_reasons`), one
 * shape for both, inline: written by the reason commands' own statements, so a command's facts read a new or
 * deactivated reason at once. The `<X>Defined` event writes the row (active); `<X>Changed` rewrites name, category
 * and active, keeping `defined_at` (it reads the row). Columns: code, name, category, active, defined_at, changed_at.
 */
import type { Projection } from './projection.ts';
import { utcIso } from '../time.ts';

/** The events of a reason: `{code, name, category, at}`, the change with `active`. */
interface ReasonData {
  readonly code: string;
  readonly name: string;
  readonly category: string;
  readonly active?: boolean;
  readonly at: string;
}

/** The projection `name` of table `table` from the events `defined` and `changed` (module docstring). */
export function reasonTableProjection(name: string, table: string, defined: string, changed: string): Projection {
  return {
    name,
    mode: 'inline',
    tables: [{ name: table, key: ['code'], columns: ['code', 'name', 'category', 'active', 'defined_at', 'changed_at'] }],
    eventTypes: [defined, changed],
    touches(event) {
      return event.type === changed ? [{ table, key: [(event.data as ReasonData).code] }] : [];
    },
    apply(event, view) {
      const d = event.data as ReasonData;
      if (event.type === defined) {
        return [{ table, key: [d.code], row: { code: d.code, name: d.name, category: d.category, active: true, defined_at: utcIso(d.at), changed_at: utcIso(d.at) } }];
      }
      if (event.type === changed) {
        const before = view.get(table, [d.code]);
        const row = { code: d.code, name: d.name, category: d.category, active: d.active, defined_at: before ? utcIso(before.defined_at) : utcIso(d.at), changed_at: utcIso(d.at) };
        return [{ table, key: [d.code], row }];
      }
      return [];
    },
  };
}
