/**
 * Stop reasons as the console and the phone read them (migrations/020, src/projections/stop-reasons.ts):
 * `listStopReasons(q, activeOnly)` → every reason by code, or only the active ones (the phone's picker).
 */
import type { Queryable } from '../db/transaction.ts';
import type { StopCategory, StopReason } from '../domain/stop-reasons.ts';

/** Every reason by code; `activeOnly`: only those a stop may name. */
export async function listStopReasons(q: Queryable, activeOnly: boolean): Promise<StopReason[]> {
  const r = await q.query(`SELECT code, name, category, active FROM stop_reasons ${activeOnly ? 'WHERE active' : ''} ORDER BY code`);
  return r.rows.map((row: any) => ({ code: row.code, name: row.name, category: row.category as StopCategory, active: row.active === true }));
}
