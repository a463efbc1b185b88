/**
 * The SQL of the devices' presence, kept in the sessions' rows (migrations/020 and 030,
 * projections/sessions.ts): the downtime facts (commands/facts.ts reads them in its one statement and checks
 * them again in the append's guard) and the stop reads (queries/stops.ts).
 * - `onDeviceSql(phone, deviceNo)`: the person is clocked in on the device now (the open segment of their open
 *   session, found through `sessions_one_open_per_worker`);
 * - `attendanceSql(deviceNo, from, lookBackHours)`: the segments of every session on the device lasting at or after
 *   instant `from` (ISO text), as a JSON array `[{from, to, clockInAt, abandoned}]` (domain/stops.ts
 *   AttendanceSegment) in a fixed order (null: none), so that the guard compares it with what the decision read.
 *   The sessions are those clocked in at most `lookBackHours` before `from` (presenceLookBackHours: no presence
 *   closed after `from` began earlier) and those still active (still open, however old), each looked up by an
 *   index on a column a session's later updates leave alone (`sessions_by_clock_in`, migrations/030;
 *   `sessions_active_by_clock_in`).
 * Arguments are SQL expressions (text; `lookBackHours` integer).
 */
import type { ClockLimits } from './clock.ts';

/**
 * Hours before an instant within which every session whose presence was closed at or after it clocked in: a
 * clock-out comes at most SESSION_MAX_HOURS after the clock-in, a 重新报工 within the report window after that
 * (domain/clock.ts isOverAge), and an abandoned session's presence counts until clock-in + SESSION_MAX_HOURS at the
 * latest (domain/stops.ts attendanceIntervals); one hour more for the rounding up.
 */
export const presenceLookBackHours = (limits: Pick<ClockLimits, 'sessionMaxMs' | 'reportWindowMs'>): number =>
  Math.ceil((limits.sessionMaxMs + limits.reportWindowMs) / 3_600_000) + 1;

/** SQL (boolean): `phone` is clocked in on `deviceNo` (module docstring). */
export const onDeviceSql = (phone: string, deviceNo: string): string =>
  `EXISTS (SELECT 1 FROM sessions o WHERE o.employee_phone = ${phone} AND o.status IN ('active', 'reporting') AND o.current_device = ${deviceNo})`;

/** SQL (json or null): the device's presence segments lasting at or after `from` (module docstring). */
export const attendanceSql = (deviceNo: string, from: string, lookBackHours: string): string =>
  `(SELECT json_agg(json_build_object('from', s ->> 'from', 'to', s ->> 'to',
                                      'clockInAt', (extract(epoch FROM p.clock_in_at) * 1000)::bigint, 'abandoned', p.abandoned)
                    ORDER BY s ->> 'from', p.session_id, s ->> 'to')
      FROM sessions p CROSS JOIN LATERAL jsonb_array_elements(p.segments) s
     WHERE p.session_id IN (SELECT b.session_id FROM sessions b
                             WHERE b.clock_in_at >= (${from})::timestamptz - make_interval(hours => ${lookBackHours})
                            UNION ALL
                            SELECT a.session_id FROM sessions a
                             WHERE a.status = 'active' AND a.clock_in_at < (${from})::timestamptz - make_interval(hours => ${lookBackHours}))
       AND p.devices @> ARRAY[${deviceNo}] AND (p.ended_at IS NULL OR p.ended_at >= (${from})::timestamptz)
       AND s ->> 'deviceNo' = ${deviceNo} AND (s ->> 'to' IS NULL OR (s ->> 'to')::timestamptz >= (${from})::timestamptz))`;
