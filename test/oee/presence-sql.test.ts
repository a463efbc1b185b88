/**
 * The presence lookups of src/domain/presence-sql.ts over the read models as the projections leave them: who is on a
 * device now (through the worker's open session), and the device's attendance lasting at or after an instant (the
 * sessions clocked in within the look-back, and the still active ones however old).
 */
import { describe, expect, it } from 'vitest';
import { attendanceSql, onDeviceSql, presenceLookBackHours } from '../../src/domain/presence-sql.ts';
import { useMigratedDatabase } from '../helpers/db.ts';

const database = useMigratedDatabase(['sessions']);

const H = 3_600_000;
const now = Date.parse('2026-11-28T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
let n = 0;

/** A session of `phone` on `deviceNo` from `from` (ms) to `to` (null: still clocked in), as the projections write it. */
async function session(phone: string, deviceNo: string, from: number, to: number | null, status = to === null ? 'active' : 'reported') {
  const id = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  await database().pool.query(
    `INSERT INTO sessions (session_id, employee_phone, status, clock_in_at, clock_out_at, devices, opened_version, updated_at,
                           ended_at, abandoned, current_device, segments)
     VALUES ($1, $2, $3, $4, $5, ARRAY[$6], $7, $4, $5, false, $8, $9)`,
    [id, phone, status, iso(from), to === null ? null : iso(to), deviceNo, n, to === null ? deviceNo : null, JSON.stringify([{ deviceNo, from: iso(from), to: to === null ? null : iso(to) }])],
  );
}

const limits = { sessionMaxMs: 16 * H, reportWindowMs: 2 * H };

async function attendance(deviceNo: string, from: number): Promise<{ from: string; to: string | null }[]> {
  const r = await database().pool.query(`SELECT ${attendanceSql('$1::text', '$2::text', '$3::int')} AS a`, [deviceNo, iso(from), presenceLookBackHours(limits)]);
  return (r.rows[0].a ?? []).map((s: { from: string; to: string | null }) => ({ from: new Date(s.from).toISOString(), to: s.to && new Date(s.to).toISOString() }));
}

async function onDevice(phone: string, deviceNo: string): Promise<boolean> {
  return (await database().pool.query(`SELECT ${onDeviceSql('$1::text', '$2::text')} AS on`, [phone, deviceNo])).rows[0].on;
}

describe('presence lookups', () => {
  it('the look-back covers a clock-out within SESSION_MAX_HOURS and the report window of the clock-in', () => {
    expect(presenceLookBackHours(limits)).toBe(19);
    expect(presenceLookBackHours({ sessionMaxMs: 16 * H, reportWindowMs: 30 * 60_000 })).toBe(18);
  });

  it("a device's attendance: sessions lasting at or after the instant, an open one however old, none on other devices", async () => {
    await session('13800000001', 'D1', now - 72 * H, null); // still active three days on (not abandoned yet)
    await session('13800000002', 'D1', now - 15 * H, now - 30 * 60_000); // ended after the instant
    await session('13800000003', 'D1', now - 15 * H, now - 5 * H); // ended before it
    await session('13800000004', 'D2', now - 2 * H, null); // another device
    expect(await attendance('D1', now - H)).toEqual([
      { from: iso(now - 72 * H), to: null },
      { from: iso(now - 15 * H), to: iso(now - 30 * 60_000) },
    ]);
    expect(await attendance('D2', now - H)).toEqual([{ from: iso(now - 2 * H), to: null }]);
    expect(await attendance('D3', now - H)).toEqual([]);
  });

  it('on a device now: the open segment of the worker’s open session only', async () => {
    await session('13800000001', 'D1', now - 2 * H, null);
    await session('13800000002', 'D1', now - 3 * H, now - H, 'reporting');
    expect(await onDevice('13800000001', 'D1')).toBe(true);
    expect(await onDevice('13800000001', 'D2')).toBe(false);
    expect(await onDevice('13800000002', 'D1')).toBe(false);
    expect(await onDevice('13800000009', 'D1')).toBe(false);
  });
});
