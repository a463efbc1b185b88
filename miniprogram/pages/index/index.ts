/**
 * 首页: who is logged in and as what, the pages of that role in big buttons (worker: 扫码报工, 我的报工, 我的工资;
 * admin: 审核, 看板; manager: 看板; admin and manager: 扫码登录网页后台), the role switch for a person with several roles
 * (`POST /api/auth/switch-role`) and 退出登录. Shown, it reads the message templates configured now;
 * the tap on 审核报工单 asks for the new-report message first (platform/subscribe.ts).
 * A manager also reads the late work orders (`GET /api/work-orders?late=true`, the first LATE_SHOWN, earliest due
 * first as the service orders them): order, product, due date, completion (core/work-orders.ts `lateOrderText`),
 * and how many more there are; nothing when none is late, nor when the list cannot be read (the menu still works).
 * A work ticket scanned here is kept for the next 报工单 (platform/ticket-store.ts).
 */
import type { Role, WorkOrderItem } from '../../api/types';
import { TICKET_KEPT, lateOrderText } from '../../core/work-orders';
import { ROLE_NAMES } from '../../core/login';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { switchRole } from '../../platform/login';
import { go, restart, type PageName } from '../../platform/nav';
import { scan } from '../../platform/scan';
import { call } from '../../platform/request';
import { clearSession } from '../../platform/session-store';
import { keepTicket } from '../../platform/ticket-store';

/** Late orders shown on a manager's 首页 at most. */
const LATE_SHOWN = 5;
import { askToSubscribe, refreshTemplates } from '../../platform/subscribe';

const MENUS: Record<Role, { page: PageName | 'scan'; text: string }[]> = {
  worker: [
    { page: 'scan', text: '扫码报工' },
    { page: 'mine', text: '我的报工' },
    { page: 'wages', text: '我的工资' },
  ],
  admin: [
    { page: 'review', text: '审核报工单' },
    { page: 'dashboard', text: '看板' },
    { page: 'scan', text: '扫码登录网页后台' },
  ],
  manager: [
    { page: 'dashboard', text: '看板' },
    { page: 'scan', text: '扫码登录网页后台' },
  ],
};

Component({
  data: {
    name: '',
    roleName: '',
    menu: [] as { page: string; text: string }[],
    others: [] as { role: string; name: string }[],
    error: '',
    done: '',
    busy: false,
    /** A manager's late orders (core/work-orders.ts `lateOrderText`), and how many more. */
    late: [] as { orderNo: string; text: string }[],
    lateMore: 0,
  },
  methods: {
    onShow() {
      const s = sessionOrLogin();
      if (!s) return;
      this.setData({
        name: s.person.name,
        roleName: ROLE_NAMES[s.role],
        menu: MENUS[s.role],
        others: s.roles.filter((r) => r !== s.role).map((r) => ({ role: r, name: ROLE_NAMES[r] })),
        error: '',
        done: '',
        ...(s.role === 'manager' ? {} : { late: [], lateMore: 0 }),
      });
      void refreshTemplates();
      if (s.role === 'manager') void this.readLate();
    },
    /** The late orders (module docstring); any failure shows nothing. */
    async readLate() {
      try {
        const r = await call<{ items: WorkOrderItem[]; total: number }>('GET', '/api/work-orders', { query: { late: 'true', page: 1, pageSize: LATE_SHOWN }, keepPageOn401: true });
        this.setData({ late: r.items.map((o) => ({ orderNo: o.orderNo, text: lateOrderText(o) })), lateMore: Math.max(0, r.total - r.items.length) });
      } catch {
        this.setData({ late: [], lateMore: 0 });
      }
    },
    async onMenu(e: WechatMiniprogram.TouchEvent) {
      const page = String(e.currentTarget.dataset.page) as PageName | 'scan';
      if (page === 'review') await askToSubscribe('newReport');
      if (page !== 'scan') return go(page);
      const target = await scan();
      if (target === 'cancelled') return;
      if (target.kind === 'device') go('clock', { scene: target.scene });
      else if (target.kind === 'webLogin') go('confirm', { scene: target.scene });
      else if (target.kind === 'workOrder') {
        keepTicket(target.key);
        this.setData({ done: TICKET_KEPT, error: '' });
      } else this.setData({ error: target.reason });
    },
    async onSwitch(e: WechatMiniprogram.TouchEvent) {
      if (this.data.busy) return;
      this.setData({ busy: true, error: '' });
      try {
        await switchRole(String(e.currentTarget.dataset.role) as Role);
        this.onShow();
      } catch (err) {
        this.setData({ error: stepOf(err).text });
      } finally {
        this.setData({ busy: false });
      }
    },
    onLogout() {
      clearSession();
      restart('login');
    },
  },
});
