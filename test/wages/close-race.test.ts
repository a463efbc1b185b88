/**
 * "a close racing an approval ends with the approval in the closed figures or refused, never after the
 * close and outside them". PostgreSQL only: the race needs real concurrent transactions (PGlite serves one
 * connection at a time, so nothing can interleave there), and the second instance needs a database it can share.
 *
 * - A write that waited for the close's lock reads the month as the close left it (a fresh snapshot in
 *   `months_open`), not as it was when its statement started.
 * - Approvals, rate changes from dates in the month and break changes fired at once with repeated closes, on one
 *   instance and on two: one close succeeds, after every approval (a pending report refuses the close); its amount
 *   equals the approved lines priced, by this test's own arithmetic, at exactly the rates that landed (every rate
 *   event is older than the close's), every write that did not land was refused with PERIOD_CLOSED, and the wage
 *   projection's month equals the close.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startTestApp, withSecondInstance, type TestApp, type TestResponse } from '../helpers/app.ts';
import { onPostgres } from '../helpers/db.ts';
import { line, submitReport } from '../review/fixtures.ts';

let app: TestApp;
let admin: string;
let manager: string;
let productId = 0;

beforeAll(async () => {
  if (!onPostgres) return;
  app = await startTestApp({}, '2026-03-05T09:00:00+08:00');
  admin = await app.login('13900000001', 'admin', '王管理');
  manager = await app.login('13900000002', 'manager', '李经理');
  const p = await app.service.ctx.db.pool.query(
    `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     VALUES ('XM', '横梁', 'D1', '冲压', 10, 2880) RETURNING id`,
  );
  productId = Number(p.rows[0].id);
}, 60_000);
afterAll(() => app?.close());

type Request = TestApp['request'];

/** Pending reports of `month`: `n`, of 5 workers, on days 1–28, quantities from their number. */
async function pendingReports(month: string, n: number, offset: number): Promise<{ id: string; date: string; finished: number; defective: number }[]> {
  const out = [];
  for (let i = 0; i < n; i++) {
    const k = i + offset;
    const date = `${month}-${String((k % 28) + 1).padStart(2, '0')}`;
    const finished = 100 + k;
    const defective = k % 4;
    const d = await submitReport(app.service.ctx, { phone: `1380000${String(1000 + (k % 5))}`, reportDate: date, lines: [line(productId, 10, 2880, finished, defective)] });
    out.push({ id: d.reportId, date, finished, defective });
  }
  return out;
}

/** Fen of `finished` × piece + `defective` × defect (ten-thousandths), half away from zero — this test's own arithmetic. */
function fen(finished: number, defective: number, rate: { piece: number; defect: number }): bigint {
  const t = BigInt(finished) * BigInt(rate.piece) + BigInt(defective) * BigInt(rate.defect);
  const abs = t < 0n ? -t : t;
  const r = abs / 100n + (abs % 100n >= 50n ? 1n : 0n);
  return t < 0n ? -r : r;
}

/**
 * Fires, on `instances` round robin: an approval of each report, rate changes from days of `month` (until the
 * close has succeeded, and a few after), break changes on `approvedBefore`, and closes repeated until one
 * succeeds. Returns every answer.
 */
async function race(instances: Request[], month: string, reports: { id: string }[], approvedBefore: string[]) {
  let closed: TestResponse | undefined;
  const closes: TestResponse[] = [];
  const rates: { body: any; res: TestResponse }[] = [];
  const pick = (i: number) => instances[i % instances.length];
  const closer = (async () => {
    for (let i = 0; !closed; i++) {
      const r = await pick(i)('POST', `/api/periods/${month}/close`, { token: manager });
      closes.push(r);
      if (r.status === 200) closed = r;
    }
  })();
  const rater = (async () => {
    for (let i = 0, after = 0; after < 5; i++) {
      if (closed) after++;
      // Every body different (a rate equal to the entry of its date would decide nothing).
      const body = { pieceRate: (1 + (i + 1) / 10_000).toFixed(4), defectRate: `-0.${(i % 9) + 1}`, effectiveFrom: `${month}-${String((i % 27) + 2).padStart(2, '0')}` };
      rates.push({ body, res: await pick(i + 1)('POST', `/api/products/${productId}/rates`, { token: manager, body }) });
    }
  })();
  const breaks = Promise.all(approvedBefore.map((id, i) => pick(i)('PATCH', `/api/reports/${id}/break-minutes`, { token: manager, body: { breakMinutes: 10 + i } })));
  const approvals = await Promise.all(reports.map((r, i) => pick(i)('POST', `/api/reviews/${r.id}/approve`, { token: admin, body: {} })));
  await Promise.all([closer, rater]);
  return { closed: closed!, closes, rates, approvals, breaks: await breaks };
}

/** Checks the outcome of `race` for `month` (module docstring). */
async function expectConsistent(month: string, reports: { id: string; date: string; finished: number; defective: number }[], result: Awaited<ReturnType<typeof race>>) {
  const pool = app.service.ctx.db.pool;
  expect(result.approvals.every((a) => a.status === 200)).toBe(true);
  for (const c of result.closes.slice(0, -1)) expect([c.status, c.body.error.code]).toEqual([409, 'PERIOD_HAS_PENDING']);
  expect(result.closed.body).toMatchObject({ month, status: 'closed', version: 1 });

  const landed = result.rates.filter((r) => r.res.status === 201);
  const refused = result.rates.filter((r) => r.res.status !== 201);
  expect(landed.length).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThanOrEqual(4);
  for (const r of refused) expect([r.res.status, r.res.body.error.code, r.res.body.error.details]).toEqual([409, 'PERIOD_CLOSED', { month }]);
  for (const b of result.breaks) expect(b.status === 200 || (b.status === 409 && b.body.error.code === 'PERIOD_CLOSED')).toBe(true);

  // Every event written into the month is older than the close: nothing landed after it.
  const positions = await pool.query(
    `SELECT event_type, global_position FROM events
      WHERE (stream_id = $1 OR event_type IN ('RateSet', 'BreakChanged', 'ReportApproved')) AND recorded_at IS NOT NULL ORDER BY global_position`,
    [`period-${month}`],
  );
  const closeAt = positions.rows.find((r) => r.event_type === 'PeriodClosed').global_position;
  const rateEvents = await pool.query(`SELECT data, global_position FROM events WHERE stream_id = $1 AND data->>'effectiveFrom' LIKE $2 ORDER BY stream_version`, [`product-${productId}`, `${month}-%`]);
  const monthBreaks = await pool.query(`SELECT global_position FROM events WHERE event_type = 'BreakChanged' AND data->>'reportDate' LIKE $1`, [`${month}-%`]);
  const approvals = await pool.query(`SELECT global_position FROM events WHERE event_type = 'ReportApproved' AND data->>'reportDate' LIKE $1`, [`${month}-%`]);
  for (const r of [...rateEvents.rows, ...monthBreaks.rows, ...approvals.rows]) expect(Number(r.global_position)).toBeLessThan(Number(closeAt));
  expect(rateEvents.rows).toHaveLength(landed.length + 1); // and the one set before the race
  expect(monthBreaks.rows).toHaveLength(result.breaks.filter((b) => b.status === 200).length);

  // The rates in force: every entry of the product (all landed before the close), folded in order.
  const all = await pool.query(`SELECT data FROM events WHERE stream_id = $1 ORDER BY stream_version`, [`product-${productId}`]);
  const history = new Map<string, { piece: number; defect: number }>();
  for (const e of all.rows) history.set(e.data.effectiveFrom, { piece: e.data.pieceRate, defect: e.data.defectRate });
  const dates = [...history.keys()].sort();
  const inForce = (date: string) => history.get(dates.filter((d) => d <= date).at(-1)!)!;
  const expected = reports.reduce((sum, r) => sum + fen(r.finished, r.defective, inForce(r.date)), 0n);
  const expectedText = `${expected / 100n}.${String(expected % 100n).padStart(2, '0')}`;
  expect(result.closed.body.amount).toBe(expectedText);

  await app.catchUpAll();
  const wages = await app.request('GET', `/api/wages?month=${month}`, { token: manager });
  expect([wages.body.status, wages.body.totals.amount, wages.body.totals.reports]).toEqual(['closed', expectedText, reports.length]);
}

describe.runIf(onPostgres)('a close racing writes into its month', () => {
  it('a write that waited for the close reads the month closed: a fresh snapshot after the lock, not its statement’s', async () => {
    app.clock.set('2026-02-10T09:00:00+08:00');
    expect((await app.request('POST', `/api/products/${productId}/rates`, { token: manager, body: { pieceRate: '1', effectiveFrom: '2026-01-01' } })).status).toBe(201);
    const holder = new pg.Client({ connectionString: (app.service.ctx.db as { url?: string }).url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT lock_month_exclusive('2026-01')`);
      const waiting = app.request('POST', `/api/products/${productId}/rates`, { token: manager, body: { pieceRate: '2', effectiveFrom: '2026-01-15' } });
      await new Promise((r) => setTimeout(r, 300)); // the rate's statement has started and waits for the lock
      await holder.query(
        `INSERT INTO periods (month, status, version, closed_at, amount_fen, workers, history) VALUES ('2026-01', 'closed', 1, now(), 0, 0, '[]')`,
      );
      await holder.query('COMMIT');
      const r = await waiting;
      expect([r.status, r.body.error.code, r.body.error.details]).toEqual([409, 'PERIOD_CLOSED', { month: '2026-01' }]);
      const n = await app.service.ctx.db.pool.query(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND data->>'effectiveFrom' = '2026-01-15'`, [`product-${productId}`]);
      expect(n.rows[0].n).toBe(0);
    } finally {
      await holder.end();
    }
  });

  it('on one instance: approvals, rate changes and break changes racing closes', async () => {
    const approved = await pendingReports('2026-03', 6, 0);
    app.clock.set('2026-03-29T09:00:00+08:00');
    expect((await app.request('POST', `/api/products/${productId}/rates`, { token: manager, body: { pieceRate: '1.25', defectRate: '-0.5', effectiveFrom: '2026-03-01' } })).status).toBe(201);
    for (const r of approved) expect((await app.request('POST', `/api/reviews/${r.id}/approve`, { token: admin, body: {} })).status).toBe(200);
    const reports = await pendingReports('2026-03', 40, 6);
    app.clock.set('2026-04-01T00:00:01+08:00');
    const result = await race([app.request], '2026-03', reports, approved.map((r) => r.id));
    await expectConsistent('2026-03', [...approved, ...reports], result);
  }, 120_000);

  it('on two API instances sharing the database', async () => {
    app.clock.set('2026-04-10T09:00:00+08:00');
    expect((await app.request('POST', `/api/products/${productId}/rates`, { token: manager, body: { pieceRate: '0.8', defectRate: '0', effectiveFrom: '2026-04-01' } })).status).toBe(201);
    const approved = await pendingReports('2026-04', 6, 100);
    for (const r of approved) expect((await app.request('POST', `/api/reviews/${r.id}/approve`, { token: admin, body: {} })).status).toBe(200);
    const reports = await pendingReports('2026-04', 40, 106);
    app.clock.set('2026-05-01T08:00:00+08:00');
    await withSecondInstance(app, async (second) => {
      const result = await race([app.request, second.request], '2026-04', reports, approved.map((r) => r.id));
      await expectConsistent('2026-04', [...approved, ...reports], result);
    });
  }, 120_000);
});
