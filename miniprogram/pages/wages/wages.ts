/**
 * 我的工资 (issue #23 page 4; issue #22 `GET /api/wages/mine?month=YYYY-MM`): the month's amount, whether the month
 * is closed, lines without a price, and per report its amount and lines with their piece rates. Amounts and rates
 * come as decimal strings and are shown as they come (never computed on the phone). A service without the
 * endpoint (404 NOT_FOUND, a server older than #22) makes the page say wages are not available yet.
 */
import type { MineWages } from '../../api/types';
import { monthOf, shiftMonth } from '../../core/time';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { call, isFailure } from '../../platform/request';

interface ReportView {
  reportId: string;
  reportDate: string;
  amount: string;
  lines: { key: string; text: string; amount: string }[];
}

/** The page's view of an answer. */
function viewOf(w: MineWages) {
  return {
    amount: `¥${w.amount}`,
    closed: w.status === 'closed',
    unpriced: w.unpricedLines > 0 ? `有 ${w.unpricedLines} 行产品还没有定价，未计入金额，请联系管理员` : '',
    reports: w.reports.map(
      (r): ReportView => ({
        reportId: r.reportId,
        reportDate: r.reportDate,
        amount: `¥${r.amount}`,
        lines: r.lines.map((l, i) => ({
          key: `${r.reportId}-${i}`,
          text: `${l.productName}（${l.processName}）成品 ${l.finishedQty}，不良 ${l.defectiveQty}` + (l.pieceRate === null ? '' : `，单价 ${l.pieceRate} 元`),
          amount: l.amount === null ? '未定价' : `¥${l.amount}`,
        })),
      }),
    ),
  };
}

Component({
  data: {
    month: '',
    loaded: false,
    unavailable: false,
    amount: '',
    closed: false,
    unpriced: '',
    reports: [] as ReportView[],
    error: '',
    loading: false,
  },
  methods: {
    onLoad() {
      this.setData({ month: monthOf(Date.now()) });
    },
    onShow() {
      if (!sessionOrLogin()) return;
      this.load();
    },
    async load() {
      this.setData({ loading: true, error: '' });
      try {
        const w = await call<MineWages>('GET', '/api/wages/mine', { query: { month: this.data.month } });
        this.setData({ loaded: true, unavailable: false, ...viewOf(w) });
      } catch (err) {
        if (isFailure(err) && err.status === 404 && err.code === 'NOT_FOUND') this.setData({ unavailable: true, loaded: false });
        else this.setData({ error: stepOf(err).text, loaded: false });
      } finally {
        this.setData({ loading: false });
      }
    },
    onPrev() {
      this.setData({ month: shiftMonth(this.data.month, -1) });
      this.load();
    },
    onNext() {
      this.setData({ month: shiftMonth(this.data.month, 1) });
      this.load();
    },
  },
});
