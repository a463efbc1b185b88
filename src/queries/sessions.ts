/**
 * The `sessions` read model (migrations/004_sessions_reports.sql) as the worker's queries read it (state, draft).
 * Rows come back as `AnySession` (src/commands/clock/rules.ts) so the same pure rules judge them.
 */
import type { AnySession } from '../commands/clock/rules.ts';

/** The columns `toSession` maps. */
export const SESSION_COLUMNS = 'session_id, status, clock_in_at, clock_out_at, expires_at, devices, report_id';

/** A sessions row (SESSION_COLUMNS) as the AnySession the rules judge. */
export const toSession = (r: any): AnySession => ({
  sessionId: r.session_id,
  status: r.status,
  clockInAt: r.clock_in_at,
  devices: r.devices,
  ...(r.clock_out_at ? { clockOutAt: r.clock_out_at } : {}),
  ...(r.expires_at ? { expiresAt: r.expires_at } : {}),
  reportId: r.report_id,
});
