/**
 * A double tap cannot change the day (README "The mini-program", "A double tap"): the rules of
 * miniprogram/core/clock-press.ts (the hold after an operation, the confirmation naming the clock-in time) and the
 * conflict sentence, then the scan page (pages/clock/clock) with a scripted service: the new button held after
 * 开始上班 so the second tap of a double tap sends nothing, 下班报工 and 重新报工 asked first, the label read again
 * when the page shows, and a conflict that this phone caused said so. The phone's `Date` is set by the test (the
 * hold is measured on the phone's clock); nothing here measures time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { confirmationOf, HOLD_MS, holdLeft } from '../../miniprogram/core/clock-press.ts';
import { conflictText, failureOf, nextStep } from '../../miniprogram/core/errors.ts';
import { clockInText } from '../../miniprogram/core/time.ts';
import { PageDriver, ScriptedWx, openPage, until } from './harness.ts';
import { fail, ok, script, session } from './script.ts';

describe('the rules (core/clock-press.ts)', () => {
  it('holds the button for HOLD_MS from the operation, and never longer when the clock goes back', () => {
    const at = Date.parse('2026-03-02T08:00:00+08:00');
    expect(HOLD_MS).toBe(1500);
    expect([holdLeft(at, at), holdLeft(at, at + 300), holdLeft(at, at + 1499), holdLeft(at, at + 1500), holdLeft(at, at + 60_000)]).toEqual([1500, 1200, 1, 0, 0]);
    expect(holdLeft(at, at - 1)).toBe(0);
    expect(holdLeft(0, at)).toBe(0);
  });

  it('asks before 下班报工 and 重新报工, naming the exact clock-in time (with its date when it was another day)', () => {
    const day = Date.parse('2026-03-02T17:00:00+08:00');
    const nextMorning = Date.parse('2026-03-03T07:10:00+08:00'); // 2026-03-02 in UTC: the factory's calendar decides
    expect(confirmationOf('下班报工', '2026-03-02T08:00:12+08:00', day)).toEqual({ title: '确认下班', content: '上班时间 08:00:12，确定下班报工吗？', confirmText: '下班报工' });
    expect(confirmationOf('重新报工', '2026-03-02T22:00:05.000+08:00', nextMorning)).toEqual({
      title: '确认重新报工',
      content: '上班时间 3月2日 22:00:05，确定重新报工吗？下班时间将改为现在。',
      confirmText: '重新报工',
    });
    expect(confirmationOf('下班报工', undefined, day)?.content).toBe('确定下班报工吗？');
    for (const label of ['开始上班', '换设备', '继续报工'] as const) expect(confirmationOf(label, '2026-03-02T08:00:12+08:00', day)).toBeUndefined();
    expect(confirmationOf('下班报工', '2026-03-02T08:00:12+08:00', day)?.content).toBe('上班时间 08:00:12，确定下班报工吗？');
    expect([clockInText('2026-03-02T08:00+08:00', day), clockInText('2026-03-02T23:30:00-05:00', Date.parse('2026-03-03T04:40:00Z')), clockInText('garbage', day)]).toEqual(['08:00:00', '23:30:00', 'garbage']);
  });

  it("blames another phone only when this phone did not change the state; the service's code alone blames nobody", () => {
    expect(conflictText('换设备', 'here')).toBe('这台手机刚才已经操作过，情况有变：现在应点击“换设备”');
    expect(conflictText('换设备', 'elsewhere')).toBe('情况有变（可能在另一台手机上操作过）：现在应点击“换设备”');
    const step = nextStep(failureOf(409, { error: { code: 'CLOCK_STATE_CONFLICT', message: 'x', details: { label: '下班报工' }, requestId: 'r' } }));
    expect(step).toEqual({ action: 'refresh', label: '下班报工', text: '情况有变：现在应点击“下班报工”' });
  });
});

const open: PageDriver[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
  vi.useRealTimers();
});
async function page(url: string, wx: ScriptedWx): Promise<PageDriver> {
  const p = await openPage(url, wx);
  open.push(p);
  return p;
}
const withSession = (wx: ScriptedWx) => {
  wx.storage.set('session', session('worker'));
  return wx;
};
const posts = (wx: ScriptedWx) => wx.requests.filter((r) => r.method === 'POST').map((r) => new URL(r.url).pathname);
/** The phone's clock at `iso` (the hold is measured on it). */
const phoneTime = (iso: string) => vi.setSystemTime(new Date(iso));

describe('the scan page', () => {
  it('holds 下班报工 after 开始上班: a second tap 300 ms later does nothing; after the hold it asks, naming the clock-in time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    phoneTime('2026-03-02T08:00:12+08:00');
    const wx = withSession(
      new ScriptedWx(
        script({
          'GET /api/clock/state': ok({ label: '开始上班', deviceNo: 'K-12' }),
          'POST /api/clock/start': ok({ sessionId: 's1', clockInAt: '2026-03-02T08:00:12+08:00', devices: ['K-12'], label: '下班报工' }),
          'POST /api/clock/finish': ok({ sessionId: 's1', clockInAt: '2026-03-02T08:00:12+08:00', clockOutAt: '2026-03-02T17:00:00+08:00', expiresAt: '2026-03-02T17:30:00+08:00', devices: ['K-12'], label: '继续报工' }),
        }),
      ),
    );
    const p = await page('/pages/clock/clock?scene=deviceNo%3DK-12', wx);
    p.tap('#action');
    await p.waitFor('已开始上班');
    expect(p.texts('#action')).toEqual(['下班报工（请稍候）']);
    expect(p.comp.querySelector('#action')!.dom.textContent).toContain('请稍候');
    expect(p.comp.data.held).toBe(true);

    phoneTime('2026-03-02T08:00:12.300+08:00');
    p.tap('#action');
    await p.settle();
    expect(posts(wx)).toEqual(['/api/clock/start']);
    expect(wx.modals).toEqual([]);
    expect(wx.navigations).toEqual([]);

    // After the hold the button is free; 下班报工 asks first, and 取消 sends nothing.
    phoneTime('2026-03-02T08:00:14+08:00');
    wx.modalAnswers = [false];
    p.tap('#action');
    await p.settle();
    expect(wx.modals).toEqual([{ title: '确认下班', content: '上班时间 08:00:12，确定下班报工吗？', confirmText: '下班报工' }]);
    expect(posts(wx)).toEqual(['/api/clock/start']);
    expect(p.texts('#action')).toEqual(['下班报工']);

    p.tap('#action');
    await until(() => wx.navigations.length > 0, 'the report');
    expect(posts(wx)).toEqual(['/api/clock/start', '/api/clock/finish']);
    expect(wx.lastUrl).toBe('/pages/report/report?sessionId=s1&scene=deviceNo%3DK-12');
  });

  it('asks before 重新报工 with the clock-in date and time the service gave', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    phoneTime('2026-03-03T07:10:00+08:00');
    const wx = withSession(
      new ScriptedWx(script({ 'GET /api/clock/state': ok({ label: '重新报工', deviceNo: 'K-12', sessionId: 's1', clockInAt: '2026-03-02T22:00:05+08:00', expiresAt: '2026-03-03T06:30:00+08:00' }) })),
    );
    wx.modalAnswers = [false];
    const p = await page('/pages/clock/clock?scene=deviceNo%3DK-12', wx);
    p.tap('#action');
    await p.settle();
    expect(wx.modals.map((m) => m.content)).toEqual(['上班时间 3月2日 22:00:05，确定重新报工吗？下班时间将改为现在。']);
    expect(posts(wx)).toEqual([]);
  });

  it('reads the label again when the worker comes back to the page, so a stale 下班报工 cannot be pressed', async () => {
    let label = '下班报工';
    const wx = withSession(
      new ScriptedWx(script({ 'GET /api/clock/state': () => ok({ label, deviceNo: 'K-12', sessionId: 's1', clockInAt: '2026-03-02T08:00:00+08:00', ...(label === '继续报工' ? { expiresAt: '2026-03-02T17:30:00+08:00' } : {}) }) })),
    );
    const p = await page('/pages/clock/clock?scene=deviceNo%3DK-12', wx);
    expect(p.texts('#action')).toEqual(['下班报工']);
    label = '继续报工'; // clocked out on the 报工单's way, or on another phone, while this page was hidden
    let answer!: () => void;
    const reading = new Promise<void>((r) => (answer = r));
    const answerState = wx.answer;
    wx.answer = async (call) => (await reading, answerState(call));
    const shown = p.show();
    p.tap('#action'); // pressed while the label is read again: the stale 下班报工 does nothing
    answer();
    await shown;
    expect(posts(wx)).toEqual([]);
    expect(wx.modals).toEqual([]);
    expect(p.texts('#action')).toEqual(['继续报工']);
    expect(p.text()).toContain('报工单填写截止 17:30');
    p.tap('#action');
    await p.settle();
    expect(posts(wx)).toEqual([]);
    expect(wx.lastUrl).toBe('/pages/report/report?sessionId=s1&scene=deviceNo%3DK-12');
    expect(wx.requests.filter((r) => r.method === 'GET')).toHaveLength(2);
  });

  it('says this phone changed the state when it did (another device page on the same phone), not another phone', async () => {
    const started = new Set<string>();
    const wx = withSession(
      new ScriptedWx(
        script({
          'GET /api/clock/state': ({ query }) => {
            const deviceNo = query.get('deviceNo')!;
            if (started.size === 0) return ok({ label: '开始上班', deviceNo });
            return ok({ label: started.has(deviceNo) ? '下班报工' : '换设备', deviceNo, sessionId: 's1', clockInAt: '2026-03-02T08:00:00+08:00' });
          },
          'POST /api/clock/start': ({ body }) => {
            if (started.size) return fail(409, 'CLOCK_STATE_CONFLICT', '状态已变', { label: '换设备', sessionId: 's1' });
            started.add(body.deviceNo);
            return ok({ sessionId: 's1', clockInAt: '2026-03-02T08:00:00+08:00', devices: [body.deviceNo], label: '下班报工' });
          },
        }),
      ),
    );
    const first = await page('/pages/clock/clock?scene=deviceNo%3DK-12', wx);
    const second = await page('/pages/clock/clock?scene=deviceNo%3DJC-01', wx);
    second.tap('#action');
    await second.waitFor('已开始上班');
    first.tap('#action'); // its 开始上班 was read before the other page started the shift
    await first.waitFor('现在应点击“换设备”');
    await first.settle();
    expect(first.texts('#error')).toEqual(['这台手机刚才已经操作过，情况有变：现在应点击“换设备”']);
    expect(first.texts('#action')).toEqual(['换设备（请稍候）']);
  });
});
