/**
 * The product list as an import kind (src/imports/kind.ts): sheet columns of spec 2.1, upsert by the unique
 * key. A row is `create` when its key is not stored, `unchanged` when every stored field equals the sheet,
 * `update` otherwise (with the changed fields: `changes: [{field, label, from, to}]`).
 *
 * Rates: a row with 计件单价 (and 不良单价, 料废单价, 生效日期: src/products/rate-cells.ts) sets the product's rate
 * from that date (blank: the day of the confirmation). The preview shows the rate change beside the other
 * changes (`pieceRate` / `defectRate` / `materialDefectRate`, from the rate in force on that date; 料废单价 only when
 * the row or the rate in force sets one of its own, compared as priced: a blank one is the 不良单价); a rate equal to the one in force then
 * is no change (and is not written); a date in a closed month is an error row (`period_closed`). Confirming
 * writes the products, then each rate as a rate event (commands/rates: RateSet) in the same transaction. The
 * stored rates are part of a product's fingerprint: a rate set between preview and confirmation makes it stale.
 */
import { commandsIn } from '../commands/command.ts';
import { setRate } from '../commands/rates/handlers.ts';
import { formatRate, parseRate } from '../domain/money.ts';
import { monthLabel, monthOf } from '../domain/period.ts';
import { rateOn, type RateEntry } from '../domain/rates.ts';
import type { ClassifyContext, ImportKind } from '../imports/kind.ts';
import { rowError, type ErrorRow } from '../imports/problems.ts';
import { parseInWorker } from '../imports/parse-pool.ts';
import { localDate } from '../time.ts';
import { PRODUCT_FIELDS, PRODUCT_FIELD_LABELS, productKeyString, type Product, type ProductData, type ProductField } from './model.ts';
import { RATE_FIELD_LABELS, type RowRate } from './rate-cells.ts';
import { productValues } from './sheet.ts';
import { findProductsByKeys, rateEntriesOf, upsertProducts } from './store.ts';

export interface FieldChange {
  field: ProductField | 'pieceRate' | 'defectRate' | 'materialDefectRate';
  /** Chinese column name. */
  label: string;
  from: string | number | null;
  to: string | number | null;
}

export interface ProductPreviewRow extends ProductData {
  row: number;
  workloadComputed: boolean;
  /** Stored id (update and unchanged rows). */
  id?: number;
  /** Fields that change (update rows), the rates included. */
  changes?: FieldChange[];
  /** The rate the row sets (only when it changes the rate in force on its date). */
  rate?: RowRate;
}

/** A stored product with its rate entries. */
export interface StoredProduct extends Product {
  rates: RateEntry[];
}

/** The fields of `b` that differ from `a`. */
export function productChanges(a: ProductData, b: ProductData): FieldChange[] {
  return PRODUCT_FIELDS.filter((f) => a[f] !== b[f]).map((f) => ({ field: f, label: PRODUCT_FIELD_LABELS[f], from: a[f], to: b[f] }));
}

const dataOf = (p: ProductData): ProductData => Object.fromEntries(PRODUCT_FIELDS.map((f) => [f, p[f]])) as unknown as ProductData;

/** A rate's value in ten-thousandths (the row's text was made by formatRate: exact). */
const tenThousandths = (text: string) => {
  const r = parseRate(text, true);
  if (!r.ok) throw new Error(`a checked rate does not read back: ${text}`);
  return r.value;
};

const RATE_FIELDS = ['pieceRate', 'defectRate', 'materialDefectRate'] as const;

/** The rate changes `rate` makes on `stored`'s entries (in force on its date, or `today`). */
function rateChanges(rate: RowRate, stored: RateEntry[] | undefined, today: string): FieldChange[] {
  const before = rateOn(stored ?? [], rate.effectiveFrom ?? today);
  const was = before && {
    pieceRate: formatRate(before.pieceRate),
    defectRate: formatRate(before.defectRate),
    materialDefectRate: formatRate(before.materialDefectRate ?? before.defectRate),
  };
  const to = { pieceRate: rate.pieceRate, defectRate: rate.defectRate, materialDefectRate: rate.materialDefectRate ?? rate.defectRate };
  // 料废单价 follows 不良单价 unless one side sets its own: then it is a change of its own when priced differently.
  const fields = before?.materialDefectRate === undefined && rate.materialDefectRate === undefined ? (['pieceRate', 'defectRate'] as const) : RATE_FIELDS;
  const out: FieldChange[] = [];
  for (const field of fields) {
    const from = was ? was[field] : null;
    if (from !== to[field]) out.push({ field, label: RATE_FIELD_LABELS[field], from, to: to[field] });
  }
  return out;
}

/** The error row of a rate starting in a closed month, or undefined. */
function closedRate(r: ProductPreviewRow, context: ClassifyContext): ErrorRow | undefined {
  if (!r.rate) return undefined;
  const month = monthOf(r.rate.effectiveFrom ?? context.today);
  if (!context.closedMonths.includes(month)) return undefined;
  const problem = { code: 'period_closed', field: 'effectiveFrom', reason: `${monthLabel(month)}已结账，不能设置从该月生效的单价；请把生效日期改到未结账的月份` };
  const cells: Record<string, unknown> = { ...r, ...r.rate };
  return rowError(r.row, [problem], productValues(cells as never));
}

export const productImport: ImportKind<ProductPreviewRow, StoredProduct> = {
  name: 'products',
  parse: (buffer, maxRows) => parseInWorker('products', buffer, maxRows) as Promise<{ valid: ProductPreviewRow[]; errors: ErrorRow[] }>,
  async loadStored(q, rows, timeZone) {
    const products = await findProductsByKeys(q, rows, timeZone);
    const rates = await rateEntriesOf(q, [...products.values()].map((p) => p.id));
    return new Map([...products].map(([k, p]) => [k, { ...p, rates: rates.get(p.id) ?? [] }]));
  },
  canonical: (p) => [...PRODUCT_FIELDS.map((f) => p[f]), p.rates],
  classify(rows, stored, context) {
    const out = { create: [] as ProductPreviewRow[], update: [] as ProductPreviewRow[], unchanged: [] as ProductPreviewRow[], errors: [] as ErrorRow[] };
    for (const row of rows) {
      const closed = closedRate(row, context);
      if (closed) {
        out.errors.push(closed);
        continue;
      }
      const s = stored.get(productKeyString(row));
      const rates = row.rate ? rateChanges(row.rate, s?.rates, context.today) : [];
      const { rate, ...r } = row;
      const withRate = rates.length ? { ...r, rate } : r;
      if (!s) out.create.push(withRate);
      else {
        const changes = [...productChanges(s, r), ...rates];
        if (changes.length === 0) out.unchanged.push({ ...r, id: s.id });
        else out.update.push({ ...withRate, id: s.id, changes });
      }
    }
    return out;
  },
  async lock(tx) {
    await tx.query('LOCK TABLE products IN SHARE ROW EXCLUSIVE MODE');
  },
  async write(tx, create, update, now, by) {
    const rows = [...create, ...update];
    await upsertProducts(tx, rows.map(dataOf), now);
    const withRate = rows.filter((r) => r.rate);
    if (withRate.length === 0) return;
    const ids = await findProductsByKeys(tx, withRate, by.timeZone);
    const commands = commandsIn(by.commands, tx);
    const today = localDate(now, by.timeZone);
    for (const r of withRate) {
      await setRate(commands, by.actor, {
        productId: ids.get(productKeyString(r))!.id,
        effectiveFrom: r.rate!.effectiveFrom ?? today,
        pieceRate: tenThousandths(r.rate!.pieceRate),
        defectRate: tenThousandths(r.rate!.defectRate),
        ...(r.rate!.materialDefectRate !== undefined ? { materialDefectRate: tenThousandths(r.rate!.materialDefectRate) } : {}),
        reason: '导入产品清单',
      });
    }
  },
};
