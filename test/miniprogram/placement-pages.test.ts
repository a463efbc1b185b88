/**
 * Teams and shifts on the mini-program's pages (miniprogram-simulate, scripted answers of the service): the 报工单 says
 * where its break came from (按班次「白班」的休息时段计算 / 默认休息时间); 我的报工 and the 审核 detail say the same
 * for a report, 经理已修改 after a manager's change; the 审核 detail and queue show the report's 班组 (team and
 * workshop) when it has one, and nothing when it has none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageDriver, ScriptedWx, openPage } from './harness.ts';
import { ok, script, session } from './script.ts';

const open: PageDriver[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});
async function page(url: string, wx: ScriptedWx, role: 'worker' | 'admin'): Promise<PageDriver> {
  wx.storage.set('session', session(role));
  const p = await openPage(url, wx);
  open.push(p);
  return p;
}

const candidate = { productId: 1, projectNo: 'P-1', productName: '前围横梁', deviceNo: 'K-12', processName: '冲压', standardCycleSeconds: 24, standardWorkload: 1200 };
const draft = (extra: Record<string, unknown>) => ({
  sessionId: 's9', clockInAt: '2026-03-02T08:00:00+08:00', clockOutAt: '2026-03-02T17:00:00+08:00', breakMinutes: 60, devices: ['K-12'],
  expiresAt: new Date(Date.now() + 29 * 60_000).toISOString(), candidates: [candidate], ...extra,
});

describe('报工单: where the break came from', () => {
  it.each([
    [{ breakSource: 'shift', shift: { shiftId: 'sh-1', name: '白班' } }, 60, '按班次「白班」的休息时段计算'],
    [{ breakSource: 'default', shift: null }, 60, '默认休息时间'],
    [{ breakSource: 'shift', shift: { shiftId: 'sh-1', name: '白班' }, breakMinutes: 0, clockOutAt: '2026-03-02T11:30:00+08:00' }, 0, '按班次「白班」的休息时段计算'],
  ])('given the draft %j: 休息 %i 分钟 and “%s” under it', async (extra, minutes, text) => {
    const wx = new ScriptedWx(script({ 'GET /api/reports/draft': ok(draft(extra)) }));
    const p = await page('/pages/report/report?sessionId=s9', wx, 'worker');
    expect(p.texts('#break')).toEqual([`${minutes} 分钟`]);
    expect(p.texts('#break-source')).toEqual([text]);
  });
});

const line = { ...candidate, finishedQty: 500, defectiveQty: 5, outputQty: 505 };
const report = (reportId: string, extra: Record<string, unknown>) => ({
  reportId, sessionId: 's', employeePhone: '13800138000', employeeName: '张三', reportDate: '2026-03-02', status: 'pending',
  clockInAt: '2026-03-02T08:00:00+08:00', clockOutAt: '2026-03-02T17:00:00+08:00', breakMinutes: 60, effectiveSeconds: 28800, devices: ['K-12'],
  lines: [line], flags: [], submittedAt: '2026-03-02T17:05:00+08:00', reviewedBy: null, reviewedAt: null, rejectReason: null,
  breakSource: 'default', shiftName: null, workshopCode: null, workshopName: null, teamCode: null, teamName: null, ...extra,
});
const inTeam = { workshopCode: 'W1', workshopName: '冲压车间', teamCode: 'T1', teamName: '冲压一班' };

describe('我的报工: where each report’s break came from', () => {
  it('says 按班次「白班」, 经理已修改 and 默认休息时间, one per report', async () => {
    const items = [
      report('r3', { breakSource: 'shift', shiftName: '白班' }),
      report('r2', { breakSource: 'manager', shiftName: '白班', breakMinutes: 45, effectiveSeconds: 29700, status: 'approved' }),
      report('r1', { breakSource: 'default' }),
    ];
    const wx = new ScriptedWx(script({ 'GET /api/reports/mine': ok({ items, page: 1, pageSize: 20, total: 3 }) }));
    const p = await page('/pages/mine/mine', wx, 'worker');
    expect(p.texts('.break-source')).toEqual(['休息：按班次「白班」的休息时段计算', '休息：经理已修改', '休息：默认休息时间']);
    expect(p.texts('.report .sub')[1]).toBe('08:00–17:00，休息 45 分钟；有效工作时间 8 小时 15 分');
  });
});

describe('审核: the break’s source and the report’s 班组', () => {
  it('the detail of a team’s report: 按班次「白班」 and 班组 冲压一班（冲压车间）', async () => {
    const wx = new ScriptedWx(script({ 'GET /api/reports/r1': ok(report('r1', { breakSource: 'shift', shiftName: '白班', ...inTeam })) }));
    const p = await page('/pages/review/detail?reportId=r1', wx, 'admin');
    expect(p.texts('#break-source')).toEqual(['休息：按班次「白班」的休息时段计算']);
    expect(p.texts('#team')).toEqual(['班组：冲压一班（冲压车间）']);
  });

  it('the detail of a report of no team after a manager’s change: 经理已修改, no 班组 line', async () => {
    const wx = new ScriptedWx(script({ 'GET /api/reports/r1': ok(report('r1', { breakSource: 'manager', shiftName: null, breakMinutes: 30 })) }));
    const p = await page('/pages/review/detail?reportId=r1', wx, 'admin');
    expect(p.texts('#break-source')).toEqual(['休息：经理已修改']);
    expect(p.texts('#team')).toEqual([]);
    expect(p.text()).not.toContain('班组');
  });

  it('the queue names the 班组 of the reports that have one', async () => {
    const items = [report('r1', { breakSource: 'shift', shiftName: '白班', ...inTeam }), report('r2', { employeeName: '李四' })];
    const wx = new ScriptedWx(script({ 'GET /api/reviews/pending': ok({ items, page: 1, pageSize: 20, total: 2 }) }));
    const p = await page('/pages/review/review', wx, 'admin');
    expect(p.texts('.review-row .big')).toEqual(['张三 2026-03-02', '李四 2026-03-02']);
    expect(p.texts('.review-row .team')).toEqual(['班组：冲压一班（冲压车间）']);
    expect(p.texts('.review-row')[1]).not.toContain('班组');
  });
});
