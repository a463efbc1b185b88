/**
 * Defect reasons as the console and the phone read them (migrations/018, src/projections/defect-reasons.ts):
 * `listDefectReasons(q, {active})` → every reason by code, or only the active ones (the phone's picker).
 */
import type { Queryable } from '../db/transaction.ts';
import type { DefectCategory, DefectReason } from '../domain/defect-reasons.ts';

/** Every reason by code; `activeOnly`: only those a line may name. */
export async function listDefectReasons(q: Queryable, activeOnly: boolean): Promise<DefectReason[]> {
  const r = await q.query(`SELECT code, name, category, active FROM defect_reasons ${activeOnly ? 'WHERE active' : ''} ORDER BY code`);
  return r.rows.map((row: any) => ({ code: row.code, name: row.name, category: row.category as DefectCategory, active: row.active === true }));
}
