/**
 * The stops as the console reads them (GET /api/stops; migrations/020 `stops`, projections/stops.ts), and the
 * device's attendance the reads need to end a lasting stop where the last worker left (domain/stops.ts).
 *
 * - `listStops(q, filter, reader, now, settings)` → a page of stops, latest start first, of the devices the reader
 *   sees (domain/scope.ts `deviceScopeSql`), filtered by device, the device's workshop, reason and local dates (a
 *   stop counts on the dates its interval touches). A stop recorded as lasting shows the end the reads give it:
 *   where the device's attendance run ended (`endedBy: 'system'`), or none while the run lasts (`lasting`).
 * - `lastingEnds(q, stops, settings)` → for stops recorded as lasting: their system end (ms) or null.
 */
import type { Queryable } from '../db/transaction.ts';
import type { ClockSettings } from '../domain/clock.ts';
import { deviceScopeSql, type Reader } from '../domain/scope.ts';
import type { StopCategory } from '../domain/stop-reasons.ts';
import { attendanceIntervals, systemEnd, type AttendanceSegment } from '../domain/stops.ts';
import { attendanceSql, presenceLookBackHours } from '../domain/presence-sql.ts';
import { limitOffset, toPage, type Page, type PageQuery } from '../shared/page.ts';
import { addDays, localInstant } from '../time.ts';

/** A stop as listed. Instants as Dates. */
export interface StopRow {
  stopId: string;
  deviceNo: string;
  workshopCode: string | null;
  reasonCode: string;
  reasonName: string;
  category: StopCategory | null;
  startAt: Date;
  /** The end the reads give (recorded, or where the attendance ended); null while it lasts. */
  endAt: Date | null;
  /** `person`: ended by a person; `system`: where the last worker left the device; null: lasting. */
  endedBy: 'person' | 'system' | null;
  /** Seconds from start to end, or to now while it lasts. */
  durationSeconds: number;
  note: string | null;
  recordedBy: { phone: string; name: string | null };
}

export interface StopFilter {
  readonly device?: string;
  readonly workshop?: string;
  readonly reason?: string;
  readonly startDate?: string;
  readonly endDate?: string;
}

/** For each of `stops` recorded as lasting (end null): its system end in ms, or null while the attendance lasts. */
export async function lastingEnds(
  q: Queryable,
  stops: readonly { stopId: string; deviceNo: string; startAt: Date; recordedEnd: Date | null }[],
  settings: ClockSettings,
): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  for (const s of stops) {
    if (s.recordedEnd !== null) continue;
    const r = await q.query(`SELECT ${attendanceSql('$1::text', '$2::text', '$3::int')} AS a`, [s.deviceNo, s.startAt.toISOString(), presenceLookBackHours(settings)]);
    const segments: AttendanceSegment[] = r.rows[0].a ?? [];
    out.set(s.stopId, systemEnd(s.startAt.getTime(), attendanceIntervals(segments, settings.sessionMaxMs)));
  }
  return out;
}

/** The page of stops for `reader` (module docstring). */
export async function listStops(q: Queryable, filter: StopFilter, page: PageQuery, reader: Reader, now: Date, settings: ClockSettings): Promise<Page<StopRow>> {
  const args: unknown[] = [[...reader.scope.workshops], [...reader.scope.teams], filter.device ?? null, filter.workshop ?? reader.filter.workshop ?? null, filter.reason ?? null];
  const from = filter.startDate ? localInstant(filter.startDate, '00:00', settings.timeZone) : null;
  const to = filter.endDate ? localInstant(addDays(filter.endDate, 1), '00:00', settings.timeZone) : null;
  args.push(from, to);
  const where = `${deviceScopeSql('s.device_no', '$1', '$2')}
     AND ($3::text IS NULL OR s.device_no = $3::text)
     AND ($4::text IS NULL OR dw.workshop_code = $4::text)
     AND ($5::text IS NULL OR s.reason_code = $5::text)
     AND ($7::timestamptz IS NULL OR s.start_at < $7::timestamptz)
     AND ($6::timestamptz IS NULL OR s.end_at IS NULL OR s.end_at > $6::timestamptz)`;
  const { limit, offset } = limitOffset(page);
  const [rows, count] = await Promise.all([
    q.query(
      `SELECT s.*, dw.workshop_code, r.name AS reason_name, r.category FROM stops s
         LEFT JOIN device_workshops dw ON dw.device_no = s.device_no
         LEFT JOIN stop_reasons r ON r.code = s.reason_code
        WHERE ${where} ORDER BY s.start_at DESC, s.stop_id LIMIT ${limit} OFFSET ${offset}`,
      args,
    ),
    q.query(`SELECT count(*)::int AS n FROM stops s LEFT JOIN device_workshops dw ON dw.device_no = s.device_no WHERE ${where}`, args),
  ]);
  const found = rows.rows.map((r: any) => ({ r, stopId: r.stop_id as string, deviceNo: r.device_no as string, startAt: new Date(r.start_at), recordedEnd: r.end_at ? new Date(r.end_at) : null }));
  const ends = await lastingEnds(q, found, settings);
  const items = found.map(({ r, startAt, recordedEnd, stopId }): StopRow => {
    const sys = ends.get(stopId);
    const endAt = recordedEnd ?? (typeof sys === 'number' ? new Date(sys) : null);
    const endedBy = recordedEnd ? (r.ended_by === 'system' ? 'system' : 'person') : endAt ? 'system' : null;
    return {
      stopId,
      deviceNo: r.device_no,
      workshopCode: r.workshop_code ?? null,
      reasonCode: r.reason_code,
      reasonName: r.reason_name ?? r.reason_code,
      category: r.category ?? null,
      startAt,
      endAt,
      endedBy,
      durationSeconds: Math.max(0, Math.floor(((endAt ?? now).getTime() - startAt.getTime()) / 1000)),
      note: r.note ?? null,
      recordedBy: { phone: r.recorded_by, name: r.recorded_name ?? null },
    };
  });
  return toPage(items, count.rows[0].n, page);
}
