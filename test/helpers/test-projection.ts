/** A small projection over the test `Counted` events: per stream, the total of `n` and the count. */
import type { Projection } from '../../src/projections/projection.ts';

export const TEST_TOTALS_DDL = `CREATE TABLE IF NOT EXISTS test_totals (stream_id text PRIMARY KEY, total bigint NOT NULL, count integer NOT NULL, last_at timestamptz NOT NULL)`;

export function totalsProjection(mode: 'inline' | 'async', name = `test_totals_${mode}`): Projection {
  return {
    name,
    mode,
    tables: [{ name: 'test_totals', key: ['stream_id'], columns: ['stream_id', 'total', 'count', 'last_at'] }],
    eventTypes: ['Counted'],
    touches: (e) => [{ table: 'test_totals', key: [e.streamId] }],
    apply(e, view) {
      const n = (e.data as { n: number }).n;
      // A negative n resets the stream's row (exercises deletes).
      if (n < 0) return [{ table: 'test_totals', key: [e.streamId], row: null }];
      const row = view.get('test_totals', [e.streamId]) ?? { stream_id: e.streamId, total: 0, count: 0 };
      return [
        {
          table: 'test_totals',
          key: [e.streamId],
          row: { ...row, total: Number(row.total) + n, count: Number(row.count) + 1, last_at: e.recordedAt.toISOString() },
        },
      ];
    },
  };
}

/** Every table of `projection` as its rows, each table ordered by its key: what a replay must give back equal. */
export async function tablesOf(pool: { query(sql: string): Promise<{ rows: unknown[] }> }, projection: Projection): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of projection.tables) out[t.name] = (await pool.query(`SELECT * FROM ${t.name} ORDER BY ${t.key.join(', ')}`)).rows;
  return out;
}
