/**
 * 我的工资 (`GET /api/wages/mine?month=YYYY-MM`): the worker's month, picked with a month
 * picker or 上个月 / 下个月 (default: this month on the phone's clock). The month's amount, whether it is closed
 * (已结账; a reopened month says it is being recalculated), after a reopen and a new close the previous close's
 * amount beside the new one (`previousAmount`), lines without a price, and per report its date, amount and lines
 * (product, process, finished / defective pieces, piece rate and a defect rate that is not 0, amount). A line whose
 * 不良 carry reasons also shows their split by category (工废 2 件（划伤 2），料废 3 件（材料裂纹 3），未注明 1 件,
 * core/defects.ts) and both prices: 不良 (工废, 其他 and 未注明 are paid at it) and 料废 (`materialDefectRate`), as is
 * a 料废单价 that differs from the 不良单价. Rates are shown as the service writes them (4 decimals). Amounts come as
 * decimal text and are shown through core/money.ts (integer fen as text, never a float); the phone sums nothing.
 * An empty month says so. A service without the endpoint (404 NOT_FOUND: a server older than the wages) makes the
 * page say wages are not available yet. A pull-down reloads the month.
 */
import type { MineWages, WageLine } from '../../api/types';
import { wageSplitText } from '../../core/defects';
import { moneyOf, previousCloseText } from '../../core/money';
import { dayAndTime, monthOf, shiftMonth } from '../../core/time';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { pulledDown } from '../../platform/refresh';
import { call, isFailure } from '../../platform/request';

interface LineView {
  key: string;
  product: string;
  quantities: string;
  /** The 不良 split by category ('' for a line without reasons). */
  split: string;
  rates: string;
  amount: string;
}
interface ReportView {
  reportId: string;
  reportDate: string;
  amount: string;
  lines: LineView[];
}

/** `2026-03` → `2026年3月`. */
const monthName = (month: string) => {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  return m ? `${m[1]}年${Number(m[2])}月` : month;
};

/** A rate of the service (`"0.3500"`, 4 decimals) is 0 when all its digits are. */
const isZeroRate = (rate: string | null) => rate === null || /^-?0+(\.0+)?$/.test(rate);

/**
 * The prices of a line: 单价, then 不良 when it is not 0, or when 料废 is shown beside it and the line has other
 * 不良; 料废 when the line has 料废 pieces or its 料废单价 differs from the 不良单价.
 */
function ratesOf(l: WageLine): string {
  if (l.pieceRate === null) return '没有单价';
  const material = l.materialDefectQty ?? 0;
  const showMaterial = l.materialDefectRate != null && (material > 0 || l.materialDefectRate !== l.defectRate);
  const showDefect = !isZeroRate(l.defectRate) || (showMaterial && l.defectiveQty - material > 0);
  return `单价 ${l.pieceRate} 元/件` + (showDefect ? `，不良 ${l.defectRate} 元/件` : '') + (showMaterial ? `，料废 ${l.materialDefectRate} 元/件` : '');
}

/** One line as a worker reads it. */
function lineOf(reportId: string, l: WageLine, i: number): LineView {
  return {
    key: `${reportId}-${i}`,
    product: `${l.productName}（${l.processName}）`,
    quantities: `成品 ${l.finishedQty} 件，不良 ${l.defectiveQty} 件`,
    split: wageSplitText(l),
    rates: ratesOf(l),
    amount: l.amount === null ? '未定价' : moneyOf(l.amount),
  };
}

/** What the page says of the month's close. */
function statusOf(w: MineWages): string {
  if (w.status === 'closed') {
    const when = w.closedAt ? `，${dayAndTime(w.closedAt)}${w.closedBy?.name ? ` ${w.closedBy.name}` : ''}结账` : '';
    return `已结账（${w.version && w.version > 1 ? `第 ${w.version} 次结账` : '金额已确定'}${when}）`;
  }
  if (w.version) return '已反结账：正在重新核算，金额可能还会变化';
  return '未结账：金额可能还会变化';
}

/**
 * An amount over `lines`: 未定价（N 行） when none of them has a price (its 0.00 would read as nothing owed), else the
 * amount (the lines without a price are said apart).
 */
const amountOver = (amount: string, lines: readonly WageLine[]): string => {
  const unpriced = lines.filter((l) => l.amount === null).length;
  return unpriced > 0 && unpriced === lines.length ? `未定价（${unpriced} 行）` : moneyOf(amount);
};

/** The page's view of an answer. */
function viewOf(w: MineWages) {
  return {
    amount: amountOver(w.amount, w.reports.flatMap((r) => r.lines)),
    closed: w.status === 'closed',
    status: statusOf(w),
    previous: w.previousAmount === undefined ? '' : previousCloseText(w.previousAmount, w.amount) ?? `上次结账时 ${w.previousAmount} 元`,
    unpriced: w.unpricedLines > 0 ? `有 ${w.unpricedLines} 行产品还没有定价，未计入金额，请联系管理员` : '',
    empty: w.reports.length ? '' : `${monthName(w.month)}还没有计入工资的报工单（只计已通过的报工单）`,
    reports: w.reports.map(
      (r): ReportView => ({
        reportId: r.reportId,
        reportDate: r.reportDate,
        amount: amountOver(r.amount, r.lines),
        lines: r.lines.map((l, i) => lineOf(r.reportId, l, i)),
      }),
    ),
  };
}

Component({
  data: {
    month: '',
    monthName: '',
    loaded: false,
    unavailable: false,
    amount: '',
    closed: false,
    status: '',
    previous: '',
    unpriced: '',
    empty: '',
    reports: [] as ReportView[],
    error: '',
    loading: false,
  },
  methods: {
    onLoad() {
      this.setMonth(monthOf(Date.now()));
    },
    onShow() {
      if (!sessionOrLogin()) return;
      this.load();
    },
    onPullDownRefresh() {
      return pulledDown(() => this.load());
    },
    setMonth(month: string) {
      this.setData({ month, monthName: monthName(month) });
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
      this.setMonth(shiftMonth(this.data.month, -1));
      this.load();
    },
    onNext() {
      this.setMonth(shiftMonth(this.data.month, 1));
      this.load();
    },
    /** The month picker (`<picker mode="date" fields="month">` hands over `YYYY-MM`). */
    onPick(e: WechatMiniprogram.PickerChange) {
      const value = String(e.detail.value);
      if (!/^\d{4}-\d{2}$/.test(value) || value === this.data.month) return;
      this.setMonth(value);
      this.load();
    },
  },
});
