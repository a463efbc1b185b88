/**
 * A report under review (spec 3.2, 4.7; decisions.md "Reports and review"): the worker, times,
 * break, effective working time and lines with their standard cycle time and workload (`GET
 * /api/reports/:reportId`); 通过; 修正后通过 (the quantities edited in place, a line set to 0 and 0 is removed; the
 * same rules as the submission, core/draft.ts); 驳回 with a reason of 1–200 characters. A decided report shows its
 * status only. Where the break came from (按班次「白班」的休息时段计算, 默认休息时间, 经理已修改) and the
 * report's 班组 (team and workshop as of the report's date) when it has one. Another reviewer deciding first: the service's 409 is shown and the report reloaded.
 * A report whose figures cannot be true shows its plausibility flags above the lines (异常报工, each the
 * service's sentence with its numbers, and what to do: check, correct or reject; approving stays possible, as
 * 核对无误，通过, and the service records the approval with 已知异常).
 * A correction may add a line (添加产品): a product of one of the report's devices not yet on it (`GET /api/products
 * ?deviceNo=` per device, as the approval allows: README "Review"), its quantities typed like the others; an added
 * line left blank is not sent.
 * Defect reasons (不良原因, core/defects.ts): each line shows its recorded reasons with their category of the
 * submission (划伤（工废）2、材料裂纹（料废）3、未注明 1), named from `GET /api/defect-reasons` (deactivated ones
 * too). The correction offers every active reason (and a deactivated one the line still names) with its pieces,
 * the sum against 不良 as on the 报工单; more than 不良 is stopped on the phone. A line whose reasons the reviewer
 * did not touch is sent without `defects` (the service keeps its reasons); one whose reasons were all cleared is
 * sent with `defects: []`.
 * Work orders (core/work-orders.ts): a line naming an order shows it with that operation's approved 成品 against the
 * planned quantity (`GET /api/work-orders/{orderNo}`, read once per order; unreadable: the order's number alone), and
 * the flow flags naming that order and operation (EXCEEDS_PREVIOUS_OPERATION, OVER_PLANNED: the service's sentences)
 * under it, besides the flags' list above.
 * Crew work (core/crew.ts): a crew line lists its members with their minutes on the device and their recorded shares;
 * a correction may untick members but the submitter (tapped like the 报工单's), and the line is sent with `crew` (the
 * members kept): the service splits it again by the recorded weights (one member left: the submitter's own line).
 * Opened by a new-report message with `reportId` (src/notifications/templates.ts). The taps on 通过 and 确认驳回 ask for
 * the next new-report message first (platform/subscribe.ts; the decision does not wait for the answer).
 */
import type { DefectReasonItem, Flag, ProductItem, ReportItem, ReviewAnswer, WorkOrderDetail } from '../../api/types';
import { minutesText, personName, recordedShareText } from '../../core/crew';
import { orderProgressText } from '../../core/work-orders';
import { defectInfo, defectsText, namedLine, orderReasons, reasonInputs, type DefectInfo, type ReasonQty } from '../../core/defects';
import { checkForm, type LineInput, type QuantityRow } from '../../core/draft';
import { STATUS_NAMES } from '../../core/login';
import { breakSourceText, teamText } from '../../core/placement';
import { reasonProblem } from '../../core/review';
import { clockTime, duration } from '../../core/time';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { back } from '../../platform/nav';
import { readReasons } from '../../platform/defect-reasons';
import { call, isFailure } from '../../platform/request';
import { askToSubscribe } from '../../platform/subscribe';

/** What a reviewer reads under the flags (the console's review drawer says the same). */
const FLAG_NOTE = '这些数据不可能为真，请先核对（可修正明细或驳回）；确认无误仍可通过，审计记录会写明“已知异常”。';

/** The flags as the page lists them: the service's sentences. */
const flagsOf = (flags: readonly Flag[]) => flags.map((f, i) => ({ key: `${f.code}-${i}`, code: f.code, message: f.message }));

interface Line extends QuantityRow {
  standard: string;
  outputQty: number;
  /** Added in this correction (not on the report yet). */
  added?: boolean;
  /** The recorded reasons as read: `划伤（工废）2、未注明 1` ('' without 不良). */
  defectsText: string;
  /** The reasons a correction offers, with the pieces recorded (then typed). */
  reasons: ReasonQty[];
  /** The sum against 不良 (core/defects.ts). */
  defect: DefectInfo;
  /** The reviewer typed in this line's reasons (then they are sent). */
  reasonsChanged: boolean;
  /** `工单 WO-1 · 折弯 已通过 480 / 计划 500` ('' for a line naming no order). */
  order: string;
  /** The flow flags' sentences naming this line's order and operation. */
  flowFlags: string[];
  /** A crew line's members: `张三 480 分钟 · 成品 571，不良 0` (none: not a crew line). */
  crew: string[];
  /** A crew line's members as a correction keeps them (ticked) or leaves them out; the submitter (`self`) stays. */
  members: CrewKeep[];
}

/** A recorded crew member in a correction: `张三（提交人） 480 分钟`. */
interface CrewKeep {
  phone: string;
  label: string;
  self: boolean;
  ticked: boolean;
}

/** The orders `orderNos` with their progress, read once each; one that cannot be read is left out (its number alone is shown). */
async function ordersOf(orderNos: readonly string[]): Promise<Record<string, WorkOrderDetail>> {
  const read = await Promise.all(
    [...new Set(orderNos)].map((no) => call<WorkOrderDetail>('GET', `/api/work-orders/${encodeURIComponent(no)}`).then((o) => o, () => undefined)),
  );
  const out: Record<string, WorkOrderDetail> = {};
  for (const o of read) if (o) out[o.orderNo] = o;
  return out;
}

/** The sentences of the flow flags of `flags` naming `orderNo` at `processName`. */
const flowFlagsOf = (flags: readonly Flag[], orderNo: string | undefined, processName: string): string[] =>
  orderNo
    ? flags
        .filter((f) => (f.code === 'EXCEEDS_PREVIOUS_OPERATION' || f.code === 'OVER_PLANNED') && f.workOrderNo === orderNo && f.processName === processName)
        .map((f) => f.message)
    : [];

/**
 * The reasons a correction offers on a line: the active ones by category and code, then any deactivated one the
 * line names (marked 已停用), each with the pieces recorded on the line.
 */
function offeredOn(all: readonly DefectReasonItem[], defects: readonly { reasonCode: string; qty: number }[] | undefined): ReasonQty[] {
  const named = new Map((defects ?? []).map((d) => [d.reasonCode, d.qty]));
  const offered = orderReasons(all.filter((r) => r.active || named.has(r.code)).map((r) => (r.active ? r : { ...r, name: `${r.name}（已停用）` })));
  return reasonInputs(offered).map((r) => (named.has(r.code) ? { ...r, qty: String(named.get(r.code)) } : r));
}

/** A product a correction may add: one of the report's devices' products not on the report. */
interface Addable {
  productId: number;
  label: string;
  standard: string;
}

/** Products one device may have, read 100 a page (the most `GET /api/products` gives at once). */
const PRODUCTS_PAGE = 100;

/** Every product of `deviceNo` (all pages of `GET /api/products?deviceNo=`). */
async function productsOf(deviceNo: string): Promise<ProductItem[]> {
  const all: ProductItem[] = [];
  for (let page = 1; ; page++) {
    const r = await call<{ items: ProductItem[]; total: number }>('GET', '/api/products', { query: { deviceNo, page, pageSize: PRODUCTS_PAGE } });
    all.push(...r.items);
    if (r.items.length === 0 || all.length >= r.total) return all;
  }
}

/** How a line's standards read (the report's copy for its lines; the product's current ones for an added line). */
const standardText = (l: { processName: string; deviceNo: string; standardCycleSeconds: number; standardWorkload: number }) =>
  `${l.processName} · ${l.deviceNo} · 标准节拍 ${l.standardCycleSeconds} 秒 · 标准工作量 ${l.standardWorkload}`;

Component({
  data: {
    reportId: '',
    loaded: false,
    who: '',
    date: '',
    times: '',
    /** Where the break came from (core/placement.ts). */
    breakSource: '',
    /** The report's 班组 as of its date: 冲压一班（冲压车间）, '' when none. */
    team: '',
    effective: '',
    devices: '',
    status: '',
    statusName: '',
    rejectReason: '',
    lines: [] as Line[],
    /** Every defect reason (deactivated ones too: a line may name one). */
    reasonList: [] as DefectReasonItem[],
    /** Why the reasons are not offered when reading them failed ('' otherwise). */
    reasonsNote: '',
    /** The report's devices (a correction adds products of these). */
    deviceNos: [] as string[],
    /** Products a correction may add (the picker's choices); `addNote` says why there are none. */
    addable: [] as Addable[],
    addNote: '',
    flags: [] as { key: string; code: string; message: string }[],
    flagNote: FLAG_NOTE,
    mode: 'view' as 'view' | 'correct' | 'reject',
    reason: '',
    problems: [] as string[],
    done: '',
    error: '',
    busy: false,
  },
  methods: {
    onLoad(options: Record<string, string | undefined>) {
      this.setData({ reportId: options.reportId ?? '' });
      if (!sessionOrLogin()) return;
      this.load();
    },
    async load() {
      try {
        const reasons = readReasons(false);
        const r = await call<ReportItem>('GET', `/api/reports/${this.data.reportId}`);
        const { items, note } = await reasons;
        const orders = await ordersOf(r.lines.flatMap((l) => (l.workOrderNo ? [l.workOrderNo] : [])));
        const names = Object.fromEntries(items.map((x) => [x.code, x.name]));
        this.setData({
          reasonList: items,
          reasonsNote: note,
          loaded: true,
          who: `${r.employeeName ?? ''} ${r.employeePhone}`,
          date: r.reportDate,
          times: `${clockTime(r.clockInAt)}–${clockTime(r.clockOutAt)}，休息 ${r.breakMinutes} 分钟`,
          breakSource: breakSourceText(r.breakSource, r.shiftName),
          team: teamText(r.teamName, r.workshopName),
          effective: duration(r.effectiveSeconds),
          devices: r.devices.join('、'),
          status: r.status,
          statusName: STATUS_NAMES[r.status],
          rejectReason: r.rejectReason ?? '',
          flags: flagsOf(r.flags),
          deviceNos: r.devices,
          addable: [],
          addNote: '',
          lines: r.lines.map((l) => ({
            productId: l.productId,
            name: l.productName,
            standard: standardText(l),
            finished: String(l.finishedQty),
            defective: String(l.defectiveQty),
            outputQty: l.outputQty,
            defectsText: items.length || l.defects?.length ? defectsText(l.defectiveQty, l.defects, names) : '',
            ...this.reasonsOf(String(l.defectiveQty), offeredOn(items, l.defects)),
            order: l.workOrderNo ? orderProgressText(l.workOrderNo, l.processName, orders[l.workOrderNo]) : '',
            flowFlags: flowFlagsOf(r.flags, l.workOrderNo, l.processName),
            crew: (l.shares ?? []).map(recordedShareText),
            members: (l.shares ?? []).map((m) => {
              const self = m.phone === r.employeePhone;
              return { phone: m.phone, label: `${personName(m)}${self ? '（提交人）' : ''} ${minutesText(m.seconds)}`, self, ticked: true };
            }),
          })),
          mode: 'view',
        });
      } catch (err) {
        this.setData({ error: stepOf(err).text });
      }
    },
    /** A line's offered reasons with the sum shown, untouched. */
    reasonsOf(defective: string, reasons: ReasonQty[]) {
      return { reasons, defect: defectInfo(defective, reasons), reasonsChanged: false };
    },
    onMode(e: WechatMiniprogram.TouchEvent) {
      const mode = e.currentTarget.dataset.mode as 'view' | 'correct' | 'reject';
      this.setData({ mode, problems: [], error: '' });
      if (mode === 'view') this.load();
      if (mode === 'correct') this.loadAddable();
    },
    /** The products a correction may add (module docstring). */
    async loadAddable() {
      try {
        const lists = await Promise.all(this.data.deviceNos.map(productsOf));
        const on = new Set(this.data.lines.map((l) => l.productId));
        const addable = lists
          .flat()
          .filter((p) => !on.has(p.id))
          .map((p): Addable => ({ productId: p.id, label: `${p.productName}（${p.processName} · ${p.deviceNo}）`, standard: standardText(p) }));
        this.setData({ addable, addNote: addable.length ? '' : '本报工单的设备上没有别的产品可添加' });
      } catch (err) {
        this.setData({ addable: [], addNote: `读取可添加的产品失败：${stepOf(err).text}` });
      }
    },
    /** 添加产品: the product picked becomes a blank line of the correction. */
    onAddLine(e: WechatMiniprogram.PickerChange) {
      const pick = this.data.addable[Number(e.detail.value)];
      if (!pick) return;
      const line: Line = {
        productId: pick.productId,
        name: pick.label,
        standard: pick.standard,
        finished: '',
        defective: '',
        outputQty: 0,
        added: true,
        defectsText: '',
        order: '',
        flowFlags: [],
        crew: [],
        members: [],
        ...this.reasonsOf('', offeredOn(this.data.reasonList, undefined)),
      };
      const addable = this.data.addable.filter((a) => a.productId !== pick.productId);
      this.setData({ lines: this.data.lines.concat(line), addable, addNote: addable.length ? '' : '本报工单的设备上没有别的产品可添加' });
    },
    onQty(e: WechatMiniprogram.Input) {
      const i = Number(e.currentTarget.dataset.index);
      const field = e.currentTarget.dataset.field === 'defective' ? 'defective' : 'finished';
      const line = this.data.lines[i];
      if (!line) return;
      const changed = { ...line, [field]: e.detail.value };
      this.setData({ [`lines[${i}].${field}`]: e.detail.value, [`lines[${i}].defect`]: defectInfo(changed.defective, changed.reasons) });
    },
    /** A reason's pieces typed in the correction: that quantity and the line's sum (path keys). */
    onReasonQty(e: WechatMiniprogram.Input) {
      const i = Number(e.currentTarget.dataset.index);
      const j = Number(e.currentTarget.dataset.reason);
      const line = this.data.lines[i];
      if (!line || !line.reasons[j]) return;
      const reasons = line.reasons.map((r, k) => (k === j ? { ...r, qty: e.detail.value } : r));
      this.setData({
        [`lines[${i}].reasons[${j}].qty`]: e.detail.value,
        [`lines[${i}].defect`]: defectInfo(line.defective, reasons),
        [`lines[${i}].reasonsChanged`]: true,
      });
    },
    /** A crew member tapped in the correction: ticked ↔ left out (the submitter stays). */
    onCrewMember(e: WechatMiniprogram.TouchEvent) {
      const i = Number(e.currentTarget.dataset.index);
      const k = Number(e.currentTarget.dataset.member);
      const m = this.data.lines[i]?.members[k];
      if (!m || m.self) return;
      this.setData({ [`lines[${i}].members[${k}].ticked`]: !m.ticked });
    },
    onReason(e: WechatMiniprogram.Input) {
      this.setData({ reason: e.detail.value });
    },
    /** 通过 (as it is) or, in correction mode, 修正后通过. */
    async onApprove() {
      let body: { lines?: LineInput[] } = {};
      if (this.data.mode === 'correct') {
        const check = checkForm(this.data.lines);
        if (check.problems.length) return this.setData({ problems: check.problems });
        // Reasons not touched are left out (the service keeps them); touched and all cleared: [].
        const touched = new Set(this.data.lines.filter((l) => l.reasonsChanged).map((l) => l.productId));
        // A crew line: the members kept (all of them: the recorded crew, split again for the corrected quantities).
        const crews = new Map(this.data.lines.filter((l) => l.members.length).map((l) => [l.productId, l.members.filter((m) => m.ticked).map((m) => m.phone)]));
        body = {
          lines: check.lines.map(({ defects, ...l }) => {
            const crew = crews.get(l.productId);
            return { ...(touched.has(l.productId) ? { ...l, defects: defects ?? [] } : l), ...(crew ? { crew } : {}) };
          }),
        };
      }
      void askToSubscribe('newReport');
      await this.decide('approve', body);
    },
    async onReject() {
      const problem = reasonProblem(this.data.reason, true);
      if (problem) return this.setData({ problems: [problem] });
      void askToSubscribe('newReport');
      await this.decide('reject', { reason: this.data.reason.trim() });
    },
    async decide(what: 'approve' | 'reject', body: object) {
      this.setData({ busy: true, problems: [], error: '' });
      try {
        const a = await call<ReviewAnswer>('POST', `/api/reviews/${this.data.reportId}/${what}`, { body, retry: true });
        const known = a.status === 'approved' && a.flags.length ? `（已知异常 ${a.flags.length} 项，已记入审计记录）` : '';
        const done = (a.status === 'rejected' ? '已驳回' : a.corrected ? '已修正并通过' : '已通过') + known;
        await this.load();
        this.setData({ done });
      } catch (err) {
        const sent = (body as { lines?: LineInput[] }).lines ?? [];
        const names = new Map(this.data.lines.map((l) => [l.productId, l.name]));
        const line = isFailure(err) ? err.details?.line : undefined;
        this.setData({ error: namedLine(stepOf(err).text, line, sent.map((l) => names.get(l.productId) ?? '')) });
        if (stepOf(err).action === 'refresh') await this.load();
      } finally {
        this.setData({ busy: false });
      }
    },
    onBack() {
      back();
    },
  },
});
