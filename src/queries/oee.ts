/**
 * The OEE read (GET /api/oee, GET /api/oee/losses; domain/oee.ts): per device and local date of a range. The closed
 * dates the OEE read model keeps (`oee_device_days`, queries/oee-days.ts; the route waits for it) are read from
 * it; every other date (today, a date not kept yet or changed since) is computed live (`liveCells`) from the
 * inline read models (so never older than the request): the workers' presence on the devices
 * (kept in the sessions' rows: migrations/020, 030) with their shifts' break windows (src/shifts/sql.ts, where shifts exist), the
 * stops (`stops`, a lasting one ended where the device's attendance ended or, while it lasts, at now), and the
 * approved report lines (`reports`) by the device of their product and their report date.
 *
 * `oeeCells(q, range, filter, reader, now, settings)` → the cells (device × date) with their sums and the stop losses;
 * `oeeReport(cells, groupBy)` groups them (device, workshop or day) into items and totals; `oeeLosses(cells)` the
 * stop time by reason, largest first. Scoped readers see the devices of their workshops (domain/scope.ts
 * `deviceScopeSql`).
 */
import pg from 'pg';
import type { Queryable } from '../db/transaction.ts';
import type { ClockSettings } from '../domain/clock.ts';
import type { Interval } from '../domain/intervals.ts';
import { addSums, cycleMs, deviceTimes, pct1, percentages, ZERO_SUMS, type OeeSums, type SessionOnDevice, type StopOnDevice } from '../domain/oee.ts';
import { deviceScopeSql, type Reader } from '../domain/scope.ts';
import { unpaidWindowsOf, type ShiftDay } from '../domain/shift-breaks.ts';
import { STOP_CATEGORY_LABELS, type StopCategory } from '../domain/stop-reasons.ts';
import { shiftDaysSql } from '../shifts/sql.ts';
import { addDays, daysBetween, localDate, localInstant } from '../time.ts';
import type { DateRange } from './dashboard.ts';
import { lastingEnds } from './stops.ts';

export const OEE_GROUPS = ['device', 'workshop', 'day'] as const;
export type OeeGroup = (typeof OEE_GROUPS)[number];

/** The device filters of the read (absent: none). */
export interface OeeFilter {
  readonly device?: string;
  readonly workshop?: string;
}

/** A device × date cell with its sums, and its stop losses by reason (ms). */
export interface OeeCell {
  readonly deviceNo: string;
  readonly workshopCode: string | null;
  readonly workshopName: string | null;
  readonly date: string;
  readonly sums: OeeSums;
  readonly losses: ReadonlyMap<string, number>;
}

export interface OeeCells {
  readonly cells: OeeCell[];
  /** Stop reasons by code: name and category (of now). */
  readonly reasons: ReadonlyMap<string, { name: string; category: StopCategory }>;
}

/** An item or the totals of the OEE answer (seconds, pieces, percentages). */
export interface OeeFigures {
  attendedSeconds: number;
  plannedSeconds: number;
  plannedStopSeconds: number;
  unplannedStopSeconds: number;
  runSeconds: number;
  idealSeconds: number;
  goodQty: number;
  totalQty: number;
  fullyProductiveSeconds: number;
  availabilityPct: number | null;
  performancePct: number | null;
  qualityPct: number | null;
  goodRatePct: number | null;
  oeePct: number | null;
}

const seconds = (ms: number) => ms / 1000;

/** The figures of sums `s` (module docstring of domain/oee.ts). */
export function figuresOf(s: Readonly<OeeSums>): OeeFigures {
  return {
    attendedSeconds: seconds(s.attendedMs),
    plannedSeconds: seconds(s.plannedMs),
    plannedStopSeconds: seconds(s.plannedStopMs),
    unplannedStopSeconds: seconds(s.unplannedStopMs),
    runSeconds: seconds(s.runMs),
    idealSeconds: seconds(s.idealMs),
    goodQty: s.goodQty,
    totalQty: s.totalQty,
    fullyProductiveSeconds: seconds(s.fullyProductiveMs),
    ...percentages(s),
  };
}

/** $1 workshops, $2 teams of the scope, $3 device, $4 workshop filter. */
const DEVICES_SQL = `SELECT d.device_no, dw.workshop_code, w.name AS workshop_name
  FROM (SELECT device_no FROM products UNION SELECT device_no FROM device_workshops) d
  LEFT JOIN device_workshops dw ON dw.device_no = d.device_no
  LEFT JOIN workshops w ON w.code = dw.workshop_code
 WHERE ${deviceScopeSql('d.device_no', '$1', '$2')} AND ($3::text IS NULL OR d.device_no = $3::text) AND ($4::text IS NULL OR dw.workshop_code = $4::text)`;

/**
 * $1 devices, $2 range start, $3 range end (instants), $4 earliest clock-in looked at, $5 time zone. The worker's
 * shift days around the clock-in date only where some team has a shift (else null: no break window anywhere).
 * The sessions of the look-back come by `sessions_by_clock_in`; the end test is written before the devices test
 * (the planner keeps conditions of equal cost in the written order): most of the look-back's sessions ended before
 * the range and are dropped by the cheap comparison, the overlap with a factory's hundreds of devices is taken only
 * for the rest (5 ms instead of 13 ms for today's 2,000 of 6,000 sessions, bench `oee`).
 */
const PRESENCE_SQL = `SELECT p.session_id, p.employee_phone, p.clock_in_at, p.abandoned, p.segments,
       CASE WHEN EXISTS (SELECT 1 FROM team_shift_assignments) OR EXISTS (SELECT 1 FROM team_shift_overrides)
            THEN ${shiftDaysSql('p.employee_phone', '(p.clock_in_at AT TIME ZONE $5::text)::date')} END AS days
  FROM sessions p
 WHERE p.clock_in_at < $3::timestamptz AND p.clock_in_at >= $4::timestamptz
   AND COALESCE(p.ended_at, 'infinity'::timestamptz) > $2::timestamptz AND p.devices && $1::text[]`;

/** $1 devices, $2 range start, $3 range end. */
const STOPS_SQL = `SELECT s.stop_id, s.device_no, s.reason_code, s.start_at, s.end_at FROM stops s
 WHERE s.device_no = ANY($1::text[]) AND s.start_at < $3::timestamptz AND (s.end_at IS NULL OR s.end_at > $2::timestamptz)`;

/**
 * $1 devices, $2 first date, $3 last date: the approved lines' sums per report date and device (cycle in ms, exact;
 * migrations/027 `oee_line_sums`, planned serially: a parallel worker's start costs more than a day's lines).
 */
const LINES_SQL = `SELECT date, device_no, ideal_ms, fp_ms, good, total FROM oee_line_sums($1::text[], $2::date, $3::date)`;

/** A device of the read: its number and workshop (code and name, null when in none). */
type DeviceRow = { device_no: string; workshop_code: string | null; workshop_name: string | null };

/**
 * The cells of `range` for `reader` with `filter` at `now` (module docstring): the closed dates kept by the read
 * model (`oee_device_days`, queries/oee-days.ts) from it, every other date (today, a date not kept yet or
 * changed since) computed live by `liveCells`, the kept ones summed at `grain` (OeeGrain). The same figures either
 * way (test/oee/oee-days.test.ts).
 */
export async function oeeCells(
  q: Queryable,
  range: DateRange,
  filter: OeeFilter,
  reader: Reader,
  now: Date,
  settings: ClockSettings,
  grain: OeeGrain = 'cell',
): Promise<OeeCells> {
  const today = localDate(now, settings.timeZone);
  const [devicesFound, kept, reasonRows] = await inTurnOrAtOnce(q, [
    () => q.query(DEVICES_SQL, [[...reader.scope.workshops], [...reader.scope.teams], filter.device ?? null, filter.workshop ?? reader.filter.workshop ?? null]),
    () => q.query(`SELECT report_date::text AS date FROM oee_days_kept WHERE report_date BETWEEN $1::date AND $2::date AND report_date < $3::date`, [range.startDate, range.endDate, today]),
    () => q.query(`SELECT code, name, category FROM stop_reasons`),
  ]);
  const devices = devicesFound.rows as DeviceRow[];
  const reasons = new Map<string, { name: string; category: StopCategory }>(reasonRows.rows.map((r: any) => [r.code, { name: r.name, category: r.category }]));
  const keptDates = new Set<string>(kept.rows.map((r: any) => r.date));
  // The dates not kept, in runs of consecutive dates, each computed live (beside the kept ones, on a pool).
  const runs: string[][] = [[]];
  for (let d = range.startDate; d <= range.endDate; d = addDays(d, 1)) {
    if (!keptDates.has(d)) runs[runs.length - 1].push(d);
    else if (runs[runs.length - 1].length) runs.push([]);
  }
  const parts = await inTurnOrAtOnce(q, [
    async () => (keptDates.size ? keptCells(q, [...keptDates], devices, grain) : []),
    ...runs.filter((run) => run.length).map((run) => () => liveCells(q, run, devices, reasons, now, settings)),
  ]);
  const cells: OeeCell[] = parts.flat();
  return { cells, reasons };
}

/**
 * How finely the kept dates are summed (the live ones are always per device and date): `cell` per device and date;
 * `device` per device over the kept dates (its cells' `date` ''), enough for the groupings by device and workshop
 * and for the losses; `day` per date over the devices (`deviceNo` '', no workshop), enough for the grouping by day.
 * Sums of the same numerators and denominators either way: the totals and percentages are the same.
 */
export type OeeGrain = 'cell' | 'device' | 'day';

/** The sum columns of `oee_device_days` summed, as the cell's fields. */
const KEPT_SUMS = `sum(attended_ms)::text AS attended_ms, sum(planned_ms)::text AS planned_ms, sum(planned_stop_ms)::text AS planned_stop_ms,
       sum(unplanned_stop_ms)::text AS unplanned_stop_ms, sum(run_ms)::text AS run_ms, sum(ideal_ms)::text AS ideal_ms,
       sum(fully_productive_ms)::text AS fully_productive_ms, sum(good_qty)::text AS good_qty, sum(total_qty)::text AS total_qty`;

/**
 * The kept cells of `dates` (closed, kept) of `devices` at `grain` (summed in the database, so a month by device is
 * 200 rows, not 6,000), with their workshops as `devices` give them.
 */
async function keptCells(q: Queryable, dates: readonly string[], devices: readonly DeviceRow[], grain: OeeGrain): Promise<OeeCell[]> {
  const byNo = new Map(devices.map((d) => [d.device_no, d]));
  const group = grain === 'cell' ? `report_date::text, device_no` : grain === 'device' ? `''::text, device_no` : `report_date::text, ''::text`;
  const where = `report_date = ANY($1::date[]) AND device_no = ANY($2::text[])`;
  const params = [dates, [...byNo.keys()]];
  const [sums, lossRows] = await inTurnOrAtOnce(q, [
    () => q.query(`SELECT ${group.replace(', ', ' AS date, ')} AS device_no, ${KEPT_SUMS} FROM oee_device_days WHERE ${where} GROUP BY 1, 2`, params),
    () =>
      q.query(`SELECT ${group.replace(', ', ' AS date, ')} AS device_no, l.key AS code, sum(l.value::bigint)::text AS ms
                 FROM oee_device_days, jsonb_each_text(losses) l WHERE ${where} GROUP BY 1, 2, 3`, params),
  ]);
  const rows = sums.rows as any[];
  const losses = lossRows.rows as any[];
  const lossesOf = new Map<string, Map<string, number>>();
  for (const l of losses) {
    const id = `${l.date}\u0000${l.device_no}`;
    (lossesOf.get(id) ?? lossesOf.set(id, new Map()).get(id)!).set(l.code, Number(l.ms));
  }
  return rows.map((r) => {
    const d = byNo.get(r.device_no);
    return {
      deviceNo: r.device_no,
      workshopCode: d?.workshop_code ?? null,
      workshopName: d?.workshop_name ?? null,
      date: r.date,
      sums: {
        attendedMs: Number(r.attended_ms),
        plannedMs: Number(r.planned_ms),
        plannedStopMs: Number(r.planned_stop_ms),
        unplannedStopMs: Number(r.unplanned_stop_ms),
        runMs: Number(r.run_ms),
        idealMs: Number(r.ideal_ms),
        fullyProductiveMs: Number(r.fully_productive_ms),
        goodQty: Number(r.good_qty),
        totalQty: Number(r.total_qty),
      },
      losses: lossesOf.get(`${r.date}\u0000${r.device_no}`) ?? new Map(),
    };
  });
}

/** Every device of the factory (what the read model keeps cells of), without their workshops. */
export async function allDevices(q: Queryable): Promise<DeviceRow[]> {
  return (await q.query(`SELECT device_no, NULL AS workshop_code, NULL AS workshop_name FROM products UNION SELECT device_no, NULL, NULL FROM device_workshops`)).rows as DeviceRow[];
}

/**
 * The cells of `devices` on the consecutive `dates` at `now`, computed from the raw presence, stops and approved
 * lines (module docstring); `reasons` the stop reasons by code (their category of now).
 */
export async function liveCells(
  q: Queryable,
  dates: readonly string[],
  devices: readonly DeviceRow[],
  reasons: ReadonlyMap<string, { name: string; category: StopCategory }>,
  now: Date,
  settings: ClockSettings,
): Promise<OeeCell[]> {
  const tz = settings.timeZone;
  const names = [...new Set(devices.map((d) => d.device_no))];
  const bounds = [...dates, addDays(dates[dates.length - 1], 1)].map((d) => localInstant(d, '00:00', tz).getTime());
  const [start, end] = [new Date(bounds[0]), new Date(bounds[bounds.length - 1])];
  const earliest = new Date(bounds[0] - 2 * settings.sessionMaxMs - 86_400_000);
  const nowMs = now.getTime();
  // At once on a pool (each on its own connection); one after the other on one connection (the read model's
  // transaction, oee-days.ts). The same rows either way: each read is one statement of what committed before it.
  const [presence, stops, lines] = await inTurnOrAtOnce(q, [
    () => q.query(PRESENCE_SQL, [names, start, end, earliest, tz]),
    () => q.query(STOPS_SQL, [names, start, end]),
    () => q.query(LINES_SQL, [names, dates[0], dates[dates.length - 1]]),
  ]);
  // Sessions on each device: their intervals there (a lasting one up to now, an abandoned one at most the session
  // limit) and their shift's unpaid windows.
  const sessionsOf = new Map<string, SessionOnDevice[]>();
  for (const p of presence.rows as any[]) {
    const clockIn = new Date(p.clock_in_at).getTime();
    const cap = p.abandoned ? clockIn + settings.sessionMaxMs : Infinity;
    const byDevice = new Map<string, Interval[]>();
    let last = clockIn;
    for (const s of p.segments as { deviceNo: string; from: string; to: string | null }[]) {
      const from = Date.parse(s.from);
      const to = Math.min(s.to === null ? nowMs : Date.parse(s.to), cap);
      last = Math.max(last, to);
      if (to <= from) continue;
      const kept = byDevice.get(s.deviceNo);
      if (kept) kept.push({ from, to });
      else byDevice.set(s.deviceNo, [{ from, to }]);
    }
    const days: ShiftDay[] = p.days ?? [];
    const breaks = days.length ? unpaidWindowsOf({ clockInAt: new Date(clockIn), clockOutAt: new Date(last) }, localDate(new Date(clockIn), tz), days, tz) : [];
    for (const [device, intervals] of byDevice) {
      const kept = sessionsOf.get(device);
      if (kept) kept.push({ intervals, breaks });
      else sessionsOf.set(device, [{ intervals, breaks }]);
    }
  }

  // Stops with their effective intervals (a lasting one where the attendance ended, or now).
  const found = (stops.rows as any[]).map((s) => ({ s, stopId: s.stop_id as string, deviceNo: s.device_no as string, startAt: new Date(s.start_at), recordedEnd: s.end_at ? new Date(s.end_at) : null }));
  const ends = await lastingEnds(q, found, settings);
  const stopsOf = new Map<string, StopOnDevice[]>();
  for (const f of found) {
    const category = reasons.get(f.s.reason_code)?.category ?? 'unplanned';
    const sys = ends.get(f.stopId);
    const to = f.recordedEnd ? f.recordedEnd.getTime() : typeof sys === 'number' ? sys : nowMs;
    const stop = { reasonCode: f.s.reason_code as string, category, interval: { from: f.startAt.getTime(), to: Math.min(to, Math.max(nowMs, f.startAt.getTime())) } };
    const kept = stopsOf.get(f.deviceNo);
    if (kept) kept.push(stop);
    else stopsOf.set(f.deviceNo, [stop]);
  }

  const linesOf = new Map<string, any>((lines.rows as any[]).map((l) => [`${l.device_no}\u0000${l.date}`, l]));
  const cells: OeeCell[] = [];
  for (const d of devices) {
    const times = deviceTimes(sessionsOf.get(d.device_no) ?? [], stopsOf.get(d.device_no) ?? [], bounds);
    dates.forEach((date, k) => {
      const l = linesOf.get(`${d.device_no}\u0000${date}`);
      const sums: OeeSums = {
        ...times.days[k],
        idealMs: l ? Number(l.ideal_ms) : 0,
        fullyProductiveMs: l ? Number(l.fp_ms) : 0,
        goodQty: l ? Number(l.good) : 0,
        totalQty: l ? Number(l.total) : 0,
      };
      const losses = new Map<string, number>();
      for (const [code, perDay] of times.losses) if (perDay[k] > 0) losses.set(code, perDay[k]);
      if (Object.values(sums).some((v) => v !== 0) || losses.size) {
        cells.push({ deviceNo: d.device_no, workshopCode: d.workshop_code ?? null, workshopName: d.workshop_name ?? null, date, sums, losses });
      }
    });
  }
  return cells;
}

/** The results of `reads` run at once when `q` is a pool, else one after the other (one connection). */
async function inTurnOrAtOnce<T>(q: Queryable, reads: readonly (() => Promise<T>)[]): Promise<T[]> {
  if (q instanceof pg.Pool) return Promise.all(reads.map((read) => read()));
  const out: T[] = [];
  for (const read of reads) out.push(await read());
  return out;
}

/** An item of the OEE answer: the group's key and label, and its figures. */
export type OeeItem = { key: string | null; label: string } & OeeFigures;

/** The cells grouped by `groupBy` (sums of numerators and denominators), in key order, and the totals. */
export function oeeReport(c: OeeCells, groupBy: OeeGroup): { items: OeeItem[]; totals: OeeFigures } {
  const groups = new Map<string, { key: string | null; label: string; sums: OeeSums }>();
  let totals: OeeSums = { ...ZERO_SUMS };
  for (const cell of c.cells) {
    const [key, label] =
      groupBy === 'device' ? [cell.deviceNo, cell.deviceNo] : groupBy === 'day' ? [cell.date, cell.date] : [cell.workshopCode, cell.workshopName ?? cell.workshopCode ?? '未分车间'];
    const id = String(key);
    const g = groups.get(id) ?? { key, label, sums: { ...ZERO_SUMS } };
    g.sums = addSums(g.sums, cell.sums);
    groups.set(id, g);
    totals = addSums(totals, cell.sums);
  }
  const items = [...groups.values()]
    .sort((a, b) => (a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((g) => ({ key: g.key, label: g.label, ...figuresOf(g.sums) }));
  return { items, totals: figuresOf(totals) };
}

/** A reason's stop time in the losses (seconds, minutes to 1 decimal, shares of the total to 1 decimal). */
export interface OeeLoss {
  reasonCode: string;
  reasonName: string;
  category: StopCategory;
  categoryLabel: string;
  stopSeconds: number;
  stopMinutes: number;
  sharePct: number;
  cumulativePct: number;
}

/** The stop time of the cells by reason, largest first (ties by code), with shares from the exact sums. */
export function oeeLosses(c: OeeCells): { items: OeeLoss[]; totalStopSeconds: number } {
  const byReason = new Map<string, number>();
  for (const cell of c.cells) for (const [code, ms] of cell.losses) byReason.set(code, (byReason.get(code) ?? 0) + ms);
  const total = [...byReason.values()].reduce((a, b) => a + b, 0);
  let running = 0;
  const items = [...byReason.entries()]
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([code, ms]) => {
      running += ms;
      const r = c.reasons.get(code);
      const category = r?.category ?? 'unplanned';
      return {
        reasonCode: code,
        reasonName: r?.name ?? code,
        category,
        categoryLabel: STOP_CATEGORY_LABELS[category],
        stopSeconds: seconds(ms),
        stopMinutes: pct1(ms, 60_000 * 100) ?? 0,
        sharePct: pct1(ms, total) ?? 0,
        cumulativePct: pct1(running, total) ?? 0,
      };
    });
  return { items, totalStopSeconds: seconds(total) };
}

/** The number of dates of `range` (for the document's limits). */
export const rangeDays = (range: DateRange) => daysBetween(range.startDate, range.endDate) + 1;
