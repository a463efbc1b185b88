/**
 * 登录 (README "For the mini-program's developer", "Login"). The phone button
 * (`open-type="getPhoneNumber"`) with a fresh `wx.login` code logs in; `choose_phone` / `choose_role` are answered
 * on this page; the token is stored until it expires or a call answers 401 (then this page opens again with
 * `expired=1`). Opened with a code's `scene` (a worker who scanned before logging in), it goes on to that code's
 * page after the login; opened with `back` (the page a 401 or an expired login left, with its parameters:
 * core/back.ts), it returns there; otherwise 首页. With the service's platform simulator it also offers a login by
 * typed phone.
 */
import type { LoginAnswer, Role } from '../../api/types';
import { backTarget } from '../../core/back';
import { NOT_IN_PERSONNEL } from '../../core/errors';
import { ROLE_NAMES, isPhone, phoneOutcome, simulatorCodes } from '../../core/login';
import { parseScene } from '../../core/scene';
import { stepOf } from '../../platform/failure';
import { completeLogin, loginCode, platformLogin, usesSimulator } from '../../platform/login';
import { PAGES, restart, restartAt } from '../../platform/nav';

Component({
  data: {
    step: 'start' as 'start' | 'choose_phone' | 'choose_role',
    simulator: false,
    simPhone: '',
    ticket: '',
    phones: [] as { phone: string; name: string; rolesText: string }[],
    roles: [] as { role: string; name: string }[],
    personName: '',
    error: '',
    notice: '',
    busy: false,
    scene: '',
    back: '',
  },
  methods: {
    onLoad(options: Record<string, string | undefined>) {
      this.setData({ scene: options.scene ?? '', back: options.back ?? '', notice: options.expired ? '登录已过期，请重新登录' : '' });
      usesSimulator().then((simulator) => this.setData({ simulator }));
    },
    /** The phone button's answer. */
    async onPhone(e: WechatMiniprogram.CustomEvent) {
      const outcome = phoneOutcome(e.detail as { code?: string; errMsg?: string; errno?: number });
      if (!outcome.ok) return this.setData({ error: outcome.text });
      await this.attempt(async () => platformLogin(await loginCode(), outcome.phoneCode));
    },
    onSimPhone(e: WechatMiniprogram.Input) {
      this.setData({ simPhone: e.detail.value });
    },
    /** The simulator's login (development only, module docstring). */
    async onSimLogin() {
      const phone = this.data.simPhone.trim();
      if (!isPhone(phone)) return this.setData({ error: '请输入 11 位手机号' });
      const { code, phoneCode } = simulatorCodes(phone, Date.now().toString(36));
      await this.attempt(() => platformLogin(code, phoneCode));
    },
    async onChoosePhone(e: WechatMiniprogram.TouchEvent) {
      const phone = String(e.currentTarget.dataset.phone);
      await this.attempt(() => completeLogin(this.data.ticket, { phone }));
    },
    async onChooseRole(e: WechatMiniprogram.TouchEvent) {
      const role = String(e.currentTarget.dataset.role) as Role;
      await this.attempt(() => completeLogin(this.data.ticket, { role }));
    },
    /** Runs one login call, one at a time, and shows its answer or its failure. */
    async attempt(run: () => Promise<LoginAnswer>) {
      if (this.data.busy) return;
      this.setData({ busy: true, error: '', notice: '' });
      try {
        this.answered(await run());
      } catch (err) {
        const step = stepOf(err);
        // A ticket that expired or was used: start again from the phone button.
        const restartLogin = /^LOGIN_TICKET_/.test((err as { code?: string }).code ?? '');
        this.setData({ error: step.text === NOT_IN_PERSONNEL ? NOT_IN_PERSONNEL : step.text, ...(restartLogin ? { step: 'start' } : {}) });
      } finally {
        this.setData({ busy: false });
      }
    },
    answered(a: LoginAnswer) {
      if (a.status === 'choose_phone') {
        return this.setData({
          step: 'choose_phone',
          ticket: a.ticket,
          phones: a.phones.map((p) => ({ phone: p.phone, name: p.name, rolesText: p.roles.map((r) => ROLE_NAMES[r]).join('、') })),
        });
      }
      if (a.status === 'choose_role') {
        return this.setData({
          step: 'choose_role',
          ticket: a.ticket,
          personName: a.person.name,
          roles: a.roles.map((r) => ({ role: r, name: ROLE_NAMES[r] })),
        });
      }
      const target = parseScene(this.data.scene);
      if (target.kind === 'device') restart('clock', { scene: target.scene });
      else if (target.kind === 'webLogin') restart('confirm', { scene: target.scene });
      else if (target.kind === 'workOrder') restart('report', { scene: target.scene });
      else {
        const back = backTarget(this.data.back, Object.values(PAGES));
        if (back) restartAt(back);
        else restart('home');
      }
    },
  },
});
