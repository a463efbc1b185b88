/** Given-when-then for every rule of the report decider (src/commands/review/decider.ts, lines.ts). */
import { describe, expect, it } from 'vitest';
import { reportFold, reviewDecider, type ReviewCommand } from '../../src/commands/review/decider.ts';
import { plausibilityFlags, type PlausibilityBounds } from '../../src/domain/plausibility.ts';
import type { LineInput, ProductSnapshot } from '../../src/domain/report-line.ts';
import type { ReportEvent } from '../../src/events/catalog.ts';
import { scenario } from '../helpers/gwt.ts';
import { line, submittedEvent } from './fixtures.ts';

const at = '2026-03-02T10:00:00.000Z';
/** The instant and the closed months of a command: none closed. */
const base = { at, closedMonths: [] as string[], actorPhone: '13900000001', inScope: true };
const bounds: PlausibilityBounds = { minCycleRatio: 0.5, maxWorkloadRatio: 2, maxSpanMs: 15 * 3_600_000 };
const s = scenario(reviewDecider(bounds));
const subLines = [line(1, 10, 2880, 100, 5), line(2, 12.5, 2304, 40, 0)];
const sub = submittedEvent({ lines: subLines });
const ref = {
  reportId: sub.data.reportId,
  employeePhone: sub.data.employeePhone,
  reportDate: sub.data.reportDate,
  workshopCode: sub.data.workshopCode,
  teamCode: sub.data.teamCode,
};
const approved: ReportEvent = { type: 'ReportApproved', data: { ...ref, flags: [], at } };
const rejected: ReportEvent = { type: 'ReportRejected', data: { ...ref, reason: '数量不对', at } };
const candidate: ProductSnapshot = {
  productId: 3,
  projectNo: 'P3',
  productName: '产品3',
  deviceNo: 'D1',
  processName: '折弯',
  standardCycleSeconds: 20,
  standardWorkload: 1440,
};
const approve = (lines?: LineInput[], candidates: ProductSnapshot[] = [candidate]): ReviewCommand => ({
  type: 'Approve',
  ...base,
  lines,
  candidates,
});

describe('approve', () => {
  it('approves a pending report without a correction', () => {
    const r = s.given([sub]).when(approve());
    expect(r.events).toEqual([{ type: 'ReportApproved', data: { ...ref, flags: [], at } }]);
  });

  it('records corrected lines with the report’s own standard values and before/after', () => {
    const r = s.given([sub]).when(
      approve([
        { productId: 2, finishedQty: 38, defectiveQty: 2 },
        { productId: 1, finishedQty: 100, defectiveQty: 5, outputQty: 105 },
      ]),
    );
    const d = (r.events![0] as Extract<ReportEvent, { type: 'ReportApproved' }>).data;
    expect(d.correction!.before).toEqual(subLines);
    expect(d.correction!.after).toEqual([{ ...line(2, 12.5, 2304, 38, 2) }, line(1, 10, 2880, 100, 5)]);
  });

  it('takes a candidate of the report’s devices with its current standard values', () => {
    const r = s.given([sub]).when(approve([{ productId: 3, finishedQty: 7, defectiveQty: 1 }]));
    const after = (r.events![0] as any).data.correction.after;
    expect(after).toEqual([{ ...candidate, finishedQty: 7, defectiveQty: 1, outputQty: 8 }]);
  });

  it('keeps the report’s copy of a product even when the candidate list has newer values', () => {
    const r = s.given([sub]).when(approve([{ productId: 1, finishedQty: 1, defectiveQty: 0 }], [{ ...candidate, productId: 1, standardCycleSeconds: 99 }]));
    expect((r.events![0] as any).data.correction.after[0].standardCycleSeconds).toBe(10);
  });

  it('treats lines equal to the current ones (any order) as no correction', () => {
    const r = s.given([sub]).when(
      approve([
        { productId: 2, finishedQty: 40, defectiveQty: 0 },
        { productId: 1, finishedQty: 100, defectiveQty: 5 },
      ]),
    );
    expect((r.events![0] as any).data.correction).toBeUndefined();
  });

  it.each([
    ['no lines', [], 'NO_LINES'],
    ['a negative quantity', [{ productId: 1, finishedQty: -1, defectiveQty: 0 }], 'INVALID_QUANTITY'],
    ['a fractional quantity', [{ productId: 1, finishedQty: 1.5, defectiveQty: 0 }], 'INVALID_QUANTITY'],
    ['a fractional outputQty', [{ productId: 1, finishedQty: 1, defectiveQty: 0, outputQty: 1.5 }], 'INVALID_QUANTITY'],
    ['outputQty ≠ finished + defective', [{ productId: 1, finishedQty: 3, defectiveQty: 1, outputQty: 5 }], 'OUTPUT_QTY_MISMATCH'],
    [
      'a product twice',
      [
        { productId: 1, finishedQty: 1, defectiveQty: 0 },
        { productId: 1, finishedQty: 2, defectiveQty: 0 },
      ],
      'DUPLICATE_PRODUCT',
    ],
    ['a product of another device', [{ productId: 99, finishedQty: 1, defectiveQty: 0 }], 'PRODUCT_NOT_ALLOWED'],
  ])('refuses corrected lines with %s: 422', (_name, lines, code) => {
    const r = s.given([sub]).when(approve(lines));
    expect(r.error).toMatchObject({ status: 422, code });
    expect(r.error.message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('refuses a second decision: 409 after approval and after rejection', () => {
    expect(s.given([sub, approved]).when(approve()).error).toMatchObject({ status: 409, code: 'REPORT_ALREADY_REVIEWED', details: { status: 'approved' } });
    expect(s.given([sub, rejected]).when(approve()).error).toMatchObject({ status: 409, code: 'REPORT_ALREADY_REVIEWED', details: { status: 'rejected' } });
  });

  it('answers 404 for a report that does not exist', () => {
    expect(s.given([]).when(approve()).error).toMatchObject({ status: 404, code: 'REPORT_NOT_FOUND' });
  });
});

describe('reject', () => {
  it('rejects a pending report with the trimmed reason', () => {
    const r = s.given([sub]).when({ type: 'Reject', ...base, reason: '  数量与实际不符  ' });
    expect(r.events).toEqual([{ type: 'ReportRejected', data: { ...ref, reason: '数量与实际不符', at } }]);
  });

  it('accepts 200 characters and refuses an empty, blank or 201-character reason: 422', () => {
    expect(s.given([sub]).when({ type: 'Reject', ...base, reason: '字'.repeat(200) }).events).toHaveLength(1);
    for (const reason of ['', '   ', '字'.repeat(201)]) {
      expect(s.given([sub]).when({ type: 'Reject', ...base, reason }).error).toMatchObject({ status: 422, code: 'INVALID_REASON' });
    }
  });

  it('refuses a second decision: 409', () => {
    expect(s.given([sub, rejected]).when({ type: 'Reject', ...base, reason: 'x' }).error).toMatchObject({ status: 409, code: 'REPORT_ALREADY_REVIEWED' });
    expect(s.given([sub, approved]).when({ type: 'Reject', ...base, reason: 'x' }).error).toMatchObject({ status: 409 });
  });

  it('answers 404 for a report that does not exist', () => {
    expect(s.given([]).when({ type: 'Reject', ...base, reason: 'x' }).error).toMatchObject({ status: 404 });
  });
});

describe('change break minutes', () => {
  // The fixture works 08:00–17:00: 540 minutes between clock-in and clock-out.
  it('changes the break of a pending report, with before, after and reason', () => {
    const r = s.given([sub]).when({ type: 'ChangeBreak', ...base, breakMinutes: 30, reason: ' 午休缩短 ' });
    expect(r.events).toEqual([{ type: 'BreakChanged', data: { ...ref, before: 60, after: 30, reason: '午休缩短', flags: [], at } }]);
  });

  it('changes the break of an approved report, from the last change', () => {
    const changed: ReportEvent = { type: 'BreakChanged', data: { ...ref, before: 60, after: 45, at } };
    const r = s.given([sub, approved, changed]).when({ type: 'ChangeBreak', ...base, breakMinutes: 0 });
    expect(r.events).toEqual([{ type: 'BreakChanged', data: { ...ref, before: 45, after: 0, flags: [], at } }]);
  });

  it('allows a break equal to the whole span (effective time 0) and refuses one minute more: 422', () => {
    expect(s.given([sub]).when({ type: 'ChangeBreak', ...base, breakMinutes: 540 }).events).toHaveLength(1);
    const r = s.given([sub]).when({ type: 'ChangeBreak', ...base, breakMinutes: 541 });
    expect(r.error).toMatchObject({ status: 422, code: 'BREAK_EXCEEDS_WORKING_TIME', details: { maxBreakMinutes: 540 } });
  });

  it.each([-1, 1.5, Number.NaN])('refuses %s minutes: 422', (breakMinutes) => {
    expect(s.given([sub]).when({ type: 'ChangeBreak', ...base, breakMinutes }).error).toMatchObject({ status: 422, code: 'INVALID_BREAK_MINUTES' });
  });

  it('refuses a reason over 200 characters: 422', () => {
    expect(s.given([sub]).when({ type: 'ChangeBreak', ...base, breakMinutes: 30, reason: 'x'.repeat(201) }).error).toMatchObject({
      status: 422,
      code: 'INVALID_REASON',
    });
  });

  it('decides nothing when the break stays the same', () => {
    expect(s.given([sub]).when({ type: 'ChangeBreak', ...base, breakMinutes: 60 }).events).toEqual([]);
  });

  it('refuses a rejected report: 409, and an unknown one: 404', () => {
    expect(s.given([sub, rejected]).when({ type: 'ChangeBreak', ...base, breakMinutes: 30 }).error).toMatchObject({ status: 409, code: 'REPORT_REJECTED' });
    expect(s.given([]).when({ type: 'ChangeBreak', ...base, breakMinutes: 30 }).error).toMatchObject({ status: 404 });
  });
});

describe('a report dated in a closed month', () => {
  const closed = { ...base, closedMonths: ['2026-02', '2026-03'] };
  it('refuses approve, correct, reject and break change with 409 PERIOD_CLOSED naming the month, before any other refusal', () => {
    for (const command of [
      { ...approve(), ...closed },
      { ...approve([{ productId: 1, finishedQty: 1, defectiveQty: 0 }]), ...closed },
      { type: 'Reject', ...closed, reason: 'x' },
      { type: 'ChangeBreak', ...closed, breakMinutes: 30 },
    ] as ReviewCommand[]) {
      const r = s.given([sub, approved]).when(command);
      expect(r.error).toMatchObject({ status: 409, code: 'PERIOD_CLOSED', details: { month: '2026-03' } });
      expect(r.error.message).toMatch(/^2026年3月已结账，/);
    }
  });

  it('lets a report of an open month through when other months are closed', () => {
    expect(s.given([sub]).when({ ...approve(), closedMonths: ['2026-02', '2026-04'] }).events).toHaveLength(1);
  });
});

describe('evolve', () => {
  it('follows status, corrected lines and break minutes', () => {
    const after = [line(3, 20, 1440, 1, 0)];
    const state = [
      sub,
      { type: 'ReportApproved', data: { ...ref, correction: { before: subLines, after }, flags: [], at } } as ReportEvent,
      { type: 'BreakChanged', data: { ...ref, before: 60, after: 10, at } } as ReportEvent,
    ].reduce(reportFold.evolve, reportFold.initialState);
    expect(state).toMatchObject({ status: 'approved', lines: after, breakMinutes: 10 });
  });
});

describe('plausibility flags: decided with the figures, carried by the events, never a refusal', () => {
  // 08:00–08:00 (0 minutes worked), 205 pieces at 30 s: NO_WORKING_TIME.
  const zero = submittedEvent({ clockInAt: '2026-03-02T08:00:00+08:00', clockOutAt: '2026-03-02T08:00:00+08:00', breakMinutes: 0, lines: [line(1, 30, 960, 205, 0)] });
  const zeroFlags = plausibilityFlags(zero.data as any, bounds);
  const flagged: ReportEvent = { ...zero, data: { ...zero.data, flags: zeroFlags } } as ReportEvent;
  const zref = { reportId: flagged.data.reportId, employeePhone: flagged.data.employeePhone, reportDate: flagged.data.reportDate, workshopCode: null, teamCode: null };

  it('approving a flagged report is allowed and records the flags it was approved with', () => {
    expect(zeroFlags.map((f) => f.code)).toEqual(['NO_WORKING_TIME']);
    const r = s.given([flagged]).when(approve());
    expect(r.events).toEqual([{ type: 'ReportApproved', data: { ...zref, flags: zeroFlags, at } }]);
  });

  it('a correction recomputes them from the corrected lines', () => {
    const none = s.given([flagged]).when(approve([{ productId: 1, finishedQty: 0, defectiveQty: 0 }], []));
    expect((none.events![0] as any).data.flags).toEqual([]);
    // The 08:00–17:00 report (8 h worked) corrected to 7,000 pieces at 10 s: 19.4 h of standard time (more than
    // twice the 8 h) and more than twice its workload of 2,880 for 8 h.
    const big = s.given([sub]).when(approve([{ productId: 1, finishedQty: 7000, defectiveQty: 0 }]));
    expect((big.events![0] as any).data.flags.map((f: { code: string }) => f.code)).toEqual(['CYCLE_TOO_FAST', 'OUTPUT_OVER_WORKLOAD']);
  });

  it('a break change recomputes them with the new break: the whole span as break leaves no working time', () => {
    const r = s.given([sub]).when({ type: 'ChangeBreak', ...base, breakMinutes: 540 });
    expect((r.events![0] as any).data.flags).toEqual([{ code: 'NO_WORKING_TIME', effectiveSeconds: 0, outputQty: 145, standardSeconds: 1550 }]);
    const back = s.given([sub, ...r.events!]).when({ type: 'ChangeBreak', ...base, breakMinutes: 60 });
    expect((back.events![0] as any).data.flags).toEqual([]);
  });

  it('the state follows the flags of the events; older events without flags leave them as they were', () => {
    const state = [flagged, { type: 'BreakChanged', data: { ...zref, before: 0, after: 0, at } } as ReportEvent].reduce(reportFold.evolve, reportFold.initialState);
    expect(state).toMatchObject({ flags: zeroFlags });
  });
});

describe('scope and self-review', () => {
  const own = { ...base, actorPhone: sub.data.employeePhone };
  const outside = { ...base, inScope: false };
  const R_SELF_REVIEW = { status: 403, code: 'SELF_REVIEW', message: expect.stringContaining('自己的报工单') };
  const R_REPORT_NOT_FOUND = { status: 404, code: 'REPORT_NOT_FOUND', message: '没有找到这份报工单' };
  it.each([
    ['approve', { ...approve(), ...own }],
    ['reject', { type: 'Reject' as const, ...own, reason: '不对' }],
  ])('given a pending report of the actor, when %s, then SELF_REVIEW (review)', (_, command) => {
    expect(s.given([sub]).when(command).error).toMatchObject(R_SELF_REVIEW);
  });
  it('given a report of the actor, when the break is changed, then SELF_REVIEW', () => {
    expect(s.given([sub, approved]).when({ type: 'ChangeBreak', ...own, breakMinutes: 30 }).error).toMatchObject(R_SELF_REVIEW);
  });
  it.each([
    ['approve', { ...approve(), ...outside }],
    ['reject', { type: 'Reject' as const, ...outside, reason: '不对' }],
    ['change break', { type: 'ChangeBreak' as const, ...outside, breakMinutes: 30 }],
  ])('given a report outside the actor\'s scope, when %s, then REPORT_NOT_FOUND (existence not leaked)', (_, command) => {
    expect(s.given([sub]).when(command).error).toMatchObject(R_REPORT_NOT_FOUND);
  });
  it('given a report outside the scope AND the actor\'s own, then REPORT_NOT_FOUND first', () => {
    expect(s.given([sub]).when({ ...approve(), ...outside, actorPhone: sub.data.employeePhone }).error).toMatchObject(R_REPORT_NOT_FOUND);
  });
  it('the review events repeat the report\'s placement', () => {
    const placed = submittedEvent({ lines: subLines, workshopCode: 'W1', teamCode: 'T1' });
    const r = s.given([placed]).when(approve());
    expect(r.events?.[0].data).toMatchObject({ workshopCode: 'W1', teamCode: 'T1' });
  });
});
