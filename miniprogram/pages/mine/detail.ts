/**
 * 我的一份报工单: the page a review-result message opens (`pages/mine/detail?reportId=…`, the page
 * src/notifications/templates.ts sends): the worker's report read by `GET /api/reports/mine?reportId=` and shown
 * as 我的报工 shows it (core/my-report.ts): status, times, break, effective working time, devices, lines with an
 * approval's corrections, a rejection's reason and, when rejected, what to do next. Another worker's report, or
 * one that does not exist, is not found (REPORT_NOT_FOUND_TEXT). 我的报工 and 首页 are one tap away (a message opens
 * the page with nothing behind it).
 */
import type { MyReports } from '../../api/types';
import { myReportView, REPORT_NOT_FOUND_TEXT, type MyReportView } from '../../core/my-report';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { go, restart } from '../../platform/nav';
import { call } from '../../platform/request';
import { currentSession } from '../../platform/session-store';
import { submittedLines } from '../../platform/submitted-store';

Component({
  data: { reportId: '', report: null as MyReportView | null, error: '' },
  methods: {
    onLoad(options: Record<string, string | undefined>) {
      this.setData({ reportId: options.reportId ?? '' });
      if (!sessionOrLogin()) return;
      this.load();
    },
    async load() {
      const id = this.data.reportId;
      if (!id) return this.setData({ error: REPORT_NOT_FOUND_TEXT });
      try {
        const [r] = (await call<MyReports>('GET', '/api/reports/mine', { query: { reportId: id } })).items;
        if (!r) return this.setData({ error: REPORT_NOT_FOUND_TEXT });
        this.setData({ report: myReportView(r, submittedLines(r.reportId), currentSession()?.person.phone), error: '' });
      } catch (err) {
        this.setData({ error: stepOf(err).text });
      }
    },
    onMine() {
      go('mine');
    },
    onHome() {
      restart('home');
    },
  },
});
