/**
 * Every page of the mini-program rendered by miniprogram-simulate with a scripted `wx` and scripted
 * answers of the service: events dispatched as a person causes them (tap, input, getphonenumber), the rendered
 * text asserted, and the requests the page sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageDriver, ScriptedWx, openPage, until } from './harness.ts';
import { fail, ok, script, session } from './script.ts';
import { shiftMonth } from '../../miniprogram/core/time.ts';

const open: PageDriver[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});
async function page(url: string, wx: ScriptedWx): Promise<PageDriver> {
  const p = await openPage(url, wx);
  open.push(p);
  return p;
}
const withSession = (wx: ScriptedWx, s: ReturnType<typeof session>) => {
  wx.storage.set('session', s);
  return wx;
};
const paths = (wx: ScriptedWx) => wx.requests.map((r) => `${r.method} ${new URL(r.url).pathname}${new URL(r.url).search}`);

describe('登录', () => {
  const okLogin = { status: 'ok', token: 'tk', expiresAt: '2099-01-01T00:00:00+08:00', person: { phone: '13800138000', name: '张三' }, role: 'worker', roles: ['worker'] };

  it('logs in with wx.login and the phone button, keeps the token and opens the home page', async () => {
    const wx = new ScriptedWx(script({ 'GET /api/auth/web-login/setup': ok({ hasAdministrator: true, simulator: false }), 'POST /api/auth/platform-login': ok(okLogin) }));
    wx.loginCodes = ['code-1'];
    const p = await page('/pages/login/login', wx);
    expect(p.text()).toContain('手机号登录');
    expect(p.text()).not.toContain('模拟登录');
    p.dispatch('#phone', 'getphonenumber', { code: 'phone-1', errMsg: 'getPhoneNumber:ok' });
    await until(() => wx.navigations.length > 0, 'navigation');
    expect(wx.requests.at(-1)!.data).toEqual({ code: 'code-1', phoneCode: 'phone-1' });
    expect((wx.storage.get('session') as any).token).toBe('tk');
    expect(wx.navigations).toEqual([{ how: 'reLaunch', url: '/pages/index/index' }]);
  });

  it('answers choose_phone and choose_role on screen, then goes on to the scanned code', async () => {
    const wx = new ScriptedWx(
      script({
        'GET /api/auth/web-login/setup': ok({ hasAdministrator: true, simulator: false }),
        'POST /api/auth/platform-login': ok({ status: 'choose_phone', ticket: 't1', ticketExpiresAt: '2099-01-01T00:00:00+08:00', phones: [
          { phone: '13800138000', name: '张三', roles: ['worker'] },
          { phone: '13900139000', name: '张三', roles: ['worker', 'manager'] },
        ] }),
        'POST /api/auth/platform-login/complete': ({ body }) =>
          body.phone ? ok({ status: 'choose_role', ticket: 't2', ticketExpiresAt: '2099-01-01T00:00:00+08:00', person: { phone: '13900139000', name: '张三' }, roles: ['worker', 'manager'] }) : ok({ ...okLogin, roles: ['worker', 'manager'] }),
      }),
    );
    const p = await page('/pages/login/login?scene=deviceNo%3DK-12', wx);
    p.dispatch('#phone', 'getphonenumber', { code: 'p' });
    await p.waitFor('请选择用哪个手机号登录');
    expect(p.texts('.choose-phone')).toEqual(['张三 13800138000（员工）', '张三 13900139000（员工、经理）']);
    p.tap('.choose-phone', 1);
    await p.waitFor('这次以什么身份登录');
    expect(p.texts('.choose-role')).toEqual(['员工', '经理']);
    p.tap('.choose-role', 0);
    await until(() => wx.navigations.length > 0, 'navigation');
    expect(wx.requests.filter((r) => r.url.endsWith('/complete')).map((r) => r.data)).toEqual([{ ticket: 't1', phone: '13900139000' }, { ticket: 't2', role: 'worker' }]);
    expect(wx.lastUrl).toBe('/pages/clock/clock?scene=deviceNo%3DK-12');
  });

  it('tells a person who is not in personnel to ask the administrator, and nothing else', async () => {
    const wx = new ScriptedWx(script({ 'POST /api/auth/platform-login': fail(403, 'PHONE_NOT_REGISTERED', '手机号未登记') }));
    const p = await page('/pages/login/login', wx);
    p.dispatch('#phone', 'getphonenumber', { code: 'p' });
    await p.waitFor('请联系管理员');
    expect(p.texts('#error')).toEqual(['请联系管理员把你加入人员名单']);
    expect(wx.navigations).toEqual([]);
    expect(wx.storage.has('session')).toBe(false);
  });

  it('explains a refused authorization, the quota error and a missing code, sending no login', async () => {
    const wx = new ScriptedWx(script({}));
    const p = await page('/pages/login/login', wx);
    p.dispatch('#phone', 'getphonenumber', { errMsg: 'getPhoneNumber:fail user deny' });
    await p.settle();
    expect(p.texts('#error')[0]).toContain('请再点一次“手机号登录”并选择“允许”');
    p.dispatch('#phone', 'getphonenumber', { errMsg: 'getPhoneNumber:fail no permission', errno: 1400001 });
    await p.settle();
    expect(p.texts('#error')[0]).toContain('人数已达上限');
    p.dispatch('#phone', 'getphonenumber', { errMsg: 'getPhoneNumber:ok' });
    await p.settle();
    expect(p.texts('#error')[0]).toContain('更新到最新版本');
    expect(wx.requests.filter((r) => r.url.includes('platform-login'))).toEqual([]);
    wx.loginCodes = [undefined];
    p.dispatch('#phone', 'getphonenumber', { code: 'p' });
    await p.waitFor('微信登录没有成功');
    expect(wx.requests.filter((r) => r.url.includes('platform-login'))).toEqual([]);
  });

  it("offers the simulator's login when the service runs it, with single-use codes", async () => {
    const wx = new ScriptedWx(script({ 'GET /api/auth/web-login/setup': ok({ hasAdministrator: true, simulator: true }), 'POST /api/auth/platform-login': ok(okLogin) }));
    const p = await page('/pages/login/login', wx);
    await p.waitFor('模拟登录（开发用）');
    p.input('#sim-phone', '1380013');
    p.tap('#sim-login');
    await p.waitFor('请输入 11 位手机号');
    p.input('#sim-phone', '13800138000');
    p.tap('#sim-login');
    await until(() => wx.navigations.length > 0, 'navigation');
    const body = wx.requests.at(-1)!.data as { code: string; phoneCode: string };
    expect(body.code).toMatch(/^sim:mp-13800138000#\w+$/);
    expect(body.phoneCode).toMatch(/^sim:13800138000#\w+$/);
  });
});

describe('报工 (scan)', () => {
  const state = (label: string) => ok({ label, deviceNo: '冲床 01', sessionId: 's1' });

  it('shows the device and its one label; a double tap sends one request; then the new label', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const wx = withSession(
      new ScriptedWx(
        script({
          'GET /api/clock/state': state('开始上班'),
          'POST /api/clock/start': async () => {
            await held;
            return ok({ sessionId: 's1', clockInAt: '2026-03-02T08:00:00+08:00', devices: ['冲床 01'], label: '下班报工' });
          },
        }),
      ),
      session('worker'),
    );
    const p = await page('/pages/clock/clock?scene=d%3DAbCdEfGhIj', wx);
    expect(paths(wx)).toEqual(['GET /api/clock/state?deviceKey=AbCdEfGhIj']);
    expect(p.texts('#device')).toEqual(['冲床 01']);
    expect(p.texts('#action')).toEqual(['开始上班']);
    p.tap('#action');
    p.tap('#action');
    release();
    await p.waitFor('已开始上班');
    expect(paths(wx).filter((x) => x.startsWith('POST'))).toEqual(['POST /api/clock/start']);
    expect(wx.requests[1].data).toEqual({ deviceKey: 'AbCdEfGhIj' });
    expect(wx.requests[1].header.authorization).toBe('Bearer token-worker');
    expect(p.texts('#action')).toEqual(['下班报工（请稍候）']);
    expect(p.text()).toContain('已开始上班（08:00 上班，设备：冲床 01）');
  });

  it('retries a clock operation on a weak network and says so', async () => {
    let tries = 0;
    const wx = withSession(
      new ScriptedWx(
        script({
          'GET /api/clock/state': state('换设备'),
          'POST /api/clock/switch-device': () => (++tries === 1 ? 'fail' : ok({ sessionId: 's1', clockInAt: '2026-03-02T08:00:00+08:00', devices: ['K-12', '冲床 01'], label: '下班报工' })),
        }),
      ),
      session('worker'),
    );
    const p = await page('/pages/clock/clock?scene=deviceNo%3DK-12', wx);
    p.tap('#action');
    await p.waitFor('网络不好，正在重试（第 1 次）');
    await p.waitFor('已换设备');
    expect(tries).toBe(2);
    expect(p.texts('#retrying')).toEqual([]);
  });

  it('shows the label that fits after a conflict (another phone acted)', async () => {
    let startedElsewhere = false;
    const wx = withSession(
      new ScriptedWx(
        script({
          'GET /api/clock/state': () => (startedElsewhere ? ok({ label: '下班报工', deviceNo: 'K-12', sessionId: 's1', clockInAt: '2026-03-02T07:58:00+08:00' }) : state('开始上班')),
          'POST /api/clock/start': fail(409, 'CLOCK_STATE_CONFLICT', '状态已变', { label: '下班报工' }),
        }),
      ),
      session('worker'),
    );
    const p = await page('/pages/clock/clock?scene=deviceNo%3DK-12', wx);
    startedElsewhere = true;
    p.tap('#action');
    await p.waitFor('情况有变（可能在另一台手机上操作过）：现在应点击“下班报工”');
    await p.settle();
    expect(p.texts('#action')).toEqual(['下班报工（请稍候）']);
    expect(p.texts('#error')).toEqual(['情况有变（可能在另一台手机上操作过）：现在应点击“下班报工”']);
  });

  it('下班报工 opens the report of the session; 继续报工 opens it without a clock operation', async () => {
    const wx = withSession(
      new ScriptedWx(script({ 'GET /api/clock/state': state('下班报工'), 'POST /api/clock/finish': ok({ sessionId: 's9', clockInAt: '2026-03-02T08:00:00+08:00', clockOutAt: '2026-03-02T17:00:00+08:00', expiresAt: '2026-03-02T17:30:00+08:00', devices: ['K-12'], label: '继续报工' }) })),
      session('worker'),
    );
    const p = await page('/pages/clock/clock?scene=deviceNo%3DK-12', wx);
    p.tap('#action');
    await until(() => wx.navigations.length > 0, 'navigation');
    expect(wx.navigations).toEqual([{ how: 'navigateTo', url: '/pages/report/report?sessionId=s9&scene=deviceNo%3DK-12' }]);

    const wx2 = withSession(new ScriptedWx(script({ 'GET /api/clock/state': ok({ label: '继续报工', deviceNo: 'K-12', sessionId: 's9', expiresAt: '2026-03-02T17:30:00+08:00' }) })), session('worker'));
    const p2 = await page('/pages/clock/clock?scene=deviceNo=K-12', wx2);
    expect(p2.text()).toContain('报工单填写截止 17:30');
    p2.tap('#action');
    await p2.settle();
    expect(wx2.navigations.map((n) => n.url)).toEqual(['/pages/report/report?sessionId=s9&scene=deviceNo%3DK-12']);
    expect(paths(wx2)).toEqual(['GET /api/clock/state?deviceNo=K-12']);
  });

  it('sends a person without a login to the login page with the scene, and offers a manager the switch to worker', async () => {
    const wx = new ScriptedWx(script({}));
    await page('/pages/clock/clock?scene=deviceNo%3DK-12', wx);
    expect(wx.navigations).toEqual([{ how: 'reLaunch', url: '/pages/login/login?scene=deviceNo%3DK-12' }]);

    const wx2 = withSession(new ScriptedWx(script({ 'POST /api/auth/switch-role': ok({ ...session('worker', ['worker', 'manager']) }), 'GET /api/clock/state': state('开始上班') })), session('manager', ['worker', 'manager']));
    const p = await page('/pages/clock/clock?scene=deviceNo%3DK-12', wx2);
    expect(p.text()).toContain('你现在是以经理身份登录，报工要切换为员工');
    p.tap('#to-worker');
    await p.waitFor('开始上班');
    expect((wx2.storage.get('session') as any).role).toBe('worker');
  });

  it('says what is wrong with a code that is not a device code', async () => {
    const wx = withSession(new ScriptedWx(script({})), session('worker'));
    const p = await page('/pages/clock/clock?scene=foo%3Dbar', wx);
    expect(p.texts('#error')).toEqual(['这不是本厂的设备码，请扫描机器上的设备码']);
    expect(wx.requests).toEqual([]);
  });
});

describe('报工单', () => {
  const draft = {
    sessionId: 's9',
    clockInAt: '2026-03-02T08:00:00+08:00',
    clockOutAt: '2026-03-02T17:00:00+08:00',
    breakMinutes: 60,
    devices: ['K-12'],
    expiresAt: new Date(Date.now() + 29 * 60_000 + 30_000).toISOString(),
    candidates: [
      { productId: 1, projectNo: 'P-1', productName: '前围横梁', deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 24, standardWorkload: 1200 },
      { productId: 2, projectNo: 'P-1', productName: '后围横梁', deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 12, standardWorkload: 2400 },
    ],
  };

  it('shows times, break, effective time and the countdown; sums output; checks and submits the lines', async () => {
    const wx = withSession(new ScriptedWx(script({ 'GET /api/reports/draft': ok(draft), 'POST /api/reports': ok({ reportId: 'r1', reportDate: '2026-03-02', status: 'pending' }, 201) })), session('worker'));
    const p = await page('/pages/report/report?sessionId=s9&scene=deviceNo%3DK-12', wx);
    const rows = p.texts('#summary .row');
    expect(rows.slice(0, 5)).toEqual(['上班08:00', '下班17:00', '休息60 分钟', '有效工作时间8 小时 00 分', '设备K-12']);
    expect(rows[5]).toMatch(/^填写时限还剩 29 分 \d\d 秒$/);
    expect(p.texts('.product-name')).toEqual(['前围横梁', '后围横梁']);
    p.tap('#submit');
    await p.waitFor('请至少填写一个产品的数量');
    p.input('.finished', '500', 0);
    p.input('.defective', '5', 0);
    p.input('.finished', '12.5', 1);
    await p.settle();
    expect(p.texts('.output')).toEqual(['505', '0']);
    expect(p.texts('#totals')).toEqual(['合计：成品 500，不良 5，产出 505']);
    p.tap('#submit');
    await p.waitFor('“后围横梁”的成品数量请填写 0 到 10000000 之间的整数');
    p.input('.finished', '1000', 1);
    p.tap('#submit');
    await until(() => wx.navigations.length > 0, 'navigation');
    expect(wx.requests.at(-1)!.data).toEqual({ sessionId: 's9', lines: [{ productId: 1, finishedQty: 500, defectiveQty: 5 }, { productId: 2, finishedQty: 1000, defectiveQty: 0 }] });
    expect(wx.navigations).toEqual([{ how: 'redirectTo', url: '/pages/mine/mine?submitted=r1' }]);
  });

  it('explains 重新报工 when the window is over and leads back to the device', async () => {
    const wx = withSession(
      new ScriptedWx(script({ 'GET /api/reports/draft': fail(409, 'REPORT_WINDOW_EXPIRED', '已超过填写时限', { label: '重新报工', sessionId: 's9' }) })),
      session('worker'),
    );
    const p = await page('/pages/report/report?sessionId=s9&scene=deviceNo%3DK-12', wx);
    expect(p.text()).toContain('填写时限（下班后 30 分钟）已过');
    expect(p.text()).toContain('点击“重新报工”');
    p.tap('#re-report');
    await p.settle();
    expect(wx.navigations).toEqual([{ how: 'redirectTo', url: '/pages/clock/clock?scene=deviceNo%3DK-12' }]);
  });

  it('a repeated submission that was already taken opens 我的报工', async () => {
    const wx = withSession(
      new ScriptedWx(script({ 'GET /api/reports/draft': ok(draft), 'POST /api/reports': fail(409, 'REPORT_ALREADY_SUBMITTED', '已提交', { sessionId: 's9', reportId: 'r1' }) })),
      session('worker'),
    );
    const p = await page('/pages/report/report?sessionId=s9', wx);
    p.input('.finished', '3', 0);
    p.tap('#submit');
    await until(() => wx.navigations.length > 0, 'navigation');
    expect(wx.lastUrl).toBe('/pages/mine/mine?submitted=r1');
  });
});

describe('我的报工 and 我的工资', () => {
  const line = (productId: number, productName: string, finishedQty: number, defectiveQty: number) => ({
    productId, projectNo: 'P-1', productName, deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 24, standardWorkload: 1200, finishedQty, defectiveQty, outputQty: finishedQty + defectiveQty,
  });
  const report = (reportId: string, status: string, lines: unknown[], rejectReason: string | null = null) => ({
    reportId, sessionId: 's', reportDate: '2026-03-02', status, clockInAt: '2026-03-02T08:00:00+08:00', clockOutAt: '2026-03-02T17:00:00+08:00', breakMinutes: 60,
    effectiveSeconds: 28800, devices: ['K-12'], lines, submittedAt: '2026-03-02T17:05:00+08:00', reviewedAt: null, rejectReason,
  });

  it("shows statuses, a rejection's reason and an approval's corrected lines", async () => {
    const wx = withSession(
      new ScriptedWx(script({ 'GET /api/reports/mine': ok({ items: [report('r2', 'rejected', [line(1, '前围横梁', 10, 0)], '数量不对'), report('r1', 'approved', [line(1, '前围横梁', 480, 25)])], page: 1, pageSize: 20, total: 2 }) })),
      session('worker'),
    );
    wx.storage.set('submitted', [{ reportId: 'r1', lines: [{ productId: 1, name: '前围横梁', finishedQty: 500, defectiveQty: 5 }, { productId: 2, name: '后围横梁', finishedQty: 9, defectiveQty: 0 }] }]);
    const p = await page('/pages/mine/mine?submitted=r1', wx);
    expect(p.texts('#submitted')).toEqual(['报工单已提交，等待审核']);
    expect(p.texts('.report .big')).toEqual(['2026-03-02', '2026-03-02']);
    expect(p.text()).toContain('已驳回');
    expect(p.texts('.reject-reason')).toEqual(['驳回原因：数量不对']);
    expect(p.text()).toContain('前围横梁：成品 480，不良 25，产出 505');
    expect(p.texts('.correction')).toEqual(['审核修正：原为 成品 500，不良 5', '审核删除：后围横梁（原为 成品 9，不良 0）']);
    expect(p.text()).toContain('8:00–17:00'.replace('8', '08'));
  });

  const wages = {
    month: '2026-03', status: 'open', employeePhone: '13800138000', employeeName: '张三', amount: '168.01', unpricedLines: 1,
    reports: [{ reportId: 'r1', reportDate: '2026-03-02', amount: '168.01', lines: [
      { productId: 1, projectNo: 'P-1', productName: '前围横梁', deviceNo: 'K-12', processName: '冲压', finishedQty: 480, defectiveQty: 25, pieceRate: '0.3500', defectRate: '0.0000', amount: '168.01' },
      { productId: 2, projectNo: 'P-1', productName: '后围横梁', deviceNo: 'K-12', processName: '冲压', finishedQty: 10, defectiveQty: 0, pieceRate: null, defectRate: null, amount: null },
    ] }],
  };

  it('a month whose every line is unpriced reads 未定价（N 行）, not ¥0.00', async () => {
    const unpriced = { ...wages.reports[0].lines[1] };
    const answer = { ...wages, amount: '0.00', unpricedLines: 2, reports: [{ reportId: 'r1', reportDate: '2026-03-02', amount: '0.00', lines: [unpriced, { ...unpriced, productId: 3, productName: '支架' }] }] };
    const wx = withSession(new ScriptedWx(script({ 'GET /api/wages/mine': ok(answer) })), session('worker'));
    const p = await page('/pages/wages/wages', wx);
    expect(p.texts('#amount')).toEqual(['未定价（2 行）']);
    expect(p.texts('.report-amount')).toEqual(['未定价（2 行）']);
    expect(p.texts('#unpriced')).toEqual(['有 2 行产品还没有定价，未计入金额，请联系管理员']);
  });

  it("shows the month's wages through core/money.ts, each line with its rates, and moves between months", async () => {
    const wx = withSession(new ScriptedWx(script({ 'GET /api/wages/mine': ({ query }) => ok({ ...wages, month: query.get('month') }) })), session('worker'));
    const p = await page('/pages/wages/wages', wx);
    expect(p.texts('#amount')).toEqual(['¥168.01']);
    expect(p.texts('#month-status')).toEqual(['未结账：金额可能还会变化']);
    expect(p.texts('#unpriced')).toEqual(['有 1 行产品还没有定价，未计入金额，请联系管理员']);
    expect(p.texts('.report-date')).toEqual(['2026-03-02']);
    expect(p.texts('.wage-line')).toEqual([
      '前围横梁（冲压）¥168.01成品 480 件，不良 25 件；单价 0.3500 元/件',
      '后围横梁（冲压）未定价成品 10 件，不良 0 件；没有单价',
    ]);
    expect(p.texts('#previous')).toEqual([]);
    // The phone's month by default, then 上个月, then the picker (it hands over YYYY-MM).
    const now = new Date();
    const thisMonth = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
    expect(p.texts('#month')).toEqual([`${now.getFullYear()}年${now.getMonth() + 1}月`]);
    p.tap('#prev');
    await p.settle();
    p.dispatch('#month-picker', 'change', { value: '2025-12' });
    await p.settle();
    const asked = wx.requests.map((r) => new URL(r.url).searchParams.get('month'));
    expect(asked).toEqual([thisMonth, shiftMonth(thisMonth, -1), '2025-12']);
    expect(p.texts('#month')).toEqual(['2025年12月']);
    expect(p.text()).toContain('2025年12月计件工资');
  });

  it('shows a closed month as 已结账, a negative line from a defect rate, and amounts beyond 2^53 fen exactly', async () => {
    // Scripted figures: a month's sum is text of any length; the page must show every digit.
    const closed = {
      ...wages, status: 'closed', version: 1, closedAt: '2026-04-02T09:00:00+08:00', closedBy: { phone: '13900000001', name: '李经理' }, amount: '90071992547409.93', unpricedLines: 0,
      reports: [{ reportId: 'r1', reportDate: '2026-03-02', amount: '90071992547409.93', lines: [
        { ...wages.reports[0].lines[0], finishedQty: 9999999, defectiveQty: 0, pieceRate: '99999.9999', defectRate: '0.0000', amount: '90071992547422.56' },
        { ...wages.reports[0].lines[0], productName: '后围横梁', finishedQty: 0, defectiveQty: 25, pieceRate: '1.2500', defectRate: '-0.5050', amount: '-12.63' },
      ] }],
    };
    const wx = withSession(new ScriptedWx(script({ 'GET /api/wages/mine': ok(closed) })), session('worker'));
    const p = await page('/pages/wages/wages', wx);
    expect(p.texts('#amount')).toEqual(['¥90,071,992,547,409.93']);
    expect(p.texts('#month-status')).toEqual(['已结账（金额已确定，4月2日 09:00 李经理结账）']);
    expect(p.texts('#unpriced')).toEqual([]);
    expect(p.texts('.line-amount')).toEqual(['¥90,071,992,547,422.56', '-¥12.63']);
    expect(p.texts('.line-detail')[1]).toBe('成品 0 件，不良 25 件；单价 1.2500 元/件，不良 -0.5050 元/件');
  });

  it('after a reopen says the month is recalculated; closed again, shows the previous close beside the new amount', async () => {
    let answer: Record<string, unknown> = { ...wages, status: 'open', version: 1, closedAt: '2026-04-02T09:00:00+08:00', closedBy: { phone: '13900000001', name: '李经理' }, unpricedLines: 0 };
    const wx = withSession(new ScriptedWx(script({ 'GET /api/wages/mine': () => ok(answer) })), session('worker'));
    const p = await page('/pages/wages/wages', wx);
    expect(p.texts('#month-status')).toEqual(['已反结账：正在重新核算，金额可能还会变化']);
    expect(p.texts('#previous')).toEqual([]);
    answer = { ...answer, status: 'closed', version: 2, closedAt: '2026-04-03T10:30:00+08:00', amount: '180.51', previousAmount: '168.01' };
    p.tap('#next');
    await p.settle();
    expect(p.texts('#month-status')).toEqual(['已结账（第 2 次结账，4月3日 10:30 李经理结账）']);
    expect(p.texts('#previous')).toEqual(['上次结账时 ¥168.01，现在 ¥180.51（多 ¥12.50）']);
  });

  it('says so in Chinese when the month has no approved report', async () => {
    const wx = withSession(new ScriptedWx(script({ 'GET /api/wages/mine': ok({ ...wages, month: '2026-02', amount: '0.00', unpricedLines: 0, reports: [] }) })), session('worker'));
    const p = await page('/pages/wages/wages', wx);
    expect(p.texts('#amount')).toEqual(['¥0.00']);
    expect(p.texts('#empty')).toEqual(['2026年2月还没有计入工资的报工单（只计已通过的报工单）']);
    expect(p.texts('.wage-report')).toEqual([]);
  });

  it('says wages are not available on a server without the endpoint', async () => {
    const wx = withSession(new ScriptedWx(script({})), session('worker'));
    const p = await page('/pages/wages/wages', wx);
    expect(p.texts('#unavailable')).toEqual(['工资查询还没有开通：服务器还不支持这个功能，请联系管理员']);
    expect(p.text()).not.toContain('¥');
  });
});

describe('审核', () => {
  const line = { productId: 1, projectNo: 'P-1', productName: '前围横梁', deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 24, standardWorkload: 1200, finishedQty: 500, defectiveQty: 5, outputQty: 505 };
  const item = (status = 'pending') => ({
    reportId: 'r1', employeePhone: '13800138000', employeeName: '张三', reportDate: '2026-03-02', status, devices: ['K-12'],
    clockInAt: '2026-03-02T08:00:00+08:00', clockOutAt: '2026-03-02T17:00:00+08:00', breakMinutes: 60, effectiveSeconds: 28800,
    lines: [line], submittedAt: '2026-03-02T17:05:00+08:00', reviewedBy: null, reviewedAt: null, rejectReason: null, flags: [] as unknown[],
  });
  const answer = (status: string, extra = {}) => ok({ reportId: 'r1', status, breakMinutes: 60, effectiveSeconds: 28800, lines: [line], flags: [], at: '2026-03-02T18:00:00+08:00', ...extra });

  it('lists the queue and 我审核的, and opens a report', async () => {
    const wx = withSession(
      new ScriptedWx(script({ 'GET /api/reviews/pending': ok({ items: [item()], page: 1, pageSize: 20, total: 1 }), 'GET /api/reviews/mine': ok({ items: [], page: 1, pageSize: 20, total: 0 }) })),
      session('admin'),
    );
    const p = await page('/pages/review/review', wx);
    expect(p.texts('.review-row')).toEqual(['张三 2026-03-02待审核提交于 3月2日 17:05，设备 K-12产出合计 505']);
    p.tap('.review-row');
    await p.settle();
    expect(wx.lastUrl).toBe('/pages/review/detail?reportId=r1');
    p.tap('#tab-mine');
    await p.settle();
    expect(p.texts('#empty')).toEqual(['还没有审核过报工单']);
    expect(paths(wx)).toEqual(['GET /api/reviews/pending?page=1&pageSize=20', 'GET /api/reviews/mine?page=1&pageSize=20']);
  });

  it('approves with a corrected line', async () => {
    let status = 'pending';
    const wx = withSession(
      new ScriptedWx(script({ 'GET /api/reports/r1': () => ok(item(status)), 'POST /api/reviews/r1/approve': () => ((status = 'approved'), answer('approved', { corrected: true })) })),
      session('admin'),
    );
    const p = await page('/pages/review/detail?reportId=r1', wx);
    expect(p.text()).toContain('标准节拍 24 秒 · 标准工作量 1200');
    p.tap('#correct');
    await p.settle();
    p.input('.finished', '480');
    p.input('.defective', 'x');
    p.tap('#approve-corrected');
    await p.waitFor('“前围横梁”的不良数量请填写');
    p.input('.defective', '25');
    p.tap('#approve-corrected');
    await p.waitFor('已修正并通过');
    expect(wx.requests.find((r) => r.method === 'POST')!.data).toEqual({ lines: [{ productId: 1, finishedQty: 480, defectiveQty: 25 }] });
    expect(p.texts('#status')).toEqual(['已通过']);
    expect(p.texts('#approve')).toEqual([]);
  });

  it('rejects only with a reason, and shows another reviewer\'s decision', async () => {
    const wx = withSession(
      new ScriptedWx(script({ 'GET /api/reports/r1': ok(item()), 'POST /api/reviews/r1/reject': fail(409, 'REPORT_ALREADY_REVIEWED', '这份报工单已通过，不能再次审核', { status: 'approved' }) })),
      session('admin'),
    );
    const p = await page('/pages/review/detail?reportId=r1', wx);
    p.tap('#reject-mode');
    await p.settle();
    p.tap('#reject');
    await p.waitFor('请填写驳回原因');
    expect(wx.requests.filter((r) => r.method === 'POST')).toEqual([]);
    p.input('#reason', '  数量不对  ');
    p.tap('#reject');
    await p.waitFor('不能再次审核');
    expect(wx.requests.find((r) => r.method === 'POST')!.data).toEqual({ reason: '数量不对' });
  });

  // The service's flags of a 0-minute, 205-piece report, as GET /api/reviews/pending and /api/reports/:id give them.
  const flags = [
    { code: 'NO_WORKING_TIME', effectiveSeconds: 0, outputQty: 205, standardSeconds: 6150, message: '有效工作时间 0 分钟却报了 205 件，按标准节拍需要 102 分钟' },
    { code: 'SESSION_TOO_LONG', spanSeconds: 57600, maxSpanSeconds: 50400, message: '上班到下班共 16 小时，超过 14 小时（最长上班时长减 1 小时），请核对是否忘记下班报工' },
  ];

  it('marks a report whose figures cannot be true as 异常 in the queue, with the sentence, and filters them', async () => {
    const flagged = { ...item(), reportId: 'r2', employeeName: '李四', flags };
    const wx = withSession(
      new ScriptedWx(script({ 'GET /api/reviews/pending': ({ query }) => ok({ items: query.get('flagged') === 'true' ? [flagged] : [item(), flagged], page: 1, pageSize: 20, total: query.get('flagged') === 'true' ? 1 : 2 }) })),
      session('admin'),
    );
    const p = await page('/pages/review/review', wx);
    expect(p.texts('.review-row .big')).toEqual(['张三 2026-03-02', '李四 2026-03-02']);
    expect(p.texts('.flag-mark')).toEqual(['异常 2']);
    expect(p.texts('.flagged .flag-text')).toEqual(['有效工作时间 0 分钟却报了 205 件，按标准节拍需要 102 分钟（另有 1 项）']);
    p.tap('#flag-filter');
    await p.settle();
    expect(p.texts('.review-row .big')).toEqual(['李四 2026-03-02']);
    expect(p.texts('#flag-filter')).toEqual(['显示全部待审核']);
    expect(paths(wx)).toEqual(['GET /api/reviews/pending?page=1&pageSize=20', 'GET /api/reviews/pending?flagged=true&page=1&pageSize=20']);
  });

  it("lists every flag's sentence on the detail; approving stays possible and says the flags are on record", async () => {
    let status = 'pending';
    const wx = withSession(
      new ScriptedWx(script({ 'GET /api/reports/r1': () => ok({ ...item(status), flags }), 'POST /api/reviews/r1/approve': () => ((status = 'approved'), answer('approved', { corrected: false, flags })) })),
      session('admin'),
    );
    const p = await page('/pages/review/detail?reportId=r1', wx);
    expect(p.texts('#flags .big')).toEqual(['异常报工（2 项）']);
    expect(p.texts('.flag')).toEqual(flags.map((f) => f.message));
    expect(p.texts('#flag-note')).toEqual(['这些数据不可能为真，请先核对（可修正明细或驳回）；确认无误仍可通过，审计记录会写明“已知异常”。']);
    expect(p.texts('#approve')).toEqual(['核对无误，通过']);
    p.tap('#approve');
    await p.waitFor('已通过（已知异常 2 项，已记入审计记录）');
    expect(p.texts('#flag-note')).toEqual([]);
    expect(p.texts('.flag')).toHaveLength(2);
  });

  it('shows no flag on a plausible report', async () => {
    const wx = withSession(new ScriptedWx(script({ 'GET /api/reports/r1': ok(item()) })), session('admin'));
    const p = await page('/pages/review/detail?reportId=r1', wx);
    expect(p.texts('#flags')).toEqual([]);
    expect(p.text()).not.toContain('异常');
    expect(p.texts('#approve')).toEqual(['通过']);
  });
});

describe('看板 and the break change', () => {
  const summary = (n: number) => ok({
    byEmployee: [
      { employeePhone: '13800138000', employeeName: '张三', actualCycleSeconds: 19.6, standardCycleSeconds: 16, reportedQty: 1515 * n, finishedQty: 1480 * n, standardWorkload: 3600 * n },
      { employeePhone: '13800138001', employeeName: '王五', actualCycleSeconds: 21.36, standardCycleSeconds: 24, reportedQty: 1520 * n, finishedQty: 1500 * n, standardWorkload: 1200 * n },
    ],
    byDate: [],
  });
  const row = { reportDate: '2026-03-02', employeePhone: '13800138000', employeeName: '张三', reportCount: 1, actualCycleSeconds: 19.6, standardCycleSeconds: 16, cycleTimeDiffPct: 22.52, reportedQty: 1515, finishedQty: 1480, defectiveQty: 35, standardWorkload: 3600, workloadDiffPct: -58.89, flags: [] as unknown[], untrusted: { cycleTime: false, workload: false } };

  it("shows today's and this week's team figures and the rows; a manager opens a row", async () => {
    const wx = withSession(
      new ScriptedWx(script({
        'GET /api/dashboard/summary': ({ query }) => summary(query.get('startDate') === query.get('endDate') ? 1 : 2),
        'GET /api/dashboard/reports': ok({ items: [row], page: 1, pageSize: 20, total: 1 }),
      })),
      session('manager'),
    );
    const p = await page('/pages/dashboard/dashboard', wx);
    // (2,980 − 4,800) / 4,800 = −37.92 %, the same over the week with every figure doubled.
    expect(p.texts('#today')).toEqual(['今天（2 人）报工 3035，成品 2980标准工作量 4800，工作量 -37.92%']);
    expect(p.texts('#range-figures')).toEqual(['本周（2 人）报工 6070，成品 5960标准工作量 9600，工作量 -37.92%']);
    expect(p.texts('.dash-row')).toEqual(['张三2026-03-02实际节拍 19.60 秒，标准 16.00 秒，节拍 +22.52%报工 1515（成品 1480），标准工作量 3600，工作量 -58.89%']);
    p.tap('.dash-row');
    await p.settle();
    expect(wx.lastUrl).toBe('/pages/dashboard/breaks?date=2026-03-02&phone=13800138000');
  });

  it('shows 异常, not a good figure, where a row cannot be true, with the sentence', async () => {
    const message = '有效工作时间 0 分钟却报了 205 件，按标准节拍需要 82 分钟';
    const flagged = {
      ...row, employeeName: '李四', actualCycleSeconds: 0, cycleTimeDiffPct: -100, standardCycleSeconds: 24, reportedQty: 205, finishedQty: 205, standardWorkload: 1200, workloadDiffPct: -82.92,
      flags: [{ code: 'NO_WORKING_TIME', effectiveSeconds: 0, outputQty: 205, standardSeconds: 4920, reportId: 'r9', message }],
      untrusted: { cycleTime: true, workload: true },
    };
    const wx = withSession(
      new ScriptedWx(script({ 'GET /api/dashboard/summary': summary(1), 'GET /api/dashboard/reports': ok({ items: [row, flagged], page: 1, pageSize: 20, total: 2 }) })),
      session('admin'),
    );
    const p = await page('/pages/dashboard/dashboard', wx);
    expect(p.texts('.dash-row')[1]).toBe(`李四2026-03-02实际节拍 异常，标准 24.00 秒，节拍 异常报工 205（成品 205），标准工作量 1200，工作量 异常异常${message}`);
    expect(p.texts('.dash-row')[1]).not.toContain('-100');
    expect(p.texts('.dash-row .flag-mark')).toEqual(['异常']);
  });

  it('changes a break by POST with a reason, and shows a refusal', async () => {
    const report = { reportId: 'r1', employeePhone: '13800138000', employeeName: '张三', reportDate: '2026-03-02', status: 'approved', devices: ['K-12'], clockInAt: '2026-03-02T08:00:00+08:00', clockOutAt: '2026-03-02T17:00:00+08:00', breakMinutes: 60, effectiveSeconds: 28800, lines: [], submittedAt: '2026-03-02T17:05:00+08:00', reviewedBy: null, reviewedAt: null, rejectReason: null };
    const wx = withSession(
      new ScriptedWx(script({
        'GET /api/reports': ok({ items: [report], page: 1, pageSize: 50, total: 1 }),
        'POST /api/reports/r1/break-minutes': ({ body }) =>
          body.breakMinutes > 540 ? fail(422, 'BREAK_EXCEEDS_WORKING_TIME', '休息时间不能超过上班到下班的时长，最多 540 分钟', { maxBreakMinutes: 540 }) : ok({ reportId: 'r1', status: 'approved', breakMinutes: body.breakMinutes, effectiveSeconds: 32400 - body.breakMinutes * 60, lines: [], at: '2026-03-02T18:30:00+08:00' }),
      })),
      session('manager'),
    );
    const p = await page('/pages/dashboard/breaks?date=2026-03-02&phone=13800138000', wx);
    expect(paths(wx)[0]).toBe('GET /api/reports?startDate=2026-03-02&endDate=2026-03-02&employee=13800138000&page=1&pageSize=20');
    expect(p.texts('.effective')).toEqual(['休息 60 分钟，有效工作时间 8 小时 00 分']);
    p.input('.break-minutes', '600');
    p.tap('.save-break');
    await p.waitFor('最多 540 分钟');
    p.input('.break-minutes', '45');
    p.input('.break-reason', '午休缩短');
    p.tap('.save-break');
    await p.waitFor('已改为休息 45 分钟');
    expect(wx.requests.at(-1)!.data).toEqual({ breakMinutes: 45, reason: '午休缩短' });
    expect(p.texts('.effective')).toEqual(['休息 45 分钟，有效工作时间 8 小时 15 分']);
  });
});

describe('确认登录 and the role switch', () => {
  it('lets an administrator confirm, and a person with both console roles pick one', async () => {
    const wx = withSession(
      new ScriptedWx(script({ 'POST /api/auth/web-login/confirm': ({ body }) => (body.role ? ok({ status: 'confirmed', person: { phone: '13800138000', name: '王管理' }, role: body.role }) : ok({ status: 'choose_role', person: { phone: '13800138000', name: '王管理' }, roles: ['admin', 'manager'] })) })),
      session('admin', ['admin', 'manager'], '王管理'),
    );
    const p = await page('/pages/login/confirm?scene=w%3DXa7kP2mQ9rT4vW8y', wx);
    expect(p.texts('#who')).toEqual(['登录人：王管理（管理员、经理）']);
    expect(p.text()).toContain('确认登录网页后台？');
    p.tap('#confirm');
    await p.waitFor('以什么身份登录网页后台');
    p.tap('.confirm-role', 1);
    await p.waitFor('已以经理身份登录网页后台');
    expect(wx.requests.map((r) => r.data)).toEqual([{ key: 'Xa7kP2mQ9rT4vW8y' }, { key: 'Xa7kP2mQ9rT4vW8y', role: 'manager' }]);
  });

  it('explains to a worker why not, with no button', async () => {
    const wx = withSession(new ScriptedWx(script({})), session('worker'));
    const p = await page('/pages/login/confirm?scene=w%3DXa7kP2mQ9rT4vW8y', wx);
    expect(p.texts('#error')[0]).toContain('只有管理员或经理可以登录网页后台');
    expect(p.texts('#confirm')).toEqual([]);
  });

  it('switches the role on the home page and shows that role\'s pages', async () => {
    const wx = withSession(new ScriptedWx(script({ 'POST /api/auth/switch-role': ({ body }) => ok({ ...session(body.role, ['worker', 'manager']) }) })), session('worker', ['worker', 'manager']));
    const p = await page('/pages/index/index', wx);
    expect(p.texts('.menu')).toEqual(['扫码报工', '我的报工', '我的工资']);
    expect(p.texts('.switch')).toEqual(['切换为经理']);
    p.tap('.switch');
    await p.waitFor('当前身份：经理');
    expect(p.texts('.menu')).toEqual(['看板', '扫码登录网页后台']);
    expect(wx.requests.find((r) => r.method === 'POST')!.data).toEqual({ role: 'manager' });
  });

  it('the scan button opens the page of the code it read', async () => {
    const wx = withSession(new ScriptedWx(script({})), session('worker'));
    wx.scans = [{ path: 'pages/clock/clock?scene=deviceNo=K-12' }, { path: 'pages/x?y=1' }];
    const p = await page('/pages/index/index', wx);
    p.tap('.menu', 0);
    await until(() => wx.navigations.length > 0, 'navigation');
    expect(wx.lastUrl).toBe('/pages/clock/clock?scene=deviceNo%3DK-12');
    p.tap('.menu', 0);
    await p.waitFor('这不是设备码');
  });
});

describe('the stored login and the network', () => {
  it('forgets the token on a 401 and opens the login page, which says why', async () => {
    const wx = withSession(new ScriptedWx(script({ 'GET /api/reports/mine': fail(401, 'TOKEN_EXPIRED', '登录已过期，请重新登录') })), session('worker'));
    const p = await page('/pages/mine/mine', wx);
    expect(wx.storage.has('session')).toBe(false);
    expect(wx.navigations).toEqual([{ how: 'reLaunch', url: `/pages/login/login?expired=1&back=${encodeURIComponent('/pages/mine/mine')}` }]);
    expect(p.texts('#error')).toEqual(['登录已过期，请重新登录']);
    const login = await page('/pages/login/login?expired=1', wx);
    expect(login.text()).toContain('登录已过期，请重新登录');
  });

  it('treats an expired token as no login, without asking the service', async () => {
    const wx = withSession(new ScriptedWx(script({})), { ...session('worker'), expiresAt: new Date(Date.now() - 1000).toISOString() });
    await page('/pages/mine/mine', wx);
    expect(wx.requests).toEqual([]);
    expect(wx.storage.has('session')).toBe(false);
    expect(wx.navigations).toEqual([{ how: 'reLaunch', url: `/pages/login/login?back=${encodeURIComponent('/pages/mine/mine')}` }]);
  });

  it('retries a read twice on 503 and then says the server is unavailable', async () => {
    const wx = withSession(new ScriptedWx(script({ 'GET /api/reports/mine': fail(503, 'DATABASE_UNAVAILABLE', '数据库暂时不可用') })), session('worker'));
    const p = await page('/pages/mine/mine', wx);
    await p.waitFor('服务器暂时不可用，请稍后再试');
    expect(wx.requests).toHaveLength(3);
  });

  it('talks to the server of the running version (config.ts)', async () => {
    const wx = withSession(new ScriptedWx(script({ 'GET /api/reports/mine': ok({ items: [], page: 1, pageSize: 20, total: 0 }) })), session('worker'));
    wx.envVersion = 'release';
    await page('/pages/mine/mine', wx);
    wx.envVersion = 'develop';
    await page('/pages/mine/mine', wx);
    expect(wx.requests.map((r) => new URL(r.url).origin)).toEqual(['https://baogong.example.com', 'http://127.0.0.1:3000']);
  });
});
