/**
 * Scoped review and reading: 20 teams in 4 workshops (5 teams each), 2,000 workers
 * (worker w in team w mod 20), 30 days of reports per worker — the last 3 days pending, the rest approved
 * (ReportSubmitted version 3 with the placement, ReportApproved carrying it; ~114,000 events written straight into
 * the events table, then the `reports` and dashboard projections rebuilt from them). Then, in the same run and on
 * the same data (the readers taking turns sample by sample, so the machine's load falls on each alike), p50/p95 of
 * - the pending queue (queries/reviews.ts `pendingReviews`, page 1 of 20) of an unscoped reviewer, of one scoped to
 *   a workshop (a quarter of the reports) and of one scoped to a team (a twentieth);
 * - the dashboard (queries/dashboard.ts `dashboardPage`, a 1-month range, page 1 and page 10) and its summary
 *   (`dashboardSummary`) for the same three readers.
 * Target: a scoped reader's p95 within 1.5× of the unscoped one's. `BENCH_SCOPE_WORKERS` and
 * `BENCH_SCOPE_DAYS` scale it.
 */
import { EventStore } from '../src/events/store.ts';
import { dashboardProjection } from '../src/projections/dashboard.ts';
import { reportsProjection } from '../src/projections/reports.ts';
import { replayProjection } from '../src/projections/replay.ts';
import { dashboardPage, type DashboardReader } from '../src/queries/dashboard.ts';
import { dashboardSummary } from '../src/queries/dashboard-summary.ts';
import { pendingReviews } from '../src/queries/reviews.ts';
import { WHOLE_FACTORY, type Scope } from '../src/domain/scope.ts';
import { fmt, ms, openBenchPool, percentile, timed, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';

const WORKERS = Number(process.env.BENCH_SCOPE_WORKERS || 2_000);
const DAYS = Number(process.env.BENCH_SCOPE_DAYS || 30);
const PENDING_DAYS = 3;
const TEAMS = 20;
const FIRST_DAY = '2026-02-01';

/** Reports of days [$1, $2) for workers 1…$4 from day $3; days ≥ $5 stay pending. Placement: team T<w mod 20>. */
const INSERT = `
WITH j AS (
  SELECT gen_random_uuid()::text AS id, gen_random_uuid()::text AS session_id, w, d,
         to_char($3::date + d, 'YYYY-MM-DD') AS report_date,
         '138' || lpad(w::text, 8, '0') AS phone,
         'T' || lpad((w % ${TEAMS})::text, 2, '0') AS team,
         'W' || ((w % ${TEAMS}) / 5) AS workshop,
         to_char(($3::date + d)::timestamp, 'YYYY-MM-DD"T"00:00:00"Z"') AS in_iso,
         to_char(($3::date + d)::timestamp + interval '9 hours', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS out_iso,
         jsonb_build_array(jsonb_build_object('productId', 1 + w % 50, 'projectNo', 'P', 'productName', '产品', 'deviceNo', 'D1',
           'processName', '冲压', 'standardCycleSeconds', 10.5, 'standardWorkload', 2742,
           'finishedQty', 300 + (d * w) % 200, 'defectiveQty', (d + w) % 9, 'outputQty', 300 + (d * w) % 200 + (d + w) % 9)) AS lines
    FROM generate_series($1::int, $2::int - 1) d, generate_series(1, $4::int) w
)
INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)
SELECT 'report-' || j.id, v.ver, v.type, v.schema, v.data, v.meta, j.out_iso::timestamptz
  FROM j CROSS JOIN LATERAL (VALUES
    (1, 'ReportSubmitted', 3,
     jsonb_build_object('reportId', j.id, 'employeePhone', j.phone, 'reportDate', j.report_date, 'sessionId', j.session_id,
       'clockInAt', j.in_iso, 'clockOutAt', j.out_iso, 'breakMinutes', 60, 'devices', jsonb_build_array('D1'), 'lines', j.lines,
       'flags', '[]'::jsonb, 'workshopCode', j.workshop, 'teamCode', j.team, 'breakSource', 'default', 'shift', NULL, 'at', j.out_iso),
     jsonb_build_object('actorPhone', j.phone, 'actorName', '工人' || j.w, 'role', 'worker')),
    (2, 'ReportApproved', 2,
     jsonb_build_object('reportId', j.id, 'employeePhone', j.phone, 'reportDate', j.report_date, 'workshopCode', j.workshop, 'teamCode', j.team,
       'flags', '[]'::jsonb, 'at', j.out_iso),
     jsonb_build_object('actorPhone', '13900000001', 'actorName', '审核员', 'role', 'admin'))
  ) AS v(ver, type, schema, data, meta)
 WHERE v.ver = 1 OR j.d < $5
 ORDER BY j.d, j.w, v.ver`;

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const READERS: [string, Scope][] = [
  ['unscoped', WHOLE_FACTORY],
  ['workshop W1', { workshops: ['W1'], teams: [] }],
  ['team T07', { workshops: [], teams: ['T07'] }],
];

async function run(): Promise<void> {
  await withBenchDatabase(async (url) => {
    const pool = await openBenchPool(url, WORKERS);
    const store = new EventStore();
    const load = await timed(async () => {
      for (let d = 0; d < DAYS; d += 5) await pool.query(INSERT, [d, Math.min(DAYS, d + 5), FIRST_DAY, WORKERS, DAYS - PENDING_DAYS]);
    });
    const events = Number((await pool.query(`SELECT count(*) AS n FROM events`)).rows[0].n);
    const rebuild = await timed(async () => {
      await replayProjection(pool, store, reportsProjection);
      await replayProjection(pool, store, dashboardProjection);
    });
    await pool.query('ANALYZE');
    const pending = Number((await pool.query(`SELECT count(*) AS n FROM reports WHERE status = 'pending'`)).rows[0].n);
    console.log(
      `data: ${fmt(WORKERS)} workers in ${TEAMS} teams, ${DAYS} days, ${fmt(events)} events (loaded in ${fmt(load, 1)} s, reports and dashboard rebuilt in ${fmt(rebuild, 1)} s), ${fmt(pending)} pending`,
    );

    const range = { startDate: FIRST_DAY, endDate: addDays(FIRST_DAY, DAYS - 1) };
    const p95: Record<string, Record<string, number>> = {};
    const READINGS: [string, (scope: Scope) => Promise<unknown>][] = [
      ['pending queue (page 1)', (scope) => pendingReviews(pool, { page: 1, pageSize: 20 }, 'Asia/Shanghai', undefined, scope)],
      ['dashboard 1 month, page 1', (scope) => dashboardPage(pool, range, { page: 1, pageSize: 20 }, { scope, filter: {} } as DashboardReader)],
      ['dashboard 1 month, page 10', (scope) => dashboardPage(pool, range, { page: 10, pageSize: 20 }, { scope, filter: {} } as DashboardReader)],
      ['dashboard summary', (scope) => dashboardSummary(pool, range, { scope, filter: {} })],
    ];
    // The readers take turns sample by sample, so that the machine's load falls on each of them alike.
    for (const [what, read] of READINGS) {
      const times = READERS.map((): number[] => []);
      for (let i = 0; i < 210; i++) {
        for (const [k, [, scope]] of READERS.entries()) {
          const t = (await timed(() => read(scope))) * 1000;
          if (i >= 10) times[k].push(t); // the first 10 warm up
        }
      }
      for (const [k, [name]] of READERS.entries()) {
        (p95[what] ??= {})[name] = percentile(times[k], 95);
        console.log(`${what.padEnd(26)} ${name.padEnd(12)} p50 ${ms(percentile(times[k], 50))}, p95 ${ms(percentile(times[k], 95))}`);
      }
    }
    for (const [what, byReader] of Object.entries(p95)) {
      const base = byReader.unscoped;
      const ratios = READERS.slice(1).map(([name]) => `${name} ${fmt(byReader[name] / base, 2)}×`);
      console.log(`${what}: scoped p95 / unscoped p95 = ${ratios.join(', ')}   (target ≤ 1.5×)`);
    }
    await pool.end();
  });
}

export const scopeBench: BenchSuite = { name: 'scope', run };
