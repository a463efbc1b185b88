/**
 * Product snapshots in SQL (domain/report-line.ts): where each snapshot field lives in `products`, derived once
 * from that mapping for every statement that reads snapshots (a command's facts, the report draft's candidates)
 * or checks that copied snapshots still hold (a command's append guard).
 */
import type { SnapshotField } from '../domain/report-line.ts';

/** Each snapshot field's column in `products` and its SQL type. */
const COLUMNS: { readonly [F in SnapshotField]: { readonly column: string; readonly type: string } } = {
  productId: { column: 'id', type: 'bigint' },
  projectNo: { column: 'project_no', type: 'text' },
  productName: { column: 'product_name', type: 'text' },
  deviceNo: { column: 'device_no', type: 'text' },
  processName: { column: 'process_name', type: 'text' },
  standardCycleSeconds: { column: 'standard_cycle_seconds', type: 'numeric' },
  standardWorkload: { column: 'standard_workload', type: 'integer' },
};
const FIELDS = Object.keys(COLUMNS) as SnapshotField[];

/**
 * A SQL expression giving products row `alias` as a JSON ProductSnapshot (field names as keys; the id and the
 * numbers as JSON numbers, so the parsed value is the snapshot itself).
 */
export const snapshotJson = (alias: string): string =>
  `json_build_object(${FIELDS.map((f) => `'${f}', ${alias}.${COLUMNS[f].column}`).join(', ')})`;

/**
 * A boolean SQL expression: every snapshot of the JSON array bound to `placeholder` still matches its product
 * exactly (each looked up by its primary key: no snapshot without its unchanged product).
 */
export const snapshotsHold = (placeholder: string): string => `NOT EXISTS (
        SELECT 1 FROM jsonb_to_recordset(${placeholder}::jsonb) AS s(${FIELDS.map((f) => `"${f}" ${COLUMNS[f].type}`).join(', ')})
         WHERE NOT EXISTS (
               SELECT 1 FROM products pr
                WHERE ${FIELDS.map((f) => `pr.${COLUMNS[f].column} = s."${f}"`).join(' AND ')}))`;
