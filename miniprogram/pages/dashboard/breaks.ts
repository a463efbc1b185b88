/**
 * A dashboard row's reports and their break change (issue #23 page 6; spec 3.2, 4.6; decisions.md "Reports and
 * review"), managers only: the reports of one employee on one date (`GET /api/reports?startDate=&endDate=&employee=`)
 * with their break and effective working time; a new break in whole minutes with an optional reason (at most 200
 * characters) → `POST /api/reports/:reportId/break-minutes` (the PATCH of the spec by POST: wx.request cannot send
 * PATCH). Refusals (rejected report, a break longer than the shift) are the service's sentences.
 */
import type { ReportItem, ReviewAnswer } from '../../api/types';
import { STATUS_NAMES } from '../../core/login';
import { breakMinutesOf, reasonProblem } from '../../core/review';
import { clockTime, duration } from '../../core/time';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { call } from '../../platform/request';

interface Item {
  reportId: string;
  title: string;
  status: string;
  statusName: string;
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
  status: r.status,
  statusName: STATUS_NAMES[r.status],
  breakMinutes: r.breakMinutes,
  effective: duration(r.effectiveSeconds),
  newBreak: String(r.breakMinutes),
  reason: '',
  message: '',
  problem: '',
});

Component({
  data: { date: '', phone: '', items: [] as Item[], error: '', busy: false },
  methods: {
    onLoad(options: Record<string, string | undefined>) {
      this.setData({ date: options.date ?? '', phone: options.phone ?? '' });
      if (!sessionOrLogin()) return;
      this.load();
    },
    async load() {
      try {
        const r = await call<{ items: ReportItem[] }>('GET', '/api/reports', {
          query: { startDate: this.data.date, endDate: this.data.date, employee: this.data.phone, page: 1, pageSize: 50 },
        });
        this.setData({ items: r.items.map(itemOf), error: '' });
      } catch (err) {
        this.setData({ error: stepOf(err).text });
      }
    },
    onField(e: WechatMiniprogram.Input) {
      const i = Number(e.currentTarget.dataset.index);
      const field = e.currentTarget.dataset.field === 'reason' ? 'reason' : 'newBreak';
      this.setData({ [`items[${i}].${field}`]: e.detail.value });
    },
    async onSave(e: WechatMiniprogram.TouchEvent) {
      const i = Number(e.currentTarget.dataset.index);
      const item = this.data.items[i];
      const minutes = breakMinutesOf(item.newBreak);
      const problem = minutes === undefined ? '休息时间请填写不小于 0 的整数分钟' : reasonProblem(item.reason, false);
      if (problem || minutes === undefined) return this.setData({ [`items[${i}].problem`]: problem, [`items[${i}].message`]: '' });
      if (this.data.busy) return;
      this.setData({ busy: true, [`items[${i}].problem`]: '', [`items[${i}].message`]: '' });
      try {
        const reason = item.reason.trim();
        const a = await call<ReviewAnswer>('POST', `/api/reports/${item.reportId}/break-minutes`, {
          body: reason ? { breakMinutes: minutes, reason } : { breakMinutes: minutes },
          retry: true,
        });
        this.setData({
          [`items[${i}].breakMinutes`]: a.breakMinutes,
          [`items[${i}].effective`]: duration(a.effectiveSeconds),
          [`items[${i}].message`]: `已改为休息 ${a.breakMinutes} 分钟`,
        });
      } catch (err) {
        this.setData({ [`items[${i}].problem`]: stepOf(err).text });
      } finally {
        this.setData({ busy: false });
      }
    },
  },
});
