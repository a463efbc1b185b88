/**
 * 看板 (issue #23 page 6; spec 4.8; decisions.md "Calculations"): the team's figures of today and of this week
 * (`GET /api/dashboard/summary`, summed over employees, core/review.ts `teamFigures`) and this week's rows of
 * `GET /api/dashboard/reports` (date + employee, the six figures as the service gives them), 20 a page. A manager
 * opens a row's reports to change a break (dashboard/breaks). Dates are the phone's local dates.
 * A row whose figures cannot be true (issue #21: the service's `untrusted` and `flags`) shows 异常 in place of the
 * cycle figures or the workload difference it names, never a 0.00 s cycle as a good figure, and the flags' sentences.
 */
import type { DashboardRow, DashboardSummary } from '../../api/types';
import { percent, seconds, teamFigures, type TeamFigures } from '../../core/review';
import { localDay, weekStart } from '../../core/time';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { go } from '../../platform/nav';
import { appendNextPage } from '../../platform/paged';
import { call } from '../../platform/request';

interface RowView {
  key: string;
  reportDate: string;
  employeePhone: string;
  name: string;
  cycle: string;
  cycleDiff: string;
  qty: string;
  workloadDiff: string;
  /** The flags' sentences (the service's Chinese), '' when none. */
  flagText: string;
}

const rowOf = (r: DashboardRow): RowView => ({
  key: `${r.reportDate}-${r.employeePhone}`,
  reportDate: r.reportDate,
  employeePhone: r.employeePhone,
  name: r.employeeName ?? r.employeePhone,
  cycle: `实际节拍 ${r.untrusted.cycleTime ? '异常' : seconds(r.actualCycleSeconds)}，标准 ${seconds(r.standardCycleSeconds)}`,
  cycleDiff: `节拍 ${r.untrusted.cycleTime ? '异常' : percent(r.cycleTimeDiffPct)}`,
  qty: `报工 ${r.reportedQty}（成品 ${r.finishedQty}），标准工作量 ${r.standardWorkload}`,
  workloadDiff: `工作量 ${r.untrusted.workload ? '异常' : percent(r.workloadDiffPct)}`,
  flagText: r.flags.map((f) => f.message).join('；'),
});

Component({
  data: {
    today: null as TeamFigures | null,
    week: null as TeamFigures | null,
    range: '',
    rows: [] as RowView[],
    page: 0,
    total: 0,
    canChangeBreaks: false,
    loading: false,
    error: '',
  },
  methods: {
    onShow() {
      const s = sessionOrLogin();
      if (!s) return;
      this.setData({ canChangeBreaks: s.role === 'manager', rows: [], page: 0, total: 0 });
      this.load();
    },
    async load() {
      const today = localDay(Date.now());
      const start = weekStart(today);
      this.setData({ range: `${start} 至 ${today}`, loading: true, error: '' });
      try {
        const [day, week] = await Promise.all([
          call<DashboardSummary>('GET', '/api/dashboard/summary', { query: { startDate: today, endDate: today } }),
          call<DashboardSummary>('GET', '/api/dashboard/summary', { query: { startDate: start, endDate: today } }),
        ]);
        this.setData({ today: teamFigures(day.byEmployee), week: teamFigures(week.byEmployee) });
      } catch (err) {
        this.setData({ error: stepOf(err).text });
      }
      this.setData({ loading: false });
      await this.more();
    },
    more() {
      const today = localDay(Date.now());
      return appendNextPage(this, '/api/dashboard/reports', rowOf, { startDate: weekStart(today), endDate: today });
    },
    onOpen(e: WechatMiniprogram.TouchEvent) {
      if (!this.data.canChangeBreaks) return;
      go('breaks', { date: String(e.currentTarget.dataset.date), phone: String(e.currentTarget.dataset.phone) });
    },
  },
});
