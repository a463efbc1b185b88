/**
 * 报工单 (spec 3.1 rule 2, 4.6; decisions.md "Reports and review"): the draft of a session
 * (`GET /api/reports/draft?sessionId=`): clock-in and clock-out, devices, break and effective working time, the
 * window's countdown, where the break came from (core/placement.ts: 按班次「白班」的休息时段计算 /
 * 默认休息时间), and per candidate product the finished and defective quantities (output shown as their sum); checked on the phone (core/draft.ts) and submitted (`POST /api/reports`, safe to repeat: a repeat is 409
 * REPORT_ALREADY_SUBMITTED, shown as done). On REPORT_WINDOW_EXPIRED (draft or submission) the page explains
 * 重新报工 and leads to the device's page, whose label is then 重新报工.
 *
 * Nothing typed is lost: each quantity is kept on the phone as it is typed (platform/typed-store.ts, per session)
 * and put back when the 报工单 of the same session opens again (after 重新报工, an app killed in the background, a
 * login after a 401: the login returns here, core/back.ts); forgotten once the report is submitted. A keystroke
 * sends only that row's changed fields and the totals to the view (`rows[i].finished`), not the whole form.
 *
 * Defect reasons (不良原因, core/defects.ts): the active reasons (`GET /api/defect-reasons?active=true`, read with
 * the draft) are offered on each row whose 不良 > 0, opened by themselves when 不良 first becomes more than 0
 * (收起 / 填写不良原因 to fold them), ordered per product by this worker's own past use on this phone
 * (platform/defect-use-store.ts), then category and code; a quantity per reason, the sum shown against 不良
 * (已注明 5 / 不良 6). More than 不良 is stopped on the phone with a sentence; the service's refusals naming a line
 * (DEFECTS_SUM_MISMATCH, e.g. when DEFECT_REASONS_REQUIRED wants every piece explained; UNKNOWN_DEFECT_REASON, after
 * which the reasons are read again) are shown with the product's name. The pieces typed per reason are kept with
 * the quantities. A keystroke in a reason sends that reason's quantity and the row's sum (`rows[i].reasons[j].qty`,
 * `rows[i].defect`).
 *
 * Work orders (生产工单, core/work-orders.ts): a candidate with open orders shows a picker (the earliest due order
 * chosen, 不指定工单 last); the line sent carries `workOrderNo`. 扫工票 scans a ticket (scene `o=<key>`) and chooses its
 * order on the lines offering it, or says that no line does. A ticket scanned with WeChat's camera opens this page
 * without a session: it is kept on the phone (platform/ticket-store.ts), the page says what to do, and the next
 * 报工单 chooses its order. The order picked and the members unticked are kept with the typed quantities.
 *
 * Crew work (班组报工, core/crew.ts): a crew candidate lists the proposed members with their minutes on the device
 * and the pieces each will get as typed (the service's split, previewed as CREW_SPLIT=presence); a member other than
 * the worker can be unticked; the line sent carries `crew` (the phones ticked, the worker first) when two or more
 * are ticked. Members left out (`crewLeftOut`) are named with why. A candidate another's crew line counts already
 * (`crewReportedBy`) reads 已由 张三 班组报工 and takes no quantities.
 */
import type { Candidate, DefectReasonItem, Draft, Submitted } from '../../api/types';
import { crewShares, leftOutText, minutesText, personName, reportedByText, shareText } from '../../core/crew';
import { defectInfo, namedLine, orderReasons, reasonInputs, type DefectInfo, type ReasonQty } from '../../core/defects';
import { checkForm, effectiveSeconds, quantityOf, rowOutput, typedOf, withChoices, withTyped, type Choices, type LineInput, type QuantityRow, type TypedQuantities } from '../../core/draft';
import { breakSourceText } from '../../core/placement';
import { parseScene } from '../../core/scene';
import { TICKET_KEPT, indexOf, orderAt, orderChoices, ticketPick, type DraftOrder } from '../../core/work-orders';
import { clockTime, duration, windowLeft } from '../../core/time';
import { markClockChange } from '../../platform/clock-mark';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { readReasons } from '../../platform/defect-reasons';
import { rememberReasonUse, reasonUse } from '../../platform/defect-use-store';
import { go, replace } from '../../platform/nav';
import { scan } from '../../platform/scan';
import { keepTicket, takeTicket } from '../../platform/ticket-store';
import { call, isFailure } from '../../platform/request';
import { currentSession } from '../../platform/session-store';
import { rememberSubmitted } from '../../platform/submitted-store';
import { forgetTyped, saveTyped, typedFor } from '../../platform/typed-store';
import { askToSubscribe } from '../../platform/subscribe';

interface Row extends QuantityRow {
  detail: string;
  output: number;
  /** The reasons offered on this row, in this product's order, with the pieces typed. */
  reasons: ReasonQty[];
  /** What the row shows of its reasons (core/defects.ts). */
  defect: DefectInfo;
  /** The reasons are unfolded. */
  open: boolean;
  /** The open orders offered (earliest due first), their picker labels (then 不指定工单) and the index chosen. */
  orders: DraftOrder[];
  orderLabels: string[];
  orderIndex: number;
  /** Crew work: the members proposed (none: not a crew line), who was left out and why. */
  crew: CrewRow[];
  leftOut: string[];
  /** 已由 张三 班组报工 ('' when the worker may report this candidate). */
  reportedBy: string;
}

/** A proposed member of a crew line as the 报工单 shows them. */
interface CrewRow {
  phone: string;
  name: string;
  minutes: string;
  seconds: number;
  coefficient: number;
  clockInAt?: string;
  /** The worker themself (cannot be unticked). */
  self: boolean;
  ticked: boolean;
  /** The pieces this member will get as typed: `成品 571，不良 0` ('' while nothing valid is typed). */
  share: string;
}

/** `crew` with each ticked member's share of the quantities typed (core/crew.ts; presence, the service's default). */
function withShares(crew: readonly CrewRow[], finished: string, defective: string): CrewRow[] {
  const f = quantityOf(finished);
  const d = quantityOf(defective);
  const ticked = crew.filter((m) => m.ticked);
  const shares = f !== undefined && d !== undefined && f + d > 0 && ticked.length > 1 ? crewShares(ticked, 'presence', { finishedQty: f, defectiveQty: d }) : [];
  return crew.map((m) => {
    const s = shares.find((x) => x.phone === m.phone);
    return { ...m, share: m.ticked && s ? shareText(s) : '' };
  });
}

/** A draft's candidate as a blank row of the form. */
function rowOf(c: Candidate, me: string | undefined): Row {
  const orders = c.workOrders ?? [];
  const choices = orderChoices(orders);
  const crew = (c.crew ?? []).map(
    (m): CrewRow => ({ phone: m.phone, name: personName(m), minutes: minutesText(m.secondsOnDevice), seconds: m.secondsOnDevice, coefficient: m.coefficient, clockInAt: m.clockInAt, self: m.phone === me, ticked: true, share: '' }),
  );
  return {
    productId: c.productId,
    name: c.productName,
    detail: `${c.projectNo} · ${c.processName} · ${c.deviceNo}`,
    finished: '',
    defective: '',
    output: 0,
    reasons: [],
    defect: defectInfo('', []),
    open: false,
    orders,
    orderLabels: choices.labels,
    orderIndex: choices.chosen,
    crew: crew.length > 1 ? crew : [],
    leftOut: (c.crewLeftOut ?? []).map(leftOutText),
    reportedBy: c.crewReportedBy ? reportedByText(c.crewReportedBy) : '',
  };
}

/** What the phone keeps of `rows`: the quantities and reasons typed, and the order and crew choices (core/draft.ts). */
function kept(rows: readonly Row[]): TypedQuantities {
  const choices: Choices = {};
  for (const r of rows) {
    const crewOut = r.crew.filter((m) => !m.ticked).map((m) => m.phone);
    choices[String(r.productId)] = { ...(r.orders.length && r.orderIndex !== 0 ? { order: orderAt(r.orders, r.orderIndex) ?? '' } : {}), crewOut };
  }
  return withChoices(typedOf(rows), choices);
}

/** `rows` with the order and crew choices of `typed` put back (an order no longer offered: the default stays). */
function withKeptChoices(rows: readonly Row[], typed: TypedQuantities | undefined): Row[] {
  return rows.map((r) => {
    const t = typed?.[String(r.productId)];
    if (!t) return r;
    const orderIndex = typeof t.order === 'string' && (t.order === '' || r.orders.some((o) => o.orderNo === t.order)) ? indexOf(r.orders, t.order || undefined) : r.orderIndex;
    const out = Array.isArray(t.crewOut) ? t.crewOut : [];
    return { ...r, orderIndex, crew: r.crew.map((m) => (!m.self && out.includes(m.phone) ? { ...m, ticked: false } : m)) };
  });
}

/** The lines of `rows` to send: the form's lines with each row's order and crew (a blocked row sends nothing). */
function linesOf(rows: readonly Row[], lines: readonly LineInput[], me: string | undefined): LineInput[] {
  return lines.map((l) => {
    const row = rows.find((r) => r.productId === l.productId);
    if (!row) return l;
    const workOrderNo = orderAt(row.orders, row.orderIndex);
    const ticked = row.crew.filter((m) => m.ticked).map((m) => m.phone);
    const crew = ticked.length > 1 && me ? [me, ...ticked.filter((p) => p !== me)] : undefined;
    return { ...l, ...(workOrderNo ? { workOrderNo } : {}), ...(crew ? { crew } : {}) };
  });
}

/** The phone of the worker logged in (whose reason use orders the reasons). */
const worker = () => currentSession()?.person.phone;

/** `rows` (as typed) offered `reasons` anew, in each product's order, the pieces typed per reason kept. */
function withReasons(rows: readonly Row[], reasons: readonly DefectReasonItem[], sessionTyped: ReturnType<typeof typedFor>): Row[] {
  const fresh = rows.map((r) => ({ ...r, reasons: reasonInputs(orderReasons(reasons, reasonUse(worker(), r.productId))) }));
  return withTyped(fresh, sessionTyped).map((r) => {
    const defect = defectInfo(r.defective, r.reasons);
    return { ...r, output: rowOutput(r), defect, open: defect.show };
  });
}

/** The rows a worker may report (a row another's crew line counts already takes no quantities). */
const reportable = (rows: readonly Row[]): Row[] => rows.filter((r) => !r.reportedBy);

/** Refusals after which the draft is read again (an order closed, a crew line submitted meanwhile); the typed quantities stay. */
const RELOAD_ON = ['WORK_ORDER_NOT_OPEN', 'WORK_ORDER_NOT_FOUND', 'CREW_LINE_REPORTED', 'NOT_IN_CREW'];

/** The page instance's countdown timer (kept on the instance, not in its data). */
type Timed = { timer?: ReturnType<typeof setInterval> };

Component({
  data: {
    sessionId: '',
    scene: '',
    loaded: false,
    clockIn: '',
    clockOut: '',
    devices: '',
    breakMinutes: 0,
    /** Where the break came from (core/placement.ts): 按班次「白班」的休息时段计算 or 默认休息时间. */
    breakSource: '',
    effective: '',
    expiresAt: '',
    countdown: '',
    expired: false,
    rows: [] as Row[],
    /** Why no reasons are offered when reading them failed ('' otherwise). */
    reasonsNote: '',
    /** Some candidate offers work orders (扫工票 is shown). */
    anyOrders: false,
    /** What the last ticket chose (`已选择工单 WO-1：“前围横梁”`), or why it chose nothing. */
    ticketNote: '',
    ticketOk: false,
    /** Opened by a ticket without a session: what to do (the ticket is kept for the next 报工单). */
    ticketOnly: '',
    totals: { finished: 0, defective: 0, output: 0 },
    problems: [] as string[],
    error: '',
    retrying: '',
    busy: false,
  },
  lifetimes: {
    detached() {
      this.stopTimer();
    },
  },
  methods: {
    onLoad(options: Record<string, string | undefined>) {
      const target = parseScene(options.scene);
      this.setData({ sessionId: options.sessionId ?? '', scene: target.kind === 'device' ? target.scene : '' });
      if (target.kind === 'workOrder' && !options.sessionId) {
        // A ticket scanned with WeChat's camera: no 报工单 to fill yet (module docstring).
        keepTicket(target.key);
        return this.setData({
          ticketOnly: `${TICKET_KEPT}现在请扫描机器上的设备码上班或下班报工。`,
        });
      }
      if (!sessionOrLogin(target.kind === 'workOrder' ? target.scene : undefined)) return;
      this.load();
    },
    onUnload() {
      this.stopTimer();
    },
    async load() {
      try {
        const reasons = readReasons(true);
        const d = await call<Draft>('GET', '/api/reports/draft', { query: { sessionId: this.data.sessionId } });
        const me = worker();
        const candidates = d.candidates.map((c) => rowOf(c, me));
        const offered = await reasons;
        const typed = typedFor(this.data.sessionId);
        const rows = withKeptChoices(withReasons(candidates, offered.items, typed), typed).map((r) => (r.reportedBy ? { ...r, finished: '', defective: '', output: 0 } : { ...r, crew: withShares(r.crew, r.finished, r.defective) }));
        this.setData({
          reasonsNote: offered.note,
          loaded: true,
          clockIn: clockTime(d.clockInAt),
          clockOut: clockTime(d.clockOutAt),
          devices: d.devices.join('、'),
          breakMinutes: d.breakMinutes,
          breakSource: breakSourceText(d.breakSource, d.shift?.name),
          effective: duration(effectiveSeconds(d.clockInAt, d.clockOutAt, d.breakMinutes)),
          expiresAt: d.expiresAt,
          rows,
          anyOrders: rows.some((r) => r.orders.length > 0 && !r.reportedBy),
          totals: checkForm(reportable(rows), true).totals,
        });
        const kept = takeTicket();
        if (kept) this.chooseTicket(kept, '按扫过的工票');
        this.tick();
        this.startTimer();
      } catch (err) {
        this.failed(err);
      }
    },
    startTimer() {
      this.stopTimer();
      (this as unknown as Timed).timer = setInterval(() => this.tick(), 1000);
    },
    stopTimer() {
      const self = this as unknown as Timed;
      if (self.timer !== undefined) clearInterval(self.timer);
      self.timer = undefined;
    },
    tick() {
      const left = windowLeft(this.data.expiresAt, Date.now());
      this.setData({ countdown: left.text, expired: left.expired });
      if (left.expired) this.stopTimer();
    },
    /**
     * A keystroke: that row's field and output and the totals to the view (path keys), the form kept on the phone.
     * On a row with reasons to pick, 不良 also sends the row's sum (`rows[i].defect`), and unfolds the reasons when
     * they appear.
     */
    onQty(e: WechatMiniprogram.Input) {
      const i = Number(e.currentTarget.dataset.index);
      const field = e.currentTarget.dataset.field === 'defective' ? 'defective' : 'finished';
      const row = this.data.rows[i];
      if (!row) return;
      const changed = { ...row, [field]: e.detail.value };
      if (row.reportedBy) return;
      const rows = this.data.rows.map((r, j) => (j === i ? changed : r));
      const defect = field === 'defective' && row.reasons.length ? defectInfo(changed.defective, row.reasons) : undefined;
      this.setData({
        [`rows[${i}].${field}`]: e.detail.value,
        [`rows[${i}].output`]: rowOutput(changed),
        ...(row.crew.length ? { [`rows[${i}].crew`]: withShares(row.crew, changed.finished, changed.defective) } : {}),
        ...(defect ? { [`rows[${i}].defect`]: defect } : {}),
        ...(defect && defect.show && !row.defect.show && !row.open ? { [`rows[${i}].open`]: true } : {}),
        totals: checkForm(reportable(rows), true).totals,
        ...(this.data.problems.length ? { problems: [] } : {}),
      });
      saveTyped(this.data.sessionId, kept(rows));
    },
    /** The order picked on a row (an index of its orders; the last is 不指定工单). */
    onOrder(e: WechatMiniprogram.PickerChange) {
      const i = Number(e.currentTarget.dataset.index);
      const row = this.data.rows[i];
      const index = Number(e.detail.value);
      if (!row || !(index >= 0 && index < row.orderLabels.length)) return;
      this.setData({ [`rows[${i}].orderIndex`]: index, ticketNote: '' });
      saveTyped(this.data.sessionId, kept(this.data.rows));
    },
    /** A member ticked or unticked (the worker themself cannot be); the shares as typed again. */
    onCrewMember(e: WechatMiniprogram.TouchEvent) {
      const i = Number(e.currentTarget.dataset.index);
      const k = Number(e.currentTarget.dataset.member);
      const row = this.data.rows[i];
      const m = row?.crew[k];
      if (!row || !m || m.self) return;
      const crew = row.crew.map((x, j) => (j === k ? { ...x, ticked: !x.ticked } : x));
      this.setData({ [`rows[${i}].crew`]: withShares(crew, row.finished, row.defective) });
      saveTyped(this.data.sessionId, kept(this.data.rows));
    },
    /** 扫工票: the camera; a ticket chooses its order (core/work-orders.ts), anything else is said. */
    async onScanTicket() {
      const target = await scan();
      if (target === 'cancelled') return;
      if (target.kind !== 'workOrder') return this.setData({ ticketNote: '这不是工票，请扫描工单上的工票二维码', ticketOk: false });
      this.chooseTicket(target.key);
    },
    /** Chooses the order of the ticket `key` on the rows offering it; `how` opens the sentence (e.g. 按扫过的工票). */
    chooseTicket(key: string, how = '') {
      const rows = this.data.rows;
      const pick = ticketPick(key, rows.map((r) => ({ name: r.name, orders: r.orders })), (i) => Boolean(rows[i].reportedBy));
      const changes: Record<string, number> = {};
      for (const p of pick.picks) changes[`rows[${p.row}].orderIndex`] = p.index;
      this.setData({ ...changes, ticketNote: how && pick.ok ? `${how}${pick.text}` : pick.text, ticketOk: pick.ok });
      if (pick.ok) saveTyped(this.data.sessionId, kept(this.data.rows));
    },
    /** A ticket opened this page without a session: to the device's code. */
    async onScanDevice() {
      const target = await scan();
      if (target === 'cancelled') return;
      if (target.kind === 'device') return go('clock', { scene: target.scene });
      this.setData({ ticketOnly: target.kind === 'workOrder' ? '这也是工票。请扫描机器上的设备码。' : target.kind === 'unknown' ? target.reason : '请扫描机器上的设备码。' });
    },
    /** A keystroke in a reason's quantity: that quantity and the row's sum to the view, the form kept on the phone. */
    onReasonQty(e: WechatMiniprogram.Input) {
      const i = Number(e.currentTarget.dataset.index);
      const j = Number(e.currentTarget.dataset.reason);
      const row = this.data.rows[i];
      if (!row || !row.reasons[j]) return;
      const reasons = row.reasons.map((r, k) => (k === j ? { ...r, qty: e.detail.value } : r));
      const rows = this.data.rows.map((r, k) => (k === i ? { ...r, reasons } : r));
      this.setData({
        [`rows[${i}].reasons[${j}].qty`]: e.detail.value,
        [`rows[${i}].defect`]: defectInfo(row.defective, reasons),
        ...(this.data.problems.length ? { problems: [] } : {}),
      });
      saveTyped(this.data.sessionId, kept(rows));
    },
    /** 填写不良原因 / 收起不良原因. */
    onToggleReasons(e: WechatMiniprogram.TouchEvent) {
      const i = Number(e.currentTarget.dataset.index);
      const row = this.data.rows[i];
      if (row) this.setData({ [`rows[${i}].open`]: !row.open });
    },
    /** The reasons read again (one was deactivated meanwhile), the typed pieces kept for those still active. */
    async reloadReasons() {
      const offered = await readReasons(true);
      this.setData({ rows: withReasons(this.data.rows, offered.items, typedOf(this.data.rows)), reasonsNote: offered.note });
    },
    async onSubmit() {
      const form = checkForm(reportable(this.data.rows));
      if (form.problems.length) return this.setData({ problems: form.problems });
      const check = { ...form, lines: linesOf(this.data.rows, form.lines, worker()) };
      // The review-result message, asked inside the tap (before any await); submitted whatever the answer.
      const asked = askToSubscribe('reviewResult');
      this.setData({ busy: true, error: '', problems: [] });
      await asked;
      try {
        const r = await call<Submitted>('POST', '/api/reports', {
          body: { sessionId: this.data.sessionId, lines: check.lines },
          retry: true,
          onRetry: (n) => this.setData({ retrying: `网络不好，正在重试（第 ${n} 次）……重复提交不会生成两张报工单` }),
        });
        const names = new Map(this.data.rows.map((row) => [row.productId, row.name]));
        rememberSubmitted(r.reportId, check.lines.map((l) => ({ productId: l.productId, finishedQty: l.finishedQty, defectiveQty: l.defectiveQty, name: names.get(l.productId) ?? '' })));
        rememberReasonUse(worker(), check.lines);
        this.submittedHere();
        this.stopTimer();
        replace('mine', { submitted: r.reportId });
      } catch (err) {
        const step = stepOf(err);
        if (step.action === 'mine') {
          forgetTyped(this.data.sessionId);
          return replace('mine', { submitted: step.reportId });
        }
        if (isFailure(err) && err.details && err.details.line !== undefined) {
          const names = new Map(this.data.rows.map((row) => [row.productId, row.name]));
          this.setData({ error: namedLine(step.text, err.details.line, check.lines.map((l) => names.get(l.productId) ?? '')) });
          if (err.code === 'UNKNOWN_DEFECT_REASON') await this.reloadReasons();
          if (RELOAD_ON.includes(err.code)) await this.load();
          return;
        }
        this.failed(err);
      } finally {
        this.setData({ busy: false, retrying: '' });
      }
    },
    /** After this phone's submission: the typed copy is forgotten, and the clock state changed here (platform/clock-mark.ts). */
    submittedHere() {
      forgetTyped(this.data.sessionId);
      const phone = worker();
      if (phone) markClockChange(phone);
    },
    failed(err: unknown) {
      const step = stepOf(err);
      if (step.action === 'rescan' && (err as { code?: string }).code === 'REPORT_WINDOW_EXPIRED') {
        this.stopTimer();
        return this.setData({ expired: true, countdown: '填写时限已过', error: step.text });
      }
      this.setData({ error: step.text });
    },
    /** After the window: to the device's page, whose label is 重新报工. */
    onReReport() {
      replace('clock', { scene: this.data.scene });
    },
  },
});
