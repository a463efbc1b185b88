/**
 * The break arithmetic of shifts (src/domain/shift-breaks.ts), given-when-then
 * tables: given a shift (or shifts) on a local date, when a worker is present from clock-in to clock-out, then so
 * many break minutes.
 */
import { describe, expect, it } from 'vitest';
import {
  breakMinutesOf,
  namedOccurrence,
  occurrenceSpan,
  occurrencesApplying,
  sessionBreak,
  shiftLength,
  validateShiftTimes,
  type ShiftDay,
  type ShiftTimes,
} from '../../src/domain/shift-breaks.ts';
import { localInstant } from '../../src/time.ts';

const SH = 'Asia/Shanghai';
const BER = 'Europe/Berlin';
const day: ShiftTimes = { start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '13:00' }] };
const night: ShiftTimes = { start: '22:00', end: '06:00', breaks: [{ start: '00:00', end: '00:30' }] };
const withPaid: ShiftTimes = { start: '08:00', end: '17:00', breaks: [{ start: '10:00', end: '10:15', paid: true }, { start: '12:00', end: '13:00' }] };
/** Shanghai local time → ISO instant. */
const at = (date: string, time: string, tz = SH) => localInstant(date, time, tz).toISOString();

describe('break minutes of one shift (given a shift on 2026-03-02, when present from … to …)', () => {
  const table: [string, ShiftTimes, string, string, string, string, number][] = [
    ['08:00–17:00 with lunch 12:00–13:00 → 60', day, '2026-03-02', '08:00', '2026-03-02', '17:00', 60],
    ['left before lunch (out 11:30) → 0', day, '2026-03-02', '08:00', '2026-03-02', '11:30', 0],
    ['presence inside the window (12:10–12:40) → 30, never more than worked', day, '2026-03-02', '12:10', '2026-03-02', '12:40', 30],
    ['presence across the window start (11:00–12:20) → 20', day, '2026-03-02', '11:00', '2026-03-02', '12:20', 20],
    ['presence across the window end (12:45–16:00) → 15', day, '2026-03-02', '12:45', '2026-03-02', '16:00', 15],
    ['presence before the window (08:00–12:00, touching) → 0', day, '2026-03-02', '08:00', '2026-03-02', '12:00', 0],
    ['presence after the window (13:00–17:00, touching) → 0', day, '2026-03-02', '13:00', '2026-03-02', '17:00', 0],
    ['presence exactly the first half of the window (12:00–12:30) → 30', day, '2026-03-02', '12:00', '2026-03-02', '12:30', 30],
    ['a paid window never counts: 08:00–17:00 → 60 (not 75)', withPaid, '2026-03-02', '08:00', '2026-03-02', '17:00', 60],
    ['only the paid window overlaps (09:00–11:00) → 0', withPaid, '2026-03-02', '09:00', '2026-03-02', '11:00', 0],
    ['night shift 22:00–06:00, window 00:00–00:30 of the next date → 30', night, '2026-03-02', '22:00', '2026-03-03', '06:00', 30],
    ['night shift, out at 00:10 → 10', night, '2026-03-02', '22:00', '2026-03-03', '00:10', 10],
    ['night shift, out at 23:50 (before midnight) → 0', night, '2026-03-02', '22:00', '2026-03-02', '23:50', 0],
  ];
  it.each(table)('%s', (_, shift, inDate, inTime, outDate, outTime, expected) => {
    expect(breakMinutesOf({ clockInAt: at(inDate, inTime), clockOutAt: at(outDate, outTime) }, [{ date: '2026-03-02', shift }], SH)).toBe(expected);
  });

  it('seconds are cut to whole minutes of the overlap', () => {
    const p = { clockInAt: '2026-03-02T04:00:00.000Z' /* 12:00 */, clockOutAt: '2026-03-02T04:30:59.000Z' };
    expect(breakMinutesOf(p, [{ date: '2026-03-02', shift: day }], SH)).toBe(30);
  });

  it('no shift given → 0 (the caller then uses the default break)', () => {
    expect(breakMinutesOf({ clockInAt: at('2026-03-02', '08:00'), clockOutAt: at('2026-03-02', '17:00') }, [], SH)).toBe(0);
  });
});

describe('a session spanning two shifts counts every unpaid window it overlaps', () => {
  // Night shift of 03-02 (window 00:00–00:30 on 03-03), then the day shift of 03-03 (lunch 12:00–13:00).
  const occurrences = [
    { date: '2026-03-02', shift: night },
    { date: '2026-03-03', shift: day },
  ];
  const table: [string, string, string, string, string, number][] = [
    ['22:00 → next day 17:00: both windows → 90', '2026-03-02', '22:00', '2026-03-03', '17:00', 90],
    ['23:00 → next day 12:30: midnight window and half the lunch → 60', '2026-03-02', '23:00', '2026-03-03', '12:30', 60],
    ['00:15 → 11:00: half of the night window only → 15', '2026-03-03', '00:15', '2026-03-03', '11:00', 15],
  ];
  it.each(table)('%s', (_, inDate, inTime, outDate, outTime, expected) => {
    expect(breakMinutesOf({ clockInAt: at(inDate, inTime), clockOutAt: at(outDate, outTime) }, occurrences, SH)).toBe(expected);
  });

  it('windows of two shifts that overlap each other count once', () => {
    const a: ShiftTimes = { start: '20:00', end: '08:00', breaks: [{ start: '06:30', end: '07:00' }] };
    const b: ShiftTimes = { start: '06:00', end: '14:00', breaks: [{ start: '06:30', end: '07:00' }] };
    const p = { clockInAt: at('2026-03-02', '20:00'), clockOutAt: at('2026-03-03', '14:00') };
    expect(breakMinutesOf(p, [{ date: '2026-03-02', shift: a }, { date: '2026-03-03', shift: b }], SH)).toBe(30);
  });
});

describe('which shifts apply to a session (the team’s shift on the clock-in date, and the neighbours reaching into the presence)', () => {
  const byDate = { '2026-03-01': night, '2026-03-02': day, '2026-03-03': day };
  it('a day session on 03-02: only the day shift of 03-02 (the night of 03-01 ended at 06:00)', () => {
    const p = { clockInAt: at('2026-03-02', '08:00'), clockOutAt: at('2026-03-02', '17:00') };
    const applying = occurrencesApplying(p, '2026-03-02', byDate, SH);
    expect(applying.map((o) => o.date)).toEqual(['2026-03-02']);
    expect(breakMinutesOf(p, applying, SH)).toBe(60);
  });
  it('clocked in at 01:00 on 03-02 for the night shift of 03-01: that night shift applies and is named', () => {
    const p = { clockInAt: at('2026-03-02', '00:10'), clockOutAt: at('2026-03-02', '06:00') };
    const applying = occurrencesApplying(p, '2026-03-02', byDate, SH);
    expect(applying.map((o) => o.date)).toEqual(['2026-03-01', '2026-03-02']);
    expect(breakMinutesOf(p, applying, SH)).toBe(20);
    expect(namedOccurrence(p, applying, '2026-03-02', SH)?.date).toBe('2026-03-01');
  });
  it('a session running into the next day’s shift includes it; a day off on the clock-in date applies none', () => {
    const p = { clockInAt: at('2026-03-02', '20:00'), clockOutAt: at('2026-03-03', '13:00') };
    expect(occurrencesApplying(p, '2026-03-02', byDate, SH).map((o) => o.date)).toEqual(['2026-03-02', '2026-03-03']);
    expect(occurrencesApplying(p, '2026-03-02', { '2026-03-02': null }, SH)).toEqual([]);
  });
});

describe('a date on which the zone’s offset changes (Europe/Berlin)', () => {
  const overnight: ShiftTimes = { start: '22:00', end: '06:00', breaks: [{ start: '02:00', end: '03:00' }] };
  const ber = (d: string, t: string) => at(d, t, BER);
  it('spring forward 2026-03-29: 02:00–03:00 does not exist, the window lasts 0 minutes; the shift lasts 7 hours', () => {
    const p = { clockInAt: ber('2026-03-28', '22:00'), clockOutAt: ber('2026-03-29', '06:00') };
    expect(breakMinutesOf(p, [{ date: '2026-03-28', shift: overnight }], BER)).toBe(0);
    const span = occurrenceSpan({ date: '2026-03-28', shift: overnight }, BER);
    expect((span.to - span.from) / 3_600_000).toBe(7);
  });
  it('fall back 2026-10-25: the wall clock shows 02:00–03:00 twice, the window lasts 120 minutes', () => {
    const p = { clockInAt: ber('2026-10-24', '22:00'), clockOutAt: ber('2026-10-25', '06:00') };
    expect(breakMinutesOf(p, [{ date: '2026-10-24', shift: overnight }], BER)).toBe(120);
  });
  it('fall back: out at 02:30 the first time (CEST) → 30 minutes', () => {
    const p = { clockInAt: ber('2026-10-24', '22:00'), clockOutAt: '2026-10-25T00:30:00.000Z' /* 02:30 CEST */ };
    expect(breakMinutesOf(p, [{ date: '2026-10-24', shift: overnight }], BER)).toBe(30);
  });
  it('local times resolve as Temporal’s "compatible": skipped 02:30 → 03:30 CEST, repeated 02:30 → the first', () => {
    expect(localInstant('2026-03-29', '02:30', BER).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(localInstant('2026-10-25', '02:30', BER).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(localInstant('2026-03-02', '08:00', SH).toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });
});

describe('never more than the minutes worked', () => {
  it('a 24-hour shift made of breaks, presence of 10 min 30 s → 10', () => {
    const s: ShiftTimes = { start: '00:00', end: '00:00', breaks: [{ start: '00:00', end: '23:59' }] };
    const p = { clockInAt: '2026-03-02T02:00:00.000Z', clockOutAt: '2026-03-02T02:10:30.000Z' };
    expect(breakMinutesOf(p, [{ date: '2026-03-02', shift: s }], SH)).toBe(10);
  });
  it('clock-out before clock-in (a defect elsewhere) → 0', () => {
    expect(breakMinutesOf({ clockInAt: at('2026-03-02', '13:00'), clockOutAt: at('2026-03-02', '12:00') }, [{ date: '2026-03-02', shift: day }], SH)).toBe(0);
  });
});

describe('validation of a shift’s times', () => {
  const table: [string, ShiftTimes, unknown][] = [
    ['a day shift with lunch is valid', day, undefined],
    ['a night shift with a window after midnight is valid', night, undefined],
    ['end == start is a 24-hour shift', { start: '06:00', end: '06:00', breaks: [{ start: '05:00', end: '06:00' }] }, undefined],
    ['windows may touch', { start: '08:00', end: '17:00', breaks: [{ start: '10:00', end: '10:15' }, { start: '10:15', end: '10:30' }] }, undefined],
    ['24:00 is not a time', { start: '24:00', end: '08:00', breaks: [] }, { problem: 'time', field: 'start' }],
    ['8:00 is not HH:mm', { start: '06:00', end: '8:00', breaks: [] }, { problem: 'time', field: 'end' }],
    ['an empty window', { ...day, breaks: [{ start: '12:00', end: '12:00' }] }, { problem: 'windowEmpty', window: 0 }],
    ['a window outside the shift', { ...day, breaks: [{ start: '17:30', end: '18:00' }] }, { problem: 'windowOutside', window: 0 }],
    ['a window across the shift end', { ...day, breaks: [{ start: '16:30', end: '17:30' }] }, { problem: 'windowOutside', window: 0 }],
    ['a window before midnight of a night shift ending after', { ...night, breaks: [{ start: '23:30', end: '00:30' }] }, undefined],
    ['overlapping windows', { ...day, breaks: [{ start: '12:00', end: '13:00' }, { start: '12:30', end: '13:30' }] }, { problem: 'windowsOverlap', window: 1 }],
  ];
  it.each(table)('%s', (_, s, problem) => expect(validateShiftTimes(s)).toEqual(problem));

  it('lengths: 9 h, 8 h over midnight, 24 h', () => {
    expect([shiftLength(day), shiftLength(night), shiftLength({ start: '06:00', end: '06:00' })]).toEqual([540, 480, 1440]);
  });
});

describe('sessionBreak over a kept calendar (its occurrences placed once per days array)', () => {
  const days: ShiftDay[] = ['2026-03-01', '2026-03-02', '2026-03-03'].map((date) => ({ date, teamCode: 'T1', shift: { ...day, shiftId: 'day', name: '白班' } }));
  it('every question of the same days array is answered for its own presence, date and zone', () => {
    const full = { clockInAt: at('2026-03-02', '08:00'), clockOutAt: at('2026-03-02', '17:00') };
    expect(sessionBreak(full, '2026-03-02', days, SH, 30)).toEqual({ breakMinutes: 60, breakSource: 'shift', shift: { shiftId: 'day', name: '白班' } });
    expect(sessionBreak({ clockInAt: new Date(full.clockInAt), clockOutAt: new Date(full.clockOutAt) }, '2026-03-02', days, SH, 30).breakMinutes).toBe(60);
    expect(sessionBreak({ clockInAt: full.clockInAt, clockOutAt: at('2026-03-02', '11:30') }, '2026-03-02', days, SH, 30).breakMinutes).toBe(0);
    expect(sessionBreak(full, '2026-03-05', days, SH, 30)).toEqual({ breakMinutes: 30, breakSource: 'default', shift: null });
    // 08:00–17:00 in Shanghai is 01:00–10:00 in Berlin: the same array asked in another zone is placed again.
    expect(sessionBreak(full, '2026-03-02', days, BER, 30)).toEqual({ breakMinutes: 0, breakSource: 'shift', shift: { shiftId: 'day', name: '白班' } });
    expect(sessionBreak({ clockInAt: at('2026-03-02', '08:00', BER), clockOutAt: at('2026-03-02', '17:00', BER) }, '2026-03-02', days, BER, 30).breakMinutes).toBe(60);
    expect(sessionBreak(full, '2026-03-02', days, SH, 30).breakMinutes).toBe(60);
    expect(sessionBreak(full, '2026-03-02', [], SH, 45)).toEqual({ breakMinutes: 45, breakSource: 'default', shift: null });
  });
});
