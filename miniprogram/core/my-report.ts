/**
 * A worker's report as 我的报工 and the report page a review-result message opens (`pages/mine/detail`) show it:
 * date, status, times with the break, where the break came from (core/placement.ts), effective working time,
 * devices, the lines (an approval's corrections against the lines this phone submitted, core/corrections.ts), a
 * rejection's reason and, for a rejected report, what to do next. Plain TypeScript, no `wx`.
 *
 * Crew work (班组报工, core/crew.ts): a crew line naming the worker shows their share beside the crew's total
 * (`我的份额 成品 429，不良 0；全组 成品 1000，不良 0`) and who submitted it with the members. Another's report that counts
 * the worker (`submittedBy`) shows only its crew lines naming the worker (its other lines are the submitter's own
 * work), under `李四 提交的班组报工` (the times are the submitter's).
 */
import type { MyReport } from '../api/types';
import { withCorrections, type LineView, type SubmittedLine } from './corrections';
import { personName, shareText } from './crew';
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

/** A line as 我的报工 shows it: with the worker's share of a crew line. */
export interface MyLineView extends LineView {
  /** `我的份额 成品 429，不良 0；全组 成品 1000，不良 0` ('' when the line is not a crew line naming the worker). */
  crewShare: string;
  /** `班组报工：张三 提交，组员 张三、李四` ('' likewise). */
  crewWho: string;
}

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
  lines: MyLineView[];
  /** Another's report counting the worker: `李四 提交的班组报工（上下班时间是提交人的）`; '' for the worker's own. */
  submittedBy: string;
  /** Lines the review removed, as `前围横梁（原为 成品 500，不良 5）`. */
  removed: string[];
  rejectReason: string;
  /** For a rejected report: REJECTED_NEXT_STEP; otherwise ''. */
  nextStep: string;
}

/**
 * `r` as the pages show it; `submitted`: the lines this phone submitted as `r` (corrections are shown for an approved
 * report); `me`: the worker's phone (whose share of a crew line is shown).
 */
export function myReportView(r: MyReport, submitted?: readonly SubmittedLine[], me?: string): MyReportView {
  const mineOnly = r.submittedBy ? r.lines.filter((l) => (l.shares ?? []).some((s) => s.phone === me)) : r.lines;
  const { lines: viewed, removed } = withCorrections(mineOnly, r.status === 'approved' && !r.submittedBy ? submitted : undefined);
  const submitter = r.submittedBy ? personName(r.submittedBy) : '本人';
  const lines = viewed.map((v, i): MyLineView => {
    const l = mineOnly[i];
    const share = (l.shares ?? []).find((s) => s.phone === me);
    if (!share) return { ...v, crewShare: '', crewWho: '' };
    return {
      ...v,
      crewShare: `我的份额 ${shareText(share)}；全组 ${shareText(l)}`,
      crewWho: `班组报工：${submitter} 提交，组员 ${(l.shares ?? []).map(personName).join('、')}`,
    };
  });
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
    submittedBy: r.submittedBy ? `${personName(r.submittedBy)} 提交的班组报工（上下班时间是提交人的）` : '',
    rejectReason: r.rejectReason ?? '',
    nextStep: r.status === 'rejected' ? REJECTED_NEXT_STEP : '',
  };
}
