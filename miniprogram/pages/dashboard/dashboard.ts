/**
 * 看板 (spec 4.8; decisions.md "Calculations"): the team's figures of today and of the range
 * chosen (今天 / 本周 / 本月 / 上月 / 自定义, core/range.ts; default 本周; at most 366 days as the service allows)
 * (`GET /api/dashboard/summary`, summed over employees, core/review.ts `teamFigures`) and the range's rows of
 * `GET /api/dashboard/reports` (date + employee, the six figures as the service gives them), 20 a page. A manager
 * opens a row's reports, or every report of the range (修改这段时间报工单的休息时间), to change a break (dashboard/breaks). Dates are
 * the phone's local dates. Opened with `range=<key>` or `startDate=&endDate=`, it shows that range. A pull-down
 * reloads it.
 * A row whose figures cannot be true (the service's `untrusted` and `flags`) shows 异常 in place of the
 * cycle figures or the workload difference it names, never a 0.00 s cycle as a good figure, and the flags' sentences.
 * 今天设备效率: today's OEE of the devices the reader sees (`GET /api/oee?groupBy=device` for today, the service's
 * scope): the total and each device's OEE, 可用率, 性能, 质量 (core/stops.ts `oeeLine`); a failure there says so in
 * that card and leaves the rest of the page working; a service without the route (404 NOT_FOUND, older than
 * downtime) shows no card. Read as the page shows and on a pull-down, not when the range changes (it is today's).
 */
import type { DashboardRow, DashboardSummary, OeeAnswer } from '../../api/types';
import { DASHBOARD_CHOICES, MAX_RANGE_DAYS, choiceOf, choose, rangeFromOptions, rangeParams, rangeQuery, rangeTitle, rangeView, type DateRange } from '../../core/range';
import { percent, seconds, teamFigures, type TeamFigures } from '../../core/review';
import { oeeLine } from '../../core/stops';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { go } from '../../platform/nav';
import { appendNextPage, restartList } from '../../platform/paged';
import { pickRangeDate, showRange, tapRange, today } from '../../platform/range';
import { pulledDown } from '../../platform/refresh';
import { call, isFailure } from '../../platform/request';

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
    /** Today's OEE: the total's line and one per device (null until read). */
    oee: null as { total: string; devices: { key: string; label: string; line: string }[] } | null,
    oeeError: '',
    /** The figures of the range chosen (null while 今天 is chosen: the card above shows them). */
    figures: null as TeamFigures | null,
    figuresTitle: '',
    rows: [] as RowView[],
    page: 0,
    total: 0,
    canChangeBreaks: false,
    loading: false,
    error: '',
    // The range is set by onLoad (today is the phone's date when the page opens).
    ...rangeView({ key: 'week', startDate: '', endDate: '' }, DASHBOARD_CHOICES, MAX_RANGE_DAYS),
  },
  methods: {
    onLoad(options: Record<string, string | undefined>) {
      showRange(this, rangeFromOptions(options, today(), DASHBOARD_CHOICES, choose('week', today())), DASHBOARD_CHOICES, MAX_RANGE_DAYS);
    },
    onShow() {
      const s = sessionOrLogin();
      if (!s) return;
      this.setData({ canChangeBreaks: s.role === 'manager' });
      this.load();
      this.loadOee(today());
    },
    onPullDownRefresh() {
      return pulledDown(() => Promise.all([this.load(), this.loadOee(today())]));
    },
    /** Today's figures, the range's figures and the first page of its rows (nothing asked for a range with a problem). */
    async load() {
      const range = choiceOf(this.data);
      if (this.data.rangeProblem) return this.setData({ figures: null, figuresTitle: '', rows: [], page: 0, total: 0, error: '' });
      const asked = JSON.stringify(rangeQuery(range));
      const day = today();
      this.setData({ error: '' });
      const summary = (r: DateRange) => call<DashboardSummary>('GET', '/api/dashboard/summary', { query: { startDate: r.startDate, endDate: r.endDate } });
      const rows = restartList(this, '/api/dashboard/reports', rowOf, this.query());
      try {
        const [todays, ranged] = await Promise.all([summary({ startDate: day, endDate: day }), range.key === 'today' ? undefined : summary(range)]);
        if (JSON.stringify(rangeQuery(choiceOf(this.data))) !== asked) return rows;
        this.setData({ today: teamFigures(todays.byEmployee), figures: ranged ? teamFigures(ranged.byEmployee) : null, figuresTitle: rangeTitle(range) });
      } catch (err) {
        this.setData({ error: stepOf(err).text });
      }
      await rows;
    },
    /** Today's OEE of the reader's devices (`day`: the phone's date). */
    async loadOee(day: string) {
      try {
        const r = await call<OeeAnswer>('GET', '/api/oee', { query: { startDate: day, endDate: day, groupBy: 'device' }, keepPageOn401: true });
        this.setData({
          oeeError: '',
          oee: { total: oeeLine(r.totals), devices: r.items.map((i) => ({ key: i.key ?? i.label, label: i.label, line: oeeLine(i) })) },
        });
      } catch (err) {
        const absent = isFailure(err) && err.status === 404 && err.code === 'NOT_FOUND';
        this.setData({ oee: null, oeeError: absent ? '' : `今天的设备效率没有读取到：${stepOf(err).text}` });
      }
    },
    more() {
      return appendNextPage(this, '/api/dashboard/reports', rowOf, this.query());
    },
    query(): Record<string, string> {
      return { ...rangeQuery(choiceOf(this.data)) };
    },
    onRange(e: WechatMiniprogram.TouchEvent) {
      if (tapRange(this, e, DASHBOARD_CHOICES, MAX_RANGE_DAYS)) this.load();
    },
    onRangeDate(e: WechatMiniprogram.PickerChange) {
      if (pickRangeDate(this, e, DASHBOARD_CHOICES, MAX_RANGE_DAYS)) this.load();
    },
    /** A row: that employee's reports of that date, to change a break (managers). */
    onOpen(e: WechatMiniprogram.TouchEvent) {
      if (!this.data.canChangeBreaks) return;
      go('breaks', { date: String(e.currentTarget.dataset.date), phone: String(e.currentTarget.dataset.phone) });
    },
    /** 修改休息时间: every report of the range shown (managers). */
    onBreaks() {
      if (!this.data.canChangeBreaks || this.data.rangeProblem) return;
      go('breaks', rangeParams(choiceOf(this.data)));
    },
  },
});
