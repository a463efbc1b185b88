/**
 * Single-record product maintenance (spec 4.2; issue #3): create or update by the unique key with the rules of
 * the import (src/products/rules.ts), delete by the unique key.
 *
 * `saveProduct(ctx, raw)` → `{product, result: 'created' | 'updated' | 'unchanged'}`; throws 422
 * PRODUCT_INVALID with `details: [{field, code, reason}]`.
 * `removeProduct(ctx, key)` → the deleted product; throws 404 PRODUCT_NOT_FOUND.
 */
import type { AppContext } from '../context.ts';
import { withTransaction } from '../db/transaction.ts';
import { notFound, unprocessable } from '../errors.ts';
import { productChanges } from './import.ts';
import { productKeyLabel, productKeyString, type Product, type ProductKey } from './model.ts';
import { checkProduct, type RawProduct } from './rules.ts';
import { deleteProduct, findProductsByKeys, upsertProducts } from './store.ts';

/**
 * POST /api/products (spec 4.2): checks `raw` with the import rules, then creates or updates the product by its
 * unique key (project number + product name + device + process) → `{product, result}` ('unchanged' when nothing
 * differs). Throws AppError 422 PRODUCT_INVALID with the problems as `details`.
 */
export async function saveProduct(ctx: AppContext, raw: RawProduct): Promise<{ product: Product; result: 'created' | 'updated' | 'unchanged' }> {
  const c = checkProduct(raw);
  if (!c.ok) {
    throw unprocessable('PRODUCT_INVALID', c.problems.map((p) => p.reason).join('；'), c.problems);
  }
  const tz = ctx.config.timeZone;
  return withTransaction(ctx.db.pool, async (tx) => {
    const before = (await findProductsByKeys(tx, [c.product], tz)).get(productKeyString(c.product));
    if (before && productChanges(before, c.product).length === 0) return { product: before, result: 'unchanged' as const };
    await upsertProducts(tx, [c.product], ctx.clock.now());
    const product = (await findProductsByKeys(tx, [c.product], tz)).get(productKeyString(c.product))!;
    return { product, result: before ? ('updated' as const) : ('created' as const) };
  });
}

/**
 * DELETE /api/products (spec 4.2): deletes the product with unique key `key` and returns it. Throws AppError 404
 * PRODUCT_NOT_FOUND.
 */
export async function removeProduct(ctx: AppContext, key: ProductKey): Promise<Product> {
  const gone = await deleteProduct(ctx.db.pool, key, ctx.config.timeZone);
  if (!gone) throw notFound('PRODUCT_NOT_FOUND', `没有找到产品：${productKeyLabel(key)}`);
  return gone;
}
