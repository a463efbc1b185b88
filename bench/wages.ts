/**
 * Wages benchmark: approved reports of 2,000 workers × 26 days × 3 lines in March 2026 (52,000
 * reports, 156,000 lines; ReportSubmitted + ReportApproved written straight into the events table, with 60
 * products' rates — a raise on the 15th for a third of them — as RateSet events), the inline read models the close
 * reads (`reports`, `product_rates`) rebuilt from them, then
 * - the wage projection's rebuild rate (events/s) beside the baseline of merely reading the same events through the
 *   store's commit-safe reader;
 * - the month's summary, first page (GET /api/wages's query) p95 — target ≤ 50 ms — and one worker's statement p95
 *   — target ≤ 20 ms — beside a `SELECT 1` round trip and the month summed from the reports at query time (what the
 *   summary would cost without the projection);
 * - the close (lock, facts, decision, append) — target ≤ 5 s — beside the baseline of reading the month's approved
 *   lines alone; closed, reopened and closed again.
 * `BENCH_WAGES_WORKERS` scales the data set (default 2000).
 */
import { ManualClock } from '../src/clock.ts';
import { StreamRepository } from '../src/commands/repository.ts';
import { closePeriod, reopenPeriod, type PeriodDeps } from '../src/commands/periods/handlers.ts';
import { EventStore } from '../src/events/store.ts';
import { projections } from '../src/projections/index.ts';
import { productRatesProjection } from '../src/projections/product-rates.ts';
import { reportsProjection } from '../src/projections/reports.ts';
import { replayProjection } from '../src/projections/replay.ts';
import { wagesProjection } from '../src/projections/wages.ts';
import { wageStatement, wageSummary } from '../src/queries/wages.ts';
import { fmt, ms, openBenchPool, percentile, rebuildBeside, samples, timed, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';
import { APPROVED_REPORTS_OF_J } from './dashboard.ts';

const WORKERS = Number(process.env.BENCH_WAGES_WORKERS || 2000);
const DAYS = 26;
const PRODUCTS = 60;
const MONTH = '2026-03';
const MANAGER = '13900000002';

/** Rates of the products (RateSet events): from 1 February, and for every third product a raise from 15 March. */
const RATES = `
INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)
SELECT 'product-' || p, v.ver, 'RateSet', 1,
       jsonb_build_object('productId', p, 'effectiveFrom', v.from_date, 'pieceRate', v.piece, 'defectRate', v.defect,
                          'before', NULL, 'replaced', false, 'at', '2026-02-01T00:00:00Z'),
       jsonb_build_object('actorPhone', '${MANAGER}', 'actorName', '李经理', 'role', 'manager'), '2026-02-01T00:00:00Z'
  FROM generate_series(1, ${PRODUCTS}) p CROSS JOIN LATERAL (VALUES
    (1, '2026-02-01', 1000 + p * 37, -(p % 5) * 125),
    (2, '2026-03-15', 1100 + p * 41, -(p % 5) * 125)
  ) AS v(ver, from_date, piece, defect)
 WHERE v.ver = 1 OR p % 3 = 0`;

/** Reports of days [$1, $2) of March for every worker: three lines each, submitted and approved. */
const REPORTS = `
WITH r AS (
  SELECT gen_random_uuid()::text AS id, gen_random_uuid()::text AS session_id, w, d,
         to_char('${MONTH}-01'::date + d, 'YYYY-MM-DD') AS report_date,
         '138' || lpad(w::text, 8, '0') AS phone,
         to_char(('${MONTH}-01'::date + d)::timestamp, 'YYYY-MM-DD"T"00:00:00"Z"') AS in_iso,
         to_char(('${MONTH}-01'::date + d)::timestamp + interval '9 hours', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS out_iso
    FROM generate_series($1::int, $2::int - 1) d, generate_series(1, ${WORKERS}) w
), j AS (
  SELECT r.*, jsonb_build_array('D1') AS devices, (SELECT jsonb_agg(jsonb_build_object('productId', p, 'projectNo', 'P' || p, 'productName', '产品' || p, 'deviceNo', 'D' || (p % 20),
                 'processName', '冲压', 'standardCycleSeconds', 12, 'standardWorkload', 2400,
                 'finishedQty', 100 + (w * d + p) % 400, 'defectiveQty', (w + p) % 7, 'outputQty', 100 + (w * d + p) % 400 + (w + p) % 7))
                 FROM unnest(ARRAY[(w % 20) + 1, (w % 20) + 21, (w % 20) + 41]) AS p) AS lines
    FROM r
)
${APPROVED_REPORTS_OF_J}`;


async function run(): Promise<void> {
  await withBenchDatabase(async (url) => {
    const pool = await openBenchPool(url, WORKERS);
    const store = new EventStore();
    await pool.query(`INSERT INTO personnel (phone, name, role) VALUES ($1, '李经理', 'manager')`, [MANAGER]);
    const load = await timed(async () => {
      await pool.query(RATES);
      for (let d = 0; d < DAYS; d += 2) await pool.query(REPORTS, [d, Math.min(DAYS, d + 2)]);
    });
    const events = Number((await pool.query(`SELECT count(*) AS n FROM events`)).rows[0].n);
    const inline = await timed(async () => {
      await replayProjection(pool, store, reportsProjection);
      await replayProjection(pool, store, productRatesProjection);
    });
    console.log(
      `data: ${fmt(WORKERS * DAYS)} approved reports (${fmt(WORKERS)} workers × ${DAYS} days × 3 lines), ${fmt(events)} events, loaded in ${fmt(load, 1)} s` +
        ` (the inline read models rebuilt in ${fmt(inline, 1)} s)`,
    );

    const lines = async () => `${fmt(Number((await pool.query(`SELECT count(*) AS n FROM wage_lines`)).rows[0].n))} lines`;
    console.log(await rebuildBeside(pool, store, wagesProjection, events, lines));

    const phones = (i: number) => `138${String(((i * 7919) % WORKERS) + 1).padStart(8, '0')}`;
    const one = await samples(200, () => pool.query('SELECT 1'));
    const summary = await samples(200, () => wageSummary(pool, MONTH, { page: 1, pageSize: 20 }));
    const statement = await samples(200, (i) => wageStatement(pool, MONTH, phones(i)));
    // Without the projection: the month's first page priced from the reports at query time (the rates in force joined per line).
    const naive = await samples(2, () =>
      pool.query(
        `SELECT r.employee_phone, count(DISTINCT r.report_id), sum(l."finishedQty"),
                sum(round((l."finishedQty" * pr.piece_rate + l."defectiveQty" * pr.defect_rate) / 100.0))
           FROM reports r CROSS JOIN LATERAL jsonb_to_recordset(r.lines) AS l("productId" bigint, "finishedQty" bigint, "defectiveQty" bigint)
           CROSS JOIN LATERAL (SELECT piece_rate, defect_rate FROM product_rates p WHERE p.product_id = l."productId" AND p.effective_from <= r.report_date
                                ORDER BY effective_from DESC LIMIT 1) pr
          WHERE r.status = 'approved' AND r.report_date BETWEEN '${MONTH}-01' AND '${MONTH}-31'
          GROUP BY 1 ORDER BY 1 LIMIT 20`,
      ),
    );
    console.log(`month summary (page 1):  p50 ${ms(percentile(summary, 50))}, p95 ${ms(percentile(summary, 95))}   (target p95 ≤ 50 ms)`);
    console.log(`one worker's statement:  p50 ${ms(percentile(statement, 50))}, p95 ${ms(percentile(statement, 95))}   (target p95 ≤ 20 ms)`);
    console.log(`baselines: SELECT 1 round trip p95 ${ms(percentile(one, 95))}; the first page priced from the reports at query time p50 ${ms(percentile(naive, 50))}`);

    // The close, on the command path (lock, facts, decision, append), on 1 April.
    const clock = new ManualClock('2026-04-01T09:00:00+08:00');
    const inlineProjections = projections.filter((p) => p.mode === 'inline');
    const deps: PeriodDeps = {
      commands: { store, repository: new StreamRepository(store, inlineProjections), reads: pool, writes: pool, clock, inline: inlineProjections },
      pool,
      timeZone: 'Asia/Shanghai',
    };
    const manager = { phone: MANAGER, role: 'manager' as const };
    const readLines = await timed(() =>
      pool.query(
        `SELECT r.report_id, l.* FROM reports r CROSS JOIN LATERAL jsonb_to_recordset(r.lines) AS l("productId" bigint, "finishedQty" bigint, "defectiveQty" bigint)
          WHERE r.status = 'approved' AND r.report_date BETWEEN '${MONTH}-01' AND '${MONTH}-31'`,
      ),
    );
    let amount = '';
    const first = await timed(async () => {
      amount = String((await closePeriod(deps, manager, MONTH)).amountFen);
    });
    await reopenPeriod(deps, manager, MONTH, '复核');
    const second = await timed(() => closePeriod(deps, manager, MONTH));
    const projected = (await pool.query(`SELECT amount_fen::text AS a FROM wage_months WHERE month = $1`, [MONTH])).rows[0].a;
    console.log(
      `the close of ${fmt(WORKERS * DAYS * 3)} lines: ${fmt(first, 2)} s, again after a reopen ${fmt(second, 2)} s   (target ≤ 5 s)` +
        `   baseline, reading the month's approved lines alone: ${fmt(readLines, 2)} s; closed amount ${amount} fen = the projection's ${projected}: ${amount === projected}`,
    );
    await pool.end();
  });
}

export const wagesBench: BenchSuite = { name: 'wages', run };
