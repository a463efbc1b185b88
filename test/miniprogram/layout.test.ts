/**
 * The mini-program's layout on a phone: every page of app.json, rendered by miniprogram-simulate with what the real
 * service answers for a day of work (a long product name, a report approved with a correction, one rejected, one
 * flagged 异常 and pending, a report window open, a worker clocked in; defect reasons, one with a long name, on the
 * approved and the flagged reports, 料废 priced apart; a work order with a 40-character number, late; a crew product,
 * 焊接件, whose crew line the rejected report holds), laid out in Chromium with the app's WXSS and
 * the platform's default component styles of `"style": "v2"` (layout.ts: `PLATFORM_WXSS`, with where each value
 * comes from), at 320 and 375 px wide. Nothing may reach beyond the screen, and every button must have the box the
 * app's stylesheet gives it (a full-width `.btn` fills its container, 上个月 / 下个月 are as wide as `.month-step`
 * says), not the platform's 184px centred default, and show its whole label.
 *
 * Each page is opened as CASES says (who, which address, what it must show: the page's data, so that a page that
 * did not load its data fails instead of being measured empty). A page of app.json without a case fails: add one.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { CHROMIUM, FLAGS, skipBrowserTests } from '../console/browser.ts';
import { PageDriver, ScriptedWx, SOURCE, forwardTo, openPage } from './harness.ts';
import { layOut, layoutProblems, pageMarkup, toCss } from './layout.ts';
import { ticketSceneFor } from '../../src/platform/work-order-tickets.ts';

const SCREENS = [320, 375];
const APP_JSON = JSON.parse(readFileSync(join(SOURCE, 'app.json'), 'utf8')) as { pages: string[] };
const APP_WXSS = readFileSync(join(SOURCE, 'app.wxss'), 'utf8');
/** The app's WXSS of `page` (app.wxss, then the page's own .wxss when there is one), as the browser reads it. */
const cssOf = (page: string, width: number) => {
  const own = join(SOURCE, `${page}.wxss`);
  return toCss(APP_WXSS + '\n' + (existsSync(own) ? readFileSync(own, 'utf8') : ''), width);
};

const ADMIN = '13800000001';
const MANAGER = '13900000001';
const W = { approved: '13700000001', rejected: '13700000002', window: '13700000003', clockedIn: '13700000004', flagged: '13700000005' };
const LONG_PRODUCT = '前围横梁左右加强板总成（带安装支架）';
const LONG_REASON = '来料裂纹及夹层（供应商批次问题）';
const LONG_ORDER = 'WO-2026-03-前围横梁左右加强板总成-第一批次-0001'.padEnd(40, '9');
const CREW_PRODUCT = '焊接件';

let app: TestApp;
let browser: Browser | undefined;
const ids: Record<string, string> = {};
const phones = new Map<string, ScriptedWx>();

/** Moves the service's clock and the phones' `Date` to `iso`. */
function setTime(iso: string) {
  app.clock.set(iso);
  vi.setSystemTime(new Date(iso));
}

/** The phone of `phone` logged in as `role` (its session as the login keeps it), talking to the service. */
async function phoneOf(phone: string, name: string, role: 'worker' | 'admin' | 'manager', roles: string[] = [role]): Promise<ScriptedWx> {
  const wx = new ScriptedWx(forwardTo(app.url));
  const token = await app.login(phone, role, name);
  for (const r of roles) if (r !== role) await app.login(phone, r as typeof role, name);
  wx.storage.set('session', { token, expiresAt: '2099-01-01T00:00:00+08:00', person: { phone, name }, role, roles });
  phones.set(`${phone}/${role}`, wx);
  return wx;
}

/** How a page is opened for the layout: on whose phone, at which address, what it then shows, what is done first. */
interface Case {
  who: string;
  url: () => string;
  shows: string;
  then?: (p: PageDriver) => Promise<void>;
}

const CASES: Record<string, Case[]> = {
  'pages/index/index': [
    { who: `${MANAGER}/manager`, url: () => '/pages/index/index', shows: '切换为管理员' },
    { who: `${MANAGER}/manager`, url: () => '/pages/index/index', shows: `${LONG_ORDER} · ${LONG_PRODUCT}` },
  ],
  'pages/login/login': [{ who: 'nobody', url: () => '/pages/login/login', shows: '模拟登录（开发用）' }],
  'pages/login/confirm': [{ who: `${MANAGER}/manager`, url: () => `/pages/login/confirm?scene=${encodeURIComponent(ids.webLogin)}`, shows: '确认登录' }],
  'pages/clock/clock': [
    { who: `${W.clockedIn}/worker`, url: () => `/pages/clock/clock?scene=${encodeURIComponent(ids.scene)}`, shows: '下班报工' },
    { who: `${W.approved}/worker`, url: () => `/pages/clock/clock?scene=${encodeURIComponent(ids.scene)}`, shows: '开始上班' },
  ],
  'pages/report/report': [
    { who: `${W.window}/worker`, url: () => `/pages/report/report?sessionId=${ids.window}&scene=${encodeURIComponent(ids.scene)}`, shows: LONG_PRODUCT },
    {
      who: `${W.window}/worker`,
      url: () => `/pages/report/report?sessionId=${ids.window}&scene=${encodeURIComponent(ids.scene)}`,
      shows: LONG_REASON,
      then: async (p) => {
        p.input('.defective', '3', 0);
        await p.settle();
        p.input('.reason-qty', '5', 0);
      },
    },
    {
      who: `${W.window}/worker`,
      url: () => `/pages/report/report?sessionId=${ids.window}&scene=${encodeURIComponent(ids.scene)}`,
      shows: '王五（本人）',
      then: async (p) => {
        const i = p.comp.data.rows.findIndex((r: { name: string }) => r.name === CREW_PRODUCT);
        p.input('.finished', '13', i);
      },
    },
    { who: `${W.window}/worker`, url: () => `/pages/report/report?sessionId=${ids.window}`, shows: `工单：${LONG_ORDER}` },
    { who: `${W.approved}/worker`, url: () => `/pages/report/report?scene=${encodeURIComponent(ids.ticket)}`, shows: '扫设备码' },
  ],
  'pages/mine/mine': [
    { who: `${W.approved}/worker`, url: () => '/pages/mine/mine', shows: '已通过' },
    { who: `${W.approved}/worker`, url: () => '/pages/mine/mine', shows: '李四 提交的班组报工' },
    { who: `${W.rejected}/worker`, url: () => '/pages/mine/mine', shows: '驳回原因' },
  ],
  'pages/mine/detail': [
    { who: `${W.approved}/worker`, url: () => `/pages/mine/detail?reportId=${ids.approved}`, shows: LONG_PRODUCT },
    { who: `${W.rejected}/worker`, url: () => `/pages/mine/detail?reportId=${ids.rejected}`, shows: '驳回原因' },
  ],
  'pages/wages/wages': [{ who: `${W.approved}/worker`, url: () => '/pages/wages/wages', shows: `料废 1 件（${LONG_REASON} 1）` }],
  'pages/review/review': [{ who: `${ADMIN}/admin`, url: () => '/pages/review/review', shows: '异常' }],
  'pages/review/detail': [
    { who: `${ADMIN}/admin`, url: () => `/pages/review/detail?reportId=${ids.flagged}`, shows: '核对无误，通过' },
    { who: `${ADMIN}/admin`, url: () => `/pages/review/detail?reportId=${ids.flagged}`, shows: `${LONG_REASON}（料废）1` },
    { who: `${ADMIN}/admin`, url: () => `/pages/review/detail?reportId=${ids.flagged}`, shows: `工单 ${LONG_ORDER} · 冲压 已通过 0 / 计划 100000` },
    { who: `${ADMIN}/admin`, url: () => `/pages/review/detail?reportId=${ids.rejected}`, shows: '班组报工（2 人）' },
    {
      who: `${ADMIN}/admin`,
      url: () => `/pages/review/detail?reportId=${ids.flagged}`,
      shows: '确认驳回',
      then: async (p) => p.tap('#reject-mode'),
    },
    {
      who: `${ADMIN}/admin`,
      url: () => `/pages/review/detail?reportId=${ids.flagged}`,
      shows: '已注明 2 / 不良 3（1 件未注明）',
      then: async (p) => p.tap('#correct'),
    },
  ],
  'pages/dashboard/dashboard': [{ who: `${MANAGER}/manager`, url: () => '/pages/dashboard/dashboard', shows: '张三' }],
  'pages/dashboard/breaks': [{ who: `${MANAGER}/manager`, url: () => `/pages/dashboard/breaks?date=2026-03-02&phone=${W.approved}`, shows: '修改休息时间' }],
};

const skip = skipBrowserTests('miniprogram/layout');

beforeAll(async () => {
  if (skip) return;
  app = await startTestApp({}, '2026-03-02T07:30:00+08:00');
  vi.useFakeTimers({ toFake: ['Date'] });
  setTime('2026-03-02T07:30:00+08:00');
  const admin = await app.login(ADMIN, 'admin', '王管理员');
  await phoneOf(ADMIN, '王管理员', 'admin');
  await phoneOf(MANAGER, '李经理', 'manager', ['manager', 'admin', 'worker']);
  phones.set('nobody', new ScriptedWx(forwardTo(app.url)));
  for (const p of [
    { projectNo: 'P-2026-01', productName: LONG_PRODUCT, deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 24, standardWorkload: 1200 },
    { projectNo: 'P-2026-01', productName: '后围横梁', deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 12, standardWorkload: 2400 },
    { projectNo: 'P-2026-01', productName: CREW_PRODUCT, deviceNo: 'K-12', processName: '焊接', standardCycleSeconds: 20, standardWorkload: 1200, operatorCount: 2 },
  ]) {
    expect((await app.request('POST', '/api/products', { token: admin, body: p })).body.result).toBe('created');
  }
  const listed = (await app.request('GET', '/api/products?page=1&pageSize=50', { token: admin })).body.items as { id: number; productName: string }[];
  const id = (name: string) => listed.find((p) => p.productName === name)!.id;
  for (const [name, pieceRate] of [[LONG_PRODUCT, '0.2500'], ['后围横梁', '0.1335']]) {
    expect((await app.request('POST', `/api/products/${id(name)}/rates`, { token: admin, body: { pieceRate, defectRate: '0.0000', materialDefectRate: pieceRate, effectiveFrom: '2026-03-01' } })).status).toBe(201);
  }
  for (const [code, name, category] of [['SCR', '划伤', 'operator'], ['CRK', LONG_REASON, 'material'], ['JAM', '卡模', 'other']]) {
    expect((await app.request('POST', '/api/defect-reasons', { token: admin, body: { code, name, category } })).status).toBe(201);
  }
  ids.scene = (await app.request('POST', '/api/devices/K-12/qrcode', { token: admin })).body.scene;
  const order = { orderNo: LONG_ORDER, projectNo: 'P-2026-01', productName: LONG_PRODUCT, plannedQty: 100000, dueDate: '2026-03-01', operations: ['冲压'] };
  expect((await app.request('POST', '/api/work-orders', { token: admin, body: order })).status).toBe(201);
  ids.ticket = ticketSceneFor(LONG_ORDER);

  const workers: [string, string][] = [[W.approved, '张三'], [W.rejected, '李四'], [W.window, '王五'], [W.clockedIn, '赵六'], [W.flagged, '钱七']];
  const tokens: Record<string, string> = {};
  for (const [phone, name] of workers) {
    await phoneOf(phone, name, 'worker');
    tokens[phone] = await app.login(phone, 'worker', name);
  }
  const start = async (phone: string) => {
    const r = await app.request('POST', '/api/clock/start', { token: tokens[phone], body: { deviceNo: 'K-12' } });
    expect(r.status).toBe(200);
    return r.body.sessionId as string;
  };
  const finish = async (phone: string) => expect((await app.request('POST', '/api/clock/finish', { token: tokens[phone], body: { deviceNo: 'K-12' } })).status).toBe(200);
  type Extra = { defects?: { reasonCode: string; qty: number }[]; workOrderNo?: string; crew?: string[] };
  const submit = async (phone: string, sessionId: string, lines: [string, number, number, Extra?][]) => {
    const r = await app.request('POST', '/api/reports', {
      token: tokens[phone],
      body: { sessionId, lines: lines.map(([name, finishedQty, defectiveQty, extra]) => ({ productId: id(name), finishedQty, defectiveQty, ...(extra ?? {}) })) },
    });
    expect(r.status).toBe(201);
    return r.body.reportId as string;
  };

  setTime('2026-03-02T08:00:00+08:00');
  const sessions: Record<string, string> = {};
  for (const [phone] of workers) sessions[phone] = await start(phone);
  await finish(W.flagged);
  ids.flagged = await submit(W.flagged, sessions[W.flagged], [[LONG_PRODUCT, 205, 3, { defects: [{ reasonCode: 'SCR', qty: 1 }, { reasonCode: 'CRK', qty: 1 }], workOrderNo: LONG_ORDER }]]);
  setTime('2026-03-02T16:00:00+08:00');
  await finish(W.rejected);
  const rejected = (ids.rejected = await submit(W.rejected, sessions[W.rejected], [[LONG_PRODUCT, 300, 2], [CREW_PRODUCT, 800, 3, { crew: [W.rejected, W.approved] }]]));
  setTime('2026-03-02T17:00:00+08:00');
  await finish(W.approved);
  const approved = (ids.approved = await submit(W.approved, sessions[W.approved], [[LONG_PRODUCT, 520, 4, { defects: [{ reasonCode: 'CRK', qty: 1 }, { reasonCode: 'JAM', qty: 2 }] }], ['后围横梁', 1010, 12]]));
  expect((await app.request('POST', `/api/reviews/${approved}/approve`, { token: admin, body: { lines: [{ productId: id(LONG_PRODUCT), finishedQty: 500, defectiveQty: 4 }, { productId: id('后围横梁'), finishedQty: 1010, defectiveQty: 12 }] } })).status).toBe(200);
  expect((await app.request('POST', `/api/reviews/${rejected}/reject`, { token: admin, body: { reason: '成品数量与班组记录不符，请核对后重新报工' } })).status).toBe(200);
  setTime('2026-03-02T17:10:00+08:00');
  await finish(W.window);
  ids.window = sessions[W.window];
  const web = await app.request('POST', '/api/auth/web-login');
  expect(web.status).toBe(201);
  ids.webLogin = web.body.scene;
  await app.catchUpAll();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}, 120_000);

afterAll(async () => {
  vi.useRealTimers();
  await browser?.close();
  await app?.close();
});

describe.skipIf(skip)('layout at 320 and 375 px with the platform’s style v2', () => {
  it.each(APP_JSON.pages)('%s: nothing beyond the screen, every button as designed', async (path) => {
    const cases = CASES[path];
    expect(cases, `no layout case for ${path}: add one to CASES in test/miniprogram/layout.test.ts`).toBeDefined();
    const problems: string[] = [];
    for (const c of cases) {
      const wx = phones.get(c.who);
      if (!wx) throw new Error(`no phone ${c.who}`);
      const page = await openPage(c.url(), wx);
      try {
        await c.then?.(page);
        await page.settle();
        expect(page.text(), `${c.url()} on ${c.who}`).toContain(c.shows);
        const markup = pageMarkup(page.comp);
        for (const width of SCREENS) {
          for (const p of layoutProblems(await layOut(browser!, markup, cssOf(path, width), width))) problems.push(`${width}px ${c.url()}: ${p}`);
        }
      } finally {
        page.close();
      }
    }
    expect(problems).toEqual([]);
  });
});
