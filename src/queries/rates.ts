/**
 * Rates as the product pages read them, from the `product_rates` read model (rates in
 * ten-thousandths of a yuan, dates local `YYYY-MM-DD`):
 * - `rateHistory(q, productId)`: every entry of a product, newest `effectiveFrom` first, with who set it, when and
 *   why; PRODUCT_NOT_FOUND (404) for a product not in the list;
 * - `ratesInForce(q, productIds, date)`: per product, the entry in force on local date `date` (the product list
 *   shows today's).
 */
import type { Queryable } from '../db/transaction.ts';
import { notFound } from '../errors.ts';

export interface RateItem {
  pieceRate: number;
  defectRate: number;
  /** 料废单价 (the defect rate when the entry has none). */
  materialDefectRate: number;
  effectiveFrom: string;
  setAt: Date;
  setBy: { phone: string | null; name: string | null };
  reason?: string;
}

/** The product's entries, newest first (module docstring). Throws AppError 404 PRODUCT_NOT_FOUND. */
export async function rateHistory(q: Queryable, productId: number): Promise<RateItem[]> {
  const r = await q.query(
    `SELECT EXISTS (SELECT 1 FROM products WHERE id = $1) AS known,
            (SELECT json_agg(x ORDER BY x.effective_from DESC) FROM (SELECT effective_from, piece_rate, defect_rate, material_defect_rate, set_at, set_by_phone, set_by_name, reason
               FROM product_rates WHERE product_id = $1) x) AS items`,
    [productId],
  );
  if (!r.rows[0].known) throw notFound('PRODUCT_NOT_FOUND', '没有找到这个产品，可能已被删除');
  return ((r.rows[0].items ?? []) as any[]).map((x) => ({
    pieceRate: Number(x.piece_rate),
    defectRate: Number(x.defect_rate),
    materialDefectRate: Number(x.material_defect_rate ?? x.defect_rate),
    effectiveFrom: x.effective_from,
    setAt: new Date(x.set_at),
    setBy: { phone: x.set_by_phone, name: x.set_by_name },
    ...(x.reason ? { reason: x.reason } : {}),
  }));
}

/** The entry in force on `date` of each of `productIds` that has one. */
export async function ratesInForce(
  q: Queryable,
  productIds: readonly number[],
  date: string,
): Promise<Map<number, { pieceRate: number; defectRate: number; materialDefectRate: number; effectiveFrom: string }>> {
  const r = await q.query(
    `SELECT DISTINCT ON (product_id) product_id, effective_from, piece_rate, defect_rate, COALESCE(material_defect_rate, defect_rate) AS material_defect_rate
       FROM product_rates WHERE product_id = ANY($1::bigint[]) AND effective_from <= $2::date
      ORDER BY product_id, effective_from DESC`,
    [productIds, date],
  );
  return new Map(
    r.rows.map((x) => [
      Number(x.product_id),
      { pieceRate: Number(x.piece_rate), defectRate: Number(x.defect_rate), materialDefectRate: Number(x.material_defect_rate), effectiveFrom: x.effective_from },
    ]),
  );
}
