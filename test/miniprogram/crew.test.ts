/**
 * Crew work (班组报工) on the phone: the split ported to miniprogram/core/crew.ts run against the service's own
 * (src/domain/crew-split.ts) on the same cases and on generated crews, the sentences, then the pages against the real
 * service (startTestApp; the phones' `Date` following the service's clock), the day of the issue:
 *
 *   焊接件 (操作人数 2) on 焊机 01; 张三 on it 08:00–16:00, 李四 10:00–16:00
 *   03-02  张三's 报工单 proposes 张三 480 分钟 and 李四 360 分钟; 1,000 成品 previews 571 and 429 (the piece left to the
 *          larger remainder); 李四 unticked and ticked again (张三 cannot be); sent with crew [张三, 李四]; the service
 *          records the same shares. 李四's 报工单 reads 已由 张三 班组报工 and takes no quantities. 我的报工 of each shows
 *          their share beside the crew's 1,000; the reviewer reads the members with minutes and shares.
 *   03-03  李四 reports first, unticking 张三 (a line of their own, no crew); 张三's 报工单 then leaves 李四 out and says why.
 *   03-04  张三 reports 1,000 with crew [张三, 李四]; the reviewer's 修正明细后通过 unticks 李四 (张三 cannot be) and the line
 *          is sent with crew [张三]: 张三's own line of 1,000, 370.00 in 张三's wages.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as service from '../../src/domain/crew-split.ts';
import type { TestApp } from '../helpers/app.ts';
import { servicePhones } from './service-phones.ts';
import { coefficientHundredths, crewShares, crewWeights, largestRemainder, leftOutText, minutesText, recordedShareText, reportedByText, type CrewMember } from '../../miniprogram/core/crew.ts';
import { myReportView } from '../../miniprogram/core/my-report.ts';

/** The service's shares of `members` (coefficients as the draft gives them, e.g. 1.2). */
const served = (members: CrewMember[], mode: service.CrewSplitMode, q: { finishedQty: number; defectiveQty: number }) =>
  service
    .crewShares(
      members.map((m) => ({ phone: m.phone, clockInAt: m.clockInAt!, seconds: m.seconds, coefficient: service.parseCoefficient(m.coefficient)! })),
      mode,
      q,
    )
    .map((s) => ({ phone: s.phone, finishedQty: s.finishedQty, defectiveQty: s.defectiveQty }));

const A: CrewMember = { phone: '13800000001', clockInAt: '2026-03-02T00:00:00.000Z', seconds: 28_800, coefficient: 1 };
const B: CrewMember = { phone: '13800000002', clockInAt: '2026-03-02T02:00:00.000Z', seconds: 21_600, coefficient: 1.2 };

describe('the split, as the service makes it', () => {
  it('the issue’s figures: 571 and 429; CREW_SPLIT=coefficient weighs 28,800 and 25,920; equal splits alike', () => {
    expect(crewShares([A, B], 'presence', { finishedQty: 1000, defectiveQty: 0 })).toEqual([
      { phone: A.phone, finishedQty: 571, defectiveQty: 0 },
      { phone: B.phone, finishedQty: 429, defectiveQty: 0 },
    ]);
    expect(crewWeights([A, B], 'coefficient')).toEqual([2_880_000, 2_592_000]);
    expect(crewShares([A, B], 'equal', { finishedQty: 7, defectiveQty: 3 }).map((s) => [s.finishedQty, s.defectiveQty])).toEqual([[4, 2], [3, 1]]);
    for (const mode of ['presence', 'coefficient', 'equal'] as const) {
      expect(crewShares([A, B], mode, { finishedQty: 1000, defectiveQty: 7 })).toEqual(served([A, B], mode, { finishedQty: 1000, defectiveQty: 7 }));
    }
  });

  const m = (phone: string, clockInAt = '2026-03-02T00:00:00.000Z') => ({ phone, clockInAt });
  it.each([
    { name: 'equal remainders: the earlier clock-in first', whole: 1, weights: [1, 1], members: [m('2', '2026-03-02T01:00:00Z'), m('1', '2026-03-02T02:00:00Z')], shares: [1, 0] },
    { name: 'equal remainders and clock-ins: the smaller phone first', whole: 1, weights: [1, 1], members: [m('13900000002'), m('13900000001')], shares: [0, 1] },
    { name: 'three ways, two left', whole: 2, weights: [1, 1, 1], members: [m('3'), m('1'), m('2')], shares: [0, 1, 1] },
    { name: 'larger remainder beats earlier clock-in', whole: 3, weights: [1, 2], members: [m('1'), m('2', '2026-03-02T05:00:00Z')], shares: [1, 2] },
    { name: 'zero weights: split equally', whole: 5, weights: [0, 0], members: [m('1'), m('2')], shares: [3, 2] },
    { name: 'a zero weight among others gets nothing', whole: 9, weights: [0, 3], members: [m('1'), m('2')], shares: [0, 9] },
    { name: 'nothing to split', whole: 0, weights: [5, 7], members: [m('1'), m('2')], shares: [0, 0] },
  ])('largest remainder (the service’s table): $name', ({ whole, weights, members, shares }) => {
    expect(largestRemainder(whole, weights, members)).toEqual(shares);
    expect(service.largestRemainder(BigInt(whole), weights.map(BigInt), members).map(Number)).toEqual(shares);
  });

  it('equals the service’s split on generated crews, every mode, up to 10,000,000 pieces', () => {
    const crew = fc.uniqueArray(
      fc.record({
        phone: fc.integer({ min: 0, max: 99 }).map((n) => `139000000${String(n).padStart(2, '0')}`),
        minute: fc.integer({ min: 0, max: 3 }),
        seconds: fc.integer({ min: 0, max: 86_400 }),
        coefficient: fc.integer({ min: 10, max: 999 }),
      }),
      { minLength: 1, maxLength: 8, selector: (x) => x.phone },
    );
    fc.assert(
      fc.property(crew, fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 10_000_000 }), fc.constantFrom('presence', 'coefficient', 'equal' as const), (xs, f, d, mode) => {
        const members = xs.map((x) => ({ phone: x.phone, clockInAt: new Date(Date.UTC(2026, 2, 2, 0, x.minute)).toISOString(), seconds: x.seconds, coefficient: x.coefficient / 100 }));
        expect(members.map((x) => coefficientHundredths(x.coefficient))).toEqual(xs.map((x) => x.coefficient));
        expect(crewShares(members, mode, { finishedQty: f, defectiveQty: d })).toEqual(served(members, mode, { finishedQty: f, defectiveQty: d }));
      }),
      { numRuns: 300 },
    );
  });

  it('says the minutes, who counts the worker already, who was left out, and a recorded member', () => {
    expect(minutesText(21_659)).toBe('360 分钟');
    expect(reportedByText({ phone: A.phone, name: '张三' })).toBe('已由 张三 班组报工');
    expect(reportedByText({ phone: A.phone, name: null })).toBe(`已由 ${A.phone} 班组报工`);
    expect(leftOutText({ phone: B.phone, name: '李四' })).toBe('李四 已自己报工或已在别人的班组报工里，不再计入');
    expect(recordedShareText({ phone: B.phone, name: '李四', seconds: 21_600, finishedQty: 429, defectiveQty: 0 })).toBe('李四 360 分钟 · 成品 429，不良 0');
  });

  it('我的报工: a crew line shows the worker’s share beside the crew’s; another’s report only its lines naming the worker', () => {
    const line = (productName: string, finishedQty: number, shares?: { phone: string; name: string; finishedQty: number }[]) => ({
      productId: productName.length, projectNo: 'P', productName, deviceNo: 'W', processName: '焊接', standardCycleSeconds: 1, standardWorkload: 1,
      finishedQty, defectiveQty: 0, outputQty: finishedQty,
      ...(shares ? { shares: shares.map((s) => ({ ...s, clockInAt: '', seconds: 1, coefficient: 1, weight: 1, defectiveQty: 0 })) } : {}),
    });
    const report = {
      reportId: 'r', sessionId: 's', reportDate: '2026-03-02', status: 'pending' as const, clockInAt: '2026-03-02T08:00:00+08:00', clockOutAt: '2026-03-02T16:00:00+08:00',
      breakMinutes: 0, effectiveSeconds: 28_800, devices: ['W'], submittedAt: '', reviewedAt: null, rejectReason: null, breakSource: 'default' as const, shiftName: null,
      lines: [line('焊接件', 1000, [{ phone: A.phone, name: '张三', finishedQty: 571 }, { phone: B.phone, name: '李四', finishedQty: 429 }]), line('支架', 40)],
    };
    const mine = myReportView(report, undefined, A.phone);
    expect(mine.lines.map((l) => [l.name, l.crewShare, l.crewWho])).toEqual([
      ['焊接件', '我的份额 成品 571，不良 0；全组 成品 1000，不良 0', '班组报工：本人 提交，组员 张三、李四'],
      ['支架', '', ''],
    ]);
    const theirs = myReportView({ ...report, submittedBy: { phone: A.phone, name: '张三' } }, undefined, B.phone);
    expect([theirs.submittedBy, theirs.lines.map((l) => [l.name, l.crewShare, l.crewWho])]).toEqual([
      '张三 提交的班组报工（上下班时间是提交人的）',
      [['焊接件', '我的份额 成品 429，不良 0；全组 成品 1000，不良 0', '班组报工：张三 提交，组员 张三、李四']],
    ]);
  });
});

const ZHANG = '13900000001';
const LI = '13900000002';
const ADMIN = '13800000004';
const MANAGER = '13800000002';

describe('against the service', () => {
  const svc = servicePhones(
    [
      [ZHANG, 'worker', '张三'],
      [LI, 'worker', '李四'],
      [ADMIN, 'admin', '王管理'],
      [MANAGER, 'manager', '李经理'],
    ],
    '2026-03-01T08:00:00+08:00',
  );
  const { phones, page, call } = svc;
  let app: TestApp;
  /** 张三 08:00–16:00 and 李四 10:00–16:00 on 焊机 01 on `day`; their session ids. */
  const day = async (date: string) => {
    svc.setTime(`${date}T08:00:00+08:00`);
    const a = await call(ZHANG, 'POST', '/api/clock/start', { deviceNo: '焊机 01' });
    svc.setTime(`${date}T10:00:00+08:00`);
    const b = await call(LI, 'POST', '/api/clock/start', { deviceNo: '焊机 01' });
    svc.setTime(`${date}T16:00:00+08:00`);
    await call(ZHANG, 'POST', '/api/clock/finish', { deviceNo: '焊机 01' });
    await call(LI, 'POST', '/api/clock/finish', { deviceNo: '焊机 01' });
    return { a: a.sessionId as string, b: b.sessionId as string };
  };
  const submittedId = (who: string) => new URL(`http://x${phones[who].lastUrl}`).searchParams.get('submitted')!;
  let crewReport = '';

  beforeAll(async () => {
    app = svc.app;
    await call(MANAGER, 'POST', '/api/products', { projectNo: 'P-7', productName: '焊接件', deviceNo: '焊机 01', processName: '焊接', operatorCount: 2, standardCycleSeconds: 20, pieceRate: '0.37', effectiveFrom: '2026-03-01' });
  }, 60_000);

  it('报工单: the crew with minutes and the shares as typed; a member unticked and back; sent with the crew, the service’s shares the same', async () => {
    const s = await day('2026-03-02');
    let report = await page(ZHANG, `/pages/report/report?sessionId=${s.a}`);
    const members = () => report.texts('.crew-member');
    expect(report.texts('.crew-title')).toEqual(['班组报工：按各人在设备上的时间分配（预计）']);
    expect(members()).toEqual(['☑张三（本人） 480 分钟', '☑李四 360 分钟']);
    report.input('.finished', '1000');
    await report.settle();
    expect(members()).toEqual(['☑张三（本人） 480 分钟成品 571，不良 0', '☑李四 360 分钟成品 429，不良 0']);
    report.tap('.crew-member', 1);
    await report.settle();
    expect(members()).toEqual(['☑张三（本人） 480 分钟', '☐李四 360 分钟不计入']);
    // Kept like the quantities: the 报工单 opened again has 李四 unticked and the 1,000 typed.
    report.close();
    report = await page(ZHANG, `/pages/report/report?sessionId=${s.a}`);
    expect(members()).toEqual(['☑张三（本人） 480 分钟', '☐李四 360 分钟不计入']);
    report.tap('.crew-member', 0); // the worker themself: nothing changes
    report.tap('.crew-member', 1);
    await report.settle();
    expect(members()).toEqual(['☑张三（本人） 480 分钟成品 571，不良 0', '☑李四 360 分钟成品 429，不良 0']);
    report.tap('#submit');
    await report.settle();
    const sent = phones[ZHANG].requests.find((r) => r.method === 'POST' && r.url.endsWith('/api/reports'))!;
    expect((sent.data as any).lines).toEqual([{ productId: expect.any(Number), finishedQty: 1000, defectiveQty: 0, crew: [ZHANG, LI] }]);
    crewReport = submittedId(ZHANG);
    const stored = await call(ADMIN, 'GET', `/api/reports/${crewReport}`);
    expect(stored.lines[0].shares.map((x: any) => [x.name, x.seconds, x.finishedQty])).toEqual([['张三', 28_800, 571], ['李四', 21_600, 429]]);
  });

  it('李四’s 报工单 says 已由 张三 班组报工 and takes nothing for that line', async () => {
    const drafts = await call(LI, 'GET', `/api/clock/state?deviceNo=${encodeURIComponent('焊机 01')}`);
    expect(drafts.label).toBe('继续报工');
    const report = await page(LI, `/pages/report/report?sessionId=${drafts.sessionId}`);
    expect(report.texts('.reported-by')).toEqual(['已由 张三 班组报工，这一行不用再报']);
    expect(report.texts('.finished')).toEqual([]);
    report.tap('#submit');
    await report.waitFor('请至少填写一个产品的数量');
  });

  it('我的报工: each sees their share beside the crew’s total; the reviewer reads the members with minutes and shares', async () => {
    const mineLi = await page(LI, '/pages/mine/mine');
    expect(mineLi.texts('.crew-submitted-by')).toEqual(['张三 提交的班组报工（上下班时间是提交人的）']);
    expect(mineLi.texts('.line')[0]).toContain('焊接件（班组报工）：我的份额 成品 429，不良 0；全组 成品 1000，不良 0');
    expect(mineLi.texts('.crew-who-line')).toEqual(['班组报工：张三 提交，组员 张三、李四']);
    const mineZhang = await page(ZHANG, '/pages/mine/mine');
    expect(mineZhang.texts('.line')[0]).toContain('我的份额 成品 571，不良 0；全组 成品 1000，不良 0');
    expect(mineZhang.texts('.crew-who-line')).toEqual(['班组报工：本人 提交，组员 张三、李四']);

    const detail = await page(ADMIN, `/pages/review/detail?reportId=${crewReport}`);
    expect(detail.texts('.crew-title')).toEqual(['班组报工（2 人）']);
    expect(detail.texts('.crew-line')).toEqual(['张三 480 分钟 · 成品 571，不良 0', '李四 360 分钟 · 成品 429，不良 0']);
  });

  it('a member who reported first is left out of the later crew line, and the 报工单 says why', async () => {
    const s = await day('2026-03-03');
    const own = await page(LI, `/pages/report/report?sessionId=${s.b}`);
    expect(own.texts('.crew-member')).toEqual(['☑李四（本人） 360 分钟', '☑张三 360 分钟']);
    own.tap('.crew-member', 1);
    own.input('.finished', '300');
    own.tap('#submit');
    await own.settle();
    const sent = phones[LI].requests.filter((r) => r.method === 'POST' && r.url.endsWith('/api/reports')).at(-1)!;
    expect((sent.data as any).lines).toEqual([{ productId: expect.any(Number), finishedQty: 300, defectiveQty: 0 }]);

    const report = await page(ZHANG, `/pages/report/report?sessionId=${s.a}`);
    expect(report.texts('.crew-left-out')).toEqual(['李四 已自己报工或已在别人的班组报工里，不再计入']);
    expect(report.texts('.crew-member')).toEqual([]);
  });

  it('审核: 修正明细后通过 unticks 李四 (the submitter stays); sent with crew [张三]; the service gives 张三 all 1,000 and 370.00', async () => {
    const s = await day('2026-03-04');
    const product = (await call(ADMIN, 'GET', `/api/products?deviceNo=${encodeURIComponent('焊机 01')}`)).items[0];
    const id = (await call(ZHANG, 'POST', '/api/reports', { sessionId: s.a, lines: [{ productId: product.id, finishedQty: 1000, defectiveQty: 0, crew: [ZHANG, LI] }] })).reportId;
    const detail = await page(ADMIN, `/pages/review/detail?reportId=${id}`);
    expect(detail.texts('.crew-keep')).toEqual([]);
    detail.tap('#correct');
    await detail.settle();
    expect(detail.texts('.crew-keep')).toEqual(['☑张三（提交人） 480 分钟', '☑李四 360 分钟']);
    detail.tap('.crew-keep', 0); // the submitter: nothing changes
    detail.tap('.crew-keep', 1);
    await detail.settle();
    expect(detail.texts('.crew-keep')).toEqual(['☑张三（提交人） 480 分钟', '☐李四 360 分钟不计入']);
    detail.tap('#approve-corrected');
    await detail.waitFor('已修正并通过');
    const sent = phones[ADMIN].requests.find((r) => r.method === 'POST' && r.url.endsWith(`/api/reviews/${id}/approve`))!;
    expect((sent.data as any).lines).toEqual([{ productId: product.id, finishedQty: 1000, defectiveQty: 0, crew: [ZHANG] }]);
    const stored = await call(ADMIN, 'GET', `/api/reports/${id}`);
    expect([stored.status, stored.lines[0].finishedQty, stored.lines[0].shares]).toEqual(['approved', 1000, undefined]);
    expect(detail.texts('.crew-line')).toEqual([]); // the line is 张三's alone now
    await app.catchUpAll();
    const wages = await call(MANAGER, 'GET', `/api/wages/${ZHANG}?month=2026-03`);
    expect(wages.reports.find((r: any) => r.reportId === id).lines[0]).toMatchObject({ finishedQty: 1000, amount: '370.00' });
  });
});
