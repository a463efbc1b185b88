/**
 * The product list as an import kind (src/imports/kind.ts): sheet columns of spec 2.1, upsert by the unique
 * key. A row is `create` when its key is not stored, `unchanged` when every stored field equals the sheet,
 * `update` otherwise (with the changed fields: `changes: [{field, label, from, to}]`).
 */
import type { ImportKind } from '../imports/kind.ts';
import type { ErrorRow } from '../imports/problems.ts';
import { parseInWorker } from '../imports/parse-pool.ts';
import { PRODUCT_FIELDS, PRODUCT_FIELD_LABELS, productKeyString, type Product, type ProductData, type ProductField } from './model.ts';
import { findProductsByKeys, upsertProducts } from './store.ts';

export interface FieldChange {
  field: ProductField;
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
  /** Fields that change (update rows). */
  changes?: FieldChange[];
}

/** The fields of `b` that differ from `a`. */
export function productChanges(a: ProductData, b: ProductData): FieldChange[] {
  return PRODUCT_FIELDS.filter((f) => a[f] !== b[f]).map((f) => ({ field: f, label: PRODUCT_FIELD_LABELS[f], from: a[f], to: b[f] }));
}

const dataOf = (p: ProductData): ProductData => Object.fromEntries(PRODUCT_FIELDS.map((f) => [f, p[f]])) as unknown as ProductData;

export const productImport: ImportKind<ProductPreviewRow, Product> = {
  name: 'products',
  parse: (buffer, maxRows) => parseInWorker('products', buffer, maxRows) as Promise<{ valid: ProductPreviewRow[]; errors: ErrorRow[] }>,
  loadStored: (q, rows, timeZone) => findProductsByKeys(q, rows, timeZone),
  canonical: (p) => PRODUCT_FIELDS.map((f) => p[f]),
  classify(rows, stored) {
    const out = { create: [] as ProductPreviewRow[], update: [] as ProductPreviewRow[], unchanged: [] as ProductPreviewRow[], errors: [] };
    for (const r of rows) {
      const s = stored.get(productKeyString(r));
      if (!s) out.create.push(r);
      else {
        const changes = productChanges(s, r);
        if (changes.length === 0) out.unchanged.push({ ...r, id: s.id });
        else out.update.push({ ...r, id: s.id, changes });
      }
    }
    return out;
  },
  async lock(tx) {
    await tx.query('LOCK TABLE products IN SHARE ROW EXCLUSIVE MODE');
  },
  async write(tx, create, update, now) {
    await upsertProducts(tx, [...create, ...update].map(dataOf), now);
  },
};
