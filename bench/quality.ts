/**
 * Quality benchmark: the Pareto of defective pieces (GET /api/quality/defects's query) over 500,000 approved report
 * lines of one month: 2,000 workers × 25 days × 10 lines (50,000 reports, ReportSubmitted + ReportApproved written
 * straight into the events table), each line with 0–8 defective pieces split over one or two of 12 reasons (some
 * left without a reason), the `reports` read model rebuilt from them, then the `quality` projection's daily sums
 * (its rebuild rate printed beside reading the same events alone). Prints, for the month by reason and by worker
 * (and by category, product and team), p50 and p95 — target p95 ≤ 50 ms by reason and by worker — beside a
 * `SELECT 1` round trip, the baseline of merely counting the month's approved lines from the reports, and the
 * Pareto by reason as it was read before migrations/022 (the reports' lines expanded at query time).
 * `BENCH_QUALITY_WORKERS` scales the data set (default 2000).
 */
import { EventStore } from '../src/events/store.ts';
import { reportsProjection } from '../src/projections/reports.ts';
import { qualityProjection } from '../src/projections/quality.ts';
import { replayProjection } from '../src/projections/replay.ts';
import { defectPareto, type QualityGroup } from '../src/queries/quality.ts';
import { WHOLE_READER } from '../src/domain/scope.ts';
import { fmt, ms, openBenchPool, percentile, rebuildBeside, samples, timed, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';
import { APPROVED_REPORTS_OF_J } from './dashboard.ts';

const WORKERS = Number(process.env.BENCH_QUALITY_WORKERS || 2000);
const DAYS = 25;
const LINES = 10;
const REASONS = 12;
const MONTH = '2026-03';

/** The 12 reasons: a third of each category. */
const REASON_ROWS = `
INSERT INTO defect_reasons (code, name, category, active, defined_at, changed_at)
SELECT 'R' || r, '原因' || r, (ARRAY['operator', 'material', 'other'])[1 + r % 3], true, now(), now() FROM generate_series(1, ${REASONS}) r`;

/** Reports of days [$1, $2) of the month for every worker: ten lines each with their defect reasons, submitted and approved. */
const REPORTS = `
WITH r AS (
  SELECT gen_random_uuid()::text AS id, gen_random_uuid()::text AS session_id, w, d,
         to_char('${MONTH}-01'::date + d, 'YYYY-MM-DD') AS report_date,
         '138' || lpad(w::text, 8, '0') AS phone,
         to_char(('${MONTH}-01'::date + d)::timestamp, 'YYYY-MM-DD"T"00:00:00"Z"') AS in_iso,
         to_char(('${MONTH}-01'::date + d)::timestamp + interval '9 hours', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS out_iso
    FROM generate_series($1::int, $2::int - 1) d, generate_series(1, ${WORKERS}) w
), j AS (
  SELECT r.*, jsonb_build_array('D' || (w % 40)) AS devices,
         (SELECT jsonb_agg(jsonb_build_object('productId', p, 'projectNo', 'P' || p, 'productName', '产品' || p, 'deviceNo', 'D' || (w % 40),
                 'processName', '冲压', 'standardCycleSeconds', 12, 'standardWorkload', 2400,
                 'finishedQty', 100 + (w * d + p) % 300, 'defectiveQty', q.defective, 'outputQty', 100 + (w * d + p) % 300 + q.defective,
                 'defects', CASE WHEN q.defective = 0 THEN '[]'::jsonb
                                 WHEN q.defective < 3 THEN jsonb_build_array(jsonb_build_object('reasonCode', 'R' || (1 + (w + p) % ${REASONS}),
                                   'category', (ARRAY['operator', 'material', 'other'])[1 + ((1 + (w + p) % ${REASONS}) % 3)], 'qty', q.defective - (p % 2)))
                                 ELSE jsonb_build_array(
                                   jsonb_build_object('reasonCode', 'R' || (1 + (w + p) % ${REASONS}), 'category', (ARRAY['operator', 'material', 'other'])[1 + ((1 + (w + p) % ${REASONS}) % 3)], 'qty', 2),
                                   jsonb_build_object('reasonCode', 'R' || (1 + (w * p + d) % ${REASONS}), 'category', (ARRAY['operator', 'material', 'other'])[1 + ((1 + (w * p + d) % ${REASONS}) % 3)], 'qty', q.defective - 2))
                            END))
            FROM generate_series(1, ${LINES}) AS p CROSS JOIN LATERAL (SELECT (w + d * p) % 9 AS defective) q) AS lines
    FROM r
)
${APPROVED_REPORTS_OF_J}`;

/** The Pareto by reason as read before migrations/022: every approved line of the month expanded at query time. */
const EXPANDED_BY_REASON = `
WITH lines AS (
  SELECT x.line FROM reports r CROSS JOIN LATERAL jsonb_array_elements(r.lines) AS x(line)
   WHERE r.status = 'approved' AND r.report_date BETWEEN $1::date AND $2::date)
SELECT g.key, coalesce(d.name, g.key) AS label, g.qty FROM (
  SELECT e ->> 'reasonCode' AS key, sum((e ->> 'qty')::bigint) AS qty FROM lines, jsonb_array_elements(coalesce(line -> 'defects', '[]')) e GROUP BY 1
) g LEFT JOIN defect_reasons d ON d.code = g.key`;

const GROUPS: QualityGroup[] = ['reason', 'worker', 'category', 'product', 'team'];

async function run(): Promise<void> {
  await withBenchDatabase(async (url) => {
    const pool = await openBenchPool(url, WORKERS);
    const store = new EventStore();
    const load = await timed(async () => {
      await pool.query(REASON_ROWS);
      for (let d = 0; d < DAYS; d += 1) await pool.query(REPORTS, [d, d + 1]);
    });
    const events = Number((await pool.query(`SELECT count(*) AS n FROM events`)).rows[0].n);
    const inline = await timed(() => replayProjection(pool, store, reportsProjection));
    await pool.query('ANALYZE');
    console.log(
      `data: ${fmt(WORKERS * DAYS * LINES)} approved lines (${fmt(WORKERS)} workers × ${DAYS} days × ${LINES} lines), ${fmt(events)} events, loaded in ${fmt(load, 1)} s` +
        ` (the reports read model rebuilt in ${fmt(inline, 1)} s)`,
    );
    const sums = async () =>
      `${fmt(Number((await pool.query(`SELECT count(*) AS n FROM quality_daily_dims`)).rows[0].n))} dimension rows, ` +
      `${fmt(Number((await pool.query(`SELECT count(*) AS n FROM quality_daily_reasons`)).rows[0].n))} reason rows`;
    console.log(await rebuildBeside(pool, store, qualityProjection, events, sums));
    const range = { startDate: `${MONTH}-01`, endDate: `${MONTH}-31` };
    const one = await samples(100, () => pool.query('SELECT 1'));
    const count = await samples(10, () =>
      pool.query(`SELECT sum(jsonb_array_length(lines)) FROM reports WHERE status = 'approved' AND report_date BETWEEN $1::date AND $2::date`, [range.startDate, range.endDate]),
    );
    for (const g of GROUPS) {
      const s = await samples(g === 'reason' || g === 'worker' ? 60 : 20, () => defectPareto(pool, range, g, WHOLE_READER));
      const target = g === 'reason' || g === 'worker' ? '   (target p95 ≤ 50 ms)' : '';
      console.log(`the month's Pareto by ${g.padEnd(8)} p50 ${ms(percentile(s, 50))}, p95 ${ms(percentile(s, 95))}${target}`);
    }
    const expanded = await samples(3, () => pool.query(EXPANDED_BY_REASON, [range.startDate, range.endDate]));
    console.log(
      `baselines: SELECT 1 round trip p95 ${ms(percentile(one, 95))}; counting the month's approved lines from the reports p50 ${ms(percentile(count, 50))};` +
        ` by reason expanding the lines at query time (before migrations/022) p50 ${ms(percentile(expanded, 50))}`,
    );
    await pool.end();
  });
}

export const qualityBench: BenchSuite = { name: 'quality', run };
