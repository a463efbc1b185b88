/**
 * Nothing typed is lost (README "The mini-program", "Nothing typed is lost"): the rules of miniprogram/core/draft.ts
 * (`typedOf`, `withTyped`, `rowOutput`) and core/back.ts (the login's return address), then the 报工单
 * (pages/report/report) with a scripted service: quantities kept per session as they are typed and back on the form
 * after the page was reloaded from scratch (an app killed in the background), after 重新报工 (a new draft of the
 * same session, the typed values back where the candidates match) and after a 401 and a login that returns to the
 * 报工单 with its parameters; forgotten after the submission; a keystroke's `setData` carries only that row's fields.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addressOf, backTarget } from '../../miniprogram/core/back.ts';
import { rowOutput, typedOf, withTyped } from '../../miniprogram/core/draft.ts';
import { PageDriver, ScriptedWx, openPage, until } from './harness.ts';
import { fail, ok, script, session } from './script.ts';

const row = (productId: number, finished = '', defective = '') => ({ productId, name: `产品${productId}`, finished, defective });

describe('the rules', () => {
  it('keeps what was typed per product and puts it back where the product is still a candidate', () => {
    const typed = typedOf([row(1, '500', '5'), row(2), row(3, '', '7')]);
    expect(typed).toEqual({ 1: { finished: '500', defective: '5' }, 3: { finished: '', defective: '7' } });
    expect(withTyped([row(3), row(4), row(1)], typed)).toEqual([row(3, '', '7'), row(4), row(1, '500', '5')]);
    expect(withTyped([row(1)], undefined)).toEqual([row(1)]);
    expect(withTyped([row(1)], { 1: { finished: 5 } } as never)).toEqual([row(1)]);
    expect([rowOutput(row(1, '500', '5')), rowOutput(row(1, '12.5', '1')), rowOutput(row(1))]).toEqual([505, 0, 0]);
  });

  it('returns after the login to the page it left, with its parameters, and only to a page of the app', () => {
    const pages = ['/pages/index/index', '/pages/login/login', '/pages/report/report'];
    const address = addressOf('pages/report/report', { sessionId: 's9', scene: 'deviceNo%3DK-12' });
    expect(address).toBe('/pages/report/report?sessionId=s9&scene=deviceNo%3DK-12');
    expect(backTarget(encodeURIComponent(address!), pages)).toBe(address);
    expect(addressOf('pages/login/login', { expired: '1' })).toBeUndefined();
    for (const back of [undefined, '', '%E4%B8', encodeURIComponent('/pages/login/login?back=x'), encodeURIComponent('/pages/evil/evil'), encodeURIComponent('https://example.com/')]) {
      expect(backTarget(back, pages)).toBeUndefined();
    }
  });
});

const open: PageDriver[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});
async function page(url: string, wx: ScriptedWx): Promise<PageDriver> {
  const p = await openPage(url, wx);
  open.push(p);
  return p;
}
function closeLast(): void {
  open.pop()!.close();
}

const candidate = (productId: number, productName: string) => ({ productId, projectNo: 'P-1', productName, deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 24, standardWorkload: 1200 });
const draft = (candidates = [candidate(1, '前围横梁'), candidate(2, '后围横梁')], clockOutAt = '2026-03-02T17:00:00+08:00') => ({
  sessionId: 's9',
  clockInAt: '2026-03-02T08:00:00+08:00',
  clockOutAt,
  breakMinutes: 60,
  devices: ['K-12'],
  expiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
  candidates,
});
const REPORT = '/pages/report/report?sessionId=s9&scene=deviceNo%3DK-12';
/** The quantities on the form, as its data holds them and the inputs show them. */
const form = (p: PageDriver) => p.comp.data.rows.map((r: { finished: string; defective: string }) => [r.finished, r.defective]);

describe('the 报工单 keeps what was typed', () => {
  it('after the app was killed: the page reloaded from scratch with the same session shows the quantities and totals', async () => {
    const wx = new ScriptedWx(script({ 'GET /api/reports/draft': ({ query }) => ok({ ...draft(), sessionId: query.get('sessionId') }) }));
    wx.storage.set('session', session('worker'));
    const p = await page(REPORT, wx);
    p.input('.finished', '500', 0);
    p.input('.defective', '5', 0);
    p.input('.finished', '12', 1);
    await p.settle();
    closeLast(); // WeChat dropped the app in the background: nothing of the page is left but storage

    const again = await page(REPORT, wx);
    expect(form(again)).toEqual([['500', '5'], ['12', '']]);
    expect(again.texts('.output')).toEqual(['505', '12']);
    expect(again.texts('#totals')).toEqual(['合计：成品 512，不良 5，产出 517']);
    // Another session's 报工单 starts empty.
    const other = await page('/pages/report/report?sessionId=s8', wx);
    expect(form(other)).toEqual([['', ''], ['', '']]);
  });

  it('a keystroke sends only that row\'s changed fields and the totals to the view', async () => {
    const wx = new ScriptedWx(script({ 'GET /api/reports/draft': ok(draft()) }));
    wx.storage.set('session', session('worker'));
    const p = await page(REPORT, wx);
    const sent: Record<string, unknown>[] = [];
    const setData = p.comp.instance.setData.bind(p.comp.instance);
    p.comp.instance.setData = (data: Record<string, unknown>, cb?: () => void) => {
      sent.push(data);
      return setData(data, cb);
    };
    p.input('.defective', '7', 1);
    await p.settle();
    expect(sent).toEqual([{ 'rows[1].defective': '7', 'rows[1].output': 7, totals: { finished: 0, defective: 7, output: 7 } }]);
    expect(form(p)).toEqual([['', ''], ['', '7']]);
    expect(p.texts('.output')).toEqual(['0', '7']);
  });

  it('after the window passed and 重新报工: the new draft of the same session gets the typed values back where the candidates match', async () => {
    let expired = false;
    const wx = new ScriptedWx(
      script({
        'GET /api/reports/draft': () => ok(expired ? draft([candidate(2, '后围横梁'), candidate(3, '加强板')], '2026-03-02T18:00:00+08:00') : draft()),
        'POST /api/reports': () => fail(409, 'REPORT_WINDOW_EXPIRED', '已超过填写时限', { label: '重新报工', sessionId: 's9' }),
      }),
    );
    wx.storage.set('session', session('worker'));
    const p = await page(REPORT, wx);
    p.input('.finished', '500', 0);
    p.input('.finished', '1000', 1);
    p.input('.defective', '10', 1);
    p.tap('#submit');
    await p.waitFor('填写时限（下班后 30 分钟）已过');
    p.tap('#re-report');
    await p.settle();
    expect(wx.lastUrl).toBe('/pages/clock/clock?scene=deviceNo%3DK-12');
    closeLast();

    expired = true; // the device page's 重新报工 moved the clock-out to now: a new window, the same session
    const again = await page(REPORT, wx);
    expect(again.texts('.product-name')).toEqual(['后围横梁', '加强板']);
    expect(form(again)).toEqual([['1000', '10'], ['', '']]);
    expect(again.texts('#totals')).toEqual(['合计：成品 1000，不良 10，产出 1010']);
  });

  it('after a 401: the login returns to this 报工单 with its session, the quantities are back, and the submission forgets them', async () => {
    let token = 'old';
    const wx = new ScriptedWx(
      script({
        'GET /api/reports/draft': ok(draft()),
        'POST /api/reports': (call) =>
          call.header.authorization === 'Bearer old' ? fail(401, 'TOKEN_EXPIRED', '登录已过期，请重新登录') : ok({ reportId: 'r1', reportDate: '2026-03-02', status: 'pending' }, 201),
        'GET /api/auth/web-login/setup': ok({ hasAdministrator: true, simulator: false }),
        'POST /api/auth/platform-login': () => {
          token = 'new';
          return ok({ status: 'ok', token, expiresAt: '2099-01-01T00:00:00+08:00', person: { phone: '13800138000', name: '张三' }, role: 'worker', roles: ['worker'] });
        },
      }),
    );
    wx.storage.set('session', { ...session('worker'), token: 'old' });
    const p = await page(REPORT, wx);
    p.input('.finished', '480', 0);
    p.input('.defective', '3', 1);
    p.tap('#submit');
    await until(() => wx.navigations.length > 0, 'the login page');
    expect(wx.navigations).toEqual([{ how: 'reLaunch', url: `/pages/login/login?expired=1&back=${encodeURIComponent(REPORT)}` }]);
    closeLast(); // reLaunch closes every page

    const login = await page(wx.lastUrl!, wx);
    expect(login.text()).toContain('登录已过期，请重新登录');
    login.dispatch('#phone', 'getphonenumber', { code: 'pc', errMsg: 'getPhoneNumber:ok' });
    await until(() => wx.navigations.length > 1, 'the way back');
    expect(wx.navigations[1]).toEqual({ how: 'reLaunch', url: REPORT });
    closeLast();

    const back = await page(wx.lastUrl!, wx);
    expect(form(back)).toEqual([['480', ''], ['', '3']]);
    expect(wx.storage.has('report-typed:s9')).toBe(true);
    back.tap('#submit');
    await until(() => wx.navigations.length > 2, 'my reports');
    expect(wx.lastUrl).toBe('/pages/mine/mine?submitted=r1');
    expect(wx.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/api/reports')).at(-1)!.data).toEqual({
      sessionId: 's9',
      lines: [{ productId: 1, finishedQty: 480, defectiveQty: 0 }, { productId: 2, finishedQty: 0, defectiveQty: 3 }],
    });
    expect(wx.storage.has('report-typed:s9')).toBe(false);
    expect(wx.storage.get('report-typed')).toEqual([]);
  });

  it('a stored login that expired on the phone opens the login with the way back too', async () => {
    const wx = new ScriptedWx(script({}));
    wx.storage.set('session', { ...session('worker'), expiresAt: new Date(Date.now() - 1000).toISOString() });
    await page(REPORT, wx);
    expect(wx.requests).toEqual([]);
    expect(wx.navigations).toEqual([{ how: 'reLaunch', url: `/pages/login/login?back=${encodeURIComponent(REPORT)}` }]);
  });
});
