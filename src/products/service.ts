/**
 * Single-record product maintenance (spec 4.2): create or update by the unique key with the rules of
 * the import (src/products/rules.ts), delete by the unique key.
 *
 * `saveProduct(ctx, raw, rate?)` → `{product, result: 'created' | 'updated' | 'unchanged', rate?}`; throws 422
 * PRODUCT_INVALID with `details: [{field, code, reason}]`. With `rate` the product's rate is set in
 * the same transaction (commands/rates: a RateSet event by `rate.actor`): both or neither.
 * `removeProduct(ctx, key)` → the deleted product; throws 404 PRODUCT_NOT_FOUND.
 */
import type { AppContext } from '../context.ts';
import { withTransaction } from '../db/transaction.ts';
import { notFound, unprocessable } from '../errors.ts';
import { productChanges } from './import.ts';
import { productKeyLabel, productKeyString, type Product, type ProductKey } from './model.ts';
import { checkProduct, type RawProduct } from './rules.ts';
import { deleteProduct, findProductsByKeys, upsertProducts } from './store.ts';
import { commandsIn, type CommandActor } from '../commands/command.ts';
import { setRate, type RateAnswer, type RateInput } from '../commands/rates/handlers.ts';
import { localDate } from '../time.ts';

/** A rate to set with a product: rates in ten-thousandths; `effectiveFrom` absent: today (APP_TIMEZONE). */
export type ProductRate = Omit<RateInput, 'productId' | 'effectiveFrom'> & { effectiveFrom?: string; actor: CommandActor };

/**
 * POST /api/products (spec 4.2): checks `raw` with the import rules, then creates or updates the product by its
 * unique key (project number + product name + device + process) → `{product, result}` ('unchanged' when nothing
 * differs), and sets `rate` when given (module docstring) → `rate`. Throws AppError 422 PRODUCT_INVALID with the
 * problems as `details`, and the rate's domain errors (PERIOD_CLOSED, …).
 */
export async function saveProduct(
  ctx: AppContext,
  raw: RawProduct,
  rate?: ProductRate,
): Promise<{ product: Product; result: 'created' | 'updated' | 'unchanged'; rate?: RateAnswer }> {
  const c = checkProduct(raw);
  if (!c.ok) {
    throw unprocessable('PRODUCT_INVALID', c.problems.map((p) => p.reason).join('；'), c.problems);
  }
  const tz = ctx.config.timeZone;
  return withTransaction(ctx.db.pool, async (tx) => {
    const before = (await findProductsByKeys(tx, [c.product], tz)).get(productKeyString(c.product));
    const changed = !before || productChanges(before, c.product).length > 0;
    if (changed) await upsertProducts(tx, [c.product], ctx.clock.now());
    const product = changed ? (await findProductsByKeys(tx, [c.product], tz)).get(productKeyString(c.product))! : before;
    const result = !before ? ('created' as const) : changed ? ('updated' as const) : ('unchanged' as const);
    if (!rate) return { product, result };
    const { actor, effectiveFrom, ...rates } = rate;
    const set = await setRate(commandsIn(ctx.commands, tx), actor, { ...rates, productId: product.id, effectiveFrom: effectiveFrom ?? localDate(ctx.clock.now(), tz) });
    return { product, result, rate: set };
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
