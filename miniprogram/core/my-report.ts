/**
 * A worker's report as 我的报工 and the report page a review-result message opens (`pages/mine/detail`) show it:
 * date, status, times with the break, where the break came from (core/placement.ts), effective working time,
 * devices, the lines (an approval's corrections against the lines this phone submitted, core/corrections.ts), a
 * rejection's reason and, for a rejected report, what to do next. Plain TypeScript, no `wx`.
 */
import type { MyReport } from '../api/types';
import { withCorrections, type LineView, type SubmittedLine } from './corrections';
import { STATUS_NAMES } from './login';
import { breakSourceText } from './placement';
import { clockTime, duration } from './time';

/**
 * What a worker does about a rejected report: it cannot be changed or submitted again (one shift, one report), so
 * they settle it with the reviewer, who is named in the message.
 */
export const REJECTED_NEXT_STEP = '这张报工单不能修改或重新提交。请按驳回原因与审核人或班组长核对数量；需要补记时请联系管理员。';

/** A report that is not found: none of that id, or another worker's (a forwarded message). */
export const REPORT_NOT_FOUND_TEXT = '没有找到这份报工单（只能查看自己的报工单），请在“我的报工”中查看';

export interface MyReportView {
  reportId: string;
  reportDate: string;
  status: string;
  statusName: string;
  /** `08:00–17:00，休息 60 分钟`. */
  times: string;
  /** Where the break came from: 按班次「白班」的休息时段计算, 默认休息时间 or 经理已修改 ('' when unknown). */
  breakSource: string;
  effective: string;
  devices: string;
  lines: LineView[];
  /** Lines the review removed, as `前围横梁（原为 成品 500，不良 5）`. */
  removed: string[];
  rejectReason: string;
  /** For a rejected report: REJECTED_NEXT_STEP; otherwise ''. */
  nextStep: string;
}

/** `r` as the pages show it; `submitted`: the lines this phone submitted as `r` (corrections are shown for an approved report). */
export function myReportView(r: MyReport, submitted?: readonly SubmittedLine[]): MyReportView {
  const { lines, removed } = withCorrections(r.lines, r.status === 'approved' ? submitted : undefined);
  return {
    reportId: r.reportId,
    reportDate: r.reportDate,
    status: r.status,
    statusName: STATUS_NAMES[r.status],
    times: `${clockTime(r.clockInAt)}–${clockTime(r.clockOutAt)}，休息 ${r.breakMinutes} 分钟`,
    breakSource: breakSourceText(r.breakSource, r.shiftName),
    effective: duration(r.effectiveSeconds),
    devices: r.devices.join('、'),
    lines,
    removed,
    rejectReason: r.rejectReason ?? '',
    nextStep: r.status === 'rejected' ? REJECTED_NEXT_STEP : '',
  };
}
