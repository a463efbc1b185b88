/**
 * 我的报工 (issue #23 page 4; spec 4.6 `GET /api/reports/mine`): the worker's reports, newest first, 20 a page with
 * 加载更多: date, status, times, where the break came from (issue #24, core/placement.ts), effective working time,
 * devices and lines; a rejection's reason and the next step; an approval's corrected lines as before → after when this phone submitted the report (core/corrections.ts). Opened after a
 * submission with `submitted=<reportId>`, it says so first.
 */
import type { MyReport } from '../../api/types';
import { withCorrections, type LineView } from '../../core/corrections';
import { REJECTED_NEXT_STEP, STATUS_NAMES } from '../../core/login';
import { breakSourceText } from '../../core/placement';
import { clockTime, duration } from '../../core/time';
import { sessionOrLogin } from '../../platform/guard';
import { go } from '../../platform/nav';
import { appendNextPage } from '../../platform/paged';
import { submittedLines } from '../../platform/submitted-store';

interface Item {
  reportId: string;
  reportDate: string;
  status: string;
  statusName: string;
  times: string;
  /** Where the break came from (issue #24): 按班次「白班」的休息时段计算, 默认休息时间 or 经理已修改. */
  breakSource: string;
  effective: string;
  devices: string;
  lines: LineView[];
  removed: string[];
  rejectReason: string;
  /** Under a rejected report: what the worker can still do (core/login.ts). */
  rejectNext: string;
}

/** A report as the page shows it. */
function itemOf(r: MyReport): Item {
  const { lines, removed } = withCorrections(r.lines, r.status === 'approved' ? submittedLines(r.reportId) : undefined);
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
    rejectNext: r.status === 'rejected' ? REJECTED_NEXT_STEP : '',
  };
}

Component({
  data: { rows: [] as Item[], page: 0, total: 0, loading: false, submitted: '', error: '' },
  methods: {
    onLoad(options: Record<string, string | undefined>) {
      this.setData({ submitted: options.submitted ? '报工单已提交，等待审核' : '' });
    },
    onShow() {
      if (!sessionOrLogin()) return;
      this.setData({ rows: [], page: 0, total: 0 });
      this.more();
    },
    more() {
      return appendNextPage(this, '/api/reports/mine', itemOf);
    },
    onWages() {
      go('wages');
    },
  },
});
