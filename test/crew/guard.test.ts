/**
 * The guard of a submission without crew lines (migrations/025 crew_lines_name_nobody), in SQL against the day of
 * the crew tests: true while no crew line names the person for the product in the window; false once A's crew line
 * names B (for 焊接件, overlapping B's window), true again for another product, another window, a person the line does
 * not name, and once the crew report is rejected.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { A, B, C, weldingDay } from './helpers.ts';

let app: TestApp;
let day: Awaited<ReturnType<typeof weldingDay>>;
beforeAll(async () => {
  app = await startTestApp({}, '2026-03-01T08:00:00+08:00');
  day = await weldingDay(app);
});
afterAll(() => app?.close());

const nobody = async (phone: string, from: string, to: string, products: number[]) =>
  (await app.service.ctx.db.pool.query(`SELECT crew_lines_name_nobody($1, $2::timestamptz, $3::timestamptz, $4::bigint[]) AS ok`, [phone, from, to, products])).rows[0].ok;

it("names nobody until A's crew line names B; other products, windows and people stay free; a rejection frees B", async () => {
  const [from, to] = ['2026-03-02T10:00:00+08:00', '2026-03-02T16:00:00+08:00'];
  expect(await nobody(B, from, to, [day.productId])).toBe(true);
  const r = await day.w.A.submit(day.sessions.A, [{ productId: day.productId, finishedQty: 1000, defectiveQty: 0, crew: [A, B] }]);
  expect(r.status).toBe(201);
  expect(await nobody(B, from, to, [day.productId])).toBe(false);
  expect(await nobody(A, from, to, [day.productId])).toBe(false);
  expect(await nobody(B, from, to, [day.productId + 1])).toBe(true);
  expect(await nobody(B, '2026-03-02T16:00:00+08:00', '2026-03-02T18:00:00+08:00', [day.productId])).toBe(true);
  expect(await nobody(C, from, to, [day.productId])).toBe(true);
  const rejected = await app.request('POST', `/api/reviews/${r.body.reportId}/reject`, { token: day.admin, body: { reason: '数量不对' } });
  expect(rejected.status).toBe(200);
  expect(await nobody(B, from, to, [day.productId])).toBe(true);
});
