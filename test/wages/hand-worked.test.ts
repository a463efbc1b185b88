/**
 * March 2026 of two workers, through HTTP, every figure computed below in yuan
 * and fen by hand (never by the code under test):
 *
 *   rates   P1 前围横梁 from 03-01: 1.25 / −0.5; from 03-15: 1.30 / −0.5 (a raise from the 15th)
 *           P2 后围板   from 02-01: 1.0005 / −0.0125 (4 decimals)
 *           P3 支架     none (then 0.5 from 03-01, to close)
 *   张三   R1 03-02  P1 100 / 2       100 × 1.25 + 2 × −0.5           = 125 − 1          = 124.00
 *          R2 03-16  P1 200 / 1       200 × 1.30 + 1 × −0.5           =                    259.50
 *                    P2  10 / 0       10 × 1.0005 = 10.005 → 10.01  (a float gives 10.004999… → 10.00)
 *          R3 03-10  P1 50 / 0, corrected to 40 / 10:  40 × 1.25 + 10 × −0.5 = 50 − 5 =   45.00
 *          R4 03-11  P1 1000 / 0, rejected: not counted
 *          R7 03-17  P2   0 / 10      10 × −0.0125 = −0.125 → −0.13 (half away from zero)
 *          total 124.00 + 259.50 + 10.01 + 45.00 − 0.13                                  = 438.38
 *   李四   R5 03-05  P3 10 / 0 (unpriced), P1 1 / 0 = 1.25
 *          R6 03-20  P1 4 / 0 = 4 × 1.30 = 5.20 (pending at first)
 *          total 6.45, 1 unpriced line; with P3 at 0.5: 10 × 0.5 = 5.00 → 11.45
 *   month  438.38 + 11.45 = 449.83
 *
 * Then the close (refused first with every blocker at once), the frozen statement, the writes refused inside the
 * closed month, the reopen with a reason, the new prices, version 2 beside version 1, and the wage projection
 * rebuilt from the events equal to the one built as they came.
 */
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayProjection } from '../../src/projections/replay.ts';
import { wagesProjection } from '../../src/projections/wages.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { line, submitReport } from '../review/fixtures.ts';
import { tablesOf } from '../helpers/test-projection.ts';

const ZHANG = '13800000001';
const LI = '13800000003';
let app: TestApp;
let admin: string;
let manager: string;
let zhang: string;
let liToken: string;
const P: Record<'P1' | 'P2' | 'P3', number> = { P1: 0, P2: 0, P3: 0 };
const R: Record<string, string> = {};

const call = (method: string, path: string, token: string, body?: unknown) => app.request(method, path, { token, body });
const setRate = (product: keyof typeof P, body: object, token = manager) => call('POST', `/api/products/${P[product]}/rates`, token, body);
const wages = async (path: string, token = manager) => {
  await app.catchUpAll();
  return call('GET', path, token);
};
const amounts = (statement: any) => statement.reports.map((r: any) => [r.reportDate, r.amount, r.lines.map((l: any) => l.amount)]);

/** A line of product `name` as the fixtures submit it. */
const lineOf = (name: keyof typeof P, finished: number, defective: number) => ({ ...line(P[name], 10, 2880, finished, defective), productName: name });

beforeAll(async () => {
  app = await startTestApp({}, '2026-03-21T09:00:00+08:00');
  admin = await app.login('13900000001', 'admin', '王管理');
  manager = await app.login('13900000002', 'manager', '李经理');
  zhang = await app.login(ZHANG, 'worker', '张三');
  liToken = await app.login(LI, 'worker', '李四');
  const rows = await app.service.ctx.db.pool.query(
    `INSERT INTO products (project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload)
     VALUES ('XM', 'P1', 'D1', '冲压', 10, 2880), ('XM', 'P2', 'D1', '冲压', 10, 2880), ('XM', 'P3', 'D1', '冲压', 10, 2880) RETURNING id, product_name`,
  );
  for (const r of rows.rows) P[r.product_name as keyof typeof P] = Number(r.id);
  const ctx = app.service.ctx;
  const submit = async (name: string, phone: string, reportDate: string, lines: ReturnType<typeof lineOf>[]) => {
    R[name] = (await submitReport(ctx, { phone, reportDate, lines }, phone === ZHANG ? '张三' : '李四')).reportId;
  };
  await submit('R1', ZHANG, '2026-03-02', [lineOf('P1', 100, 2)]);
  await submit('R2', ZHANG, '2026-03-16', [lineOf('P1', 200, 1), lineOf('P2', 10, 0)]);
  await submit('R3', ZHANG, '2026-03-10', [lineOf('P1', 50, 0)]);
  await submit('R4', ZHANG, '2026-03-11', [lineOf('P1', 1000, 0)]);
  await submit('R7', ZHANG, '2026-03-17', [lineOf('P2', 0, 10)]);
  await submit('R5', LI, '2026-03-05', [lineOf('P3', 10, 0), lineOf('P1', 1, 0)]);
  await submit('R6', LI, '2026-03-20', [lineOf('P1', 4, 0)]);
});
afterAll(() => app?.close());

describe('rates', () => {
  it('sets rates from decimal text and JSON numbers, answered with 4 decimals; the same date again replaces the entry', async () => {
    expect((await setRate('P1', { pieceRate: '1.2', effectiveFrom: '2026-03-01' })).body).toEqual({ productId: P.P1, pieceRate: '1.2000', defectRate: '0.0000', materialDefectRate: '0.0000', effectiveFrom: '2026-03-01' });
    const replaced = await setRate('P1', { pieceRate: 1.25, defectRate: '-0.5', effectiveFrom: '2026-03-01', reason: '按合同' });
    expect([replaced.status, replaced.body]).toEqual([201, { productId: P.P1, pieceRate: '1.2500', defectRate: '-0.5000', materialDefectRate: '-0.5000', effectiveFrom: '2026-03-01' }]);
    expect((await setRate('P1', { pieceRate: '1.3', defectRate: -0.5, effectiveFrom: '2026-03-15' }, admin)).status).toBe(201);
    expect((await setRate('P2', { pieceRate: '1.0005', defectRate: '-0.0125', effectiveFrom: '2026-02-01' })).status).toBe(201);
    const history = await call('GET', `/api/products/${P.P1}/rates`, admin);
    expect(history.body.items.map((i: any) => [i.effectiveFrom, i.pieceRate, i.defectRate, i.setBy.name, i.reason ?? null])).toEqual([
      ['2026-03-15', '1.3000', '-0.5000', '王管理', null],
      ['2026-03-01', '1.2500', '-0.5000', '李经理', '按合同'],
    ]);
    const events = await app.service.ctx.db.pool.query(`SELECT data FROM events WHERE stream_id = $1 ORDER BY stream_version`, [`product-${P.P1}`]);
    expect(events.rows.map((r) => [r.data.pieceRate, r.data.replaced, r.data.before?.pieceRate ?? null])).toEqual([
      [12000, false, null],
      [12500, true, 12000],
      [13000, false, 12500],
    ]);
  });

  it('refuses rates with more than 4 decimals, that are not numbers, or a negative piece rate: 422 naming the field', async () => {
    for (const [body, label] of [
      [{ pieceRate: '1.23456', effectiveFrom: '2026-03-01' }, '计件单价'],
      [{ pieceRate: 0.00001, effectiveFrom: '2026-03-01' }, '计件单价'],
      [{ pieceRate: 'abc', effectiveFrom: '2026-03-01' }, '计件单价'],
      [{ pieceRate: '-1', effectiveFrom: '2026-03-01' }, '计件单价'],
      [{ pieceRate: -1, effectiveFrom: '2026-03-01' }, '计件单价'],
      [{ pieceRate: '1', defectRate: '0.12345', effectiveFrom: '2026-03-01' }, '不良单价'],
      [{ pieceRate: '1', effectiveFrom: '2026-02-30' }, '生效日期'],
    ] as const) {
      const r = await setRate('P3', body);
      expect([r.status, r.body.error.code], JSON.stringify(body)).toEqual([422, 'VALIDATION_FAILED']);
      expect(r.body.error.message).toContain(label);
    }
    expect((await call('POST', '/api/products/999999/rates', manager, { pieceRate: '1', effectiveFrom: '2026-03-01' })).body.error.code).toBe('PRODUCT_NOT_FOUND');
    expect((await call('GET', '/api/products/999999/rates', manager)).status).toBe(404);
    expect((await setRate('P3', { pieceRate: '1', effectiveFrom: '2026-03-01' }, zhang)).status).toBe(403);
  });

  it('the product list shows the rate in force today', async () => {
    const list = await call('GET', `/api/products?pageSize=10`, admin);
    const p1 = list.body.items.find((p: any) => p.id === P.P1);
    expect(p1.rate).toEqual({ pieceRate: '1.3000', defectRate: '-0.5000', materialDefectRate: '-0.5000', effectiveFrom: '2026-03-15' });
    expect(list.body.items.find((p: any) => p.id === P.P3).rate).toBeNull();
  });
});

describe('wages of March, by hand', () => {
  it('counts only approved reports, corrections as approved, prices each line at the rate of its date, rounds once per line', async () => {
    for (const id of ['R1', 'R2', 'R7', 'R5']) expect((await call('POST', `/api/reviews/${R[id]}/approve`, admin, {})).status).toBe(200);
    expect((await call('POST', `/api/reviews/${R.R3}/approve`, admin, { lines: [{ productId: P.P1, finishedQty: 40, defectiveQty: 10 }] })).body.corrected).toBe(true);
    expect((await call('POST', `/api/reviews/${R.R4}/reject`, admin, { reason: '数量不对' })).status).toBe(200);

    const a = (await wages(`/api/wages/${ZHANG}?month=2026-03`)).body;
    expect(a).toMatchObject({ month: '2026-03', status: 'open', employeePhone: ZHANG, employeeName: '张三', amount: '438.38', unpricedLines: 0 });
    expect(amounts(a)).toEqual([
      ['2026-03-02', '124.00', ['124.00']],
      ['2026-03-10', '45.00', ['45.00']],
      ['2026-03-16', '269.51', ['259.50', '10.01']],
      ['2026-03-17', '-0.13', ['-0.13']],
    ]);
    expect(a.reports[2].lines[1]).toMatchObject({ productId: P.P2, finishedQty: 10, defectiveQty: 0, pieceRate: '1.0005', defectRate: '-0.0125', amount: '10.01' });

    const b = (await wages(`/api/wages/${LI}?month=2026-03`)).body;
    expect([b.amount, b.unpricedLines]).toEqual(['1.25', 1]);
    expect(b.reports[0].lines.map((l: any) => [l.productName, l.pieceRate, l.amount])).toEqual([
      ['P3', null, null],
      ['P1', '1.2500', '1.25'],
    ]);

    const summary = (await wages('/api/wages?month=2026-03')).body;
    expect(summary.items.map((w: any) => [w.employeePhone, w.employeeName, w.reports, w.finishedQty, w.defectiveQty, w.amount, w.unpricedLines])).toEqual([
      [ZHANG, '张三', 4, 350, 23, '438.38', 0],
      [LI, '李四', 1, 11, 0, '1.25', 1],
    ]);
    expect(summary).toMatchObject({ status: 'open', total: 2, totals: { reports: 5, finishedQty: 361, defectiveQty: 23, amount: '439.63', unpricedLines: 1, pendingReports: 1 } });
  });

  it('the workbook marks the unpriced line 未定价 and ends each sheet with a 合计 row of the exact sums', async () => {
    await app.catchUpAll();
    const res = await fetch(`${app.url}/api/wages.xlsx?month=2026-03`, { headers: { authorization: `Bearer ${manager}` } });
    const book = XLSX.read(Buffer.from(await res.arrayBuffer()));
    const rows = (sheet: string) => XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[sheet], { header: 1, defval: null }).slice(1);
    expect(rows('汇总')).toEqual([
      [ZHANG, '张三', null, null, 4, 350, 23, 438.38, 0],
      [LI, '李四', null, null, 1, 11, 0, 1.25, 1],
      ['合计', null, null, null, 5, 361, 23, 439.63, 1],
    ]);
    const header = XLSX.utils.sheet_to_json<string[]>(book.Sheets['明细'], { header: 1 })[0];
    expect(header).toEqual([
      '手机号', '姓名', '报工日期', '报工单号', '项目号', '产品名称', '使用设备', '工序', '班组报工', '成品数量', '不良数量',
      '工废数量', '料废数量', '其他不良数量', '未注明原因数量', '计件单价', '不良单价', '料废单价', '金额',
    ]);
    const lines = rows('明细');
    const col = (name: string) => header.indexOf(name);
    // Nobody worked in a crew here: every record is the worker's own line; the 合计 row leaves the column empty.
    expect(lines.map((l) => l[col('班组报工')])).toEqual([...lines.slice(0, -1).map(() => '否'), null]);
    const pick = (l: unknown[], ...names: string[]) => names.map((n) => l[col(n)]);
    // 李四's P3 line: no rate on its date, so its rates and amount read 未定价 (not an empty cell, not 0.00).
    expect(lines.filter((l) => l[0] === LI).map((l) => pick(l, '产品名称', '计件单价', '不良单价', '料废单价', '金额'))).toEqual([
      ['P3', '未定价', '未定价', '未定价', '未定价'],
      ['P1', 1.25, -0.5, -0.5, 1.25],
    ]);
    // No line here names a reason: every 不良 is 未注明, and 料废单价 is the 不良单价.
    const total = lines.at(-1)!;
    expect(pick(total, '不良数量', '工废数量', '料废数量', '其他不良数量', '未注明原因数量')).toEqual([23, 0, 0, 0, 23]);
    // 合计 of 明细: the quantities and the priced amounts (124.00 + 45.00 + 259.50 + 10.01 − 0.13 + 1.25 = 439.63).
    expect(total).toEqual(['合计', null, null, null, null, null, null, null, null, 361, 23, 0, 0, 0, 23, null, null, null, 439.63]);
  });

  it('a worker whose every line is unpriced reads 未定价 as 计件工资 in the workbook, not 0.00', async () => {
    // February, apart from March's hand-worked month: P3 has no rate before 03-01.
    const WU = '13800000009';
    await app.login(WU, 'worker', '吴九');
    const id = (await submitReport(app.service.ctx, { phone: WU, reportDate: '2026-02-26', lines: [lineOf('P3', 7, 0)] }, '吴九')).reportId;
    expect((await call('POST', `/api/reviews/${id}/approve`, admin, {})).status).toBe(200);
    await app.catchUpAll();
    const res = await fetch(`${app.url}/api/wages.xlsx?month=2026-02`, { headers: { authorization: `Bearer ${manager}` } });
    const summary = XLSX.utils.sheet_to_json<unknown[]>(XLSX.read(Buffer.from(await res.arrayBuffer())).Sheets['汇总'], { header: 1, defval: null });
    expect(summary.slice(1)).toEqual([
      [WU, '吴九', null, null, 1, 7, 0, '未定价', 1],
      ['合计', null, null, null, 1, 7, 0, 0, 1],
    ]);
  });

  it('a worker reads their own statement; another phone is 403', async () => {
    expect((await wages('/api/wages/mine?month=2026-03', zhang)).body.amount).toBe('438.38');
    expect((await wages('/api/wages/mine?month=2026-03', liToken)).body.amount).toBe('1.25');
    expect((await wages(`/api/wages/${LI}?month=2026-03`, zhang)).status).toBe(403);
    expect((await wages('/api/wages?month=2026-03', zhang)).status).toBe(403);
  });
});

describe('the monthly close', () => {
  it('refuses a close before the month ends, with pending reports and unpriced lines: every blocker at once', async () => {
    const r = await call('POST', '/api/periods/2026-03/close', manager);
    expect([r.status, r.body.error.code]).toEqual([409, 'PERIOD_NOT_ENDED']);
    expect(r.body.error.details).toMatchObject({
      month: '2026-03',
      blockers: ['PERIOD_NOT_ENDED', 'PERIOD_HAS_PENDING', 'PERIOD_HAS_UNPRICED'],
      pending: [{ reportId: R.R6, reportDate: '2026-03-20', employeePhone: LI, employeeName: '李四' }],
      pendingTotal: 1,
      unpriced: [{ reportId: R.R5, productId: P.P3, productName: 'P3', employeeName: expect.any(String) }],
      unpricedTotal: 1,
    });
    expect(r.body.error.message).toBe('2026年3月不能结账：2026年3月还没有结束，月末之后才能结账；还有 1 张报工单待审核，请先审核；有 1 行明细的产品在报工日期没有计件单价，请先设置单价');
    expect((await call('POST', '/api/periods/2026-03/close', admin)).status).toBe(403);
  });

  it('closes the month once it has ended, nothing pending, every line priced: the figures by hand', async () => {
    expect((await setRate('P3', { pieceRate: '0.5', effectiveFrom: '2026-03-01' })).status).toBe(201);
    expect((await call('POST', `/api/reviews/${R.R6}/approve`, admin, {})).status).toBe(200);
    app.clock.set('2026-04-02T09:00:00+08:00');
    const closed = await call('POST', '/api/periods/2026-03/close', manager);
    expect([closed.status, closed.body]).toEqual([
      200,
      { month: '2026-03', status: 'closed', version: 1, closedAt: '2026-04-02T09:00:00.000+08:00', closedBy: { phone: '13900000002', name: '李经理' }, amount: '449.83', workers: 2 },
    ]);
    const again = await call('POST', '/api/periods/2026-03/close', manager);
    expect([again.status, again.body.error.code]).toEqual([409, 'PERIOD_ALREADY_CLOSED']);
    const summary = (await wages('/api/wages?month=2026-03')).body;
    expect(summary).toMatchObject({ status: 'closed', version: 1, closedBy: { name: '李经理' }, totals: { amount: '449.83', unpricedLines: 0, pendingReports: 0 } });
    expect(summary.items.map((w: any) => w.amount)).toEqual(['438.38', '11.45']);
  });

  it('refuses every write into the closed month with 409 PERIOD_CLOSED naming it; a rate from an open month earlier is taken and the closed statement does not move', async () => {
    const closedWrites = [
      call('POST', `/api/reviews/${R.R1}/approve`, admin, {}),
      call('POST', `/api/reviews/${R.R1}/approve`, admin, { lines: [{ productId: P.P1, finishedQty: 1, defectiveQty: 0 }] }),
      call('POST', `/api/reviews/${R.R1}/reject`, admin, { reason: '再看看' }),
      call('PATCH', `/api/reports/${R.R1}/break-minutes`, manager, { breakMinutes: 30 }),
      setRate('P1', { pieceRate: '9', effectiveFrom: '2026-03-10' }),
    ];
    for (const r of await Promise.all(closedWrites)) {
      expect([r.status, r.body.error.code, r.body.error.details]).toEqual([409, 'PERIOD_CLOSED', { month: '2026-03' }]);
      expect(r.body.error.message).toMatch(/^2026年3月已结账，/);
    }
    // P2 from 20 February (open): holds on into March, which stays as it was closed.
    expect((await setRate('P2', { pieceRate: '2', defectRate: '0', effectiveFrom: '2026-02-20' })).status).toBe(201);
    const a = (await wages(`/api/wages/${ZHANG}?month=2026-03`)).body;
    expect([a.status, a.version, a.amount]).toEqual(['closed', 1, '438.38']);
    expect(amounts(a)[2]).toEqual(['2026-03-16', '269.51', ['259.50', '10.01']]);
  });

  it('reopens only with a reason; the month is priced at the rates of now; closing again is version 2 beside version 1', async () => {
    expect((await call('POST', '/api/periods/2026-03/reopen', manager, {})).status).toBe(422);
    expect((await call('POST', '/api/periods/2026-03/reopen', manager, { reason: '  ' })).body.error.code).toBe('INVALID_REASON');
    expect((await call('POST', '/api/periods/2026-03/reopen', manager, { reason: '后围板单价补录' })).body).toEqual({ month: '2026-03', status: 'open', version: 1 });
    expect((await call('POST', '/api/periods/2026-03/reopen', manager, { reason: 'x' })).body.error.code).toBe('PERIOD_NOT_CLOSED');
    // P2 at 2.00 / 0 now: R2's P2 line 10 × 2 = 20.00, R7's 10 × 0 = 0.00 → 张三 124 + 259.50 + 20 + 45 + 0 = 448.50.
    const open = (await wages(`/api/wages/${ZHANG}?month=2026-03`)).body;
    expect([open.status, open.amount]).toEqual(['open', '448.50']);
    app.clock.advance(3_600_000);
    const v2 = await call('POST', '/api/periods/2026-03/close', manager);
    expect(v2.body).toMatchObject({ version: 2, amount: '459.95', workers: 2 });
    const a = (await wages(`/api/wages/${ZHANG}?month=2026-03`)).body;
    expect([a.status, a.version, a.amount, a.previousAmount]).toEqual(['closed', 2, '448.50', '438.38']);
    const summary = (await wages('/api/wages?month=2026-03')).body;
    expect([summary.version, summary.totals.amount, summary.previousAmount]).toEqual([2, '459.95', '449.83']);
    const periods = (await call('GET', '/api/periods', admin)).body.items;
    expect(periods[0]).toMatchObject({ month: '2026-03', status: 'closed', version: 2, amount: '459.95', workers: 2, reports: 6, pendingReports: 0 });
    expect(periods[0].history.map((h: any) => [h.actionLabel, h.version, h.amount, h.by.name, h.reason ?? null])).toEqual([
      ['结账', 1, '449.83', '李经理', null],
      ['反结账', 1, '449.83', '李经理', '后围板单价补录'],
      ['结账', 2, '459.95', '李经理', null],
    ]);
    expect((await call('GET', '/api/periods', admin)).body.wholeFactory).toBe(true);
  });

  it('a reader with a scope sees its own counts and none of the close amounts, which are the whole factory\'s', async () => {
    await app.service.ctx.db.pool.query(`INSERT INTO workshops (code, name, updated_at) VALUES ('W1', '冲压车间', now())`);
    const scoped = await app.login('13900000005', 'manager', '车间经理');
    const set = await call('PUT', '/api/people/13900000005/scope', manager, { role: 'manager', workshops: ['W1'], teams: [] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const answer = (await call('GET', '/api/periods', scoped)).body;
    expect(answer.wholeFactory).toBe(false);
    // These reports were written in no team: outside every scope.
    expect(answer.items[0]).toMatchObject({ month: '2026-03', status: 'closed', version: 2, amount: null, workers: null, reports: 0, pendingReports: 0 });
    expect(answer.items[0].history.map((h: any) => [h.actionLabel, h.version, h.amount])).toEqual([
      ['结账', 1, null],
      ['反结账', 1, null],
      ['结账', 2, null],
    ]);
  });

  it('rebuilds the wage projection from the events to exactly the tables built as they came', async () => {
    await app.catchUpAll();
    const pool = app.service.ctx.db.pool;
    const tables = () => tablesOf(pool, wagesProjection);
    const incremental = await tables();
    expect(incremental.wage_lines.length).toBe(9); // March's 8 and February's unpriced one
    await pool.query(`UPDATE wage_workers SET amount_fen = 0`);
    await replayProjection(pool, app.service.ctx.store, wagesProjection, 3);
    expect(await tables()).toEqual(incremental);
  });
});
