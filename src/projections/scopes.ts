/**
 * The `scopes` read model (migrations/015), inline: one row per person and role whose scope was
 * set, written by the scope command's own statement, so the next request on any instance reads the new scope.
 *
 * ScopeSet (stream `scope-<phone>`) writes the row of (phone, role) whole: workshops and teams (codes; both empty
 * = the whole factory), `set_at` the event's `at`, `set_by_*` from the event's metadata.
 */
import type { EventData } from '../events/catalog.ts';
import type { Projection } from './projection.ts';

const TABLE = 'scopes';

export const scopesProjection: Projection = {
  name: 'scopes',
  mode: 'inline',
  tables: [{ name: TABLE, key: ['phone', 'role'], columns: ['phone', 'role', 'workshops', 'teams', 'set_at', 'set_by_phone', 'set_by_name'] }],
  eventTypes: ['ScopeSet'],
  // The row is written whole from the event: nothing to read.
  touches: () => [],
  apply(event) {
    const d = event.data as EventData<'ScopeSet'>;
    return [
      {
        table: TABLE,
        key: [d.phone, d.role],
        row: {
          phone: d.phone,
          role: d.role,
          workshops: d.workshops,
          teams: d.teams,
          set_at: new Date(d.at).toISOString(),
          set_by_phone: event.metadata.actorPhone ?? null,
          set_by_name: event.metadata.actorName ?? null,
        },
      },
    ];
  },
};
