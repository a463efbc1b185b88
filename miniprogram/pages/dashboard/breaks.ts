/**
 * The break change (spec 3.2, 4.6; decisions.md "Reports and review"), managers only: the reports
 * of a date range (今天 / 本周 / 本月 / 上月 / 自定义, core/range.ts), of one employee when opened from a 看板 row
 * (`date=&phone=`) or of everyone the manager may see when opened with the 看板's range (`range=` or
 * `startDate=&endDate=`): `GET /api/reports?startDate=&endDate=&employee=`, 20 a page with 加载更多, each with its
 * break and effective working time. A pending or approved report takes a new break in whole minutes with an
 * optional reason (at most 200 characters) → `POST /api/reports/:reportId/break-minutes` (the PATCH of the spec by
 * POST: wx.request cannot send PATCH); a rejected one says it cannot be changed (the service refuses it). Other
 * refusals (a break longer than the shift, a closed month) are the service's sentences. A pull-down reloads.
 */
import type { ReportItem, ReviewAnswer } from '../../api/types';
import { STATUS_NAMES } from '../../core/login';
import { DASHBOARD_CHOICES, choiceOf, choose, rangeFromOptions, rangeQuery, rangeView } from '../../core/range';
import { breakMinutesOf, reasonProblem } from '../../core/review';
import { clockTime, duration } from '../../core/time';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { appendNextPage, restartList } from '../../platform/paged';
import { pickRangeDate, showRange, tapRange, today } from '../../platform/range';
import { pulledDown } from '../../platform/refresh';
import { call } from '../../platform/request';

interface Item {
  reportId: string;
  title: string;
  reportDate: string;
  status: string;
  statusName: string;
  /** The service changes the break of pending and approved reports only (409 REPORT_REJECTED otherwise). */
  changeable: boolean;
  breakMinutes: number;
  effective: string;
  newBreak: string;
  reason: string;
  message: string;
  problem: string;
}

const itemOf = (r: ReportItem): Item => ({
  reportId: r.reportId,
  title: `${r.employeeName ?? r.employeePhone} ${clockTime(r.clockInAt)}–${clockTime(r.clockOutAt)}`,
  reportDate: r.reportDate,
  status: r.status,
  statusName: STATUS_NAMES[r.status],
  changeable: r.status !== 'rejected',
  breakMinutes: r.breakMinutes,
  effective: duration(r.effectiveSeconds),
  newBreak: String(r.breakMinutes),
  reason: '',
  message: '',
  problem: '',
});

Component({
  data: {
    phone: '',
    rows: [] as Item[],
    page: 0,
    total: 0,
    loading: false,
    error: '',
    busy: false,
    // The range is set by onLoad (today is the phone's date when the page opens).
    ...rangeView({ key: 'week', startDate: '', endDate: '' }, DASHBOARD_CHOICES),
  },
  methods: {
    onLoad(options: Record<string, string | undefined>) {
      this.setData({ phone: options.phone ?? '' });
      showRange(this, rangeFromOptions(options, today(), DASHBOARD_CHOICES, choose('week', today())), DASHBOARD_CHOICES);
      if (!sessionOrLogin()) return;
      this.reload();
    },
    onPullDownRefresh() {
      return pulledDown(() => this.reload());
    },
    /** The reports of the range (and employee) from the first page; nothing asked while the range has a problem. */
    reload() {
      if (this.data.rangeProblem) return this.setData({ rows: [], page: 0, total: 0 });
      return restartList(this, '/api/reports', itemOf, this.query());
    },
    more() {
      return appendNextPage(this, '/api/reports', itemOf, this.query());
    },
    query(): Record<string, string> {
      return { ...rangeQuery(choiceOf(this.data)), ...(this.data.phone ? { employee: this.data.phone } : {}) };
    },
    onRange(e: WechatMiniprogram.TouchEvent) {
      if (tapRange(this, e, DASHBOARD_CHOICES)) this.reload();
    },
    onRangeDate(e: WechatMiniprogram.PickerChange) {
      if (pickRangeDate(this, e, DASHBOARD_CHOICES)) this.reload();
    },
    /** 看全部员工: the range's reports of everyone the manager may see. */
    onAllEmployees() {
      this.setData({ phone: '' });
      this.reload();
    },
    onField(e: WechatMiniprogram.Input) {
      const i = Number(e.currentTarget.dataset.index);
      const field = e.currentTarget.dataset.field === 'reason' ? 'reason' : 'newBreak';
      this.setData({ [`rows[${i}].${field}`]: e.detail.value });
    },
    async onSave(e: WechatMiniprogram.TouchEvent) {
      const i = Number(e.currentTarget.dataset.index);
      const item = this.data.rows[i];
      if (!item || !item.changeable) return;
      const minutes = breakMinutesOf(item.newBreak);
      const problem = minutes === undefined ? '休息时间请填写不小于 0 的整数分钟' : reasonProblem(item.reason, false);
      if (problem || minutes === undefined) return this.setData({ [`rows[${i}].problem`]: problem, [`rows[${i}].message`]: '' });
      if (this.data.busy) return;
      this.setData({ busy: true, [`rows[${i}].problem`]: '', [`rows[${i}].message`]: '' });
      try {
        const reason = item.reason.trim();
        const a = await call<ReviewAnswer>('POST', `/api/reports/${item.reportId}/break-minutes`, {
          body: reason ? { breakMinutes: minutes, reason } : { breakMinutes: minutes },
          retry: true,
        });
        this.setData({
          [`rows[${i}].breakMinutes`]: a.breakMinutes,
          [`rows[${i}].effective`]: duration(a.effectiveSeconds),
          [`rows[${i}].message`]: `已改为休息 ${a.breakMinutes} 分钟`,
        });
      } catch (err) {
        this.setData({ [`rows[${i}].problem`]: stepOf(err).text });
      } finally {
        this.setData({ busy: false });
      }
    },
  },
});
