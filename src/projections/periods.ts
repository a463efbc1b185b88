/**
 * The `periods` read model (migrations/011), inline: a month as its closes and reopens leave it (the monthly
 * close), written by the close's or the reopen's own statement — so a write into the month that
 * waited for the close reads `closed` (migrations/011 `months_open`).
 *
 * Events of the stream `period-<YYYY-MM>`:
 * - PeriodClosed: status `closed`, the close's version, time, who (the event's metadata), amount (fen, exact
 *   text) and workers; a `closed` entry added to `history`.
 * - PeriodReopened: status `open`; a `reopened` entry (with the reason) added to `history`. The last close's
 *   figures stay.
 * History entries: {action, version, at (ISO 8601, UTC), byPhone, byName, amountFen, reason?}.
 */
import type { EventData } from '../events/catalog.ts';
import type { ProjectedEvent, Projection, Row } from './projection.ts';
import { utcIso } from '../time.ts';

const TABLE = 'periods';

/** A history entry of `event`. */
const entry = (event: ProjectedEvent, action: 'closed' | 'reopened', d: { version: number; amountFen: string; at: string; reason?: string }) => ({
  action,
  version: d.version,
  at: utcIso(d.at),
  byPhone: event.metadata.actorPhone ?? null,
  byName: event.metadata.actorName ?? null,
  amountFen: d.amountFen,
  ...(d.reason ? { reason: d.reason } : {}),
});

export const periodsProjection: Projection = {
  name: 'periods',
  mode: 'inline',
  tables: [
    {
      name: TABLE,
      key: ['month'],
      columns: ['month', 'status', 'version', 'closed_at', 'closed_by_phone', 'closed_by_name', 'amount_fen', 'workers', 'history'],
      exact: ['amount_fen'],
    },
  ],
  eventTypes: ['PeriodClosed', 'PeriodReopened'],
  // The first close makes the row; every later event reads it.
  touches: (e) => (e.type === 'PeriodClosed' && e.data.version === 1 ? [] : [{ table: TABLE, key: [e.data.month] }]),
  apply(event, view) {
    const key = [event.data.month];
    const row = view.get(TABLE, key);
    const history = (row?.history as unknown[] | undefined) ?? [];
    if (event.type === 'PeriodClosed') {
      const d = event.data as EventData<'PeriodClosed'>;
      const closed: Row = {
        month: d.month,
        status: 'closed',
        version: d.version,
        closed_at: utcIso(d.at),
        closed_by_phone: event.metadata.actorPhone ?? null,
        closed_by_name: event.metadata.actorName ?? null,
        amount_fen: d.amountFen,
        workers: d.workers,
        history: [...history, entry(event, 'closed', d)],
      };
      return [{ table: TABLE, key, row: closed }];
    }
    if (!row) return [];
    const d = event.data as EventData<'PeriodReopened'>;
    return [{ table: TABLE, key, row: { ...row, status: 'open', history: [...history, entry(event, 'reopened', d)] } }];
  },
};
