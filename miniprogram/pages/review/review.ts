/**
 * 审核 (issue #23 page 5; spec 4.7): two tabs, 待审核 (`GET /api/reviews/pending`, oldest first) and 我审核的
 * (`GET /api/reviews/mine`, newest first), 20 a page with 加载更多; a report opens its detail (review/detail).
 * A report whose figures cannot be true carries the service's plausibility flags (issue #21): its row is marked
 * 异常 with the number of flags and the first flag's sentence as the service writes it; 只看异常 lists only those
 * (`flagged=true`).
 */
import type { ReportItem } from '../../api/types';
import { STATUS_NAMES } from '../../core/login';
import { dayAndTime } from '../../core/time';
import { sessionOrLogin } from '../../platform/guard';
import { go } from '../../platform/nav';
import { appendNextPage } from '../../platform/paged';

type Tab = 'pending' | 'mine';
const PATHS: Record<Tab, string> = { pending: '/api/reviews/pending', mine: '/api/reviews/mine' };

interface Row {
  reportId: string;
  who: string;
  when: string;
  output: number;
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
  status: r.status,
  statusName: STATUS_NAMES[r.status],
  flags: r.flags.length,
  flagText: r.flags.length ? r.flags[0].message + (r.flags.length > 1 ? `（另有 ${r.flags.length - 1} 项）` : '') : '',
});

Component({
  data: { tab: 'pending' as Tab, onlyFlagged: false, rows: [] as Row[], page: 0, total: 0, loading: false, error: '' },
  methods: {
    onShow() {
      if (!sessionOrLogin()) return;
      this.reload();
    },
    reload() {
      this.setData({ rows: [], page: 0, total: 0 });
      this.more();
    },
    more() {
      const query: Record<string, string> = this.data.tab === 'pending' && this.data.onlyFlagged ? { flagged: 'true' } : {};
      return appendNextPage(this, PATHS[this.data.tab], rowOf, query);
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
