/**
 * The SQL of the devices' presence, over the `device_presence` read model (migrations/020,
 * projections/device-presence.ts): the downtime facts (commands/facts.ts reads them in its one statement and checks
 * them again in the append's guard) and the stop reads (queries/stops.ts).
 * - `onDeviceSql(phone, deviceNo)`: the person is clocked in on the device now (the open segment of a session);
 * - `attendanceSql(deviceNo, from)`: the segments of every session on the device lasting at or after instant `from`
 *   (ISO text), as a JSON array `[{from, to, clockInAt, abandoned}]` (domain/stops.ts AttendanceSegment) in a fixed
 *   order (null: none), so that the guard compares it with what the decision read.
 * Arguments are SQL expressions (text).
 */

/** SQL (boolean): `phone` is clocked in on `deviceNo` (module docstring). */
export const onDeviceSql = (phone: string, deviceNo: string): string =>
  `EXISTS (SELECT 1 FROM device_presence WHERE current_device = ${deviceNo} AND employee_phone = ${phone})`;

/** SQL (json or null): the device's presence segments lasting at or after `from` (module docstring). */
export const attendanceSql = (deviceNo: string, from: string): string =>
  `(SELECT json_agg(json_build_object('from', s ->> 'from', 'to', s ->> 'to',
                                      'clockInAt', (extract(epoch FROM p.clock_in_at) * 1000)::bigint, 'abandoned', p.abandoned)
                    ORDER BY s ->> 'from', p.session_id, s ->> 'to')
      FROM device_presence p CROSS JOIN LATERAL jsonb_array_elements(p.segments) s
     WHERE p.devices @> ARRAY[${deviceNo}] AND (p.ended_at IS NULL OR p.ended_at >= (${from})::timestamptz)
       AND s ->> 'deviceNo' = ${deviceNo} AND (s ->> 'to' IS NULL OR (s ->> 'to')::timestamptz >= (${from})::timestamptz))`;
