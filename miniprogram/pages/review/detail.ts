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
 * Opened by a new-report message with `reportId` (src/notifications/templates.ts). The taps on 通过 and 确认驳回 ask for
 * the next new-report message first (platform/subscribe.ts; the decision does not wait for the answer).
 */
import type { Flag, ProductItem, ReportItem, ReviewAnswer } from '../../api/types';
import { checkForm, type QuantityRow } from '../../core/draft';
import { STATUS_NAMES } from '../../core/login';
import { breakSourceText, teamText } from '../../core/placement';
import { reasonProblem } from '../../core/review';
import { clockTime, duration } from '../../core/time';
import { stepOf } from '../../platform/failure';
import { sessionOrLogin } from '../../platform/guard';
import { back } from '../../platform/nav';
import { call } from '../../platform/request';
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
        const r = await call<ReportItem>('GET', `/api/reports/${this.data.reportId}`);
        this.setData({
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
          })),
          mode: 'view',
        });
      } catch (err) {
        this.setData({ error: stepOf(err).text });
      }
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
      const line: Line = { productId: pick.productId, name: pick.label, standard: pick.standard, finished: '', defective: '', outputQty: 0, added: true };
      const addable = this.data.addable.filter((a) => a.productId !== pick.productId);
      this.setData({ lines: this.data.lines.concat(line), addable, addNote: addable.length ? '' : '本报工单的设备上没有别的产品可添加' });
    },
    onQty(e: WechatMiniprogram.Input) {
      const i = Number(e.currentTarget.dataset.index);
      const field = e.currentTarget.dataset.field === 'defective' ? 'defective' : 'finished';
      const lines = this.data.lines.slice();
      lines[i] = { ...lines[i], [field]: e.detail.value };
      this.setData({ lines });
    },
    onReason(e: WechatMiniprogram.Input) {
      this.setData({ reason: e.detail.value });
    },
    /** 通过 (as it is) or, in correction mode, 修正后通过. */
    async onApprove() {
      let body: { lines?: { productId: number; finishedQty: number; defectiveQty: number }[] } = {};
      if (this.data.mode === 'correct') {
        const check = checkForm(this.data.lines);
        if (check.problems.length) return this.setData({ problems: check.problems });
        body = { lines: check.lines };
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
        this.setData({ error: stepOf(err).text });
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
