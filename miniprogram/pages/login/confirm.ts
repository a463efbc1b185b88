/**
 * 确认登录 (README "Sign-in: scan with the mini-program"): `pages/login/confirm`, opened by the
 * console's scan-to-login code (scene `w=<key>`). Shows who will sign in to the console; 确认登录 calls
 * `POST /api/auth/web-login/confirm {key}`; a person holding both console roles picks one (`choose_role`, then
 * `{key, role}`). Only administrators and managers may: anyone else reads why not and has no button. Not logged in:
 * the login page first, then back here.
 */
import type { ConfirmAnswer, Role } from '../../api/types';
import { ROLE_NAMES } from '../../core/login';
import { parseScene } from '../../core/scene';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { restart } from '../../platform/nav';
import { call } from '../../platform/request';

Component({
  data: {
    key: '',
    who: '',
    allowed: false,
    roles: [] as { role: string; name: string }[],
    done: '',
    error: '',
    busy: false,
  },
  methods: {
    onLoad(options: Record<string, string | undefined>) {
      const target = parseScene(options.scene);
      if (target.kind !== 'webLogin') return this.setData({ error: '这不是网页后台的登录二维码，请在电脑上重新打开登录页' });
      const s = sessionOrLogin(target.scene);
      if (!s) return;
      const consoleRoles = s.roles.filter((r) => r === 'admin' || r === 'manager');
      this.setData({
        key: target.key,
        who: `${s.person.name}（${s.roles.map((r) => ROLE_NAMES[r]).join('、')}）`,
        allowed: consoleRoles.length > 0,
        error: consoleRoles.length ? '' : '只有管理员或经理可以登录网页后台。你是员工，请在手机上报工；需要网页后台请联系管理员。',
      });
    },
    async onConfirm(e: WechatMiniprogram.TouchEvent) {
      if (this.data.busy) return;
      const role = e.currentTarget.dataset.role as Role | undefined;
      this.setData({ busy: true, error: '' });
      try {
        const a = await call<ConfirmAnswer>('POST', '/api/auth/web-login/confirm', { body: role ? { key: this.data.key, role } : { key: this.data.key } });
        if (a.status === 'choose_role') this.setData({ roles: a.roles.map((r) => ({ role: r, name: ROLE_NAMES[r] })) });
        else this.setData({ done: `已以${ROLE_NAMES[a.role]}身份登录网页后台，请在电脑上继续`, roles: [] });
      } catch (err) {
        this.setData({ error: stepOf(err).text });
      } finally {
        this.setData({ busy: false });
      }
    },
    onHome() {
      restart('home');
    },
  },
});
