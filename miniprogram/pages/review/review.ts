/**
 * 审核 (spec 4.7): two tabs, 待审核 (`GET /api/reviews/pending`, oldest first) and 我审核的
 * (`GET /api/reviews/mine`, newest first), 20 a page with 加载更多; a report opens its detail (review/detail).
 * A report whose figures cannot be true carries the service's plausibility flags: its row is marked
 * 异常 with the number of flags and the first flag's sentence as the service writes it; 只看异常 lists only those
 * (`flagged=true`). A report of a team shows its 班组 (team and workshop as of the report's date).
 * 我审核的 takes a date range of review dates (全部 / 今天 / 本周 / 本月 / 上月 / 自定义, core/range.ts) sent as
 * `startDate`/`endDate`; 加载更多 keeps it. A pull-down reloads the tab shown.
 */
import type { ReportItem } from '../../api/types';
import { STATUS_NAMES } from '../../core/login';
import { teamText } from '../../core/placement';
import { LIST_CHOICES, choiceOf, rangeQuery, rangeView } from '../../core/range';
import { dayAndTime } from '../../core/time';
import { sessionOrLogin } from '../../platform/guard';
import { go } from '../../platform/nav';
import { appendNextPage, restartList } from '../../platform/paged';
import { pickRangeDate, tapRange } from '../../platform/range';
import { pulledDown } from '../../platform/refresh';

type Tab = 'pending' | 'mine';
const PATHS: Record<Tab, string> = { pending: '/api/reviews/pending', mine: '/api/reviews/mine' };

interface Row {
  reportId: string;
  who: string;
  when: string;
  output: number;
  /** The report's 班组: 冲压一班（冲压车间）, '' when none. */
  team: string;
  status: string;
  statusName: string;
  /** How many plausibility flags (0: none). */
  flags: number;
  /** The first flag's sentence (the service's Chinese, with its numbers); the detail shows them all. */
  flagText: string;
}

const rowOf = (r: ReportItem): Row => ({
  reportId: r.reportId,
  who: `${r.employeeName ?? r.employeePhone}　${r.reportDate}`,
  when: `提交于 ${dayAndTime(r.submittedAt)}，设备 ${r.devices.join('、')}`,
  output: r.lines.reduce((s, l) => s + l.outputQty, 0),
  team: teamText(r.teamName, r.workshopName),
  status: r.status,
  statusName: STATUS_NAMES[r.status],
  flags: r.flags.length,
  flagText: r.flags.length ? r.flags[0].message + (r.flags.length > 1 ? `（另有 ${r.flags.length - 1} 项）` : '') : '',
});

Component({
  data: {
    tab: 'pending' as Tab,
    onlyFlagged: false,
    rows: [] as Row[],
    page: 0,
    total: 0,
    loading: false,
    error: '',
    /** 我审核的's range of review dates (core/range.ts). */
    ...rangeView({ key: 'all', startDate: '', endDate: '' }, LIST_CHOICES),
  },
  methods: {
    onShow() {
      if (!sessionOrLogin()) return;
      this.reload();
    },
    onPullDownRefresh() {
      return pulledDown(() => this.reload());
    },
    /** The tab's list from its first page (我审核的: nothing asked while its range has a problem). */
    reload() {
      if (this.data.tab === 'mine' && this.data.rangeProblem) return this.setData({ rows: [], page: 0, total: 0 });
      return restartList(this, PATHS[this.data.tab], rowOf, this.query());
    },
    more() {
      return appendNextPage(this, PATHS[this.data.tab], rowOf, this.query());
    },
    /** The tab's filter: 只看异常 on 待审核, the date range on 我审核的. */
    query(): Record<string, string> {
      if (this.data.tab === 'mine') return { ...rangeQuery(choiceOf(this.data)) };
      return this.data.onlyFlagged ? { flagged: 'true' } : {};
    },
    onRange(e: WechatMiniprogram.TouchEvent) {
      if (tapRange(this, e, LIST_CHOICES)) this.reload();
    },
    onRangeDate(e: WechatMiniprogram.PickerChange) {
      if (pickRangeDate(this, e, LIST_CHOICES)) this.reload();
    },
    /** 只看异常 ⇄ 全部 (the pending tab). */
    onFlagFilter() {
      this.setData({ onlyFlagged: !this.data.onlyFlagged });
      this.reload();
    },
    onTab(e: WechatMiniprogram.TouchEvent) {
      this.setData({ tab: e.currentTarget.dataset.tab === 'mine' ? 'mine' : 'pending' });
      this.reload();
    },
    onOpen(e: WechatMiniprogram.TouchEvent) {
      go('reviewDetail', { reportId: String(e.currentTarget.dataset.id) });
    },
  },
});
