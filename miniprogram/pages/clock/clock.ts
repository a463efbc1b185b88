/**
 * 报工 (spec 3.1; README "Scan labels"): the page a device code opens (`pages/clock/clock`, the
 * scene in `options.scene`) or the scan button opens. Shows the device and the one label of `GET /api/clock/state`
 * on one big button; pressing it runs that label's operation (core/labels.ts) and shows the new label, or opens
 * the report (下班报工, 继续报工, 重新报工). A double tap sends one request (platform/request.ts); a weak network
 * is retried safely (the clock operations answer a repeat as the first time) and the page says so.
 *
 * A double tap cannot change the day (core/clock-press.ts): after an operation changes the label, the new button is
 * held for a moment (disabled, `（请稍候）`), and 下班报工 / 重新报工 ask first, naming the clock-in time. The label is
 * read again each time the page shows (back from the 报工单, the app brought to the front), so a stale label
 * cannot be pressed; a conflict says whether this phone itself changed the state (platform/clock-mark.ts).
 *
 * 停机 (downtime): when the device stands still the state names the stop (`stop`), shown with its reason and the
 * minutes so far (core/stops.ts; counted on while the page shows). A worker clocked in on the device (label 下班报工)
 * has 停机 — the active reasons of `GET /api/stop-reasons?active=true` as buttons, one tap records the stop from now
 * (`POST /api/devices/{deviceNo}/stops`) — and, while it stands, 恢复生产 (`POST /api/stops/{stopId}/end`, safe to
 * repeat). A refusal is the service's sentence (another stop already running, not on this device); the state is then
 * read again.
 */
import type { ClockState, FinishAnswer, SessionAnswer, StopAnswer, StopReasonItem } from '../../api/types';
import { confirmationOf, holdLeft } from '../../core/clock-press';
import { conflictText } from '../../core/errors';
import { actionOf, isClockLabel, type ClockLabel } from '../../core/labels';
import { ROLE_NAMES } from '../../core/login';
import { deviceRefOf, parseScene } from '../../core/scene';
import { stopView, STOP_CATEGORY_NAMES, type RunningStop } from '../../core/stops';
import { clockTime } from '../../core/time';
import { conflictCause, markClockChange } from '../../platform/clock-mark';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { switchRole } from '../../platform/login';
import { confirm } from '../../platform/modal';
import { go, replace } from '../../platform/nav';
import { call } from '../../platform/request';
import { scan } from '../../platform/scan';
import { currentSession } from '../../platform/session-store';
import { keepTicket } from '../../platform/ticket-store';
import { TICKET_KEPT } from '../../core/work-orders';

/**
 * The page instance's own fields (not in its data): when the hold began and its timer (milliseconds, the phone's
 * clock), and when the shown label was read from the service.
 */
type Instance = { heldAt?: number; holdTimer?: ReturnType<typeof setTimeout>; shownAt?: number; running?: RunningStop; stopTimer?: ReturnType<typeof setInterval> };

/** How often the minutes of a running stop are counted again (milliseconds). */
const STOP_TICK_MS = 30_000;

Component({
  data: {
    scene: '',
    deviceNo: '',
    label: '' as ClockLabel | '',
    hint: '',
    sessionId: '',
    clockInAt: '',
    expiresText: '',
    done: '',
    error: '',
    retrying: '',
    busy: false,
    /** The button is held after an operation changed its label (core/clock-press.ts). */
    held: false,
    /** The label is being read again: the one shown may be stale, so it cannot be pressed. */
    reading: false,
    /** onLoad found a device and a login: onShow reads the label. */
    ready: false,
    needsWorker: false,
    roleName: '',
    /** The device's running stop (core/stops.ts `stopView`), or null. */
    stop: null as { stopId: string; title: string; minutes: string } | null,
    /** The reasons offered after 停机 was tapped (none: the picker is closed). */
    stopReasons: [] as { code: string; text: string; name: string; category: RunningStop['category'] }[],
    stopBusy: false,
  },
  lifetimes: {
    detached() {
      this.stopHoldTimer();
      this.showStop(undefined);
    },
  },
  methods: {
    onLoad(options: Record<string, string | undefined>) {
      const target = parseScene(options.scene);
      if (target.kind === 'webLogin') return replace('confirm', { scene: target.scene });
      if (target.kind === 'workOrder') return replace('report', { scene: target.scene });
      if (target.kind !== 'device') return this.setData({ error: target.reason });
      this.setData({ scene: target.scene });
      if (!sessionOrLogin(target.scene)) return;
      this.setData({ ready: true });
    },
    /** Each time the page shows (the first time and back from another page): the label as it is now. */
    onShow() {
      if (this.data.ready && !this.data.busy) this.refresh();
    },
    onUnload() {
      this.stopHoldTimer();
      this.showStop(undefined);
    },
    /** Asks the state of the scanned device (as a worker; another role is offered the switch). */
    async refresh(keepError = '') {
      const s = sessionOrLogin(this.data.scene);
      if (!s) return;
      if (s.role !== 'worker') {
        return this.setData({
          needsWorker: s.roles.includes('worker'),
          roleName: ROLE_NAMES[s.role],
          error: s.roles.includes('worker') ? `你现在是以${ROLE_NAMES[s.role]}身份登录，报工要切换为员工` : '只有员工可以扫码报工',
        });
      }
      this.setData({ reading: true });
      try {
        const state = await call<ClockState>('GET', '/api/clock/state', { query: deviceRefOf(this.data.scene) });
        this.show(state.label, state.deviceNo, state.sessionId, state.clockInAt, state.expiresAt);
        this.showStop(state.stop);
        if (keepError) this.setData({ error: keepError });
      } catch (err) {
        this.setData({ error: stepOf(err).text, label: '' });
      } finally {
        this.setData({ reading: false });
      }
    },
    show(label: ClockLabel, deviceNo: string, sessionId?: string, clockInAt?: string, expiresAt?: string) {
      (this as unknown as Instance).shownAt = Date.now();
      this.setData({
        label,
        deviceNo,
        hint: actionOf(label).hint,
        sessionId: sessionId ?? '',
        clockInAt: clockInAt ?? '',
        expiresText: expiresAt ? `报工单填写截止 ${clockTime(expiresAt)}` : '',
        error: '',
      });
    },
    /** Holds the button from now (core/clock-press.ts): disabled until the hold is over. */
    hold() {
      const self = this as unknown as Instance;
      self.heldAt = Date.now();
      this.setData({ held: true });
      this.armHoldTimer();
    },
    /** Frees the button when the hold is over, else looks again when it should be (the phone's clock decides). */
    armHoldTimer() {
      const self = this as unknown as Instance;
      this.stopHoldTimer();
      const left = holdLeft(self.heldAt ?? 0, Date.now());
      if (left === 0) return this.setData({ held: false });
      self.holdTimer = setTimeout(() => this.armHoldTimer(), left);
    },
    stopHoldTimer() {
      const self = this as unknown as Instance;
      if (self.holdTimer !== undefined) clearTimeout(self.holdTimer);
      self.holdTimer = undefined;
    },
    /** Whether the button is held now; frees it when the hold is over (its timer may not have run yet). */
    isHeld(): boolean {
      if (holdLeft((this as unknown as Instance).heldAt ?? 0, Date.now()) > 0) return true;
      if (this.data.held) {
        this.stopHoldTimer();
        this.setData({ held: false });
      }
      return false;
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
    /**
     * The big button: the label's operation (after a confirmation for 下班报工 / 重新报工), then the new label,
     * held for a moment, or the report. A tap on a held or busy button does nothing (a disabled button still
     * delivers its tap on some clients).
     */
    async onPress() {
      const label = this.data.label;
      if (!isClockLabel(label) || this.data.busy || this.data.reading || this.isHeld()) return;
      const action = actionOf(label);
      if (!action.operation) return go('report', { sessionId: this.data.sessionId, scene: this.data.scene });
      this.setData({ busy: true, error: '', done: '', retrying: '' });
      try {
        const question = confirmationOf(label, this.data.clockInAt || undefined, Date.now());
        if (question && !(await confirm(question))) return;
        const answer = await call<SessionAnswer | FinishAnswer>('POST', `/api/clock/${action.operation}`, {
          body: deviceRefOf(this.data.scene),
          retry: true,
          onRetry: (n) => this.setData({ retrying: `网络不好，正在重试（第 ${n} 次）……重复发送不会重复记录` }),
        });
        const worker = currentSession()?.person.phone;
        if (worker) markClockChange(worker);
        this.setData({ retrying: '', done: `已${label}（${clockTime(answer.clockInAt)} 上班，设备：${answer.devices.join('、')}）` });
        this.show(answer.label, this.data.deviceNo, answer.sessionId, answer.clockInAt);
        if (answer.label !== label) this.hold();
        if (action.thenReport) return go('report', { sessionId: answer.sessionId, scene: this.data.scene });
      } catch (err) {
        const step = stepOf(err);
        this.setData({ retrying: '', error: step.text });
        if (step.action === 'refresh' && step.label) {
          const since = (this as unknown as Instance).shownAt ?? 0;
          const text = conflictText(step.label, conflictCause(currentSession()?.person.phone ?? '', since));
          this.setData({ label: step.label, hint: actionOf(step.label).hint, clockInAt: '', error: text });
          this.hold();
          this.refresh(text);
        }
      } finally {
        this.setData({ busy: false });
      }
    },
    /** Shows the device's running stop (or none), its minutes counted on every STOP_TICK_MS while shown. */
    showStop(stop: RunningStop | undefined) {
      const self = this as unknown as Instance;
      self.running = stop;
      if (self.stopTimer !== undefined) clearInterval(self.stopTimer);
      self.stopTimer = undefined;
      if (!stop) return this.setData({ stop: null });
      const draw = () => this.setData({ stop: { stopId: stop.stopId, ...stopView(stop, Date.now()) } });
      draw();
      self.stopTimer = setInterval(draw, STOP_TICK_MS);
    },
    /** 停机: offers the active stop reasons (a tap on one records the stop). */
    async onStop() {
      if (this.data.stopBusy || this.data.label !== '下班报工') return;
      this.setData({ stopBusy: true, error: '', done: '' });
      try {
        const r = await call<{ items: StopReasonItem[] }>('GET', '/api/stop-reasons', { query: { active: 'true' } });
        if (!r.items.length) return this.setData({ error: '还没有可选的停机原因，请联系管理员在后台添加' });
        this.setData({ stopReasons: r.items.map((x) => ({ code: x.code, text: `${x.name}（${STOP_CATEGORY_NAMES[x.category]}）`, name: x.name, category: x.category })) });
      } catch (err) {
        this.setData({ error: stepOf(err).text });
      } finally {
        this.setData({ stopBusy: false });
      }
    },
    onCancelStop() {
      this.setData({ stopReasons: [] });
    },
    /** A reason picked: the stop of this device from now. */
    async onPickReason(e: WechatMiniprogram.TouchEvent) {
      const code = String(e.currentTarget.dataset.code ?? '');
      const reason = this.data.stopReasons.find((r) => r.code === code);
      if (!reason || this.data.stopBusy) return;
      this.setData({ stopBusy: true, error: '', done: '' });
      try {
        const s = await call<StopAnswer>('POST', `/api/devices/${encodeURIComponent(this.data.deviceNo)}/stops`, { body: { reasonCode: code } });
        this.setData({ stopReasons: [], done: `已停机：${reason.name}` });
        this.showStop({ stopId: s.stopId, reasonCode: code, reasonName: reason.name, category: reason.category, startAt: s.startAt });
      } catch (err) {
        this.setData({ stopReasons: [], error: stepOf(err).text });
        this.refresh(stepOf(err).text);
      } finally {
        this.setData({ stopBusy: false });
      }
    },
    /** 恢复生产: ends the running stop now (a repeat answers the same). */
    async onResume() {
      const stop = this.data.stop;
      if (!stop || this.data.stopBusy) return;
      this.setData({ stopBusy: true, error: '', done: '' });
      try {
        const s = await call<StopAnswer>('POST', `/api/stops/${stop.stopId}/end`, { retry: true });
        const minutes = s.endAt ? Math.max(0, Math.floor((Date.parse(s.endAt) - Date.parse(s.startAt)) / 60_000)) : 0;
        this.showStop(undefined);
        this.setData({ done: `已恢复生产（停机 ${minutes} 分钟，${clockTime(s.startAt)}–${s.endAt ? clockTime(s.endAt) : ''}）` });
      } catch (err) {
        this.setData({ error: stepOf(err).text });
        this.refresh(stepOf(err).text);
      } finally {
        this.setData({ stopBusy: false });
      }
    },
    /** Scans another code with the camera. */
    async onScan() {
      const target = await scan();
      if (target === 'cancelled') return;
      if (target.kind === 'device') return replace('clock', { scene: target.scene });
      if (target.kind === 'webLogin') return replace('confirm', { scene: target.scene });
      if (target.kind === 'workOrder') {
        keepTicket(target.key);
        return this.setData({ done: TICKET_KEPT, error: '' });
      }
      this.setData({ error: target.reason });
    },
  },
});
