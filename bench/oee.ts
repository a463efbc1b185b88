/**
 * The OEE read (queries/oee.ts): 200 devices in 4 workshops, 30 days, 2,000 workers each with a session a day
 * (08:00–17:00 local on device w mod 200, one worker in ten switching to the next device at 12:00: 60,000
 * sessions), 20,000 stops (three or four a device-day, planned and unplanned in turn), and an approved report a
 * worker-day (60,000), written straight into the read models the read takes them from (`sessions`, `stops`,
 * `reports`). The month computed live (nothing kept: the read before the OEE read model) as the baseline; then the
 * read model keeps the month's closed dates (queries/oee-days.ts `keepDates`, timed) and p50/p95 of
 * `GET /api/oee` for the month by device (`oeeCells` + `oeeReport`, what the route runs), the same by day, and the
 * losses, for an unscoped reader and one scoped to a workshop.
 * Target: the month by device p95 ≤ 100 ms, the month to today (its last day computed live) too. `BENCH_OEE_WORKERS`, `BENCH_OEE_DAYS` scale it. The clock cycle's
 * saturation beside the commit before the stops is the `clock` suite's, run on both commits (bench/README.md).
 */
import { oeeCells, oeeLosses, oeeReport } from '../src/queries/oee.ts';
import { keepDates } from '../src/queries/oee-days.ts';
import { withTransaction } from '../src/db/transaction.ts';
import { WHOLE_FACTORY, type Scope } from '../src/domain/scope.ts';
import type { ClockSettings } from '../src/domain/clock.ts';
import { fmt, ms, openBenchPool, percentile, timed, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';

const WORKERS = Number(process.env.BENCH_OEE_WORKERS || 2_000);
const DAYS = Number(process.env.BENCH_OEE_DAYS || 30);
const DEVICES = 200;
const FIRST_DAY = '2026-02-01';
const TZ = 'Asia/Shanghai';

const dev = (expr: string) => `'D' || lpad(((${expr}) % ${DEVICES} + 1)::text, 3, '0')`;

const SETUP = [
  `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
   SELECT 'P', '产品' || d, ${dev('d')}, '冲压', 10 + d % 20, 2000 FROM generate_series(0, ${DEVICES - 1}) d`,
  `INSERT INTO device_workshops (device_no, workshop_code, set_at) SELECT ${dev('d')}, 'W' || (d % 4), now() FROM generate_series(0, ${DEVICES - 1}) d`,
  `INSERT INTO stop_reasons (code, name, category, active, defined_at, changed_at) VALUES
     ('CHG', '换模', 'planned', true, now(), now()), ('BRK', '设备故障', 'unplanned', true, now(), now())`,
];

/** Sessions, presence and approved reports of days [$1, $2) from $3 for workers 1…$4. */
const PRESENCE = `
INSERT INTO sessions (session_id, employee_phone, status, clock_in_at, clock_out_at, devices, opened_version, updated_at,
                      ended_at, abandoned, current_device, segments)
SELECT gen_random_uuid(), '138' || lpad(w::text, 8, '0'), 'reported', t.i, t.o,
       CASE WHEN w % 10 = 0 THEN ARRAY[${dev('w')}, ${dev('w + 1')}] ELSE ARRAY[${dev('w')}] END, d, t.o, t.o, false, NULL,
       CASE WHEN w % 10 = 0 THEN ARRAY[${dev('w')}, ${dev('w + 1')}] ELSE ARRAY[${dev('w')}] END,
       CASE WHEN w % 10 = 0
         THEN jsonb_build_array(jsonb_build_object('deviceNo', ${dev('w')}, 'from', t.in_iso, 'to', t.mid_iso),
                                jsonb_build_object('deviceNo', ${dev('w + 1')}, 'from', t.mid_iso, 'to', t.out_iso))
         ELSE jsonb_build_array(jsonb_build_object('deviceNo', ${dev('w')}, 'from', t.in_iso, 'to', t.out_iso)) END
  FROM generate_series($1::int, $2::int - 1) d, generate_series(1, $4::int) w
  CROSS JOIN LATERAL (SELECT ($3::date + d)::timestamp AT TIME ZONE 'UTC' AS i, ($3::date + d)::timestamp AT TIME ZONE 'UTC' + interval '9 hours' AS o,
                             to_char(($3::date + d)::timestamp, 'YYYY-MM-DD"T"00:00:00.000"Z"') AS in_iso,
                             to_char(($3::date + d)::timestamp + interval '4 hours', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"') AS mid_iso,
                             to_char(($3::date + d)::timestamp + interval '9 hours', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"') AS out_iso) t`;

const REPORTS = `
INSERT INTO reports (report_id, session_id, employee_phone, report_date, status, clock_in_at, clock_out_at, break_minutes, devices, lines, submitted_at, updated_at)
SELECT gen_random_uuid(), gen_random_uuid(), '138' || lpad(w::text, 8, '0'), $3::date + d, 'approved',
       ($3::date + d)::timestamp AT TIME ZONE 'UTC', ($3::date + d)::timestamp AT TIME ZONE 'UTC' + interval '9 hours', 60, ARRAY[${dev('w')}],
       jsonb_build_array(jsonb_build_object('productId', w % ${DEVICES} + 1, 'projectNo', 'P', 'productName', '产品', 'deviceNo', ${dev('w')},
         'processName', '冲压', 'standardCycleSeconds', 10 + w % 20, 'standardWorkload', 2000,
         'finishedQty', 300 + (d * w) % 200, 'defectiveQty', (d + w) % 9, 'outputQty', 300 + (d * w) % 200 + (d + w) % 9)),
       now(), now()
  FROM generate_series($1::int, $2::int - 1) d, generate_series(1, $4::int) w`;

/** 20,000 stops: devices × days × 3, and a fourth on the first devices' days until 20,000. */
const STOPS = `
INSERT INTO stops (stop_id, device_no, reason_code, start_at, end_at, ended_by, note, recorded_by, recorded_name, stream_version, updated_at)
SELECT gen_random_uuid(), ${dev('dv')}, CASE WHEN k % 2 = 0 THEN 'CHG' ELSE 'BRK' END,
       ($1::date + d)::timestamp AT TIME ZONE 'UTC' + make_interval(hours => 1 + 2 * k),
       ($1::date + d)::timestamp AT TIME ZONE 'UTC' + make_interval(hours => 1 + 2 * k, mins => 20),
       '13800000001', NULL, '13800000001', '工人', 1 + k, now()
  FROM generate_series(0, $2::int - 1) d, generate_series(0, ${DEVICES - 1}) dv, generate_series(0, 3) k
 WHERE k < 3 OR (d * ${DEVICES} + dv) < 20000 - 3 * $2::int * ${DEVICES}`;

const SETTINGS = { timeZone: TZ, sessionMaxMs: 16 * 3_600_000 } as ClockSettings;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function run(): Promise<void> {
  await withBenchDatabase(async (url) => {
    const pool = await openBenchPool(url, WORKERS);
    const load = await timed(async () => {
      for (const s of SETUP) await pool.query(s);
      for (let d = 0; d < DAYS; d += 5) {
        const args = [d, Math.min(DAYS, d + 5), FIRST_DAY, WORKERS];
        await pool.query(PRESENCE, args);
        await pool.query(REPORTS, args);
      }
      await pool.query(STOPS, [FIRST_DAY, DAYS]);
    });
    await pool.query('ANALYZE');
    const count = async (t: string) => Number((await pool.query(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);
    console.log(`data: ${DEVICES} devices, ${DAYS} days, ${fmt(await count('sessions'))} sessions, ${fmt(await count('stops'))} stops, ${fmt(await count('reports'))} approved reports (loaded in ${fmt(load, 1)} s)`);

    const range = { startDate: FIRST_DAY, endDate: addDays(FIRST_DAY, DAYS - 1) };
    const now = new Date(Date.parse(`${addDays(FIRST_DAY, DAYS + 1)}T00:00:00Z`));
    // Baseline: the month computed live from the raw presence (the read before the read model), a few samples.
    const live: number[] = [];
    for (let i = 0; i < 6; i++) live.push((await timed(() => oeeCells(pool, range, {}, { scope: WHOLE_FACTORY, filter: {} }, now, SETTINGS))) * 1000);
    console.log(`baseline, the month computed live (nothing kept): p50 ${ms(percentile(live.slice(1), 50))}, max ${ms(Math.max(...live.slice(1)))}`);
    // The read model keeps the closed days (what its background work does a few dates at a time), then is read.
    const dates = Array.from({ length: DAYS }, (_, d) => addDays(FIRST_DAY, d));
    const kept = await timed(() => withTransaction(pool, (tx) => keepDates(tx, dates, now, SETTINGS)));
    await pool.query('ANALYZE');
    console.log(`read model: ${DAYS} closed dates kept in ${fmt(kept, 2)} s (${fmt((kept * 1000) / DAYS, 0)} ms a date), ${fmt(await count('oee_device_days'))} device-day rows`);
    const today = new Date(Date.parse(`${range.endDate}T04:00:00Z`));
    const readers: [string, Scope][] = [
      ['unscoped', WHOLE_FACTORY],
      ['workshop W1', { workshops: ['W1'], teams: [] }],
    ];
    const readings: [string, (scope: Scope) => Promise<unknown>][] = [
      ['month by device', async (scope) => oeeReport(await oeeCells(pool, range, {}, { scope, filter: {} }, now, SETTINGS, 'device'), 'device')],
      // The month's last day being today (its noon): that day computed live, the 29 others from the model.
      ['month to today', async (scope) => oeeReport(await oeeCells(pool, range, {}, { scope, filter: {} }, today, SETTINGS, 'device'), 'device')],
      ['month by day', async (scope) => oeeReport(await oeeCells(pool, range, {}, { scope, filter: {} }, now, SETTINGS, 'day'), 'day')],
      ['month losses', async (scope) => oeeLosses(await oeeCells(pool, range, {}, { scope, filter: {} }, now, SETTINGS, 'device'))],
    ];
    for (const [what, read] of readings) {
      const times = readers.map((): number[] => []);
      for (let i = 0; i < 60; i++) {
        for (const [k, [, scope]] of readers.entries()) {
          const t = (await timed(() => read(scope))) * 1000;
          if (i >= 5) times[k].push(t);
        }
      }
      for (const [k, [name]] of readers.entries()) {
        const p95 = percentile(times[k], 95);
        console.log(`${what.padEnd(18)} ${name.padEnd(12)} p50 ${ms(percentile(times[k], 50))}, p95 ${ms(p95)}${what === 'month by device' || what === 'month to today' ? `   (target ≤ 100 ms: ${p95 <= 100 ? 'met' : 'NOT met'})` : ''}`);
      }
    }
    await pool.end();
  });
}

export const oeeBench: BenchSuite = { name: 'oee', run };
