/**
 * 报工 (issue #23 page 2; spec 3.1; README "Scan labels"): the page a device code opens (`pages/clock/clock`, the
 * scene in `options.scene`) or the scan button opens. Shows the device and the one label of `GET /api/clock/state`
 * on one big button; pressing it runs that label's operation (core/labels.ts) and shows the new label, or opens
 * the report (下班报工, 继续报工, 重新报工). A double tap sends one request (platform/request.ts); a weak network
 * is retried safely (the clock operations answer a repeat as the first time) and the page says so.
 */
import type { ClockState, FinishAnswer, SessionAnswer } from '../../api/types';
import { actionOf, isClockLabel, type ClockLabel } from '../../core/labels';
import { ROLE_NAMES } from '../../core/login';
import { deviceRefOf, parseScene } from '../../core/scene';
import { clockTime } from '../../core/time';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { switchRole } from '../../platform/login';
import { go, replace } from '../../platform/nav';
import { call } from '../../platform/request';
import { scan } from '../../platform/scan';

Component({
  data: {
    scene: '',
    deviceNo: '',
    label: '' as ClockLabel | '',
    hint: '',
    sessionId: '',
    expiresText: '',
    done: '',
    error: '',
    retrying: '',
    busy: false,
    needsWorker: false,
    roleName: '',
  },
  methods: {
    onLoad(options: Record<string, string | undefined>) {
      const target = parseScene(options.scene);
      if (target.kind === 'webLogin') return replace('confirm', { scene: target.scene });
      if (target.kind !== 'device') return this.setData({ error: target.reason });
      this.setData({ scene: target.scene });
      if (!sessionOrLogin(target.scene)) return;
      this.refresh();
    },
    /** Asks the state of the scanned device (as a worker; another role is offered the switch). */
    async refresh() {
      const s = sessionOrLogin(this.data.scene);
      if (!s) return;
      if (s.role !== 'worker') {
        return this.setData({
          needsWorker: s.roles.includes('worker'),
          roleName: ROLE_NAMES[s.role],
          error: s.roles.includes('worker') ? `你现在是以${ROLE_NAMES[s.role]}身份登录，报工要切换为员工` : '只有员工可以扫码报工',
        });
      }
      try {
        const state = await call<ClockState>('GET', '/api/clock/state', { query: deviceRefOf(this.data.scene) });
        this.show(state.label, state.deviceNo, state.sessionId, state.expiresAt);
      } catch (err) {
        this.setData({ error: stepOf(err).text, label: '' });
      }
    },
    show(label: ClockLabel, deviceNo: string, sessionId?: string, expiresAt?: string) {
      this.setData({
        label,
        deviceNo,
        hint: actionOf(label).hint,
        sessionId: sessionId ?? '',
        expiresText: expiresAt ? `报工单填写截止 ${clockTime(expiresAt)}` : '',
        error: '',
      });
    },
    async onSwitchToWorker() {
      try {
        await switchRole('worker');
        this.setData({ needsWorker: false, error: '' });
        await this.refresh();
      } catch (err) {
        this.setData({ error: stepOf(err).text });
      }
    },
    /** The big button: the label's operation, then the new label or the report. */
    async onPress() {
      const label = this.data.label;
      if (!isClockLabel(label)) return;
      const action = actionOf(label);
      if (!action.operation) return go('report', { sessionId: this.data.sessionId, scene: this.data.scene });
      this.setData({ busy: true, error: '', done: '', retrying: '' });
      try {
        const answer = await call<SessionAnswer | FinishAnswer>('POST', `/api/clock/${action.operation}`, {
          body: deviceRefOf(this.data.scene),
          retry: true,
          onRetry: (n) => this.setData({ retrying: `网络不好，正在重试（第 ${n} 次）……重复发送不会重复记录` }),
        });
        this.setData({ retrying: '', done: `已${label}（${clockTime(answer.clockInAt)} 上班，设备：${answer.devices.join('、')}）` });
        if (action.thenReport) return go('report', { sessionId: answer.sessionId, scene: this.data.scene });
        this.show(answer.label, this.data.deviceNo, answer.sessionId);
      } catch (err) {
        const step = stepOf(err);
        this.setData({ retrying: '', error: step.text });
        if (step.action === 'refresh' && step.label) this.setData({ label: step.label, hint: actionOf(step.label).hint });
      } finally {
        this.setData({ busy: false });
      }
    },
    /** Scans another code with the camera. */
    async onScan() {
      const target = await scan();
      if (target === 'cancelled') return;
      if (target.kind === 'device') return replace('clock', { scene: target.scene });
      if (target.kind === 'webLogin') return replace('confirm', { scene: target.scene });
      this.setData({ error: target.reason });
    },
  },
});
