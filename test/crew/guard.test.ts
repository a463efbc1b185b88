/**
 * The guard of a submission without crew lines (migrations/025 crew_lines_name_nobody), in SQL against the day of
 * the crew tests: true while no crew line names the person for the product in the window; false once A's crew line
 * names B (for 焊接件, overlapping B's window), true again for another product, another window, a person the line does
 * not name, and once the crew report is rejected.
 */
import { expect, it } from 'vitest';
import { A, B, C, useWeldingDay } from './helpers.ts';

const t = useWeldingDay();

const nobody = async (phone: string, from: string, to: string, products: number[]) =>
  (await t.app.service.ctx.db.pool.query(`SELECT crew_lines_name_nobody($1, $2::timestamptz, $3::timestamptz, $4::bigint[]) AS ok`, [phone, from, to, products])).rows[0].ok;

it("names nobody until A's crew line names B; other products, windows and people stay free; a rejection frees B", async () => {
  const [from, to] = ['2026-03-02T10:00:00+08:00', '2026-03-02T16:00:00+08:00'];
  expect(await nobody(B, from, to, [t.day.productId])).toBe(true);
  const r = await t.day.w.A.submit(t.day.sessions.A, [{ productId: t.day.productId, finishedQty: 1000, defectiveQty: 0, crew: [A, B] }]);
  expect(r.status).toBe(201);
  expect(await nobody(B, from, to, [t.day.productId])).toBe(false);
  expect(await nobody(A, from, to, [t.day.productId])).toBe(false);
  expect(await nobody(B, from, to, [t.day.productId + 1])).toBe(true);
  expect(await nobody(B, '2026-03-02T16:00:00+08:00', '2026-03-02T18:00:00+08:00', [t.day.productId])).toBe(true);
  expect(await nobody(C, from, to, [t.day.productId])).toBe(true);
  const rejected = await t.app.request('POST', `/api/reviews/${r.body.reportId}/reject`, { token: t.day.admin, body: { reason: '数量不对' } });
  expect(rejected.status).toBe(200);
  expect(await nobody(B, from, to, [t.day.productId])).toBe(true);
});
