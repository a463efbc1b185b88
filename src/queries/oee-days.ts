/**
 * The OEE read model (migrations/024): the sums per device and local date of the CLOSED days (before the factory's
 * today), so that `GET /api/oee` for a month sums a few thousand rows and computes only today (and any date not kept)
 * from the raw presence (queries/oee.ts `oeeCells`).
 *
 * A kept date's cells are computed by the live read's own code (`liveCells`: the union of the presence, the shifts'
 * unpaid windows, the stops, the approved lines), so the model and the live computation agree by construction
 * (test/oee/oee-days.test.ts compares them on random histories). A day before today no longer changes with the
 * clock: an open session or a lasting stop counts in it up to its midnight at most, and whatever ends it later (a
 * clock-out, an abandonment, a stop's end) is an event that drops the date again.
 *
 * An async consumer of the events that change the sums of past dates, with a checkpoint like the projections:
 * - `handle`: the dates the events change are dropped from `oee_days_kept` (the cells of a dropped date are no longer
 *   read): a worker's switch, clock-out or abandonment the dates from the session's clock-in to the event; a stop's
 *   start, end or correction the dates of its interval before and after; an approval its report date; a shift,
 *   team-shift or membership event (the break windows) and a stop reason's definition or change (the category that
 *   splits planned from unplanned) every date. A clock-in changes only today (never kept).
 * - `keep` (`idle` work of the background loop, the leader only, under the same checkpoint lock so it never races a
 *   batch): computes up to KEEP_DAYS dates before today that are not kept, newest first, from the earliest date
 *   anything happened, and writes their cells and the date kept. `keepDates` does it for given dates (the
 *   benchmark, the tests, a rebuild).
 * A read waits for the consumer (fresh-reads.ts) so that a date the reader's own write changed is not read as kept.
 * It lives beside the read (queries/) rather than with the projections: it computes with the read's own code.
 */
import type pg from 'pg';
import type { Clock } from '../clock.ts';
import { withTransaction } from '../db/transaction.ts';
import type { Queryable } from '../db/transaction.ts';
import type { ClockSettings } from '../domain/clock.ts';
import { allDevices, liveCells, type OeeCell } from './oee.ts';
import type { StopCategory } from '../domain/stop-reasons.ts';
import { addDays, localDate } from '../time.ts';
import { lockCheckpoint, type AsyncConsumer } from '../projections/consumer.ts';

export const OEE_DAYS = 'oee-days';
/** Dates computed per round of the background loop (a date of 200 devices: about a tenth of a second). */
const KEEP_DAYS = 3;

/** Events that change the sums of every date (break windows, stop categories). */
const EVERY_DATE = ['ShiftDefined', 'ShiftChanged', 'ShiftAssigned', 'ShiftOverridden', 'ShiftOverrideRemoved', 'MembershipStarted', 'MembershipEnded', 'StopReasonDefined', 'StopReasonChanged'];
const SESSION = ['DeviceSwitched', 'ClockedOut', 'SessionAbandoned'];
const STOP = ['StopStarted', 'StopEnded', 'StopCorrected'];

/** The local dates from the one of `from` to the one of `to` (instants; `to` before `from`: the date of `from`). */
function datesBetween(from: Date, to: Date, tz: string): string[] {
  const out: string[] = [];
  const last = localDate(to, tz);
  for (let d = localDate(from, tz); out.length === 0 || d <= last; d = addDays(d, 1)) out.push(d);
  return out;
}

/** The OEE read model's consumer, with its background work (module docstring). */
export interface OeeDaysConsumer extends AsyncConsumer {
  /** Keeps up to KEEP_DAYS closed dates not kept yet; resolves to the number kept. */
  idle(pool: pg.Pool): Promise<number>;
}

/** The consumer of `settings` on `clock` (module docstring). */
export function oeeDaysConsumer(clock: Clock, settings: ClockSettings): OeeDaysConsumer {
  const tz = settings.timeZone;
  return {
    name: OEE_DAYS,
    eventTypes: [...SESSION, ...STOP, 'ReportApproved', ...EVERY_DATE],
    async handle(tx, events) {
      if (events.some((e) => EVERY_DATE.includes(e.type))) {
        await tx.query(`DELETE FROM oee_days_kept`);
        return;
      }
      const dates = new Set<string>();
      const sessions = events.filter((e) => SESSION.includes(e.type));
      if (sessions.length) {
        const r = await tx.query(`SELECT session_id, clock_in_at FROM sessions WHERE session_id = ANY($1::uuid[])`, [sessions.map((e) => e.data.sessionId)]);
        const clockIn = new Map<string, Date>(r.rows.map((x: any) => [x.session_id, new Date(x.clock_in_at)]));
        for (const e of sessions) {
          const at = new Date(e.data.at);
          for (const d of datesBetween(clockIn.get(e.data.sessionId) ?? new Date(at.getTime() - 2 * settings.sessionMaxMs), at, tz)) dates.add(d);
        }
      }
      const stops = events.filter((e) => STOP.includes(e.type));
      if (stops.length) {
        const r = await tx.query(`SELECT stop_id, start_at FROM stops WHERE stop_id = ANY($1::uuid[])`, [stops.map((e) => e.data.stopId)]);
        const started = new Map<string, Date>(r.rows.map((x: any) => [x.stop_id, new Date(x.start_at)]));
        for (const e of stops) {
          const at = new Date(e.data.at);
          const d = e.data;
          const intervals: [Date, Date][] =
            e.type === 'StopStarted'
              ? [[new Date(d.startAt), d.endAt ? new Date(d.endAt) : at]]
              : e.type === 'StopEnded'
                ? [[started.get(d.stopId) ?? new Date(d.endAt), new Date(d.endAt)]]
                : [d.before, d.after].map((x: { startAt: string; endAt: string | null }) => [new Date(x.startAt), x.endAt ? new Date(x.endAt) : at] as [Date, Date]);
          for (const [from, to] of intervals) for (const day of datesBetween(from, to > at ? to : at, tz)) dates.add(day);
        }
      }
      for (const e of events) if (e.type === 'ReportApproved') dates.add(String(e.data.reportDate));
      if (dates.size) await tx.query(`DELETE FROM oee_days_kept WHERE report_date = ANY($1::date[])`, [[...dates]]);
    },
    async idle(pool) {
      return withTransaction(pool, async (tx) => {
        await lockCheckpoint(tx, OEE_DAYS);
        const today = localDate(clock.now(), tz);
        const r = await tx.query(
          `SELECT d::date::text AS date
             FROM (SELECT least((SELECT min(clock_in_at) FROM sessions), (SELECT min(start_at) FROM stops),
                                (SELECT min(report_date) FROM reports)::timestamp AT TIME ZONE $1::text) AS first) f,
                  generate_series((f.first AT TIME ZONE $1::text)::date, $2::date - 1, interval '1 day') d
            WHERE f.first IS NOT NULL AND NOT EXISTS (SELECT 1 FROM oee_days_kept k WHERE k.report_date = d::date)
            ORDER BY d DESC LIMIT $3`,
          [tz, today, KEEP_DAYS],
        );
        const dates = r.rows.map((x: any) => x.date as string);
        if (dates.length) await keepDates(tx, dates, clock.now(), settings);
        return dates.length;
      });
    },
  };
}

/**
 * Computes the cells of `dates` (closed: before the local date of `now`) for every device with the live read's code
 * and writes them with the dates kept (replacing what was kept of them). Run under the consumer's checkpoint lock
 * (`idle`) or where nothing else writes (a rebuild, the benchmark).
 */
export async function keepDates(q: Queryable, dates: readonly string[], now: Date, settings: ClockSettings): Promise<void> {
  const today = localDate(now, settings.timeZone);
  const closed = [...new Set(dates)].filter((d) => d < today).sort();
  if (closed.length === 0) return;
  const devices = await allDevices(q);
  const reasons = new Map<string, { name: string; category: StopCategory }>(
    (await q.query(`SELECT code, name, category FROM stop_reasons`)).rows.map((r: any) => [r.code, { name: r.name, category: r.category }]),
  );
  const cells: OeeCell[] = [];
  // Runs of consecutive dates, each computed in one pass.
  let run: string[] = [];
  for (const d of closed) {
    if (run.length && addDays(run[run.length - 1], 1) !== d) {
      cells.push(...(await liveCells(q, run, devices, reasons, now, settings)));
      run = [];
    }
    run.push(d);
  }
  cells.push(...(await liveCells(q, run, devices, reasons, now, settings)));
  await q.query(`DELETE FROM oee_device_days WHERE report_date = ANY($1::date[])`, [closed]);
  const rows = cells.map((c) => ({
    report_date: c.date,
    device_no: c.deviceNo,
    attended_ms: c.sums.attendedMs,
    planned_ms: c.sums.plannedMs,
    planned_stop_ms: c.sums.plannedStopMs,
    unplanned_stop_ms: c.sums.unplannedStopMs,
    run_ms: c.sums.runMs,
    ideal_ms: c.sums.idealMs,
    fully_productive_ms: c.sums.fullyProductiveMs,
    good_qty: c.sums.goodQty,
    total_qty: c.sums.totalQty,
    losses: Object.fromEntries(c.losses),
  }));
  for (let i = 0; i < rows.length; i += 5000) {
    await q.query(`INSERT INTO oee_device_days SELECT * FROM jsonb_populate_recordset(NULL::oee_device_days, $1::jsonb)`, [JSON.stringify(rows.slice(i, i + 5000))]);
  }
  await q.query(
    `INSERT INTO oee_days_kept (report_date, kept_at) SELECT d, $2::timestamptz FROM unnest($1::date[]) d
       ON CONFLICT (report_date) DO UPDATE SET kept_at = EXCLUDED.kept_at`,
    [closed, now],
  );
}
