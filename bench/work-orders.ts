/**
 * Work order benchmark (生产工单): 10,000 orders × 4 operations and 500,000 report lines naming them (250,000 reports
 * of 2 lines, four in five approved), written straight into the read models `work_orders` and `reports`
 * (migrations/019), the progress sums filled from them as migration 023 fills them (what the reads read), then
 * - the order list, first page (queries/work-orders.ts `listWorkOrders`) p95 — target ≤ 30 ms — and filtered late;
 * - one order with its operations (`workOrderItem`) p95 — target ≤ 10 ms;
 * - the draft (queries/report-draft.ts `reportDraft`, what GET /api/reports/draft runs) of workers whose session's
 *   two devices are two operations of a product with open orders (15 each, with their progress), p95
 *   beside the same draft of workers on two devices of a product with none — target within 1.2×; and, apart, the draft's
 *   candidates query with and without the orders' part (DRAFT_ORDERS_SQL), what the orders add to the statement;
 * each beside the baseline of a `SELECT 1` round trip. `BENCH_WORK_ORDERS` scales the orders (default 10000; the
 * lines are 50 per order). The clock cycle's saturation against the commit before is `npm run bench -- speed-pieces`
 * with `BENCH_COMPARE=<that checkout>`.
 */
import { snapshotJson } from '../src/products/snapshot.ts';
import pg from 'pg';
import { PreparingClient } from '../src/db/preparing-client.ts';
import { CalendarCache } from '../src/shifts/calendar-cache.ts';
import type { ClockSettings } from '../src/domain/clock.ts';
import { DRAFT_ORDERS_SQL, reportDraft } from '../src/queries/report-draft.ts';
import { listWorkOrders, workOrderItem } from '../src/queries/work-orders.ts';
import { fmt, ms, openBenchPool, percentile, samples, timed, withBenchDatabase } from './db.ts';
import type { BenchSuite } from './suites.ts';

const ORDERS = Number(process.env.BENCH_WORK_ORDERS || 10_000);
const PRODUCTS = 200;
const OPS = ['冲压', '折弯', '焊接', '喷涂'];
const TODAY = '2026-06-15';

/** Products: PRODUCTS products × 4 operations, each operation on its own device (D<product>-<op>). */
const PRODUCTS_SQL = `
INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
SELECT 'P' || p, '产品' || p, 'D' || p || '-' || o, (ARRAY['冲压', '折弯', '焊接', '喷涂'])[o], 12, 2400
  FROM generate_series(1, ${PRODUCTS}) p, generate_series(1, 4) o`;

/**
 * Orders: order i of product i mod PRODUCTS, due from 2026-01-01 on; three in ten open (i ÷ PRODUCTS mod 10 ≥ 7, so
 * every product has its share: 15 open orders each by default), some of them late on TODAY.
 */
const ORDERS_SQL = `
INSERT INTO work_orders (order_no, project_no, product_name, planned_qty, due_date, notes, operations, status, status_reason, released_at, changed_at, version)
SELECT 'WO-' || lpad(i::text, 6, '0'), 'P' || (i % ${PRODUCTS} + 1), '产品' || (i % ${PRODUCTS} + 1), 5000, DATE '2026-01-01' + (i % 365),
       NULL, '["冲压","折弯","焊接","喷涂"]'::jsonb, CASE WHEN (i / ${PRODUCTS}) % 10 < 7 THEN 'completed' ELSE 'released' END, NULL, now(), now(), 1
  FROM generate_series(1, $1::int) i`;

/** Reports [from, to): report r names order r mod ORDERS at two consecutive operations, 200 + 100 pieces. */
const REPORTS_SQL = `
INSERT INTO reports (report_id, session_id, employee_phone, report_date, status, clock_in_at, clock_out_at, break_minutes, devices, lines, flags,
                     workshop_code, team_code, break_source, shift_id, shift_name, submitted_at, reviewed_by, reviewed_at, reject_reason, updated_at)
SELECT gen_random_uuid(), gen_random_uuid(), '138' || lpad((r % 500 + 1)::text, 8, '0'), DATE '2026-01-01' + (r % 160),
       CASE WHEN r % 5 = 0 THEN 'pending' ELSE 'approved' END, now(), now(), 60, ARRAY['D1-1'],
       jsonb_build_array(
         jsonb_build_object('productId', 1, 'projectNo', 'P' || ((r % $3) % ${PRODUCTS} + 1), 'productName', '产品' || ((r % $3) % ${PRODUCTS} + 1), 'deviceNo', 'D1-1',
           'processName', (ARRAY['冲压', '折弯', '焊接', '喷涂'])[(r / $3) % 4 + 1], 'standardCycleSeconds', 12, 'standardWorkload', 2400,
           'finishedQty', 200, 'defectiveQty', 2, 'outputQty', 202, 'workOrderNo', 'WO-' || lpad((r % $3 + 1)::text, 6, '0')),
         jsonb_build_object('productId', 2, 'projectNo', 'P' || ((r % $3) % ${PRODUCTS} + 1), 'productName', '产品' || ((r % $3) % ${PRODUCTS} + 1), 'deviceNo', 'D1-1',
           'processName', (ARRAY['冲压', '折弯', '焊接', '喷涂'])[((r / $3) + 1) % 4 + 1], 'standardCycleSeconds', 12, 'standardWorkload', 2400,
           'finishedQty', 100, 'defectiveQty', 1, 'outputQty', 101, 'workOrderNo', 'WO-' || lpad((r % $3 + 1)::text, 6, '0'))),
       '[]'::jsonb, NULL, NULL, 'default', NULL, NULL, now(), NULL, NULL, NULL, now()
  FROM generate_series($1::int, $2::int - 1) r`;

/**
 * Workers for the whole draft: 139… 1–200 on devices D<i>-1 and D<i>-2 (a product with orders), 201–400 on E<i>-1 and
 * E<i>-2 (products Q<i> of the same shape with none); each with a session clocked out at 16:00 on TODAY, reportable.
 */
const DRAFT_SETUP = [
  `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
   SELECT 'Q' || p, '零件' || p, 'E' || p || '-' || o, (ARRAY['冲压', '折弯', '焊接', '喷涂'])[o], 12, 2400
     FROM generate_series(1, ${PRODUCTS}) p, generate_series(1, 4) o`,
  `INSERT INTO personnel (phone, name, role) SELECT '139' || lpad(w::text, 8, '0'), '工人' || w, 'worker' FROM generate_series(1, ${2 * PRODUCTS}) w`,
  `INSERT INTO sessions (session_id, employee_phone, status, clock_in_at, clock_out_at, expires_at, devices, report_id, opened_version, updated_at)
   SELECT ('00000000-0000-4000-8000-' || lpad(w::text, 12, '0'))::uuid, '139' || lpad(w::text, 8, '0'), 'reporting',
          TIMESTAMPTZ '${TODAY} 08:00+08', TIMESTAMPTZ '${TODAY} 16:00+08', TIMESTAMPTZ '${TODAY} 23:00+08',
          CASE WHEN w <= ${PRODUCTS} THEN ARRAY['D' || w || '-1', 'D' || w || '-2'] ELSE ARRAY['E' || (w - ${PRODUCTS}) || '-1', 'E' || (w - ${PRODUCTS}) || '-2'] END,
          NULL, 1, now()
     FROM generate_series(1, ${2 * PRODUCTS}) w`,
];
const DRAFT_SETTINGS = {
  timeZone: 'Asia/Shanghai',
  defaultBreakMinutes: 60,
  reportWindowMs: 12 * 3_600_000,
  sessionMaxMs: 16 * 3_600_000,
} as ClockSettings;
const DRAFT_NOW = new Date(`${TODAY}T16:30:00+08:00`);
/** The service's cache of the workers' calendars (app.ts), which the draft keeps as it does there. */
const calendars = new CalendarCache();
/** The draft of worker `w` (1–400: module docstring). */
const draftOf = (pool: Parameters<typeof reportDraft>[0], w: number) =>
  reportDraft(pool, DRAFT_SETTINGS, DRAFT_NOW, { phone: `139${String(w).padStart(8, '0')}`, role: 'worker' }, `00000000-0000-4000-8000-${String(w).padStart(12, '0')}`, calendars);

const CANDIDATES = (withOrders: boolean) => `
SELECT (SELECT json_agg(${snapshotJson('p')} ORDER BY p.id) FROM products p WHERE p.device_no = ANY(s.devices)) AS candidates
       ${withOrders ? `, ${DRAFT_ORDERS_SQL} AS work_orders` : ''}
  FROM (SELECT $1::text[] AS devices) s
  CROSS JOIN LATERAL (SELECT array_agg(p.project_no) AS project_nos, array_agg(p.product_name) AS product_names FROM products p WHERE p.device_no = ANY(s.devices)) pc`;

async function run(): Promise<void> {
  await withBenchDatabase(async (url) => {
    const pool = await openBenchPool(url, 500);
    const reports = ORDERS * 25;
    const load = await timed(async () => {
      await pool.query(PRODUCTS_SQL);
      await pool.query(ORDERS_SQL, [ORDERS]);
      for (let r = 0; r < reports; r += 25_000) await pool.query(REPORTS_SQL, [r, Math.min(reports, r + 25_000), ORDERS]);
      await pool.query('ANALYZE');
    });
    // The kept progress sums of those reports, as migration 023 fills them for an existing database.
    const fill = await timed(() => pool.query('SELECT work_order_progress_from_reports()'));
    await pool.query('ANALYZE');
    console.log(`data: ${fmt(ORDERS)} orders × ${OPS.length} operations, ${fmt(reports)} reports, ${fmt(reports * 2)} lines naming them, loaded in ${fmt(load, 1)} s`);
    console.log(`progress sums filled from the reports (migration 023) in ${fmt(fill, 1)} s`);

    const one = await samples(200, () => pool.query('SELECT 1'));
    const page = { page: 1, pageSize: 20 };
    const first = await samples(200, () => listWorkOrders(pool, {}, page, TODAY));
    const late = await samples(200, () => listWorkOrders(pool, { late: true }, page, TODAY));
    const searched = await samples(100, (i) => listWorkOrders(pool, { q: `WO-00${(i % 90) + 10}` }, page, TODAY));
    const single = await samples(500, (i) => workOrderItem(pool, `WO-${String((i * 37) % ORDERS + 1).padStart(6, '0')}`, TODAY));
    const devices = (i: number) => [`D${(i % PRODUCTS) + 1}-1`, `D${(i % PRODUCTS) + 1}-2`];
    for (const q of DRAFT_SETUP) await pool.query(q);
    await pool.query('ANALYZE');
    // Through prepared statements, as the service's pool runs them (db/preparing-client.ts).
    const prepared = new pg.Pool({ connectionString: url, max: 4, Client: PreparingClient });
    prepared.on('error', () => {}); // the database is dropped with FORCE at the end
    const sample = await draftOf(prepared, 1);
    const ordersShown = sample.candidates.reduce((n, c) => n + c.workOrders.length, 0);
    // Alternating, so that both see the same moments of the shared machine.
    const [draftWith, draftWithout]: number[][] = [[], []];
    for (let i = 0; i < 600; i++) {
      const k = i % 2;
      const w = (Math.floor(i / 2) % PRODUCTS) + 1 + k * PRODUCTS;
      const t = await timed(() => draftOf(prepared, w));
      if (i >= 40) (k === 0 ? draftWith : draftWithout).push(t * 1000);
    }
    const without = await samples(300, (i) => pool.query(CANDIDATES(false), [devices(i)]));
    const withOrders = await samples(300, (i) => pool.query(CANDIDATES(true), [devices(i)]));
    console.log(`order list, first page:      p50 ${ms(percentile(first, 50))}, p95 ${ms(percentile(first, 95))}   (target p95 ≤ 30 ms)`);
    console.log(`order list, late only:       p50 ${ms(percentile(late, 50))}, p95 ${ms(percentile(late, 95))}   (target p95 ≤ 30 ms)`);
    console.log(`order list, searched:        p50 ${ms(percentile(searched, 50))}, p95 ${ms(percentile(searched, 95))}`);
    console.log(`one order with operations:   p50 ${ms(percentile(single, 50))}, p95 ${ms(percentile(single, 95))}   (target p95 ≤ 10 ms)`);
    const draftRatio = percentile(draftWith, 95) / percentile(draftWithout, 95);
    console.log(
      `the draft with orders (${ordersShown} on its 2 candidates): p50 ${ms(percentile(draftWith, 50))}, p95 ${ms(percentile(draftWith, 95))} beside without p50 ${ms(percentile(draftWithout, 50))}, p95 ${ms(percentile(draftWithout, 95))}: ${fmt(draftRatio, 2)}×   (target ≤ 1.2×: ${draftRatio <= 1.2 ? 'met' : 'NOT met'})`,
    );
    const ratio = percentile(withOrders, 95) / percentile(without, 95);
    console.log(
      `draft candidates with orders: p95 ${ms(percentile(withOrders, 95))} beside without ${ms(percentile(without, 95))}: ${fmt(ratio, 2)}×   (the statement alone)`,
    );
    console.log(`baseline: SELECT 1 round trip p95 ${ms(percentile(one, 95))}`);
    await Promise.all([pool.end(), prepared.end()]);
  });
}

export const workOrdersBench: BenchSuite = { name: 'work-orders', run };
