/**
 * Where a report's break came from and where the report is counted, as the mini-program's pages say it (
 * README "班次与休息", "审核范围"; "The mini-program"). Plain TypeScript, no `wx`.
 *
 * The service answers `breakSource` on the draft (`GET /api/reports/draft`: 'shift' | 'default', with
 * `shift: {shiftId, name} | null`) and on every report view (`GET /api/reports/{id}`, the pending queue, my reviews,
 * `GET /api/reports/mine`: 'shift' | 'default' | 'manager', with `shiftName`), and the report views of a reviewer
 * carry `teamName` and `workshopName` (null when the worker belonged to no team on the report's date).
 */

/** Where the break minutes came from (src/domain/placement.ts BreakSource, plus a manager's change). */
export type BreakSourceName = 'shift' | 'default' | 'manager';

/**
 * The sentence under the break: 按班次「白班」的休息时段计算 (computed from the unpaid break windows of the
 * worker's shift, `shiftName` its name at submission; without a name 按班次的休息时段计算), 默认休息时间
 * (`DEFAULT_BREAK_MINUTES`: no shift that day), 经理已修改 (a manager changed it, audited). An unknown source (a
 * newer service) gives '' rather than a wrong sentence.
 */
export function breakSourceText(source: BreakSourceName | string | null | undefined, shiftName?: string | null): string {
  if (source === 'shift') return shiftName ? `按班次「${shiftName}」的休息时段计算` : '按班次的休息时段计算';
  if (source === 'default') return '默认休息时间';
  if (source === 'manager') return '经理已修改';
  return '';
}

/**
 * The report's 班组 as a reviewer reads it: `冲压一班（冲压车间）`, the team alone when the workshop has no name,
 * '' when the report has no team (the worker belonged to none on the report's date).
 */
export function teamText(teamName: string | null | undefined, workshopName: string | null | undefined): string {
  if (!teamName) return '';
  return workshopName ? `${teamName}（${workshopName}）` : teamName;
}
