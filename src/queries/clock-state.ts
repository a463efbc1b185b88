/**
 * GET /api/clock/state (spec 3.1, 4.5; decisions.md "Clocking"): the one action label for the worker at the
 * scanned device, with `sessionId` and `clockInAt` (when a session is open: the phone names the clock-in time when
 * it asks to confirm 下班报工 / 重新报工) and `expiresAt` (继续报工, 重新报工).
 * One statement (the route leaves the person check to it, like the worker's commands): whether the person still
 * holds the role, whether the device is in use, and the worker's open session.
 * Throws domain errors ROLE_REVOKED, DEVICE_NOT_FOUND (no product uses the device).
 */
import { keyedQueryable, type StatementRunner } from '../db/transaction.ts';
import { labelAt, openOrNone, type ClockSettings, type LabelAnswer } from '../domain/clock.ts';
import { domainError } from '../domain/errors.ts';
import { scannedDeviceNo, type DeviceRef } from '../devices/device.ts';
import { SESSION_COLUMNS, toSession } from './sessions.ts';
import { attendanceSql, presenceLookBackHours } from '../domain/presence-sql.ts';
import { attendanceIntervals, systemEnd } from '../domain/stops.ts';
import type { StopCategory } from '../domain/stop-reasons.ts';

/** The device's stop lasting at the scan (停机中), with its reason: what the phone shows beside 恢复生产. */
export interface DeviceStopped {
  stopId: string;
  reasonCode: string;
  reasonName: string;
  category: StopCategory | null;
  startAt: Date;
}

/**
 * $1 phone, $2 role, $3 device number, $4 the presence's look-back in hours (presenceLookBackHours). `stop`: the
 * device's stop recorded as lasting, with its reason and the device's attendance from its start (domain/stops.ts: it lasts while the attendance run holding its start does).
 */
const STATE_SQL = `SELECT EXISTS (SELECT 1 FROM personnel WHERE phone = $1 AND role = $2) AS person_holds,
       EXISTS (SELECT 1 FROM products WHERE device_no = $3) AS device_in_use, s.*,
       (SELECT json_build_object('stopId', st.stop_id, 'reasonCode', st.reason_code, 'reasonName', r.name, 'category', r.category,
                                 'startAt', st.start_at, 'attendance', ${attendanceSql('$3::text', 'st.start_at::text', '$4::int')})
          FROM stops st LEFT JOIN stop_reasons r ON r.code = st.reason_code
         WHERE st.device_no = $3 AND st.end_at IS NULL LIMIT 1) AS stop
  FROM (SELECT 1) AS one
  LEFT JOIN LATERAL (SELECT ${SESSION_COLUMNS} FROM sessions
                      WHERE employee_phone = $1 AND status IN ('active', 'reporting')
                      ORDER BY opened_version DESC LIMIT 1) s ON true`;

/**
 * The one label (spec 3.1) for worker `phone` in `role` scanning `device` (`deviceNo` or `deviceKey`) at `now`, with
 * the resolved `deviceNo`, and `sessionId` / `clockInAt` / `expiresAt` where they apply, read through `reads` (Database.reads:
 * batched with other workers' reads, keyed by the worker's phone; or the pool). Throws ROLE_REVOKED,
 * DEVICE_NOT_FOUND.
 */
export async function clockState(
  reads: StatementRunner,
  settings: ClockSettings,
  now: Date,
  worker: { phone: string; role: string },
  device: DeviceRef,
): Promise<LabelAnswer & { deviceNo: string; clockInAt?: Date; stopped?: DeviceStopped }> {
  const q = keyedQueryable(reads, worker.phone);
  const deviceNo = await scannedDeviceNo(q, device);
  const r = (await q.query(STATE_SQL, [worker.phone, worker.role, deviceNo, presenceLookBackHours(settings)])).rows[0];
  if (!r.person_holds) throw domainError('ROLE_REVOKED');
  if (!r.device_in_use) throw domainError('DEVICE_NOT_FOUND');
  const open = r.session_id ? openOrNone(toSession(r)) : undefined;
  const answer = labelAt(open, deviceNo, now, settings);
  const stopped = lastingAt(r.stop, now, settings);
  return { deviceNo, ...answer, ...(open && answer.sessionId ? { clockInAt: new Date(open.clockInAt) } : {}), ...(stopped ? { stopped } : {}) };
}

/** The stop `row` (STATE_SQL `stop`) when it still lasts at `now`: its attendance run has not ended (domain/stops.ts). */
function lastingAt(row: any, now: Date, settings: ClockSettings): DeviceStopped | undefined {
  if (!row) return undefined;
  const startAt = new Date(row.startAt);
  const end = systemEnd(startAt.getTime(), attendanceIntervals(row.attendance ?? [], settings.sessionMaxMs));
  if (end !== null && end <= now.getTime()) return undefined;
  return { stopId: row.stopId, reasonCode: row.reasonCode, reasonName: row.reasonName ?? row.reasonCode, category: row.category ?? null, startAt };
}
