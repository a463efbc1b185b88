/**
 * 我的报工 (spec 4.6 `GET /api/reports/mine`): the worker's reports, newest first, 20 a page with
 * 加载更多: date, status, times, where the break came from (core/placement.ts), effective working time,
 * devices and lines; a rejection's reason and the next step; an approval's corrected lines as before → after when this phone submitted the report (core/corrections.ts). Opened after a
 * submission with `submitted=<reportId>`, it says so first.
 * A date range of report dates (全部 / 今天 / 本周 / 本月 / 上月 / 自定义, core/range.ts) is sent as `startDate`/`endDate`;
 * 加载更多 keeps it; a pull-down reloads the list.
 */
import type { MyReport } from '../../api/types';
import { myReportView, type MyReportView } from '../../core/my-report';
import { LIST_CHOICES, choiceOf, rangeQuery, rangeView } from '../../core/range';
import { sessionOrLogin } from '../../platform/guard';
import { go } from '../../platform/nav';
import { appendNextPage, restartList } from '../../platform/paged';
import { pickRangeDate, tapRange } from '../../platform/range';
import { pulledDown } from '../../platform/refresh';
import { currentSession } from '../../platform/session-store';
import { submittedLines } from '../../platform/submitted-store';

/** A report as the page shows it (core/my-report.ts), with the lines this phone submitted. */
const itemOf = (r: MyReport): MyReportView => myReportView(r, submittedLines(r.reportId), currentSession()?.person.phone);

Component({
  data: {
    rows: [] as MyReportView[],
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
