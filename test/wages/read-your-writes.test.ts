/**
 * No read older than the reader's own write (projections/fresh-reads.ts): the wages, the dashboard and the months are
 * asynchronous read models, and a read of them answers only once the model holds every event of its types that was
 * committed when the read came. Over HTTP on the whole service:
 *
 * - with the background loop running as in production, an approval followed at once by many reads at the same time
 *   (wages list, statement, the worker's own, workbook, dashboard rows and summary, the months): every one shows it;
 * - with the background loop stopped, the read itself brings the model up to date (no loop is needed for it);
 * - a close followed at once by the payroll workbook and the wages list: the close's figures, with the approval that
 *   landed just before it; and a month is answered closed only with the close's figures (queries/wages.ts
 *   `monthStatus`: the status the figures are priced under);
 * - a model that cannot catch up within READ_MODEL_WAIT_SECONDS: 503 READ_MODEL_BEHIND with Retry-After, never an
 *   older figure; once it can, the figure;
 * - on PostgreSQL, a batch of another runner holding the model's checkpoint (as another instance's loop would) is
 *   waited for, not answered around; and reads on two API instances at once take an approval in exactly once;
 * - a read waits only for the events that change what it shows (Projection.shownBy): the other types each async
 *   projection handles write only its internal tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import * as XLSX from 'xlsx';
import type { AsyncConsumer } from '../../src/projections/consumer.ts';
import { wageSummary } from '../../src/queries/wages.ts';
import { startTestApp, withSecondInstance, type TestApp } from '../helpers/app.ts';
import { onPostgres } from '../helpers/db.ts';
import { projections } from '../../src/projections/index.ts';
import { OEE_DAYS } from '../../src/queries/oee-days.ts';
import { routes } from '../../src/http/routes/index.ts';
import type { ProjectedEvent, Row, RowView } from '../../src/projections/projection.ts';
import { line, submitReport, submitted } from '../review/fixtures.ts';

/** Fen of `finished` × piece + `defective` × defect (ten-thousandths of a yuan), half away from zero: this test's own arithmetic. */
function fen(finished: number, defective: number, piece: number, defect: number): bigint {
  const t = BigInt(finished) * BigInt(piece) + BigInt(defective) * BigInt(defect);
  const abs = t < 0n ? -t : t;
  const r = abs / 100n + (abs % 100n >= 50n ? 1n : 0n);
  return t < 0n ? -r : r;
}
const yuan = (f: bigint) => `${f / 100n}.${String(f % 100n).padStart(2, '0')}`;

/** The rate every line here is priced at: 1.2500 yuan a piece, −0.5000 a defective one. */
const PIECE = 12_500;
const DEFECT = -5_000;

interface Setup {
  app: TestApp;
  admin: string;
  manager: string;
  productId: number;
}

/** A service (`env`), an administrator, a manager, a product priced from 2026-01-01, and `workers` logged in. */
async function setUp(env: Record<string, string>, start: string, workers: string[]): Promise<Setup & { tokens: Record<string, string> }> {
  const app = await startTestApp(env, start);
  const admin = await app.login('13900000001', 'admin', '王管理');
  const manager = await app.login('13900000002', 'manager', '李经理');
  const tokens: Record<string, string> = {};
  for (const w of workers) tokens[w] = await app.login(w, 'worker', `工人${w.slice(-2)}`);
  const p = await app.service.ctx.db.pool.query(
    `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     VALUES ('XM', '横梁', 'D1', '冲压', 10, 2880) RETURNING id`,
  );
  const productId = Number(p.rows[0].id);
  const rate = await app.request('POST', `/api/products/${productId}/rates`, { token: manager, body: { pieceRate: '1.25', defectRate: '-0.5', effectiveFrom: '2026-01-01' } });
  expect(rate.status).toBe(201);
  return { app, admin, manager, productId, tokens };
}

/** A pending report of `phone` on `date` with one line of `finished` + `defective` pieces of the product. */
async function pending(s: Setup, phone: string, date: string, finished: number, defective: number) {
  const d = await submitReport(s.app.service.ctx, { phone, reportDate: date, lines: [line(s.productId, 10, 2880, finished, defective)] });
  return { id: d.reportId, phone, date, finished, defective };
}

async function approve(s: Setup, id: string) {
  const r = await s.app.request('POST', `/api/reviews/${id}/approve`, { token: s.admin, body: {} });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** The workbook's sheet `name` (default: the first) as rows of cells: the header and the records, without the 合计 row. */
function sheet(book: Buffer, name?: string): unknown[][] {
  const wb = XLSX.read(book, { type: 'buffer' });
  return XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[name ?? wb.SheetNames[0]], { header: 1 }).filter((row) => row[0] !== '合计');
}

/** The workbook the manager downloads at `path`. */
async function download(s: Setup, path: string): Promise<Buffer> {
  const res = await fetch(`${s.app.url}${path}`, { headers: { authorization: `Bearer ${s.manager}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}
const workbook = (s: Setup, month: string) => download(s, `/api/wages.xlsx?month=${month}`);

/** The column `header` of a sheet's rows (the first row holds the headers), summed. */
const columnSum = (rows: unknown[][], header: string) => rows.slice(1).reduce<number>((sum, row) => sum + Number(row[(rows[0] as string[]).indexOf(header)]), 0);

describe('reads right after a write, with the background loop running', () => {
  const A = '13800000011';
  const B = '13800000012';
  let s: Setup & { tokens: Record<string, string> };

  beforeAll(async () => {
    s = await setUp({}, '2026-03-20T09:00:00+08:00', [A, B]);
    s.app.service.background.start();
  }, 60_000);
  afterAll(() => s?.app.close());

  it('an approval followed at once by 48 reads of the wages, the dashboard and the months: every one shows it', async () => {
    const reports = [await pending(s, A, '2026-03-02', 100, 4), await pending(s, B, '2026-03-03', 37, 1), await pending(s, A, '2026-03-04', 250, 0)];
    const approved: typeof reports = [];
    for (const r of reports) {
      await approve(s, r.id);
      approved.push(r);
      const mine = approved.filter((x) => x.phone === A);
      const total = approved.reduce((sum, x) => sum + fen(x.finished, x.defective, PIECE, DEFECT), 0n);
      const totalA = mine.reduce((sum, x) => sum + fen(x.finished, x.defective, PIECE, DEFECT), 0n);
      const finished = approved.reduce((sum, x) => sum + x.finished, 0);
      const range = 'startDate=2026-03-01&endDate=2026-03-31';
      const reads = await Promise.all(
        Array.from({ length: 6 }, () => [
          s.app.request('GET', '/api/wages?month=2026-03', { token: s.manager }),
          s.app.request('GET', `/api/wages/${A}?month=2026-03`, { token: s.manager }),
          s.app.request('GET', '/api/wages/mine?month=2026-03', { token: s.tokens[A] }),
          s.app.request('GET', `/api/dashboard/reports?${range}`, { token: s.manager }),
          s.app.request('GET', `/api/dashboard/summary?${range}`, { token: s.manager }),
          s.app.request('GET', '/api/periods', { token: s.manager }),
          workbook(s, '2026-03').then((book) => ({ status: 200, body: sheet(book, '明细') })),
          download(s, `/api/dashboard/reports.xlsx?${range}`).then((book) => ({ status: 200, body: sheet(book) })),
        ]).flat(),
      );
      expect(reads).toHaveLength(48);
      for (const [i, read] of reads.entries()) {
        expect(read.status, JSON.stringify(read.body)).toBe(200);
        const b = read.body;
        switch (i % 8) {
          case 0:
            expect([b.totals.reports, b.totals.amount, b.totals.finishedQty]).toEqual([approved.length, yuan(total), finished]);
            break;
          case 1:
          case 2:
            expect([b.reports.map((x: { reportId: string }) => x.reportId), b.amount]).toEqual([mine.map((x) => x.id), yuan(totalA)]);
            break;
          case 3:
            expect(b.items.reduce((sum: number, x: { reportCount: number }) => sum + x.reportCount, 0)).toBe(approved.length);
            break;
          case 4:
            expect(b.byEmployee.reduce((sum: number, x: { finishedQty: number }) => sum + x.finishedQty, 0)).toBe(finished);
            break;
          case 5:
            expect(b.items.find((m: { month: string }) => m.month === '2026-03').reports).toBe(approved.length);
            break;
          case 6:
            expect(b.length - 1).toBe(approved.length); // the header row, then one line per approved report
            break;
          case 7:
            expect(columnSum(b, '成品数量')).toBe(finished);
            break;
        }
      }
    }
  }, 60_000);

  it('a close followed at once by the payroll workbook and the wages: the close’s figures, with the approval just before it', async () => {
    const month = '2026-02';
    s.app.clock.set('2026-02-10T09:00:00+08:00');
    const reports = [await pending(s, A, '2026-02-02', 120, 3), await pending(s, B, '2026-02-05', 80, 0), await pending(s, B, '2026-02-06', 33, 2)];
    s.app.clock.set('2026-03-01T08:00:00+08:00');
    for (const r of reports) await approve(s, r.id);
    const close = await s.app.request('POST', `/api/periods/${month}/close`, { token: s.manager });
    expect(close.status, JSON.stringify(close.body)).toBe(200);
    const [book, wages] = await Promise.all([workbook(s, month), s.app.request('GET', `/api/wages?month=${month}`, { token: s.manager })]);

    const expected = reports.reduce((sum, r) => sum + fen(r.finished, r.defective, PIECE, DEFECT), 0n);
    expect(close.body.amount).toBe(yuan(expected));
    expect([wages.body.status, wages.body.version, wages.body.totals.amount, wages.body.totals.reports]).toEqual(['closed', 1, close.body.amount, 3]);
    expect(yuan(BigInt(Math.round(columnSum(sheet(book, '汇总'), '计件工资') * 100)))).toBe(close.body.amount);
    expect(sheet(book, '明细').slice(1).map((row) => row[3]).sort()).toEqual(reports.map((r) => r.id).sort());
  }, 60_000);
});

describe('reads when no background loop runs', () => {
  const A = '13800000021';
  let s: Setup & { tokens: Record<string, string> };

  beforeAll(async () => {
    s = await setUp({}, '2026-03-20T09:00:00+08:00', [A]); // startTestApp starts no background work
  }, 60_000);
  afterAll(() => s?.app.close());

  it('the read brings the models up to date itself: wages, workbook, dashboard and months show the approval', async () => {
    const r = await pending(s, A, '2026-03-09', 40, 2);
    await approve(s, r.id);
    const amount = yuan(fen(40, 2, PIECE, DEFECT));
    const wages = await s.app.request('GET', '/api/wages?month=2026-03', { token: s.manager });
    expect([wages.body.totals.reports, wages.body.totals.amount, wages.body.items.map((w: { employeePhone: string }) => w.employeePhone)]).toEqual([1, amount, [A]]);
    expect((await s.app.request('GET', '/api/wages/mine?month=2026-03', { token: s.tokens[A] })).body.amount).toBe(amount);
    expect(sheet(await workbook(s, '2026-03'), '明细').slice(1).map((row) => row[3])).toEqual([r.id]);
    const dash = await s.app.request('GET', '/api/dashboard/reports?startDate=2026-03-01&endDate=2026-03-31', { token: s.manager });
    expect(dash.body.items.map((x: { employeePhone: string; finishedQty: number }) => [x.employeePhone, x.finishedQty])).toEqual([[A, 40]]);
    const months = await s.app.request('GET', '/api/periods', { token: s.manager });
    expect(months.body.items.find((m: { month: string }) => m.month === '2026-03').reports).toBe(1);
  });

  // PostgreSQL only: a second API instance needs a database it can share (an in-memory PGlite is private to one).
  it.runIf(onPostgres)('on two instances at once, reads on both take the approval in exactly once', async () => {
    const before = (await s.app.request('GET', '/api/wages?month=2026-03', { token: s.manager })).body.totals;
    const r = await pending(s, A, '2026-03-10', 11, 1);
    await approve(s, r.id);
    await withSecondInstance(s.app, async (second) => {
      const reads = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? second.request : s.app.request)('GET', '/api/wages?month=2026-03', { token: s.manager })),
      );
      const expected = yuan(BigInt(before.amount.replace('.', '')) + fen(11, 1, PIECE, DEFECT));
      for (const w of reads) expect([w.status, w.body.totals.reports, w.body.totals.amount]).toEqual([200, before.reports + 1, expected]);
    });
  });

  it('a month is answered closed only with the close’s figures: a close the wage model has not taken in is not answered yet', async () => {
    const r = await pending(s, A, '2026-02-16', 60, 0);
    await approve(s, r.id);
    const close = await s.app.request('POST', '/api/periods/2026-02/close', { token: s.manager });
    expect(close.status, JSON.stringify(close.body)).toBe(200);
    // What a read that had passed its wait just before the close commits would find: the model without the close.
    const before = await wageSummary(s.app.service.ctx.db.pool, '2026-02', { page: 1, pageSize: 20 });
    expect([before.status, before.version, before.closedAt, before.totals.amountFen]).toEqual(['open', undefined, undefined, 0n]);
    const after = await s.app.request('GET', '/api/wages?month=2026-02', { token: s.manager });
    expect([after.body.status, after.body.version, after.body.totals.amount]).toEqual(['closed', 1, close.body.amount]);
    expect(close.body.amount).toBe(yuan(fen(60, 0, PIECE, DEFECT)));
  });
});

describe('a read model that cannot catch up in time', () => {
  const A = '13800000031';
  let s: Setup & { tokens: Record<string, string> };

  beforeAll(async () => {
    s = await setUp({ READ_MODEL_WAIT_SECONDS: '0.3' }, '2026-03-20T09:00:00+08:00', [A]);
  }, 60_000);
  afterAll(() => s?.app.close());

  /**
   * Makes every batch of the model `name` fail (a fault in its projection: nothing it reads is taken in) until the
   * returned function is called. A batch held open instead would hold PGlite's one connection, and every request with it.
   */
  function fail(name: string): () => void {
    const consumer = s.app.service.ctx.consumers.find((c) => c.name === name) as { handle: AsyncConsumer['handle'] };
    const handle = consumer.handle;
    consumer.handle = () => Promise.reject(new Error('a projection that fails'));
    return () => void (consumer.handle = handle);
  }

  it('answers 503 READ_MODEL_BEHIND with Retry-After, not the figure from before the approval; then, once it can, the figure', async () => {
    await s.app.request('GET', '/api/wages?month=2026-03', { token: s.manager }); // the model is up to date (the rate)
    const r = await pending(s, A, '2026-03-10', 10, 0);
    const restore = fail('wages');
    await approve(s, r.id);
    const stale = await s.app.request('GET', '/api/wages?month=2026-03', { token: s.manager });
    const own = await s.app.request('GET', '/api/wages/mine?month=2026-03', { token: s.tokens[A] });
    restore();
    for (const res of [stale, own]) {
      expect([res.status, res.body.error.code, res.body.error.message]).toEqual([503, 'READ_MODEL_BEHIND', '统计数据正在更新，还没有包含刚才的操作，请几秒后刷新重试']);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const fresh = await s.app.request('GET', '/api/wages?month=2026-03', { token: s.manager });
    expect([fresh.status, fresh.body.totals.amount]).toEqual([200, yuan(fen(10, 0, PIECE, DEFECT))]);
  });

  it('a model of other types does not hold the read: the dashboard answers while the wages are held', async () => {
    const r = await pending(s, A, '2026-03-11', 7, 0);
    await approve(s, r.id);
    await s.app.request('GET', '/api/wages?month=2026-03', { token: s.manager }); // the wages take the approval in
    const restore = fail('wages');
    try {
      // A rate is an event of the wages only: the dashboard has nothing to wait for.
      expect((await s.app.request('POST', `/api/products/${s.productId}/rates`, { token: s.manager, body: { pieceRate: '2', effectiveFrom: '2026-03-15' } })).status).toBe(201);
      const dash = await s.app.request('GET', '/api/dashboard/reports?startDate=2026-03-01&endDate=2026-03-31', { token: s.manager });
      expect([dash.status, dash.body.items.reduce((sum: number, x: { finishedQty: number }) => sum + x.finishedQty, 0)]).toEqual([200, 17]);
      const wages = await s.app.request('GET', '/api/wages?month=2026-03', { token: s.manager });
      expect([wages.status, wages.body.error?.code]).toEqual([503, 'READ_MODEL_BEHIND']);
    } finally {
      restore();
    }
  });

  // PostgreSQL only: a batch of another runner holding the checkpoint needs a second session; PGlite has one.
  it.runIf(onPostgres)('a batch of another runner holding the checkpoint is waited for: its end, then the figure; past the bound, 503', async () => {
    const url = (s.app.service.ctx.db as { url?: string }).url!;
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    /** Holds the wages' checkpoint as a batch of another instance would, reads `phone`'s statement, ends the batch after `ms`. */
    const readWhileHeld = async (ms: number) => {
      await other.query('BEGIN');
      await other.query(`SELECT 1 FROM projection_checkpoints WHERE name = 'wages' FOR UPDATE`);
      const read = s.app.request('GET', `/api/wages/${A}?month=2026-03`, { token: s.manager });
      await new Promise((resolve) => setTimeout(resolve, ms));
      await other.query('COMMIT');
      return read;
    };
    try {
      const r = await pending(s, A, '2026-03-12', 3, 0);
      await approve(s, r.id);
      const waited = await readWhileHeld(100);
      expect([waited.status, waited.body.reports.map((x: { reportId: string }) => x.reportId).includes(r.id)]).toEqual([200, true]);
      const late = await pending(s, A, '2026-03-13', 4, 0);
      await approve(s, late.id);
      const behind = await readWhileHeld(600);
      expect([behind.status, behind.body.error?.code]).toEqual([503, 'READ_MODEL_BEHIND']);
      const after = await s.app.request('GET', `/api/wages/${A}?month=2026-03`, { token: s.manager });
      expect(after.body.reports.map((x: { reportId: string }) => x.reportId)).toContain(late.id);
    } finally {
      await other.end();
    }
  });
});

describe('the events a read waits for (Projection.shownBy)', () => {
  const report = submitted({ lines: [line(7, 10, 2880, 20, 1)] });
  const ref = { reportId: report.reportId, employeePhone: report.employeePhone, reportDate: report.reportDate, workshopCode: null, teamCode: null };
  /** An event of each type not in `shownBy` that the async projections handle, in the order they can happen. */
  const samples: ProjectedEvent[] = [
    { streamId: `report-${report.reportId}`, streamVersion: 1, type: 'ReportSubmitted', data: report, metadata: {}, recordedAt: new Date(report.at) },
    { streamId: `report-${report.reportId}`, streamVersion: 2, type: 'ReportRejected', data: { ...ref, reason: '数量不对', at: report.at }, metadata: {}, recordedAt: new Date(report.at) },
  ];

  it('every read model a route names is an async projection (or the OEE days, a consumer of its own)', () => {
    const named = routes.flatMap((r) => r.readModels ?? []);
    expect(named.length).toBeGreaterThan(0);
    const known = [...projections.filter((p) => p.mode === 'async').map((p) => p.name), OEE_DAYS];
    expect(named.filter((n) => !known.includes(n))).toEqual([]);
  });

  it.each(projections.filter((p) => p.mode === 'async').map((p) => [p.name, p] as const))('%s: the other types write only internal tables', (_name, p) => {
    const shownBy = p.shownBy ?? p.eventTypes;
    expect(shownBy.every((t) => p.eventTypes.includes(t))).toBe(true);
    const others = p.eventTypes.filter((t) => !shownBy.includes(t));
    expect(others.every((t) => samples.some((e) => e.type === t)), `a sample event of each of ${others.join(', ')}`).toBe(true);
    const internal = new Set(p.tables.filter((t) => t.internal).map((t) => t.name));
    const rows = new Map<string, Row>();
    const view: RowView = { get: (table, key) => rows.get(`${table} ${JSON.stringify(key)}`) };
    const written: string[] = [];
    for (const e of samples.filter((x) => others.includes(x.type))) {
      for (const c of p.apply(e, view)) {
        written.push(`${e.type} → ${c.table}`);
        if (c.row) rows.set(`${c.table} ${JSON.stringify(c.key)}`, c.row);
        else rows.delete(`${c.table} ${JSON.stringify(c.key)}`);
      }
    }
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((w) => !internal.has(w.split(' → ')[1]))).toEqual([]);
  });
});
