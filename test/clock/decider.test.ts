/**
 * The worker decider in given-when-then form (no database): every row of the table of spec 3.1, every rule
 * under it, and the submission rules of decisions.md "Reports and review".
 */
import { NO_PLACEMENT } from '../../src/domain/placement.ts';
import { describe, expect, it } from 'vitest';
import { workerDecider, type WorkerCommand, type WorkerDecision } from '../../src/commands/clock/decider.ts';
import { labelAt, LABELS, openOrNone, type ClockLabel } from '../../src/domain/clock.ts';
import { fold } from '../../src/commands/decider.ts';
import type { ProductSnapshot } from '../../src/domain/report-line.ts';
import { scenario } from '../helpers/gwt.ts';

const settings = {
  reportWindowMs: 30 * 60_000,
  sessionMaxMs: 16 * 3_600_000,
  timeZone: 'Asia/Shanghai',
  defaultBreakMinutes: 60,
  plausibility: { minCycleRatio: 0.5, maxWorkloadRatio: 2, maxSpanMs: 15 * 3_600_000 },
};
const decider = workerDecider(settings);
const worker = scenario(decider);

const PHONE = '13800138000';
const S1 = '11111111-1111-4111-8111-111111111111';
const S2 = '22222222-2222-4222-8222-222222222222';
const R1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const T0 = Date.parse('2026-03-02T08:00:00+08:00');
/** The instant `min` minutes (may be fractional) after 08:00 Beijing time, 2 March 2026, as ISO text. */
const t = (min: number) => new Date(T0 + Math.round(min * 60_000)).toISOString();
const who = { employeePhone: PHONE };

const clockedIn = (deviceNo: string, at = t(0), sessionId = S1): WorkerDecision => ({ type: 'ClockedIn', data: { sessionId, ...who, deviceNo, at } });
const switched = (deviceNo: string, at: string, sessionId = S1): WorkerDecision => ({ type: 'DeviceSwitched', data: { sessionId, ...who, deviceNo, at } });
const clockedOut = (deviceNo: string, at: string, reopened = false, sessionId = S1): WorkerDecision => ({
  type: 'ClockedOut',
  data: { sessionId, ...who, deviceNo, at, expiresAt: new Date(Date.parse(at) + settings.reportWindowMs).toISOString(), reopened },
});
const reported = (at: string, sessionId = S1, reportId = R1): WorkerDecision => ({ type: 'SessionReported', data: { sessionId, ...who, reportId, at } });
const abandoned = (at: string, sessionId = S1): WorkerDecision => ({ type: 'SessionAbandoned', data: { sessionId, ...who, at, reason: 'x' } });

const start = (deviceNo: string, now: string, sessionId = S2): WorkerCommand => ({ type: 'Start', ...who, deviceNo, sessionId, now });
const switchTo = (deviceNo: string, now: string): WorkerCommand => ({ type: 'SwitchDevice', ...who, deviceNo, now });
const finish = (deviceNo: string, now: string): WorkerCommand => ({ type: 'Finish', ...who, deviceNo, now });

const products: ProductSnapshot[] = [
  { productId: 1, projectNo: 'P-1', productName: '支架', deviceNo: 'A', processName: '冲压', standardCycleSeconds: 12.5, standardWorkload: 2304 },
  { productId: 2, projectNo: 'P-1', productName: '底板', deviceNo: 'B 2', processName: '折弯', standardCycleSeconds: 30, standardWorkload: 960 },
  { productId: 3, projectNo: 'P-2', productName: '外壳', deviceNo: 'C', processName: '冲压', standardCycleSeconds: 8, standardWorkload: 3600 },
];
const submit = (now: string, lines: any[], sessionId = S1, closedMonths: string[] = []): WorkerCommand => ({
  type: 'Submit',
  ...who,
  sessionId,
  reportId: R1,
  now,
  lines,
  products,
  closedMonths,
  placement: NO_PLACEMENT,
});
const goodLines = [{ productId: 1, finishedQty: 100, defectiveQty: 3 }];

/** The label the state folded from `given` answers for `deviceNo` at `now`. */
const label = (given: WorkerDecision[], deviceNo: string, now: string) =>
  labelAt(openOrNone(fold(decider, given).latest), deviceNo, new Date(now), settings);

const conflictLabel = (r: { error?: any }) => {
  expect(r.error?.status).toBe(409);
  return r.error.details.label as ClockLabel;
};

describe('spec 3.1 row 1: no active session → 开始上班; start opens an active session', () => {
  it('answers 开始上班 to a worker with no events', () => {
    expect(label([], 'A', t(0)).label).toBe(LABELS.start);
  });
  it('start appends ClockedIn with the device, the worker and the time', () => {
    expect(worker.given([]).when(start('A', t(0))).events).toEqual([{ type: 'ClockedIn', data: { sessionId: S2, ...who, deviceNo: 'A', at: t(0) } }]);
  });
  it('after a reported or an abandoned session, the next scan is 开始上班 and start opens a new session', () => {
    for (const closed of [[reported(t(560))], [abandoned(t(1000))]]) {
      const given = [clockedIn('A'), clockedOut('A', t(540)), ...closed];
      expect(label(given, 'A', t(1100)).label).toBe(LABELS.start);
      expect(worker.given(given).when(start('A', t(1100))).events).toEqual([
        { type: 'ClockedIn', data: { sessionId: S2, ...who, deviceNo: 'A', at: t(1100) } },
      ]);
    }
  });
  it('switch-device and finish without a session: 409 with 开始上班, nothing appended', () => {
    expect(conflictLabel(worker.given([]).when(switchTo('A', t(0))))).toBe(LABELS.start);
    expect(conflictLabel(worker.given([]).when(finish('A', t(0))))).toBe(LABELS.start);
  });
});

describe('spec 3.1 row 2: active, device not yet in the session → 换设备; switch adds it', () => {
  const given = [clockedIn('A')];
  it('answers 换设备 with the session id', () => {
    expect(label(given, 'B 2', t(60))).toEqual({ label: LABELS.switchDevice, sessionId: S1 });
  });
  it('switch-device appends DeviceSwitched', () => {
    expect(worker.given(given).when(switchTo('B 2', t(60))).events).toEqual([
      { type: 'DeviceSwitched', data: { sessionId: S1, ...who, deviceNo: 'B 2', at: t(60) } },
    ]);
  });
  it('start and finish at that device: 409 with 换设备', () => {
    expect(conflictLabel(worker.given(given).when(start('B 2', t(60))))).toBe(LABELS.switchDevice);
    expect(conflictLabel(worker.given(given).when(finish('B 2', t(60))))).toBe(LABELS.switchDevice);
  });
});

describe('spec 3.1 row 3: active, device already in the session → 下班报工; finish moves to reporting', () => {
  const given = [clockedIn('A'), switched('B 2', t(60))];
  it('answers 下班报工 for every device of the session', () => {
    expect(label(given, 'A', t(300)).label).toBe(LABELS.finish);
    expect(label(given, 'B 2', t(300)).label).toBe(LABELS.finish);
  });
  it('finish appends ClockedOut with the window end 30 minutes later, not reopened', () => {
    expect(worker.given(given).when(finish('A', t(540))).events).toEqual([
      { type: 'ClockedOut', data: { sessionId: S1, ...who, deviceNo: 'A', at: t(540), expiresAt: t(570), reopened: false } },
    ]);
  });
  it('start at a device of the session (not a repeat) and switching back to it: 409 with 下班报工', () => {
    expect(conflictLabel(worker.given(given).when(start('A', t(300))))).toBe(LABELS.finish);
    expect(conflictLabel(worker.given(given).when(switchTo('A', t(300))))).toBe(LABELS.finish);
  });
});

describe('spec 3.1 row 4: reporting, within 30 minutes, not submitted → 继续报工', () => {
  const given = [clockedIn('A'), clockedOut('A', t(540))];
  it('answers 继续报工 with the window end, at any device, up to and including the 30th minute', () => {
    for (const m of [540, 540 + 29 + 59 / 60, 570]) {
      expect(label(given, 'C', t(m))).toEqual({ label: LABELS.continueReport, sessionId: S1, expiresAt: new Date(t(570)) });
    }
  });
  it('finish within the window appends nothing (the same window answers)', () => {
    expect(worker.given(given).when(finish('A', t(569))).events).toEqual([]);
  });
  it('start and switch-device: 409 with 继续报工', () => {
    expect(conflictLabel(worker.given(given).when(start('A', t(550))))).toBe(LABELS.continueReport);
    expect(conflictLabel(worker.given(given).when(switchTo('C', t(550))))).toBe(LABELS.continueReport);
  });
});

describe('spec 3.1 row 5: reporting, more than 30 minutes without submission → 重新报工', () => {
  const given = [clockedIn('A'), clockedOut('A', t(540))];
  it('answers 重新报工 one second after the window', () => {
    expect(label(given, 'A', t(570 + 1 / 60))).toEqual({ label: LABELS.reReport, sessionId: S1, expiresAt: new Date(t(570)) });
  });
  it('finish is 重新报工: ClockedOut reopened with the new clock-out time and a new window', () => {
    expect(worker.given(given).when(finish('C', t(600))).events).toEqual([
      { type: 'ClockedOut', data: { sessionId: S1, ...who, deviceNo: 'C', at: t(600), expiresAt: t(630), reopened: true } },
    ]);
  });
  it('after 重新报工 the label is 继续报工 again, and a repeated finish appends nothing', () => {
    const after = [...given, clockedOut('C', t(600), true)];
    expect(label(after, 'A', t(601)).label).toBe(LABELS.continueReport);
    expect(worker.given(after).when(finish('C', t(601))).events).toEqual([]);
  });
  it('start and switch-device: 409 with 重新报工', () => {
    expect(conflictLabel(worker.given(given).when(start('A', t(600))))).toBe(LABELS.reReport);
    expect(conflictLabel(worker.given(given).when(switchTo('C', t(600))))).toBe(LABELS.reReport);
  });
});

describe('rule 1: labels are mutually exclusive: in every state exactly the operation of the label acts', () => {
  const states: [string, WorkerDecision[], string, string][] = [
    ['none', [], 'A', t(0)],
    ['active, device not in the session', [clockedIn('A')], 'C', t(10)],
    ['active, device in the session', [clockedIn('A'), switched('B 2', t(5))], 'A', t(10)],
    ['window open', [clockedIn('A'), clockedOut('A', t(60))], 'A', t(70)],
    ['window expired', [clockedIn('A'), clockedOut('A', t(60))], 'A', t(100)],
    ['over age', [clockedIn('A')], 'A', t(16 * 60 + 1)],
  ];
  const opOf: Record<ClockLabel, WorkerCommand['type'] | undefined> = {
    开始上班: 'Start',
    换设备: 'SwitchDevice',
    下班报工: 'Finish',
    继续报工: undefined, // no operation: the worker continues the report (finish answers the same window)
    重新报工: 'Finish',
  };
  it.each(states)('%s', (_name, given, device, now) => {
    const l = label(given, device, now).label;
    for (const op of [start(device, now), switchTo(device, now), finish(device, now)]) {
      const r = worker.given(given).when(op);
      if (op.type === opOf[l]) expect(r.events!.length).toBeGreaterThan(0);
      else if (l === LABELS.continueReport && op.type === 'Finish') expect(r.events).toEqual([]);
      else expect(conflictLabel(r)).toBe(l);
    }
  });
});

describe('repeating an operation (double tap, retry) appends nothing', () => {
  it('a repeated start at the same device answers the same session', () => {
    const r = worker.given([clockedIn('A')]).when(start('A', t(0.1)));
    expect(r.events).toEqual([]);
    expect(r.state.latest?.sessionId).toBe(S1);
  });
  it('a repeated switch to the same device appends nothing', () => {
    expect(worker.given([clockedIn('A'), switched('B 2', t(5))]).when(switchTo('B 2', t(5.1))).events).toEqual([]);
  });
  it('a repeated finish within the window appends nothing', () => {
    expect(worker.given([clockedIn('A'), clockedOut('A', t(60))]).when(finish('A', t(60.1))).events).toEqual([]);
  });
});

describe('rule 2 and the submission (decisions.md "Reports and review")', () => {
  const given = [clockedIn('A'), switched('B 2', t(60)), clockedOut('A', t(540))];

  it('at 29:59 after clocking out: SessionReported and ReportSubmitted with the copied product fields', () => {
    const now = t(540 + 29 + 59 / 60);
    const r = worker.given(given).when(submit(now, [{ productId: 1, finishedQty: 100, defectiveQty: 3 }, { productId: 2, finishedQty: 5, defectiveQty: 0, outputQty: 5 }]));
    expect(r.events).toEqual([
      { type: 'SessionReported', data: { sessionId: S1, ...who, reportId: R1, at: now } },
      {
        type: 'ReportSubmitted',
        data: {
          reportId: R1,
          ...who,
          reportDate: '2026-03-02',
          sessionId: S1,
          clockInAt: t(0),
          clockOutAt: t(540),
          breakMinutes: 60,
          devices: ['A', 'B 2'],
          lines: [
            { ...products[0], finishedQty: 100, defectiveQty: 3, outputQty: 103 },
            { ...products[1], finishedQty: 5, defectiveQty: 0, outputQty: 5 },
          ],
          flags: [],
          workshopCode: null,
          teamCode: null,
          breakSource: 'default',
          shift: null,
          at: now,
        },
      },
    ]);
  });

  it('the placement fact (team and workshop on the report date) is recorded in ReportSubmitted', () => {
    const placed = { ...submit(t(545), goodLines), placement: { workshopCode: 'C1', teamCode: 'C1-A' } } as WorkerCommand;
    expect((worker.given(given).when(placed).events![1] as any).data).toMatchObject({ workshopCode: 'C1', teamCode: 'C1-A' });
  });

  it('at 30:01: 409 REPORT_WINDOW_EXPIRED naming 重新报工; after 重新报工 it is accepted with the new clock-out time', () => {
    const late = worker.given(given).when(submit(t(571 + 1 / 60), goodLines));
    expect(late.error?.code).toBe('REPORT_WINDOW_EXPIRED');
    expect(late.error.details.label).toBe(LABELS.reReport);
    expect(late.error.message).toContain('重新报工');
    const again = worker.given([...given, clockedOut('A', t(600), true)]).when(submit(t(610), goodLines));
    expect((again.events![1] as any).data.clockOutAt).toBe(t(600));
  });

  it('the report date is the confirmation day in APP_TIMEZONE: 00:10 Beijing time is the new day', () => {
    // 00:10 on 3 March in Beijing is 16:10 UTC on 2 March.
    const lateShift = [clockedIn('A', '2026-03-02T12:00:00.000Z'), clockedOut('A', '2026-03-02T16:05:00.000Z')];
    const r = worker.given(lateShift).when(submit('2026-03-02T16:10:00.000Z', goodLines));
    expect((r.events![1] as any).data.reportDate).toBe('2026-03-03');
  });

  it('a submission dated in a closed month (it raced the close at the month end): 409 PERIOD_CLOSED, the session still open', () => {
    // 23:59 on 31 March in Beijing; March closed by an instance whose clock is ahead.
    const endOfMonth = [clockedIn('A', '2026-03-31T08:00:00.000Z'), clockedOut('A', '2026-03-31T15:50:00.000Z')];
    const r = worker.given(endOfMonth).when(submit('2026-03-31T15:59:00.000Z', goodLines, S1, ['2026-03']));
    expect(r.error).toMatchObject({ status: 409, code: 'PERIOD_CLOSED', details: { month: '2026-03' } });
    expect(r.error.message).toContain('重新提交');
    expect(openOrNone(r.state.latest)?.status).toBe('reporting');
    // A minute later the report date is 1 April, an open month: accepted.
    const next = worker.given(endOfMonth).when(submit('2026-03-31T16:01:00.000Z', goodLines, S1, ['2026-03']));
    expect((next.events![1] as any).data.reportDate).toBe('2026-04-01');
  });

  it('a report that cannot be true is submitted with its plausibility flags: 0 minutes worked, 205 pieces', () => {
    // Clocked out 20 s after clocking in: no whole minute, so no break, and 20 s of effective time for 205 pieces.
    const instant = [clockedIn('A'), clockedOut('A', t(1 / 3))];
    const r = worker.given(instant).when(submit(t(1), [{ productId: 1, finishedQty: 205, defectiveQty: 0 }]));
    expect((r.events![1] as any).data.flags).toEqual([
      { code: 'CYCLE_TOO_FAST', effectiveSeconds: 20, outputQty: 205, standardSeconds: 2562.5, minCycleRatio: 0.5 },
      { code: 'OUTPUT_OVER_WORKLOAD', effectiveSeconds: 20, outputQty: 205, standardWorkload: 2304, maxWorkloadRatio: 2 },
    ]);
    const none = [clockedIn('A'), clockedOut('A', t(0))];
    expect((worker.given(none).when(submit(t(1), [{ productId: 1, finishedQty: 205, defectiveQty: 0 }])).events![1] as any).data.flags).toEqual([
      { code: 'NO_WORKING_TIME', effectiveSeconds: 0, outputQty: 205, standardSeconds: 2562.5 },
    ]);
    // A shift of 15 h 30 min (SESSION_MAX_HOURS 16 − 1 h exceeded).
    const long = [clockedIn('A'), clockedOut('A', t(930))];
    expect((worker.given(long).when(submit(t(931), goodLines)).events![1] as any).data.flags.map((f: { code: string }) => f.code)).toEqual(['SESSION_TOO_LONG']);
  });

  it('the break starts at DEFAULT_BREAK_MINUTES but never exceeds the minutes worked', () => {
    const short = [clockedIn('A'), clockedOut('A', t(25.5))];
    expect((worker.given(short).when(submit(t(26), goodLines)).events![1] as any).data.breakMinutes).toBe(25);
  });

  it('a second submission for the same session: 409 REPORT_ALREADY_SUBMITTED with the report id, nothing appended', () => {
    const r = worker.given([...given, reported(t(545))]).when(submit(t(546), goodLines));
    expect(r.error?.code).toBe('REPORT_ALREADY_SUBMITTED');
    expect(r.error.details.reportId).toBe(R1);
    // also when a later session has been opened since
    const later = worker.given([...given, reported(t(545)), clockedIn('A', t(600), S2)]).when(submit(t(601), goodLines));
    expect(later.error?.code).toBe('REPORT_ALREADY_SUBMITTED');
  });

  it('submission of an active session: 409 with 下班报工; of an unknown session: 404; of an abandoned one: 409', () => {
    expect(conflictLabel(worker.given([clockedIn('A')]).when(submit(t(10), goodLines)))).toBe(LABELS.finish);
    expect(worker.given([clockedIn('A')]).when(submit(t(10), goodLines, S2)).error?.status).toBe(404);
    expect(worker.given([clockedIn('A'), abandoned(t(1000))]).when(submit(t(1001), goodLines)).error?.code).toBe('SESSION_ABANDONED');
  });

  const invalid: [string, any[], string][] = [
    ['no line', [], 'NO_LINES'],
    ['a negative quantity', [{ productId: 1, finishedQty: -1, defectiveQty: 0 }], 'INVALID_QUANTITY'],
    ['a fractional quantity', [{ productId: 1, finishedQty: 1.5, defectiveQty: 0 }], 'INVALID_QUANTITY'],
    ['a negative output', [{ productId: 1, finishedQty: 1, defectiveQty: 0, outputQty: -1 }], 'INVALID_QUANTITY'],
    ['finished + defective over the limit of a quantity', [{ productId: 1, finishedQty: 6_000_000, defectiveQty: 5_000_000 }], 'OUTPUT_QTY_TOO_LARGE'],
    ['an output that is not finished + defective', [{ productId: 1, finishedQty: 10, defectiveQty: 2, outputQty: 13 }], 'OUTPUT_QTY_MISMATCH'],
    ['a product twice', [{ productId: 1, finishedQty: 1, defectiveQty: 0 }, { productId: 1, finishedQty: 2, defectiveQty: 0 }], 'DUPLICATE_PRODUCT'],
    ['a product of a device not in the session', [{ productId: 3, finishedQty: 1, defectiveQty: 0 }], 'PRODUCT_NOT_CANDIDATE'],
    ['an unknown product', [{ productId: 99, finishedQty: 1, defectiveQty: 0 }], 'PRODUCT_NOT_CANDIDATE'],
  ];
  it.each(invalid)('refuses %s with 422 and appends nothing', (_name, lines, code) => {
    const r = worker.given(given).when(submit(t(545), lines));
    expect(r.events).toBeUndefined();
    expect(r.error?.status).toBe(422);
    expect(r.error.code).toBe(code);
  });

  it('the window is checked before the lines: an expired window answers 409 even for bad lines', () => {
    expect(worker.given(given).when(submit(t(600), [])).error?.code).toBe('REPORT_WINDOW_EXPIRED');
  });
});

describe('abandoned sessions (SESSION_MAX_HOURS)', () => {
  const maxMin = 16 * 60;
  it('an active session older than the maximum is gone: the label is 开始上班 and start closes it first', () => {
    const given = [clockedIn('A')];
    expect(label(given, 'A', t(maxMin)).label).toBe(LABELS.finish);
    expect(label(given, 'A', t(maxMin + 1 / 60)).label).toBe(LABELS.start);
    const r = worker.given(given).when(start('A', t(maxMin + 1)));
    expect(r.events!.map((e) => e.type)).toEqual(['SessionAbandoned', 'ClockedIn']);
    expect(r.events![0].data.sessionId).toBe(S1);
    expect(conflictLabel(worker.given(given).when(finish('A', t(maxMin + 1))))).toBe(LABELS.start);
  });
  it('the job command abandons only that session, only when over age', () => {
    const given = [clockedIn('A')];
    const abandon = (now: string, sessionId = S1): WorkerCommand => ({ type: 'Abandon', ...who, sessionId, now, reason: 'r' });
    expect(worker.given(given).when(abandon(t(maxMin))).events).toEqual([]);
    expect(worker.given(given).when(abandon(t(maxMin + 1), S2)).events).toEqual([]);
    expect(worker.given(given).when(abandon(t(maxMin + 1))).events).toEqual([
      { type: 'SessionAbandoned', data: { sessionId: S1, ...who, at: t(maxMin + 1), reason: 'r' } },
    ]);
  });
  it('a clocked-out session keeps its open window past the maximum, then is gone once the window is over', () => {
    const given = [clockedIn('A'), clockedOut('A', t(maxMin - 10))];
    expect(label(given, 'A', t(maxMin + 15)).label).toBe(LABELS.continueReport);
    expect(worker.given(given).when(submit(t(maxMin + 15), goodLines)).events).toHaveLength(2);
    expect(label(given, 'A', t(maxMin + 21)).label).toBe(LABELS.start);
    expect(worker.given(given).when(submit(t(maxMin + 21), goodLines)).error?.code).toBe('SESSION_ABANDONED');
  });
});
