/**
 * 我的报工 (issue #23 page 4; spec 4.6 `GET /api/reports/mine`): the worker's reports, newest first, 20 a page with
 * 加载更多: date, status, times, where the break came from (issue #24, core/placement.ts), effective working time,
 * devices and lines; a rejection's reason; an approval's corrected lines as before → after when this phone submitted the report (core/corrections.ts). Opened after a
 * submission with `submitted=<reportId>`, it says so first.
 */
import type { MyReport } from '../../api/types';
import { myReportView, type MyReportView } from '../../core/my-report';
import { sessionOrLogin } from '../../platform/guard';
import { go } from '../../platform/nav';
import { appendNextPage } from '../../platform/paged';
import { submittedLines } from '../../platform/submitted-store';

/** A report as the page shows it (core/my-report.ts), with the lines this phone submitted. */
const itemOf = (r: MyReport): MyReportView => myReportView(r, submittedLines(r.reportId));

Component({
  data: { rows: [] as MyReportView[], page: 0, total: 0, loading: false, submitted: '', error: '' },
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
