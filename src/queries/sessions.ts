/**
 * The `sessions` read model (migrations/004_sessions_reports.sql) as the worker's queries read it (state, draft).
 * Rows come back as domain Sessions (domain/clock.ts) so the same pure rules judge them.
 */
import type { Session } from '../domain/clock.ts';

/** The columns `toSession` maps. */
export const SESSION_COLUMNS = 'session_id, status, clock_in_at, clock_out_at, expires_at, devices, report_id';

/** A sessions row (SESSION_COLUMNS; instants as Dates) as the Session the rules judge. */
export function toSession(r: any): Session {
  const base = { sessionId: r.session_id, clockInAt: r.clock_in_at, devices: r.devices };
  switch (r.status) {
    case 'active':
      return { ...base, status: 'active' };
    case 'reporting':
      return { ...base, status: 'reporting', clockOutAt: r.clock_out_at, expiresAt: r.expires_at };
    case 'reported':
      return { ...base, status: 'reported', reportId: r.report_id };
    default:
      return { ...base, status: 'abandoned' };
  }
}
