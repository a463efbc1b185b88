/**
 * Looking back on the mini-program's pages with scripted answers (the phone's date fixed to Monday 2026-01-05, so
 * 本周 is that Monday only and 上月 is the previous year's December): the range bar of 我的报工, 我审核的, 看板 and the
 * break change sends its dates, keeps them for 加载更多, refuses a range it cannot ask with a sentence and asks
 * nothing; an older answer never lands in a newer range's list; a pull-down reloads and stops the spinner on every
 * list page that enables it; a manager reaches every report of a range to change a break; a correction adds a
 * product of the report's devices.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PageDriver, SOURCE, ScriptedWx, openPage } from './harness.ts';
import { fail, ok, script, session } from './script.ts';

const open: PageDriver[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-01-05T10:00:00Z')); // a Monday; the tests' zone is UTC (vitest.config.ts)
});
afterAll(() => vi.useRealTimers());

async function page(url: string, wx: ScriptedWx): Promise<PageDriver> {
  const p = await openPage(url, wx);
  open.push(p);
  return p;
}
const withSession = (wx: ScriptedWx, role: 'worker' | 'admin' | 'manager') => {
  wx.storage.set('session', session(role));
  return wx;
};
const paths = (wx: ScriptedWx) => wx.requests.map((r) => `${new URL(r.url).pathname}${new URL(r.url).search}`);
const page1 = (items: unknown[], total = items.length) => ok({ items, page: 1, pageSize: 20, total });

const mineReport = (reportId: string, reportDate: string, status = 'approved') => ({
  reportId, sessionId: 's', reportDate, status, clockInAt: `${reportDate}T08:00:00+08:00`, clockOutAt: `${reportDate}T17:00:00+08:00`, breakMinutes: 60,
  effectiveSeconds: 28800, devices: ['K-12'], lines: [], submittedAt: `${reportDate}T17:05:00+08:00`, reviewedAt: null, rejectReason: null,
});
const reportItem = (reportId: string, reportDate: string, status = 'pending', extra: Record<string, unknown> = {}) => ({
  reportId, employeePhone: '13800138000', employeeName: '张三', reportDate, status, devices: ['K-12'],
  clockInAt: `${reportDate}T08:00:00+08:00`, clockOutAt: `${reportDate}T17:00:00+08:00`, breakMinutes: 60, effectiveSeconds: 28800,
  lines: [], submittedAt: `${reportDate}T17:05:00+08:00`, reviewedBy: null, reviewedAt: null, rejectReason: null, flags: [] as unknown[], ...extra,
});

describe('我的报工', () => {
  it('全部 at first; 上月 asks December of the year before, 加载更多 keeps it; 自定义 picks dates; a wrong range asks nothing', async () => {
    const wx = withSession(
      new ScriptedWx(script({
        'GET /api/reports/mine': ({ query }) =>
          query.get('startDate') === '2025-12-01'
            ? ok({ items: Array.from({ length: query.get('page') === '1' ? 20 : 5 }, (_, i) => mineReport(`d${query.get('page')}-${i}`, '2025-12-15')), page: Number(query.get('page')), pageSize: 20, total: 25 })
            : page1(query.get('startDate') ? [] : [mineReport('j1', '2026-01-05', 'pending')]),
      })),
      'worker',
    );
    const p = await page('/pages/mine/mine', wx);
    expect(p.texts('.range-choice')).toEqual(['全部', '今天', '本周', '本月', '上月', '自定义']);
    expect(p.texts('.tab-on')).toEqual(['全部']);
    expect(p.texts('.report .big')).toEqual(['2026-01-05']);
    p.tap('.range-choice', 4);
    await p.settle();
    expect(p.texts('.tab-on')).toEqual(['上月']);
    expect(p.texts('.report')).toHaveLength(20);
    p.tap('#more');
    await p.settle();
    expect(p.texts('.report')).toHaveLength(25);
    expect(p.texts('#more')).toEqual([]);
    expect(paths(wx)).toEqual([
      '/api/reports/mine?page=1&pageSize=20',
      '/api/reports/mine?startDate=2025-12-01&endDate=2025-12-31&page=1&pageSize=20',
      '/api/reports/mine?startDate=2025-12-01&endDate=2025-12-31&page=2&pageSize=20',
    ]);

    // 自定义 starts from the dates shown (nothing new to ask); a picked date asks again.
    p.tap('.range-choice', 5);
    await p.settle();
    expect(p.texts('.range-date')).toEqual(['2025-12-01', '2025-12-31']);
    expect(wx.requests).toHaveLength(3);
    p.dispatch('#range-start', 'change', { value: '2025-11-15' });
    await p.settle();
    expect(paths(wx).at(-1)).toBe('/api/reports/mine?startDate=2025-11-15&endDate=2025-12-31&page=1&pageSize=20');
    expect(p.texts('#empty')).toEqual(['2025-11-15 至 2025-12-31 没有报工单']);
    p.dispatch('#range-end', 'change', { value: '2025-11-01' });
    await p.settle();
    expect(p.texts('#range-problem')).toEqual(['结束日期不能早于开始日期']);
    expect(p.texts('#empty')).toEqual([]);
    expect(wx.requests).toHaveLength(4);
  });

  it('an answer for the range before, arriving after another range was chosen, is dropped: the list shows the range chosen', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const wx = withSession(
      new ScriptedWx(script({
        'GET /api/reports/mine': async ({ query }) => {
          if (query.get('startDate') === '2026-01-05') {
            await held; // 本周: a slow answer
            return page1([mineReport('week', '2026-01-05')]);
          }
          return page1([mineReport(query.get('startDate') ?? 'all', query.get('startDate') ? '2025-12-15' : '2025-06-01')]);
        },
      })),
      'worker',
    );
    const p = await page('/pages/mine/mine', wx);
    p.tap('.range-choice', 2); // 本周: under way
    p.tap('.range-choice', 4); // 上月 before it answers
    await vi.waitFor(() => expect(p.texts('.report .big')).toEqual(['2025-12-15']));
    release();
    await p.settle();
    expect(p.texts('.report .big')).toEqual(['2025-12-15']);
    expect(p.texts('.tab-on')).toEqual(['上月']);
    expect(p.texts('#more')).toEqual([]);
  });
});

describe('我审核的', () => {
  it('has the range bar (by review date) on its tab only; 本月 asks the 1st to today; the queue asks no dates', async () => {
    const wx = withSession(
      new ScriptedWx(script({
        'GET /api/reviews/pending': page1([reportItem('p1', '2026-01-05')]),
        'GET /api/reviews/mine': ({ query }) => page1(query.get('startDate') ? [reportItem('m1', '2026-01-02', 'approved')] : []),
      })),
      'admin',
    );
    const p = await page('/pages/review/review', wx);
    expect(p.texts('.range-choice')).toEqual([]);
    p.tap('#tab-mine');
    await p.settle();
    expect(p.texts('.range-choice')).toEqual(['全部', '今天', '本周', '本月', '上月', '自定义']);
    expect(p.text()).toContain('按审核日期');
    expect(p.texts('#empty')).toEqual(['还没有审核过报工单']);
    p.tap('.range-choice', 3);
    await p.settle();
    expect(p.texts('.review-row .big')).toEqual(['张三 2026-01-02']);
    p.tap('#tab-pending');
    await p.settle();
    expect(paths(wx)).toEqual([
      '/api/reviews/pending?page=1&pageSize=20',
      '/api/reviews/mine?page=1&pageSize=20',
      '/api/reviews/mine?startDate=2026-01-01&endDate=2026-01-05&page=1&pageSize=20',
      '/api/reviews/pending?page=1&pageSize=20',
    ]);
  });
});

describe('pull-down refresh', () => {
  it('every list page enables it; a pull reloads the list from its first page and stops the spinner', async () => {
    for (const name of ['mine/mine', 'review/review', 'dashboard/dashboard', 'dashboard/breaks', 'wages/wages']) {
      expect(JSON.parse(readFileSync(join(SOURCE, 'pages', `${name}.json`), 'utf8')).enablePullDownRefresh, name).toBe(true);
    }
    let n = 0;
    const wx = withSession(new ScriptedWx(script({ 'GET /api/reports/mine': () => page1([mineReport(`r${++n}`, `2026-01-0${n}`)]) })), 'worker');
    const p = await page('/pages/mine/mine', wx);
    expect(p.texts('.report .big')).toEqual(['2026-01-01']);
    await p.comp.instance.onPullDownRefresh();
    expect(p.texts('.report .big')).toEqual(['2026-01-02']);
    expect(wx.pullDownStops).toBe(1);
    // A failed reload stops the spinner too, and says why.
    wx.answer = script({ 'GET /api/reports/mine': fail(403, 'FORBIDDEN', '没有权限') });
    await p.comp.instance.onPullDownRefresh();
    expect(p.texts('#error')).toEqual(['没有权限']);
    expect(wx.pullDownStops).toBe(2);
  });
});

describe('看板 and the break change', () => {
  const summary = (qty: number) =>
    ok({ byEmployee: [{ employeePhone: '13800138000', employeeName: '张三', actualCycleSeconds: 20, standardCycleSeconds: 24, reportedQty: qty, finishedQty: qty, standardWorkload: 1200, flaggedReports: 0 }], byDate: [] });
  const row = (reportDate: string) => ({
    reportDate, employeePhone: '13800138000', employeeName: '张三', reportCount: 1, actualCycleSeconds: 20, standardCycleSeconds: 24, cycleTimeDiffPct: -16.67, reportedQty: 1500,
    finishedQty: 1500, defectiveQty: 0, standardWorkload: 1200, workloadDiffPct: 25, flags: [] as unknown[], untrusted: { cycleTime: false, workload: false },
  });
  const dashboard = () =>
    script({
      'GET /api/dashboard/summary': ({ query }) => summary(query.get('startDate') === '2025-12-01' ? 1500 : 300),
      'GET /api/dashboard/reports': ({ query }) => page1(query.get('startDate') === '2025-12-01' ? [row('2025-12-31')] : []),
    });

  it('本周 on a Monday is Monday only; 上月 shows December; a range over 366 days is refused before asking; a manager opens the range to change breaks', async () => {
    const wx = withSession(new ScriptedWx(dashboard()), 'manager');
    const p = await page('/pages/dashboard/dashboard', wx);
    expect(p.texts('.range-choice')).toEqual(['今天', '本周', '本月', '上月', '自定义']);
    expect(p.texts('.tab-on')).toEqual(['本周']);
    expect(p.texts('#range-note')).toEqual(['2026-01-05，只统计已通过的报工单；点一行可修改休息时间']);
    expect(p.texts('#empty')).toEqual(['2026-01-05 没有已通过的报工单']);
    p.tap('.range-choice', 3);
    await p.settle();
    expect(p.texts('#today')).toEqual(['今天（1 人）报工 300，成品 300标准工作量 1200，工作量 -75.00%']);
    expect(p.texts('#range-figures')).toEqual(['上月（1 人）报工 1500，成品 1500标准工作量 1200，工作量 +25.00%']);
    expect(p.texts('.dash-row .row')).toEqual(['张三2025-12-31']);
    expect(paths(wx).slice(-3).sort()).toEqual([
      '/api/dashboard/reports?startDate=2025-12-01&endDate=2025-12-31&page=1&pageSize=20',
      '/api/dashboard/summary?startDate=2025-12-01&endDate=2025-12-31',
      '/api/dashboard/summary?startDate=2026-01-05&endDate=2026-01-05',
    ]);
    p.tap('#breaks');
    await p.settle();
    expect(wx.lastUrl).toBe('/pages/dashboard/breaks?range=lastMonth');
    p.tap('.dash-row');
    await p.settle();
    expect(wx.lastUrl).toBe('/pages/dashboard/breaks?date=2025-12-31&phone=13800138000');

    const asked = wx.requests.length;
    p.tap('.range-choice', 4);
    await p.settle();
    expect(p.texts('.range-date')).toEqual(['2025-12-01', '2025-12-31']);
    p.dispatch('#range-start', 'change', { value: '2024-12-30' }); // 367 days
    await p.settle();
    expect(p.texts('#range-problem')).toEqual(['日期范围最多 366 天，请缩小范围']);
    expect([p.texts('#range-figures'), p.texts('.dash-row'), p.texts('#breaks')]).toEqual([[], [], []]);
    expect(wx.requests).toHaveLength(asked);
    p.dispatch('#range-start', 'change', { value: '2024-12-31' }); // 366 days: asked
    await p.settle();
    expect(p.texts('#range-figures')[0]).toMatch(/^2024-12-31 至 2025-12-31（1 人）/);
    expect(paths(wx)).toContain('/api/dashboard/reports?startDate=2024-12-31&endDate=2025-12-31&page=1&pageSize=20');
  });

  it('an administrator reads the range but is offered no break change', async () => {
    const wx = withSession(new ScriptedWx(dashboard()), 'admin');
    const p = await page('/pages/dashboard/dashboard?range=lastMonth', wx);
    expect(p.texts('.tab-on')).toEqual(['上月']);
    expect(p.texts('.dash-row .row')).toEqual(['张三2025-12-31']);
    expect(p.texts('#breaks')).toEqual([]);
    p.tap('.dash-row');
    await p.settle();
    expect(wx.navigations).toEqual([]);
  });

  it("the break change lists every report of the range (加载更多 keeps it); a rejected one says it cannot change; one employee's list widens to all", async () => {
    const wx = withSession(
      new ScriptedWx(script({
        'GET /api/reports': ({ query }) => {
          const items = [reportItem('r1', '2025-12-31', 'approved'), reportItem('r2', '2025-12-30', 'rejected', { employeeName: '李四', employeePhone: '13800138001' })];
          return query.get('page') === '1' ? ok({ items, page: 1, pageSize: 20, total: 21 }) : ok({ items: [reportItem('r3', '2025-12-01')], page: 2, pageSize: 20, total: 21 });
        },
        'POST /api/reports/r3/break-minutes': fail(409, 'PERIOD_CLOSED', '2025-12 已结账，不能修改；如需修改请先反结账', { month: '2025-12' }),
      })),
      'manager',
    );
    const p = await page('/pages/dashboard/breaks?range=lastMonth', wx);
    expect(p.texts('.tab-on')).toEqual(['上月']);
    expect(p.texts('#breaks-head .big')).toEqual(['2025-12-01 至 2025-12-31 的报工单']);
    expect(p.texts('.break-item .big')).toEqual(['张三 08:00–17:00', '李四 08:00–17:00']);
    expect(p.texts('.not-changeable')).toEqual(['已驳回的报工单不能修改休息时间']);
    expect(p.texts('.save-break')).toHaveLength(1);
    p.tap('#more');
    await p.settle();
    expect(p.texts('.report-date')).toEqual(['2025-12-31', '2025-12-30', '2025-12-01']);
    p.input('.break-minutes', '30', 1);
    p.tap('.save-break', 1);
    await p.waitFor('已结账');
    expect(paths(wx)).toEqual([
      '/api/reports?startDate=2025-12-01&endDate=2025-12-31&page=1&pageSize=20',
      '/api/reports?startDate=2025-12-01&endDate=2025-12-31&page=2&pageSize=20',
      '/api/reports/r3/break-minutes',
    ]);

    const one = withSession(new ScriptedWx(script({ 'GET /api/reports': page1([reportItem('r1', '2025-12-31', 'approved')]) })), 'manager');
    const q = await page('/pages/dashboard/breaks?date=2025-12-31&phone=13800138000', one);
    expect(q.texts('#employee')).toEqual(['只看员工 13800138000']);
    q.tap('#all-employees');
    await q.settle();
    expect(q.texts('#employee')).toEqual([]);
    expect(paths(one)).toEqual([
      '/api/reports?startDate=2025-12-31&endDate=2025-12-31&employee=13800138000&page=1&pageSize=20',
      '/api/reports?startDate=2025-12-31&endDate=2025-12-31&page=1&pageSize=20',
    ]);
  });
});

describe('a correction adds a line', () => {
  const product = (id: number, productName: string, deviceNo: string) => ({
    id, projectNo: 'P-1', profileNo: null, productName, materialCode: null, materialName: null, deviceNo, processName: '冲压', stampingMethod: null, operatorCount: null,
    standardCycleSeconds: 12, standardWorkload: 2400, updatedAt: '2026-01-01T08:00:00+08:00', rate: null,
  });
  const onReport = { productId: 1, projectNo: 'P-1', productName: '前围横梁', deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 24, standardWorkload: 1200, finishedQty: 500, defectiveQty: 5, outputQty: 505 };

  it("offers the products of the report's devices not on it; an added line is sent with the others, a blank one is not", async () => {
    let status = 'pending';
    const wx = withSession(
      new ScriptedWx(script({
        'GET /api/reports/r1': () => ok(reportItem('r1', '2026-01-05', status, { devices: ['K-12', '冲床 01'], lines: [onReport] })),
        'GET /api/products': ({ query }) =>
          page1(query.get('deviceNo') === 'K-12' ? [product(1, '前围横梁', 'K-12'), product(2, '后围横梁', 'K-12')] : [product(3, '侧围', '冲床 01')]),
        'POST /api/reviews/r1/approve': () => ((status = 'approved'), ok({ reportId: 'r1', status: 'approved', corrected: true, breakMinutes: 60, effectiveSeconds: 28800, lines: [], flags: [], at: '2026-01-05T18:00:00+08:00' })),
      })),
      'admin',
    );
    const p = await page('/pages/review/detail?reportId=r1', wx);
    expect(p.texts('#add-line')).toEqual([]);
    p.tap('#correct');
    await p.settle();
    expect(paths(wx).filter((u) => u.startsWith('/api/products')).sort()).toEqual([
      `/api/products?deviceNo=${encodeURIComponent('冲床 01')}&page=1&pageSize=100`,
      '/api/products?deviceNo=K-12&page=1&pageSize=100',
    ]);
    expect(p.comp.instance.data.addable.map((a: { label: string }) => a.label)).toEqual(['后围横梁（冲压 · K-12）', '侧围（冲压 · 冲床 01）']);
    expect(p.texts('#add-line')).toEqual(['添加产品']);
    p.dispatch('#add-line', 'change', { value: 1 });
    await p.settle();
    p.dispatch('#add-line', 'change', { value: 0 });
    await p.settle();
    expect(p.texts('.line .big')).toEqual(['前围横梁', '侧围（冲压 · 冲床 01）（新增）', '后围横梁（冲压 · K-12）（新增）']);
    expect(p.texts('.line .muted').filter((t) => t.includes('标准节拍'))[1]).toBe('冲压 · 冲床 01 · 标准节拍 12 秒 · 标准工作量 2400');
    expect(p.texts('#add-line')).toEqual([]);
    expect(p.texts('#add-note')).toEqual(['本报工单的设备上没有别的产品可添加']);
    p.input('.finished', '30', 1);
    p.tap('#approve-corrected');
    await p.waitFor('已修正并通过');
    expect(wx.requests.find((r) => r.method === 'POST')!.data).toEqual({
      lines: [
        { productId: 1, finishedQty: 500, defectiveQty: 5 },
        { productId: 3, finishedQty: 30, defectiveQty: 0 },
      ],
    });
  });
});
