/**
 * 首页: who is logged in and as what, the pages of that role in big buttons (worker: 扫码报工, 我的报工, 我的工资;
 * admin: 审核, 看板; manager: 看板; admin and manager: 扫码登录网页后台), the role switch for a person with several roles
 * (`POST /api/auth/switch-role`) and 退出登录. Shown, it reads the message templates configured now;
 * the tap on 审核报工单 asks for the new-report message first (platform/subscribe.ts).
 */
import type { Role } from '../../api/types';
import { ROLE_NAMES } from '../../core/login';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { switchRole } from '../../platform/login';
import { go, restart, type PageName } from '../../platform/nav';
import { scan } from '../../platform/scan';
import { clearSession } from '../../platform/session-store';
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
    busy: false,
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
      });
      void refreshTemplates();
    },
    async onMenu(e: WechatMiniprogram.TouchEvent) {
      const page = String(e.currentTarget.dataset.page) as PageName | 'scan';
      if (page === 'review') await askToSubscribe('newReport');
      if (page !== 'scan') return go(page);
      const target = await scan();
      if (target === 'cancelled') return;
      if (target.kind === 'device') go('clock', { scene: target.scene });
      else if (target.kind === 'webLogin') go('confirm', { scene: target.scene });
      else this.setData({ error: target.reason });
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
