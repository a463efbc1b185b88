/**
 * What the quality projection loads ahead of a batch (projections/quality.ts `ahead`): a submission names the day
 * rows of its lines only when its approval is in the same batch; otherwise the batch loads its contribution alone
 * (the day's usual batch: submissions, none approved yet). A corrected approval names the rows of its corrected lines.
 */
import { describe, expect, it } from 'vitest';
import { CONTRIBUTIONS, DIMS, MONTHLY_WORKERS, REASONS, qualityProjection } from '../../src/projections/quality.ts';
import type { ProjectedEvent } from '../../src/projections/projection.ts';

const line = (productId: number, finishedQty: number, defectiveQty: number) => ({
  productId,
  projectNo: 'P1',
  productName: '横梁',
  deviceNo: 'D1',
  processName: '冲压',
  standardCycleSeconds: 30,
  standardWorkload: 10,
  finishedQty,
  defectiveQty,
  outputQty: finishedQty + defectiveQty,
});
const placed = { reportDate: '2026-03-02', employeePhone: '13800000011', workshopCode: null, teamCode: null };
let version = 0;
const event = (type: string, data: Record<string, unknown>): ProjectedEvent =>
  ({ streamId: `report-${data.reportId}`, streamVersion: ++version, type, data, metadata: {}, recordedAt: new Date('2026-03-02T10:00:00Z') }) as unknown as ProjectedEvent;
const submitted = (reportId: string) => event('ReportSubmitted', { reportId, ...placed, lines: [line(1, 100, 3)] });
const approved = (reportId: string, correction?: unknown) => event('ReportApproved', { reportId, ...placed, ...(correction ? { correction } : {}) });
const tables = (refs: readonly { table: string }[]) => refs.map((r) => r.table);

describe('quality projection: the rows a batch loads ahead', () => {
  it('a batch of submissions without their approvals loads only their contributions', () => {
    const refs = qualityProjection.ahead!([submitted('a'), submitted('b')]);
    expect(refs).toEqual([
      { table: CONTRIBUTIONS, key: ['a'] },
      { table: CONTRIBUTIONS, key: ['b'] },
    ]);
  });

  it('a submission approved in the same batch names the day rows of its lines; the other only its contribution', () => {
    const refs = qualityProjection.ahead!([submitted('a'), submitted('b'), approved('a')]);
    const ofA = refs.filter((r) => r.table !== CONTRIBUTIONS);
    // One reason row ('' for the 3 pieces without a reason), the worker, product, device and work order rows, the month.
    expect(tables(ofA).sort()).toEqual([DIMS, DIMS, DIMS, DIMS, MONTHLY_WORKERS, REASONS].sort());
    expect(ofA.find((r) => r.table === REASONS)!.key).toEqual(['2026-03-02', '', '', '', '']);
    expect(refs.filter((r) => r.table === CONTRIBUTIONS).map((r) => r.key[0])).toEqual(['a', 'b', 'a']);
  });

  it('a corrected approval names the day rows of its corrected lines, whether or not its submission is in the batch', () => {
    const correction = { before: [line(1, 100, 3)], after: [{ ...line(1, 100, 4), defects: [{ reasonCode: 'CRK', category: 'material', qty: 4 }] }] };
    for (const batch of [[approved('c', correction)], [submitted('c'), approved('c', correction)]]) {
      const reasons = qualityProjection.ahead!(batch).filter((r) => r.table === REASONS);
      expect(reasons.map((r) => r.key)).toEqual([['2026-03-02', '', '', 'CRK', 'material']]);
    }
  });
});
