/**
 * Dashboard benchmark: 500,000 approved reports (2 years × 685 workers, ReportSubmitted +
 * ReportApproved = ~1,000,000 events, written straight into the events table), then
 * - the rebuild rate of the dashboard projection (replayProjection, events/s), beside the baseline of merely
 *   reading the same events through the store's commit-safe reader;
 * - a 1-month dashboard page (page 1, random months) p95 — target ≤ 20 ms — and a 1-year page (page 1 and a
 *   middle page) — target ≤ 100 ms — beside the baselines of a `SELECT 1` round trip and of the same month
 *   summed from the events at query time (what the page would cost without the projection).
 * `BENCH_DASHBOARD_REPORTS` scales the data set (default 500000).
 */
import { EventStore } from '../src/events/store.ts';
import { dashboardProjection } from '../src/projections/dashboard.ts';
import { dashboardPage } from '../src/queries/dashboard.ts';
import { fmt, ms, openBenchPool, percentile, rebuildBeside, samples, timed, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';

const REPORTS = Number(process.env.BENCH_DASHBOARD_REPORTS || 500_000);
const DAYS = 730;
const WORKERS = Math.ceil(REPORTS / DAYS);
const FIRST_DAY = '2024-11-01';
const CHUNK_DAYS = 30;

/**
 * Inserts, for each row of a CTE `j` (id, session_id, w, d, report_date, phone, in_iso, out_iso, devices, lines), a
 * ReportSubmitted by the worker and a ReportApproved by an administrator, in the order of day and worker (also
 * used by bench/wages.ts).
 */
export const APPROVED_REPORTS_OF_J = `
INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)
SELECT 'report-' || j.id, v.ver, v.type, 1, v.data, v.meta, j.out_iso::timestamptz
  FROM j CROSS JOIN LATERAL (VALUES
    (1, 'ReportSubmitted',
     jsonb_build_object('reportId', j.id, 'employeePhone', j.phone, 'reportDate', j.report_date, 'sessionId', j.session_id,
       'clockInAt', j.in_iso, 'clockOutAt', j.out_iso, 'breakMinutes', 60, 'devices', j.devices, 'lines', j.lines, 'at', j.out_iso),
     jsonb_build_object('actorPhone', j.phone, 'actorName', '工人' || j.w, 'role', 'worker')),
    (2, 'ReportApproved',
     jsonb_build_object('reportId', j.id, 'employeePhone', j.phone, 'reportDate', j.report_date, 'at', j.out_iso),
     jsonb_build_object('actorPhone', '13900000001', 'actorName', '审核员', 'role', 'admin'))
  ) AS v(ver, type, data, meta)
 ORDER BY j.d, j.w, v.ver`;

/** Inserts the reports of days [from, to) for every worker: ReportSubmitted and ReportApproved events (also used by bench/console.ts). */
export const INSERT = `
WITH r AS (
  SELECT gen_random_uuid()::text AS id, gen_random_uuid()::text AS session_id, w, d,
         to_char($3::date + d, 'YYYY-MM-DD') AS report_date,
         '138' || lpad(w::text, 8, '0') AS phone,
         ($3::date + d)::timestamp + interval '8 hours' + (w % 60) * interval '1 minute' - interval '8 hours' AS clock_in,
         10.5 + (w % 7) AS cycle,
         (w % 50) + 1 AS product
    FROM generate_series($1::int, $2::int - 1) d, generate_series(1, $4::int) w
), x AS (
  SELECT r.*, r.clock_in + interval '8 hours' + ((w * 7) % 120) * interval '1 minute' AS clock_out,
         300 + (d * w) % 200 AS finished, (d + w) % 9 AS defective
    FROM r
), j AS (
  SELECT x.*,
         to_char(clock_in, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS in_iso,
         to_char(clock_out, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS out_iso,
         jsonb_build_array('D' || (w % 40)) AS devices,
         jsonb_build_array(
           jsonb_build_object('productId', product, 'projectNo', 'P' || product, 'productName', '产品' || product, 'deviceNo', 'D' || (w % 40),
             'processName', '冲压', 'standardCycleSeconds', cycle, 'standardWorkload', floor(28800 / cycle)::int,
             'finishedQty', finished, 'defectiveQty', defective, 'outputQty', finished + defective),
           jsonb_build_object('productId', product + 100, 'projectNo', 'P' || product, 'productName', '零件' || product, 'deviceNo', 'D' || (w % 40),
             'processName', '折弯', 'standardCycleSeconds', 20.125, 'standardWorkload', 1431,
             'finishedQty', 50, 'defectiveQty', 1, 'outputQty', 51)) AS lines
    FROM x
)
${APPROVED_REPORTS_OF_J}`;

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);


async function run(): Promise<void> {
  await withBenchDatabase(async (url) => {
    const pool = await openBenchPool(url, WORKERS);
    const store = new EventStore();
    const load = await timed(async () => {
      for (let d = 0; d < DAYS; d += CHUNK_DAYS) await pool.query(INSERT, [d, Math.min(DAYS, d + CHUNK_DAYS), FIRST_DAY, WORKERS]);
    });
    const events = Number((await pool.query(`SELECT count(*) AS n FROM events`)).rows[0].n);
    console.log(`data: ${fmt(events / 2)} approved reports (${fmt(WORKERS)} workers × ${DAYS} days), ${fmt(events)} events, loaded in ${fmt(load, 1)} s`);

    const daily = async () => `${fmt(Number((await pool.query(`SELECT count(*) AS n FROM dashboard_daily`)).rows[0].n))} daily rows`;
    console.log(await rebuildBeside(pool, store, dashboardProjection, events, daily));

    const page = { page: 1, pageSize: 20 };
    const one = await samples(200, () => pool.query('SELECT 1'));
    const month = await samples(200, (i) => {
      const start = addDays(FIRST_DAY, (i * 37) % (DAYS - 31));
      return dashboardPage(pool, { startDate: start, endDate: addDays(start, 30) }, page);
    });
    const yearStart = (i: number) => addDays(FIRST_DAY, (i * 53) % (DAYS - 366));
    const year = await samples(50, (i) => dashboardPage(pool, { startDate: yearStart(i), endDate: addDays(yearStart(i), 365) }, page));
    const yearMiddle = await samples(20, (i) =>
      dashboardPage(pool, { startDate: yearStart(i), endDate: addDays(yearStart(i), 365) }, { page: Math.floor((365 * WORKERS) / 40), pageSize: 20 }),
    );
    // Without the projection: the same month summed from the events (report payloads) at query time.
    const naive = await samples(2, (i) => {
      const start = addDays(FIRST_DAY, (i * 37) % (DAYS - 31));
      return pool.query(
        `SELECT data->>'reportDate' AS day, data->>'employeePhone' AS phone, count(*),
                sum(extract(epoch FROM (data->>'clockOutAt')::timestamptz - (data->>'clockInAt')::timestamptz) - (data->>'breakMinutes')::int * 60)
           FROM events WHERE event_type = 'ReportSubmitted' AND data->>'reportDate' BETWEEN $1 AND $2
          GROUP BY 1, 2 ORDER BY 1 DESC, 2 LIMIT 20`,
        [start, addDays(start, 30)],
      );
    });
    console.log(`1-month page (page 1):     p50 ${ms(percentile(month, 50))}, p95 ${ms(percentile(month, 95))}   (target p95 ≤ 20 ms)`);
    console.log(`1-year page (page 1):      p50 ${ms(percentile(year, 50))}, p95 ${ms(percentile(year, 95))}   (target ≤ 100 ms)`);
    console.log(`1-year page (middle page): p50 ${ms(percentile(yearMiddle, 50))}, p95 ${ms(percentile(yearMiddle, 95))}`);
    console.log(`baselines: SELECT 1 round trip p95 ${ms(percentile(one, 95))}; the month summed from the events at query time p50 ${ms(percentile(naive, 50))}`);
    await pool.end();
  });
}

export const dashboardBench: BenchSuite = { name: 'dashboard', run };
