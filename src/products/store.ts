/**
 * SQL of the `products` table (migrations/002): lookups by unique key, upsert, list, delete, devices.
 * Functions take a `Queryable` (pool or transaction client); times come from the caller's clock.
 */
import type { Queryable } from '../db/transaction.ts';
import { deviceKeyOf } from '../devices/device.ts';
import { limitOffset, type PageQuery } from '../shared/page.ts';
import { jsonArrayInSlices } from '../shared/turns.ts';
import { toZonedIso } from '../time.ts';
import { productKeyString, type Product, type ProductData, type ProductKey } from './model.ts';
import type { RateEntry } from '../domain/rates.ts';

const COLUMNS = `id, project_no, profile_no, product_name, material_code, material_name, device_no, process_name,
  stamping_method, operator_count, standard_cycle_seconds, standard_workload, updated_at`;

interface ProductRow {
  id: number;
  project_no: string;
  profile_no: string | null;
  product_name: string;
  material_code: string | null;
  material_name: string | null;
  device_no: string;
  process_name: string;
  stamping_method: string | null;
  operator_count: number | null;
  standard_cycle_seconds: number;
  standard_workload: number;
  updated_at: Date;
}

function toProduct(r: ProductRow, timeZone: string): Product {
  return {
    id: r.id,
    projectNo: r.project_no,
    profileNo: r.profile_no,
    productName: r.product_name,
    materialCode: r.material_code,
    materialName: r.material_name,
    deviceNo: r.device_no,
    processName: r.process_name,
    stampingMethod: r.stamping_method,
    operatorCount: r.operator_count,
    standardCycleSeconds: Number(r.standard_cycle_seconds),
    standardWorkload: r.standard_workload,
    updatedAt: toZonedIso(r.updated_at, timeZone),
  };
}

/** The stored products with the given unique keys, by `productKeyString`. */
export async function findProductsByKeys(q: Queryable, keys: readonly ProductKey[], timeZone: string): Promise<Map<string, Product>> {
  const out = new Map<string, Product>();
  if (keys.length === 0) return out;
  // The keys as one JSON text made a slice per turn (an import's 50,000 keys as four text arrays held the event
  // loop for tens of milliseconds in the driver's array encoding).
  const json = await jsonArrayInSlices(keys, (k) => ({ project_no: k.projectNo, product_name: k.productName, device_no: k.deviceNo, process_name: k.processName }));
  const r = await q.query<ProductRow>(
    `SELECT ${COLUMNS.replace(/(\w+)/g, 'p.$1')}
       FROM products p
       JOIN jsonb_to_recordset($1::jsonb) AS k(project_no text, product_name text, device_no text, process_name text)
      USING (project_no, product_name, device_no, process_name)`,
    [json],
  );
  for (const row of r.rows) {
    const p = toProduct(row, timeZone);
    out.set(productKeyString(p), p);
  }
  return out;
}

const UPSERT_CHUNK = 5000;

/** Inserts the products, or updates the stored ones with the same unique key. `now` becomes updated_at. */
export async function upsertProducts(q: Queryable, products: readonly ProductData[], now: Date): Promise<void> {
  for (let i = 0; i < products.length; i += UPSERT_CHUNK) {
    const chunk = products.slice(i, i + UPSERT_CHUNK);
    const col = <K extends keyof ProductData>(k: K) => chunk.map((p) => p[k]);
    await q.query(
      `INSERT INTO products (project_no, profile_no, product_name, material_code, material_name, device_no, process_name,
                             stamping_method, operator_count, standard_cycle_seconds, standard_workload, created_at, updated_at)
       SELECT t.*, $12::timestamptz, $12::timestamptz
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                     $9::int[], $10::numeric[], $11::int[]) AS t
       ON CONFLICT ON CONSTRAINT products_unique_key DO UPDATE SET
         profile_no = EXCLUDED.profile_no, material_code = EXCLUDED.material_code, material_name = EXCLUDED.material_name,
         stamping_method = EXCLUDED.stamping_method, operator_count = EXCLUDED.operator_count,
         standard_cycle_seconds = EXCLUDED.standard_cycle_seconds, standard_workload = EXCLUDED.standard_workload,
         updated_at = EXCLUDED.updated_at`,
      [
        col('projectNo'),
        col('profileNo'),
        col('productName'),
        col('materialCode'),
        col('materialName'),
        col('deviceNo'),
        col('processName'),
        col('stampingMethod'),
        col('operatorCount'),
        col('standardCycleSeconds'),
        col('standardWorkload'),
        now,
      ],
    );
  }
}

/** The rate entries of each of `ids` that has some (the `product_rates` read model), by date. */
export async function rateEntriesOf(q: Queryable, ids: readonly number[]): Promise<Map<number, RateEntry[]>> {
  const out = new Map<number, RateEntry[]>();
  if (ids.length === 0) return out;
  const r = await q.query(
    `SELECT product_id, effective_from, piece_rate, defect_rate, material_defect_rate FROM product_rates WHERE product_id = ANY($1::bigint[]) ORDER BY product_id, effective_from`,
    [ids],
  );
  for (const row of r.rows) {
    const id = Number(row.product_id);
    if (!out.has(id)) out.set(id, []);
    const material = row.material_defect_rate === null ? {} : { materialDefectRate: Number(row.material_defect_rate) };
    out.get(id)!.push({ from: row.effective_from, pieceRate: Number(row.piece_rate), defectRate: Number(row.defect_rate), ...material });
  }
  return out;
}

/** Escapes `%`, `_` and `\` for a LIKE pattern. */
export const likePattern = (s: string): string => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface ProductFilter {
  /** Matches 项目号, 型材号, 产品名称, 物料编码, 物料名称, 工序 (case-insensitive substring). */
  keyword?: string;
  /** Exact device number. */
  deviceNo?: string;
}

/** A page of products in import order (id), with the total matching the filter. */
export async function listProducts(q: Queryable, filter: ProductFilter, page: PageQuery, timeZone: string): Promise<{ items: Product[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.keyword) {
    params.push(likePattern(filter.keyword));
    const k = `$${params.length}`;
    where.push(
      `(project_no ILIKE ${k} OR profile_no ILIKE ${k} OR product_name ILIKE ${k} OR material_code ILIKE ${k} OR material_name ILIKE ${k} OR process_name ILIKE ${k})`,
    );
  }
  if (filter.deviceNo !== undefined) {
    params.push(filter.deviceNo);
    where.push(`device_no = $${params.length}`);
  }
  const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const { limit, offset } = limitOffset(page);
  const total = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM products ${w}`, params);
  const rows = await q.query<ProductRow>(
    `SELECT ${COLUMNS} FROM products ${w} ORDER BY id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { items: rows.rows.map((r) => toProduct(r, timeZone)), total: total.rows[0].n };
}

/** Deletes the product with this unique key; returns it, or undefined when there is none. */
export async function deleteProduct(q: Queryable, key: ProductKey, timeZone: string): Promise<Product | undefined> {
  const r = await q.query<ProductRow>(
    `DELETE FROM products WHERE project_no = $1 AND product_name = $2 AND device_no = $3 AND process_name = $4 RETURNING ${COLUMNS}`,
    [key.projectNo, key.productName, key.deviceNo, key.processName],
  );
  return r.rows[0] ? toProduct(r.rows[0], timeZone) : undefined;
}

export interface DeviceSummary {
  deviceNo: string;
  /** Short key for code scenes that cannot carry the number (src/devices/device.ts). */
  deviceKey: string;
  productCount: number;
  /** A mini-program code is stored for the device. */
  hasCode: boolean;
  /** The device's workshop (`device_workshops`); null: none set. */
  workshopCode: string | null;
  workshopName: string | null;
}

/**
 * A page of the distinct device numbers of the products, ordered by number, with product counts and whether a
 * mini-program code is stored for the device (`device_codes`).
 */
export async function listDevices(q: Queryable, page: PageQuery): Promise<{ items: DeviceSummary[]; total: number }> {
  const { limit, offset } = limitOffset(page);
  const total = await q.query<{ n: number }>(`SELECT count(DISTINCT device_no)::int AS n FROM products`);
  const rows = await q.query<{ device_no: string; n: number; has_code: boolean; workshop_code: string | null; workshop_name: string | null }>(
    `SELECT d.device_no, d.n, d.has_code, dw.workshop_code, w.name AS workshop_name
       FROM (SELECT device_no, count(*)::int AS n, EXISTS (SELECT 1 FROM device_codes c WHERE c.device_no = p.device_no) AS has_code
               FROM products p GROUP BY device_no ORDER BY device_no LIMIT $1 OFFSET $2) d
       LEFT JOIN device_workshops dw ON dw.device_no = d.device_no
       LEFT JOIN workshops w ON w.code = dw.workshop_code
      ORDER BY d.device_no`,
    [limit, offset],
  );
  return {
    items: rows.rows.map((r) => ({
      deviceNo: r.device_no,
      deviceKey: deviceKeyOf(r.device_no),
      productCount: r.n,
      hasCode: r.has_code,
      workshopCode: r.workshop_code,
      workshopName: r.workshop_name,
    })),
    total: total.rows[0].n,
  };
}
