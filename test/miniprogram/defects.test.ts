/**
 * Defect reasons (不良原因) on the phone: the rules of miniprogram/core/defects.ts and their part in the form
 * (core/draft.ts), then the pages against the real service (startTestApp, each person with a phone whose
 * `wx.request` goes to the service over HTTP, the phones' `Date` following the service's clock):
 *
 * - 报工单: a worker enters 100 成品 and 6 不良 on 前围横梁; the active reasons open by themselves (a deactivated one
 *   is not offered), 2 划伤 (工废) + 3 材料裂纹 (料废) are typed, the sum read against 不良; more than 不良 is stopped
 *   on the phone with a sentence and nothing is sent; the typed reasons survive the page being reloaded; a reason's
 *   keystroke sends only that quantity and the row's sum to the view; the service stores the reasons with their
 *   categories; the next 报工单 lists the reasons this worker used most on each product first.
 * - 审核: the reviewer reads each line's reasons (name, category, qty, 未注明), corrects them (over the sum stopped
 *   first), and the service keeps the correction; a line whose reasons were not touched is sent without them.
 * - 我的工资: the statement line's 工废 / 料废 split and both prices, the amount worked out by hand:
 *   100 × 1.20 + (1 工废 + 1 其他 + 1 未注明) × (−0.50) + 3 料废 × 1.20 = 122.10.
 * - With DEFECT_REASONS_REQUIRED=true the service's DEFECTS_SUM_MISMATCH sentence is shown with the product's name;
 *   a reason deactivated while the 报工单 is open: the service's sentence, and the reasons read again without it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PageDriver, ScriptedWx, forwardTo, openPage, until } from './harness.ts';
import {
  defectInfo,
  defectsText,
  namedLine,
  orderReasons,
  reasonInputs,
  wageSplitText,
  withUse,
  type Reason,
} from '../../miniprogram/core/defects.ts';
import { checkForm, typedOf, withTyped } from '../../miniprogram/core/draft.ts';

const SCR: Reason = { code: 'SCR', name: '划伤', category: 'operator' };
const CRK: Reason = { code: 'CRK', name: '材料裂纹', category: 'material' };
const JAM: Reason = { code: 'JAM', name: '卡模', category: 'other' };
const BURR: Reason = { code: 'BUR', name: '毛刺', category: 'operator' };

describe('the rules', () => {
  it('orders the reasons by this worker’s use on the product, then category (工废, 料废, 其他), then code', () => {
    expect(orderReasons([JAM, CRK, SCR, BURR]).map((r) => r.code)).toEqual(['BUR', 'SCR', 'CRK', 'JAM']);
    expect(orderReasons([JAM, CRK, SCR, BURR], { JAM: 3, SCR: 1 }).map((r) => r.code)).toEqual(['JAM', 'SCR', 'BUR', 'CRK']);
    expect(withUse(withUse(undefined, ['JAM', 'SCR']), ['JAM'])).toEqual({ JAM: 2, SCR: 1 });
  });

  it('shows the sum against 不良, and what is left or too many', () => {
    const reasons = reasonInputs([SCR, CRK]).map((r, i) => ({ ...r, qty: ['2', '3'][i] }));
    expect(defectInfo('6', reasons)).toEqual({ show: true, text: '已注明 5 / 不良 6（1 件未注明）', over: false });
    expect(defectInfo('5', reasons)).toEqual({ show: true, text: '已注明 5 / 不良 5', over: false });
    expect(defectInfo('4', reasons)).toEqual({ show: true, text: '已注明 5 / 不良 4：多了 1 件，请核对', over: true });
    expect(defectInfo('', reasonInputs([SCR])).show).toBe(false);
    expect(defectInfo('3', []).show).toBe(false);
  });

  it('checks a row’s reasons before sending: whole numbers, at most 不良; sends only those with pieces', () => {
    const row = (defective: string, qty: string[]) => ({ productId: 1, name: '前围横梁', finished: '100', defective, reasons: reasonInputs([SCR, CRK, JAM]).map((r, i) => ({ ...r, qty: qty[i] ?? '' })) });
    expect(checkForm([row('6', ['2', '3', ''])])).toEqual({
      lines: [{ productId: 1, finishedQty: 100, defectiveQty: 6, defects: [{ reasonCode: 'SCR', qty: 2 }, { reasonCode: 'CRK', qty: 3 }] }],
      problems: [],
      totals: { finished: 100, defective: 6, output: 106 },
    });
    expect(checkForm([row('6', ['', '0', ''])]).lines).toEqual([{ productId: 1, finishedQty: 100, defectiveQty: 6 }]);
    expect(checkForm([row('6', ['4', '3'])]).problems).toEqual(['“前围横梁”的不良原因合计 7 件，超过了不良数量 6 件，请核对']);
    expect(checkForm([row('0', ['1'])]).problems).toEqual(['“前围横梁”的不良原因合计 1 件，超过了不良数量 0 件，请核对']);
    // 0 and 0 is no line (a correction removes a line so): its reasons go with it.
    expect(checkForm([{ ...row('0', ['2', '3']), finished: '0' }], true)).toEqual({ lines: [], problems: [], totals: { finished: 0, defective: 0, output: 0 } });
    expect(checkForm([row('6', ['1.5'])]).problems).toEqual(['“前围横梁”的不良原因“划伤”请填写 0 到 10000000 之间的整数']);
  });

  it('keeps the pieces typed per reason with the quantities, and puts them back on the reasons still offered', () => {
    const rows = [{ productId: 1, name: 'A', finished: '', defective: '6', reasons: reasonInputs([SCR, CRK]).map((r, i) => ({ ...r, qty: ['2', ''][i] })) }];
    const typed = typedOf(rows);
    expect(typed).toEqual({ 1: { finished: '', defective: '6', defects: { SCR: '2' } } });
    const again = withTyped([{ productId: 1, name: 'A', finished: '', defective: '', reasons: reasonInputs([CRK, SCR]) }], typed);
    expect(again[0].defective).toBe('6');
    expect(again[0].reasons!.map((r) => [r.code, r.qty])).toEqual([['CRK', ''], ['SCR', '2']]);
  });

  it('reads a line’s reasons for the reviewer and the wage statement’s split', () => {
    const names = { SCR: '划伤', CRK: '材料裂纹' };
    expect(defectsText(6, [{ reasonCode: 'SCR', qty: 2, category: 'operator' }, { reasonCode: 'CRK', qty: 3, category: 'material' }], names)).toBe('划伤（工废）2、材料裂纹（料废）3、未注明 1');
    expect(defectsText(4, undefined, names)).toBe('未注明 4');
    expect(defectsText(0, undefined, names)).toBe('');
    expect(defectsText(1, [{ reasonCode: 'GONE', qty: 1, category: 'other' }], names)).toBe('GONE（其他）1');
    const split = {
      defectiveQty: 6,
      defects: [{ reasonName: '划伤', category: 'operator', qty: 2 }, { reasonName: '材料裂纹', category: 'material', qty: 3 }],
      operatorDefectQty: 2, materialDefectQty: 3, otherDefectQty: 0, unexplainedDefectQty: 1,
    };
    expect(wageSplitText(split)).toBe('工废 2 件（划伤 2），料废 3 件（材料裂纹 3），未注明 1 件');
    expect(wageSplitText({ ...split, defects: [], operatorDefectQty: 0, materialDefectQty: 0, unexplainedDefectQty: 6 })).toBe('');
    expect(namedLine('第 2 行……', 2, ['前围横梁', '后围横梁'])).toBe('“后围横梁”：第 2 行……');
    expect(namedLine('没有行', undefined, ['前围横梁'])).toBe('没有行');
  });
});

const WORKER = '13700000001';
const ADMIN = '13800000001';
const MANAGER = '13900000001';

/** A service with a worker's, an administrator's and a manager's phone (each logged in, their sessions stored). */
async function service(env: Record<string, string>) {
  const app = await startTestApp(env, '2026-03-02T07:30:00+08:00');
  const tokens: Record<string, string> = {};
  const phones: Record<string, ScriptedWx> = {};
  for (const [phone, role, name] of [[WORKER, 'worker', '张三'], [ADMIN, 'admin', '王管理'], [MANAGER, 'manager', '李经理']] as const) {
    tokens[phone] = await app.login(phone, role, name);
    const wx = new ScriptedWx(forwardTo(app.url));
    wx.storage.set('session', { token: tokens[phone], expiresAt: '2099-01-01T00:00:00+08:00', person: { phone, name }, role, roles: [role] });
    phones[phone] = wx;
  }
  const call = async (who: string, method: string, path: string, body?: unknown) => {
    const r = await app.request(method, path, { token: tokens[who], body });
    expect([200, 201], `${method} ${path}: ${JSON.stringify(r.body)}`).toContain(r.status);
    return r.body;
  };
  for (const [code, name, category] of [['SCR', '划伤', 'operator'], ['CRK', '材料裂纹', 'material'], ['JAM', '卡模', 'other'], ['OLD', '旧原因', 'operator']]) {
    await call(MANAGER, 'POST', '/api/defect-reasons', { code, name, category });
  }
  await call(MANAGER, 'PUT', '/api/defect-reasons/OLD', { active: false });
  for (const productName of ['前围横梁', '后围横梁']) {
    await call(ADMIN, 'POST', '/api/products', { projectNo: 'P-1', productName, deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 12, standardWorkload: 2400 });
  }
  const products = (await call(ADMIN, 'GET', '/api/products?page=1&pageSize=50')).items as { id: number; productName: string }[];
  const id = (name: string) => products.find((p) => p.productName === name)!.id;
  /** A shift of the worker on K-12 from `from` to `to` (ISO instants); its session id. */
  const shift = async (from: string, to: string) => {
    setTime(app, from);
    const s = await call(WORKER, 'POST', '/api/clock/start', { deviceNo: 'K-12' });
    setTime(app, to);
    await call(WORKER, 'POST', '/api/clock/finish', { deviceNo: 'K-12' });
    return s.sessionId as string;
  };
  return { app, phones, call, id, shift };
}

/** Moves the service's clock and the phones' `Date` to `iso`. */
function setTime(app: TestApp, iso: string) {
  app.clock.set(iso);
  vi.setSystemTime(new Date(iso));
}

const open: PageDriver[] = [];
async function page(wx: ScriptedWx, url: string): Promise<PageDriver> {
  const p = await openPage(url, wx);
  open.push(p);
  return p;
}
const closeAll = () => {
  while (open.length) open.pop()!.close();
};
/** The index among `.reason-qty` inputs of the reason `name` on the `row`th product card (reasons are unfolded). */
function reasonIndex(p: PageDriver, row: number, name: string): number {
  const perRow = p.comp.data.rows ? p.comp.data.rows.map((r: any) => (r.open && r.defect.show ? r.reasons.length : 0)) : p.comp.data.lines.map((l: any) => (l.defect.show ? l.reasons.length : 0));
  const list = (p.comp.data.rows ?? p.comp.data.lines)[row].reasons as { name: string }[];
  const j = list.findIndex((r) => r.name === name);
  if (j < 0) throw new Error(`no reason ${name} on row ${row}`);
  return perRow.slice(0, row).reduce((a: number, b: number) => a + b, 0) + j;
}

describe('against the service (DEFECT_REASONS_REQUIRED off)', () => {
  let s: Awaited<ReturnType<typeof service>>;
  let reportId = '';
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    s = await service({});
    const rate = (name: string, pieceRate: string, defectRate: string, materialDefectRate?: string) =>
      s.call(ADMIN, 'POST', `/api/products/${s.id(name)}/rates`, { pieceRate, defectRate, ...(materialDefectRate ? { materialDefectRate } : {}), effectiveFrom: '2026-03-01' });
    await rate('前围横梁', '1.2000', '-0.5000', '1.2000');
    await rate('后围横梁', '0.1000', '0.0000');
  }, 60_000);
  afterAll(async () => {
    closeAll();
    vi.useRealTimers();
    await s?.app.close();
  });

  it('报工单: 6 不良 opens the reasons; 2 划伤 + 3 材料裂纹 are typed, kept, checked against 不良, and stored with their categories', async () => {
    const sessionId = await s.shift('2026-03-02T08:00:00+08:00', '2026-03-02T17:00:00+08:00');
    const wx = s.phones[WORKER];
    const url = `/pages/report/report?sessionId=${sessionId}`;
    let report = await page(wx, url);
    expect(report.texts('.product-name')).toEqual(['前围横梁', '后围横梁']);
    expect(report.texts('.reasons')).toEqual([]);
    report.input('.finished', '100', 0);
    report.input('.defective', '6', 0);
    await report.settle();
    // The active reasons by category (工废, 料废, 其他) then code; the deactivated 旧原因 is not offered.
    expect(report.texts('.reason-name')).toEqual(['划伤工废', '材料裂纹料废', '卡模其他']);
    expect(report.texts('.reasons-sum')).toEqual(['已注明 0 / 不良 6（6 件未注明）']);
    report.input('.reason-qty', '2', reasonIndex(report, 0, '划伤'));
    report.input('.reason-qty', '5', reasonIndex(report, 0, '材料裂纹'));
    await report.settle();
    expect(report.texts('.reasons-sum')).toEqual(['已注明 7 / 不良 6：多了 1 件，请核对']);
    // More than 不良: stopped on the phone, nothing sent.
    const posts = () => wx.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/api/reports')).length;
    report.tap('#submit');
    await report.waitFor('“前围横梁”的不良原因合计 7 件，超过了不良数量 6 件，请核对');
    expect(posts()).toBe(0);

    // The app is killed and the 报工单 opened again: the reasons typed are back with the quantities.
    report.close();
    open.splice(open.indexOf(report), 1);
    report = await page(wx, url);
    expect(report.comp.data.rows[0].reasons.map((r: any) => [r.name, r.qty])).toEqual([['划伤', '2'], ['材料裂纹', '5'], ['卡模', '']]);
    expect(report.texts('.reasons-sum')).toEqual(['已注明 7 / 不良 6：多了 1 件，请核对']);

    // A reason's keystroke sends that quantity and the row's sum only.
    const sent: Record<string, unknown>[] = [];
    const setData = report.comp.instance.setData.bind(report.comp.instance);
    report.comp.instance.setData = (data: Record<string, unknown>, cb?: () => void) => {
      sent.push(data);
      return setData(data, cb);
    };
    report.input('.reason-qty', '3', reasonIndex(report, 0, '材料裂纹'));
    await report.settle();
    expect(sent).toEqual([{ 'rows[0].reasons[1].qty': '3', 'rows[0].defect': { show: true, text: '已注明 5 / 不良 6（1 件未注明）', over: false } }]);
    expect(report.texts('.reasons-sum')).toEqual(['已注明 5 / 不良 6（1 件未注明）']);
    // 收起 / 填写不良原因 folds and unfolds the list, the sum stays in sight.
    report.tap('.reasons-toggle', 0);
    await report.settle();
    expect(report.texts('.reason-name')).toEqual([]);
    expect(report.texts('.reasons-toggle')).toEqual(['填写不良原因']);
    report.tap('.reasons-toggle', 0);
    await report.settle();
    expect(report.texts('.reasons-toggle')).toEqual(['收起不良原因']);

    // 后围横梁: 10 成品, 1 不良 of 卡模 (其他).
    report.input('.finished', '10', 1);
    report.input('.defective', '1', 1);
    await report.settle();
    report.input('.reason-qty', '1', reasonIndex(report, 1, '卡模'));
    await report.settle();
    expect(report.texts('.reasons-sum')).toEqual(['已注明 5 / 不良 6（1 件未注明）', '已注明 1 / 不良 1']);
    report.tap('#submit');
    await until(() => (wx.lastUrl ?? '').startsWith('/pages/mine/mine'), 'my reports');
    const body = wx.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/api/reports')).at(-1)!.data;
    expect(body).toEqual({
      sessionId,
      lines: [
        { productId: s.id('前围横梁'), finishedQty: 100, defectiveQty: 6, defects: [{ reasonCode: 'SCR', qty: 2 }, { reasonCode: 'CRK', qty: 3 }] },
        { productId: s.id('后围横梁'), finishedQty: 10, defectiveQty: 1, defects: [{ reasonCode: 'JAM', qty: 1 }] },
      ],
    });
    reportId = new URL(`http://x${wx.lastUrl}`).searchParams.get('submitted')!;
    const stored = await s.call(ADMIN, 'GET', `/api/reports/${reportId}`);
    expect(stored.lines.map((l: any) => l.defects)).toEqual([
      [{ reasonCode: 'SCR', qty: 2, category: 'operator' }, { reasonCode: 'CRK', qty: 3, category: 'material' }],
      [{ reasonCode: 'JAM', qty: 1, category: 'other' }],
    ]);
    expect(wx.storage.has(`report-typed:${sessionId}`)).toBe(false);
    closeAll();
  });

  it('the next 报工单 lists the reasons this worker used most on each product first', async () => {
    const sessionId = await s.shift('2026-03-03T08:00:00+08:00', '2026-03-03T17:00:00+08:00');
    const report = await page(s.phones[WORKER], `/pages/report/report?sessionId=${sessionId}`);
    report.input('.defective', '1', 0);
    report.input('.defective', '1', 1);
    await report.settle();
    const names = report.comp.data.rows.map((r: any) => r.reasons.map((x: any) => x.name));
    expect(names).toEqual([
      ['划伤', '材料裂纹', '卡模'],
      ['卡模', '划伤', '材料裂纹'],
    ]);
    closeAll();
  });

  it('审核: the reviewer reads each line’s reasons, corrects them (over the sum stopped first), and the service keeps the correction', async () => {
    setTime(s.app, '2026-03-03T18:00:00+08:00');
    const wx = s.phones[ADMIN];
    const detail = await page(wx, `/pages/review/detail?reportId=${reportId}`);
    expect(detail.texts('.line-defects')).toEqual(['不良原因：划伤（工废）2、材料裂纹（料废）3、未注明 1', '不良原因：卡模（其他）1']);
    detail.tap('#correct');
    await detail.settle();
    expect(detail.texts('.reasons-sum')).toEqual(['已注明 5 / 不良 6（1 件未注明）', '已注明 1 / 不良 1']);
    expect(detail.comp.data.lines[0].reasons.map((r: any) => [r.name, r.qty])).toEqual([['划伤', '2'], ['材料裂纹', '3'], ['卡模', '']]);
    detail.input('.reason-qty', '1', reasonIndex(detail, 0, '划伤'));
    detail.input('.reason-qty', '3', reasonIndex(detail, 0, '卡模'));
    await detail.settle();
    expect(detail.texts('.reasons-sum')[0]).toBe('已注明 7 / 不良 6：多了 1 件，请核对');
    detail.tap('#approve-corrected');
    await detail.waitFor('“前围横梁”的不良原因合计 7 件，超过了不良数量 6 件，请核对');
    expect(wx.requests.filter((r) => r.method === 'POST')).toEqual([]);
    detail.input('.reason-qty', '1', reasonIndex(detail, 0, '卡模'));
    detail.tap('#approve-corrected');
    await detail.waitFor('已修正并通过');
    // The line whose reasons were not touched is sent without them: the service keeps them.
    expect(wx.requests.filter((r) => r.method === 'POST').at(-1)!.data).toEqual({
      lines: [
        { productId: s.id('前围横梁'), finishedQty: 100, defectiveQty: 6, defects: [{ reasonCode: 'SCR', qty: 1 }, { reasonCode: 'CRK', qty: 3 }, { reasonCode: 'JAM', qty: 1 }] },
        { productId: s.id('后围横梁'), finishedQty: 10, defectiveQty: 1 },
      ],
    });
    expect(detail.texts('.line-defects')).toEqual(['不良原因：划伤（工废）1、材料裂纹（料废）3、卡模（其他）1、未注明 1', '不良原因：卡模（其他）1']);
    const stored = await s.call(ADMIN, 'GET', `/api/reports/${reportId}`);
    expect(stored.lines.map((l: any) => l.defects)).toEqual([
      [{ reasonCode: 'SCR', qty: 1, category: 'operator' }, { reasonCode: 'CRK', qty: 3, category: 'material' }, { reasonCode: 'JAM', qty: 1, category: 'other' }],
      [{ reasonCode: 'JAM', qty: 1, category: 'other' }],
    ]);
    closeAll();
  });

  it('我的工资: each line’s 工废 / 料废 split and both prices; the amount worked out by hand', async () => {
    await s.app.catchUpAll();
    // Rates in ten-thousandths of a yuan, one rounding per line (decisions.md "Wages", "不良原因"):
    //   前围横梁: 100 × 12,000 + (1 工废 + 1 其他 + 1 未注明) × (−5,000) + 3 料废 × 12,000 = 1,200,000 − 15,000 + 36,000
    //             = 1,221,000 → 12,210 fen = ¥122.10
    //   后围横梁: 10 × 1,000 + 1 其他 × 0 = 10,000 → 100 fen = ¥1.00;  month 12,310 fen = ¥123.10
    const wages = await page(s.phones[WORKER], '/pages/wages/wages');
    expect(wages.texts('#amount')).toEqual(['¥123.10']);
    expect(wages.texts('.line-amount')).toEqual(['¥122.10', '¥1.00']);
    expect(wages.texts('.line-detail')).toEqual([
      '成品 100 件，不良 6 件；单价 1.2000 元/件，不良 -0.5000 元/件，料废 1.2000 元/件',
      '成品 10 件，不良 1 件；单价 0.1000 元/件',
    ]);
    expect(wages.texts('.line-defects')).toEqual([
      '不良中：工废 1 件（划伤 1），料废 3 件（材料裂纹 3），其他 1 件（卡模 1），未注明 1 件',
      '不良中：其他 1 件（卡模 1）',
    ]);
    const statement = await s.call(WORKER, 'GET', '/api/wages/mine?month=2026-03');
    expect(statement.reports[0].lines.map((l: any) => l.amount)).toEqual(['122.10', '1.00']);
    expect(s.app.contractDeviations()).toEqual([]);
    closeAll();
  });
});

describe('against the service with DEFECT_REASONS_REQUIRED=true', () => {
  let s: Awaited<ReturnType<typeof service>>;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    s = await service({ DEFECT_REASONS_REQUIRED: 'true' });
  }, 60_000);
  afterAll(async () => {
    closeAll();
    vi.useRealTimers();
    await s?.app.close();
  });

  it('shows the service’s sentences with the product’s name: every piece needs a reason; a reason deactivated meanwhile', async () => {
    const sessionId = await s.shift('2026-03-02T08:00:00+08:00', '2026-03-02T17:00:00+08:00');
    const wx = s.phones[WORKER];
    const report = await page(wx, `/pages/report/report?sessionId=${sessionId}`);
    // Only the second product is filled: the service's 第 1 行 is 后围横梁, and the phone names it.
    report.input('.finished', '100', 1);
    report.input('.defective', '6', 1);
    await report.settle();
    report.input('.reason-qty', '5', reasonIndex(report, 1, '划伤'));
    report.tap('#submit');
    await report.waitFor('“后围横梁”：第 1 行不良数量 6，已填原因的只有 5：每件不良都要填写原因，请补齐');
    expect(wx.storage.has(`report-typed:${sessionId}`)).toBe(true);

    // 卡模 is deactivated while the 报工单 is open.
    report.input('.reason-qty', '1', reasonIndex(report, 1, '卡模'));
    await s.call(MANAGER, 'PUT', '/api/defect-reasons/JAM', { active: false });
    report.tap('#submit');
    await report.waitFor('“后围横梁”：第 1 行的不良原因 JAM 已停用，请刷新后重新选择');
    await until(() => report.comp.data.rows[1].reasons.length === 2, 'the reasons read again');
    expect(report.comp.data.rows[1].reasons.map((r: any) => [r.name, r.qty])).toEqual([['划伤', '5'], ['材料裂纹', '']]);
    expect(report.texts('.reasons-sum')).toEqual(['已注明 5 / 不良 6（1 件未注明）']);
    report.input('.reason-qty', '1', reasonIndex(report, 1, '材料裂纹'));
    report.tap('#submit');
    await until(() => (wx.lastUrl ?? '').startsWith('/pages/mine/mine'), 'my reports');
    const reportId = new URL(`http://x${wx.lastUrl}`).searchParams.get('submitted')!;
    expect((await s.call(ADMIN, 'GET', `/api/reports/${reportId}`)).lines[0].defects).toEqual([
      { reasonCode: 'SCR', qty: 5, category: 'operator' },
      { reasonCode: 'CRK', qty: 1, category: 'material' },
    ]);
    expect(s.app.contractDeviations()).toEqual([]);
  });
});
