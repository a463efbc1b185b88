/**
 * 我的报工 (issue #23 page 4; spec 4.6 `GET /api/reports/mine`): the worker's reports, newest first, 20 a page with
 * 加载更多: date, status, times, where the break came from (issue #24, core/placement.ts), effective working time,
 * devices and lines; a rejection's reason and the next step; an approval's corrected lines as before → after when this phone submitted the report (core/corrections.ts). Opened after a
 * submission with `submitted=<reportId>`, it says so first.
 * A date range of report dates (全部 / 今天 / 本周 / 本月 / 上月 / 自定义, core/range.ts) is sent as `startDate`/`endDate`;
 * 加载更多 keeps it; a pull-down reloads the list.
 */
import type { MyReport } from '../../api/types';
import { withCorrections, type LineView } from '../../core/corrections';
import { REJECTED_NEXT_STEP, STATUS_NAMES } from '../../core/login';
import { breakSourceText } from '../../core/placement';
import { LIST_CHOICES, choiceOf, rangeQuery, rangeView } from '../../core/range';
import { clockTime, duration } from '../../core/time';
import { sessionOrLogin } from '../../platform/guard';
import { go } from '../../platform/nav';
import { appendNextPage, restartList } from '../../platform/paged';
import { pickRangeDate, tapRange } from '../../platform/range';
import { pulledDown } from '../../platform/refresh';
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
  data: {
    rows: [] as Item[],
    page: 0,
    total: 0,
    loading: false,
    submitted: '',
    error: '',
    ...rangeView({ key: 'all', startDate: '', endDate: '' }, LIST_CHOICES),
  },
  methods: {
    onLoad(options: Record<string, string | undefined>) {
      this.setData({ submitted: options.submitted ? '报工单已提交，等待审核' : '' });
    },
    onShow() {
      if (!sessionOrLogin()) return;
      this.reload();
    },
    onPullDownRefresh() {
      return pulledDown(() => this.reload());
    },
    /** The list of the range shown, from its first page (nothing asked while the range has a problem). */
    reload() {
      if (this.data.rangeProblem) return this.setData({ rows: [], page: 0, total: 0 });
      return restartList(this, '/api/reports/mine', itemOf, this.query());
    },
    more() {
      return appendNextPage(this, '/api/reports/mine', itemOf, this.query());
    },
    query(): Record<string, string> {
      return { ...rangeQuery(choiceOf(this.data)) };
    },
    onRange(e: WechatMiniprogram.TouchEvent) {
      if (tapRange(this, e, LIST_CHOICES)) this.reload();
    },
    onRangeDate(e: WechatMiniprogram.PickerChange) {
      if (pickRangeDate(this, e, LIST_CHOICES)) this.reload();
    },
    onWages() {
      go('wages');
    },
  },
});
