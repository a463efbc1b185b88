/**
 * Report detail lines (spec 2.4; decisions.md "Reports and review"): the one place for the rules of the lines
 * a worker submits and an administrator corrects, and for the copy of each product's fields into the line, so
 * later product edits never rewrite a report.
 *
 * Rules, each a 422 with a Chinese message naming the line (1-based, as the form shows it):
 * - at least one line (NO_LINES), at most MAX_LINES (TOO_MANY_LINES);
 * - quantities are integers 0 … MAX_QTY pieces (INVALID_QUANTITY);
 * - outputQty = finishedQty + defectiveQty; computed when omitted (OUTPUT_QTY_MISMATCH when it differs);
 * - the product is one the caller allows (submission: a candidate of the session's devices,
 *   PRODUCT_NOT_CANDIDATE; correction: see commands/review/lines.ts, PRODUCT_NOT_ALLOWED);
 * - a product at most once (DUPLICATE_PRODUCT).
 */
import type { Queryable } from '../db/transaction.ts';
import type { AppError } from '../errors.ts';
import { unprocessable } from '../errors.ts';
import type { ReportLine } from '../events/catalog.ts';

/** Upper bound of one quantity, pieces: far above a day's output, low enough to catch a slipped finger. */
export const MAX_QTY = 10_000_000;
export const MAX_LINES = 200;

/** A line as the worker submits it. */
export interface LineInput {
  productId: number;
  finishedQty: number;
  defectiveQty: number;
  /** finished + defective; computed when omitted. */
  outputQty?: number;
}

/** The product fields a line copies (from `products` at submission). */
export type ProductSnapshot = Pick<
  ReportLine,
  'productId' | 'projectNo' | 'productName' | 'deviceNo' | 'processName' | 'standardCycleSeconds' | 'standardWorkload'
>;

const isQty = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_QTY;

/**
 * Validates `input` and returns the report lines, in the order given. `productOf(id)` gives the product a line
 * may name (undefined: not allowed, and `refuse(line, productId)` is thrown). Throws AppError 422 (codes above).
 */
export function buildReportLines(
  input: readonly LineInput[],
  productOf: (productId: number) => ProductSnapshot | undefined,
  refuse: (line: number, productId: number) => AppError,
): ReportLine[] {
  if (input.length === 0) throw unprocessable('NO_LINES', '请至少填写一个产品的数量');
  if (input.length > MAX_LINES) throw unprocessable('TOO_MANY_LINES', `一张报工单最多 ${MAX_LINES} 行`);
  const seen = new Set<number>();
  return input.map((l, i) => {
    const n = i + 1;
    for (const [field, name] of [
      ['finishedQty', '成品数量'],
      ['defectiveQty', '不良数量'],
      ['outputQty', '产出数量'],
    ] as const) {
      const v = l[field];
      if (field === 'outputQty' && v === undefined) continue;
      if (!isQty(v)) {
        throw unprocessable('INVALID_QUANTITY', `第 ${n} 行：${name}必须是 0 到 ${MAX_QTY} 之间的整数`, { line: n, field });
      }
    }
    const outputQty = l.finishedQty + l.defectiveQty;
    if (l.outputQty !== undefined && l.outputQty !== outputQty) {
      throw unprocessable(
        'OUTPUT_QTY_MISMATCH',
        `第 ${n} 行：产出数量应等于成品数量加不良数量（${l.finishedQty} + ${l.defectiveQty} = ${outputQty}），填写的是 ${l.outputQty}`,
        { line: n, expected: outputQty },
      );
    }
    const p = productOf(l.productId);
    if (!p) throw refuse(n, l.productId);
    if (seen.has(l.productId)) {
      throw unprocessable('DUPLICATE_PRODUCT', `第 ${n} 行：产品“${p.productName}”（${p.processName}）已经填写过，同一产品只能填一行`, {
        line: n,
        productId: l.productId,
      });
    }
    seen.add(l.productId);
    return {
      productId: p.productId,
      projectNo: p.projectNo,
      productName: p.productName,
      deviceNo: p.deviceNo,
      processName: p.processName,
      standardCycleSeconds: p.standardCycleSeconds,
      standardWorkload: p.standardWorkload,
      finishedQty: l.finishedQty,
      defectiveQty: l.defectiveQty,
      outputQty,
    };
  });
}

/** The `products` columns a snapshot is made of (SELECT list), and the mapping of such a row. */
export const SNAPSHOT_COLUMNS = 'id, project_no, product_name, device_no, process_name, standard_cycle_seconds, standard_workload';
/** A JSON object of the snapshot columns of products row `alias`, with the keys of SNAPSHOT_COLUMNS (for snapshotOfRow). */
export const snapshotJson = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'project_no', ${alias}.project_no, 'product_name', ${alias}.product_name, ` +
  `'device_no', ${alias}.device_no, 'process_name', ${alias}.process_name, ` +
  `'standard_cycle_seconds', ${alias}.standard_cycle_seconds, 'standard_workload', ${alias}.standard_workload)`;
/** A `products` row selected with SNAPSHOT_COLUMNS as a ProductSnapshot (id and numeric columns as numbers). */
export const snapshotOfRow = (p: any): ProductSnapshot => ({
  productId: Number(p.id),
  projectNo: p.project_no,
  productName: p.product_name,
  deviceNo: p.device_no,
  processName: p.process_name,
  standardCycleSeconds: Number(p.standard_cycle_seconds),
  standardWorkload: Number(p.standard_workload),
});

/** The products whose device is one of `devices` (the candidates of a session), in the order of `devices`. */
export async function productsOfDevices(q: Queryable, devices: readonly string[]): Promise<ProductSnapshot[]> {
  const r = await q.query(
    `SELECT ${SNAPSHOT_COLUMNS} FROM products WHERE device_no = ANY($1::text[])
      ORDER BY array_position($1::text[], device_no), project_no, product_name, process_name, id`,
    [devices],
  );
  return r.rows.map(snapshotOfRow);
}
