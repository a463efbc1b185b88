/**
 * Work orders (生产工单) on the phone: the rules of miniprogram/core/work-orders.ts, core/sha256.ts (a ticket's key,
 * as the service makes it) and the `o=` scene, then the pages against the real service (startTestApp, each person
 * with a phone whose `wx.request` goes to the service over HTTP, the phones' `Date` following the service's clock):
 *
 *   products  P-26 支架 on JC-1 冲压, JC-2 折弯
 *   orders    WO-A plan 1000, due 2026-03-04, 冲压→折弯; WO-B plan 200, due 2026-03-31, 冲压→折弯
 *   03-02     张三 at JC-1: the 报工单 offers WO-A (earliest due) then WO-B then 不指定工单; 扫工票 of WO-B chooses it, a
 *             ticket of an order not offered is said; WO-A picked again; 500 成品 sent with workOrderNo WO-A
 *             李四 at JC-2: 510 + 10 at 折弯 for WO-A (the default) → EXCEEDS_PREVIOUS_OPERATION (520 > 500)
 *   审核       the line reads 工单 WO-A · 折弯 已通过 0 / 计划 1000 with the flag's sentence; approved knowingly → 510 / 1000
 *   03-03     a ticket of WO-B scanned with WeChat's camera (no 报工单 yet) is kept; 张三's next 报工单 chooses WO-B by
 *             itself; 不指定工单 picked: the line goes without an order
 *   03-05     the manager's 首页 lists WO-A as late (51%); a worker's 首页 shows no orders
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { deviceKeyOf } from '../../src/devices/device.ts';
import { ticketSceneFor } from '../../src/platform/work-order-tickets.ts';
import type { TestApp } from '../helpers/app.ts';
import { servicePhones } from './service-phones.ts';
import { codeKeyOf } from '../../miniprogram/core/sha256.ts';
import { parseScanPath, parseScene } from '../../miniprogram/core/scene.ts';
import { lateOrderText, orderChoices, orderLabel, orderProgressText, ticketPick } from '../../miniprogram/core/work-orders.ts';

describe('the rules', () => {
  it('makes a ticket’s key as the service does (base64url SHA-256 of the UTF-8 order number, 10 characters)', () => {
    for (const no of ['WO-2611-07', 'WO-A', '工单-冲压-0001', 'x'.repeat(40), '😀号', 'A\u00e9\u4e2d\ud83d\ude00']) {
      expect(codeKeyOf(no)).toBe(deviceKeyOf(no));
      expect(`o=${codeKeyOf(no)}`).toBe(ticketSceneFor(no));
    }
  });

  it('reads a ticket’s scene as a page opened by it gets it, and as the scan button reads its path', () => {
    const key = codeKeyOf('WO-A');
    expect(parseScene(encodeURIComponent(`o=${key}`))).toEqual({ kind: 'workOrder', key, scene: `o=${key}` });
    expect(parseScanPath(`pages/report/report?scene=o=${key}`)).toEqual({ kind: 'workOrder', key, scene: `o=${key}` });
    expect(parseScene('o=')).toMatchObject({ kind: 'unknown' });
  });

  const A = { orderNo: 'WO-A', plannedQty: 1000, reportedFinishedQty: 500, dueDate: '2026-03-04' };
  const B = { orderNo: 'WO-B', plannedQty: 200, reportedFinishedQty: 0, dueDate: null };

  it('offers the orders in the draft’s order, the first chosen, 不指定工单 last', () => {
    expect(orderLabel(A)).toBe('WO-A（交期 3月4日，本工序已报 500 / 计划 1000）');
    expect(orderLabel(B)).toBe('WO-B（本工序已报 0 / 计划 200）');
    expect(orderChoices([A, B])).toEqual({ labels: [orderLabel(A), orderLabel(B), '不指定工单'], chosen: 0 });
    expect(orderChoices([])).toEqual({ labels: ['不指定工单'], chosen: 0 });
  });

  it('a ticket chooses its order on every line offering it, skips a blocked line, and says when no line offers it', () => {
    const rows = [{ name: '支架', orders: [A, B] }, { name: '底座', orders: [B] }, { name: '横梁', orders: [] }];
    expect(ticketPick(codeKeyOf('WO-B'), rows)).toEqual({ picks: [{ row: 0, index: 1 }, { row: 1, index: 0 }], orderNo: 'WO-B', ok: true, text: '已选择工单 WO-B：“支架”、“底座”' });
    expect(ticketPick(codeKeyOf('WO-B'), rows, (i) => i === 0).picks).toEqual([{ row: 1, index: 0 }]);
    const none = ticketPick(codeKeyOf('WO-Z'), rows);
    expect([none.ok, none.picks, none.text]).toEqual([false, [], '这张工票的工单不在这张报工单上：它不是这次上班设备上的产品和工序的工单，或已完工、关闭、作废。请核对工票，或联系班组长']);
  });

  it('reads a line’s order progress for the reviewer and a late order for the manager', () => {
    const order = { plannedQty: 1000, operations: [{ processName: '冲压', approvedFinishedQty: 500 }, { processName: '折弯', approvedFinishedQty: 0 }] };
    expect(orderProgressText('WO-A', '折弯', order)).toBe('工单 WO-A · 折弯 已通过 0 / 计划 1000');
    expect(orderProgressText('WO-A', '折弯')).toBe('工单 WO-A');
    expect(lateOrderText({ orderNo: 'WO-A', productName: '支架', dueDate: '2026-03-04', completionPct: 51 })).toBe('WO-A · 支架 · 交期 3月4日 · 完成 51%');
  });
});

const ZHANG = '13700000001';
const LI = '13700000002';
const ADMIN = '13800000001';
const MANAGER = '13900000001';

describe('against the service', () => {
  const svc = servicePhones(
    [
      [ZHANG, 'worker', '张三'],
      [LI, 'worker', '李四'],
      [ADMIN, 'admin', '王管理'],
      [MANAGER, 'manager', '李经理'],
    ],
    '2026-03-01T09:00:00+08:00',
  );
  const { phones, page, call } = svc;
  let app: TestApp;
  /** A shift of `who` on `device` from `from` to `to`; its session id (the clock left at `to`). */
  const shift = async (who: string, device: string, from: string, to: string) => {
    svc.setTime(from);
    const s = await call(who, 'POST', '/api/clock/start', { deviceNo: device });
    svc.setTime(to);
    await call(who, 'POST', '/api/clock/finish', { deviceNo: device });
    return s.sessionId as string;
  };
  const reportIds: Record<string, string> = {};

  beforeAll(async () => {
    app = svc.app;
    for (const [deviceNo, processName] of [['JC-1', '冲压'], ['JC-2', '折弯']]) {
      await call(MANAGER, 'POST', '/api/products', { projectNo: 'P-26', productName: '支架', deviceNo, processName, standardCycleSeconds: 10 });
    }
    await call(MANAGER, 'POST', '/api/work-orders', { orderNo: 'WO-A', projectNo: 'P-26', productName: '支架', plannedQty: 1000, dueDate: '2026-03-04', operations: ['冲压', '折弯'] });
    await call(MANAGER, 'POST', '/api/work-orders', { orderNo: 'WO-B', projectNo: 'P-26', productName: '支架', plannedQty: 200, dueDate: '2026-03-31', operations: ['冲压', '折弯'] });
  }, 60_000);

  it('报工单: the earliest due order is chosen; 扫工票 chooses another or says it fits no line; the line is sent with its order', async () => {
    const sessionId = await shift(ZHANG, 'JC-1', '2026-03-02T08:00:00+08:00', '2026-03-02T16:00:00+08:00');
    const wx = phones[ZHANG];
    let report = await page(ZHANG, `/pages/report/report?sessionId=${sessionId}`);
    expect(report.texts('.order-pick')).toEqual(['工单：WO-A（交期 3月4日，本工序已报 0 / 计划 1000）（点击更换）']);
    expect(report.comp.data.rows[0].orderLabels).toEqual(['WO-A（交期 3月4日，本工序已报 0 / 计划 1000）', 'WO-B（交期 3月31日，本工序已报 0 / 计划 200）', '不指定工单']);

    wx.scans = [{ path: `pages/report/report?scene=${ticketSceneFor('WO-B')}` }];
    report.tap('#scan-ticket');
    await report.waitFor('已选择工单 WO-B：“支架”');
    expect(report.texts('.order-pick')).toEqual(['工单：WO-B（交期 3月31日，本工序已报 0 / 计划 200）（点击更换）']);
    // The choice is kept like the quantities: the 报工单 opened again still names WO-B.
    report.close();
    report = await page(ZHANG, `/pages/report/report?sessionId=${sessionId}`);
    expect(report.texts('.order-pick')[0]).toContain('WO-B');

    wx.scans = [{ path: `pages/report/report?scene=${encodeURIComponent(ticketSceneFor('WO-Z'))}` }];
    report.tap('#scan-ticket');
    await report.waitFor('这张工票的工单不在这张报工单上');
    expect(report.texts('.order-pick')[0]).toContain('WO-B');
    wx.scans = [{ path: 'pages/clock/clock?scene=deviceNo=JC-1' }];
    report.tap('#scan-ticket');
    await report.waitFor('这不是工票，请扫描工单上的工票二维码');

    report.dispatch('.order-picker', 'change', { value: '0' });
    await report.settle();
    expect(report.texts('.order-pick')[0]).toContain('WO-A');
    report.input('.finished', '500');
    report.tap('#submit');
    await report.settle();
    const sent = wx.requests.find((r) => r.method === 'POST' && r.url.endsWith('/api/reports'))!;
    expect((sent.data as any).lines).toEqual([{ productId: expect.any(Number), finishedQty: 500, defectiveQty: 0, workOrderNo: 'WO-A' }]);
    reportIds.stamp = new URL(`http://x${wx.lastUrl}`).searchParams.get('submitted')!;
    expect((await call(ADMIN, 'GET', `/api/reports/${reportIds.stamp}`)).lines[0].workOrderNo).toBe('WO-A');
  });

  it('审核: the line shows its order, the operation’s approved against planned, and the flow flag; approved knowingly', async () => {
    const sessionId = await shift(LI, 'JC-2', '2026-03-02T08:00:00+08:00', '2026-03-02T16:00:00+08:00');
    const report = await page(LI, `/pages/report/report?sessionId=${sessionId}`);
    report.input('.finished', '510');
    report.input('.defective', '10');
    report.tap('#submit');
    await report.settle();
    const reportId = new URL(`http://x${phones[LI].lastUrl}`).searchParams.get('submitted')!;
    expect(reportId).toBeTruthy();
    await call(ADMIN, 'POST', `/api/reviews/${reportIds.stamp}/approve`, {});

    const detail = await page(ADMIN, `/pages/review/detail?reportId=${reportId}`);
    const flag = '工单 WO-A：折弯已报 520 件，上道工序冲压只产出 500 件';
    expect(detail.texts('.line-order')).toEqual(['工单 WO-A · 折弯 已通过 0 / 计划 1000']);
    expect(detail.texts('.line-flag')).toEqual([`异常：${flag}`]);
    expect(detail.texts('.flag')).toContain(flag);
    detail.tap('#approve');
    await detail.waitFor('已通过（已知异常 1 项，已记入审计记录）');
    expect(detail.texts('.line-order')).toEqual(['工单 WO-A · 折弯 已通过 510 / 计划 1000']);
  });

  it('a ticket scanned with WeChat’s camera is kept; the next 报工单 chooses its order; 不指定工单 sends no order', async () => {
    const wx = phones[ZHANG];
    svc.setTime('2026-03-03T07:50:00+08:00');
    const asked = wx.requests.length;
    const ticket = await page(ZHANG, `/pages/report/report?scene=${encodeURIComponent(ticketSceneFor('WO-B'))}`);
    expect(ticket.texts('#ticket-only')[0]).toContain('已记下这张工票。下班报工时，报工单会自动选择它的工单');
    expect(wx.requests.length).toBe(asked); // no 报工单 to read yet

    const sessionId = await shift(ZHANG, 'JC-1', '2026-03-03T08:00:00+08:00', '2026-03-03T16:00:00+08:00');
    const report = await page(ZHANG, `/pages/report/report?sessionId=${sessionId}`);
    expect(report.texts('#ticket-note')).toEqual(['按扫过的工票已选择工单 WO-B：“支架”']);
    expect(report.texts('.order-pick')[0]).toContain('WO-B');
    expect(wx.storage.has('ticket')).toBe(false);

    report.dispatch('.order-picker', 'change', { value: '2' });
    await report.settle();
    expect(report.texts('.order-pick')).toEqual(['工单：不指定工单（点击更换）']);
    report.input('.finished', '20');
    report.tap('#submit');
    await report.settle();
    const sent = wx.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/api/reports')).at(-1)!;
    expect((sent.data as any).lines).toEqual([{ productId: expect.any(Number), finishedQty: 20, defectiveQty: 0 }]);
  });

  it('首页: a manager reads the late orders; a worker sees none', async () => {
    svc.setTime('2026-03-05T09:00:00+08:00');
    const home = await page(MANAGER, '/pages/index/index');
    expect(home.texts('#late-orders .big')).toEqual(['逾期工单（1 个）']);
    expect(home.texts('.late-order')).toEqual(['WO-A · 支架 · 交期 3月4日 · 完成 51%']);
    const worker = await page(ZHANG, '/pages/index/index');
    expect(worker.texts('#late-orders')).toEqual([]);
    expect(phones[ZHANG].requests.some((r) => r.url.includes('/api/work-orders'))).toBe(false);
  });
});
