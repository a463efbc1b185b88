/**
 * Reads of the `sessions` read model (migrations/004_sessions_reports.sql) shared by the worker's queries.
 * Rows come back as `AnySession` (src/commands/clock/rules.ts) so the same pure rules judge them.
 */
import type { Queryable } from '../db/transaction.ts';
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

/** The worker's open (active or reporting) session, if any. */
export async function findOpenSession(q: Queryable, phone: string): Promise<AnySession | undefined> {
  const r = await q.query(
    `SELECT ${SESSION_COLUMNS} FROM sessions
      WHERE employee_phone = $1 AND status IN ('active', 'reporting')
      ORDER BY opened_version DESC LIMIT 1`,
    [phone],
  );
  return r.rows.length ? toSession(r.rows[0]) : undefined;
}

/** The session `sessionId` if it is the worker's own (another worker's session: undefined, never revealed). */
export async function findOwnSession(q: Queryable, phone: string, sessionId: string): Promise<AnySession | undefined> {
  const r = await q.query(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE session_id = $1 AND employee_phone = $2`, [sessionId, phone]);
  return r.rows.length ? toSession(r.rows[0]) : undefined;
}
