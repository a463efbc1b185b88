/**
 * The stop decider (停机; commands/stops/decider.ts), given-when-then: given the device's stop stream and the facts,
 * when a command, then the events or the refusal as the client gets it (status, code, sentence).
 */
import { describe, expect, it } from 'vitest';
import { stopDecider, type StopCommand, type StopFacts } from '../../src/commands/stops/decider.ts';
import { scenario } from '../helpers/gwt.ts';

const s = scenario(stopDecider);
const TZ = 'Asia/Shanghai';
const T = (hhmm: string, day = '02') => new Date(`2026-03-${day}T${hhmm}:00+08:00`).toISOString();
const ID1 = '11111111-1111-4111-8111-111111111111';
const ID2 = '22222222-2222-4222-8222-222222222222';
const worker = { phone: '13800000011', name: '张三', office: false };
const manager = { phone: '13800000002', name: '李经理', office: true };
const REASONS = [
  { code: 'CHG', name: '换模', category: 'planned' as const, active: true },
  { code: 'BRK', name: '设备故障', category: 'unplanned' as const, active: true },
  { code: 'OLD', name: '旧原因', category: 'unplanned' as const, active: false },
];
const facts = (more: Partial<StopFacts> = {}): StopFacts => ({ onDevice: true, reasons: REASONS, closedMonths: [], ...more });
const base = (now: string, by = worker, f = facts()) => ({ deviceNo: 'D1', now, by, facts: f, timeZone: TZ });
const start = (now: string, stopId = ID2, reasonCode = 'BRK', f = facts()): StopCommand => ({ ...base(now, worker, f), type: 'StartStop', stopId, reasonCode });
const by = { phone: worker.phone, name: worker.name };
const started = { type: 'StopStarted' as const, data: { stopId: ID1, deviceNo: 'D1', reasonCode: 'CHG', startAt: T('09:00'), endAt: null, note: null, by, at: T('09:00') } };
const ended = { type: 'StopEnded' as const, data: { stopId: ID1, deviceNo: 'D1', endAt: T('09:30'), bySystem: false, by, at: T('09:30') } };
/** Attendance 08:00 – 12:00, or lasting. */
const attended = (to: number) => [{ from: Date.parse(T('08:00')), to }];

describe('stop decider: 停机 and 恢复生产 from the phone', () => {
  it('given nothing, when a worker on the device starts a stop, then StopStarted at now, lasting', () => {
    expect(s.given([]).when(start(T('09:00'), ID1, 'CHG')).events).toEqual([started]);
  });

  it('when the person is not clocked in on the device, then 409 NOT_ON_DEVICE', () => {
    const r = s.given([]).when(start(T('09:00'), ID1, 'CHG', facts({ onDevice: false }))).error;
    expect([r.status, r.code, r.message]).toEqual([409, 'NOT_ON_DEVICE', '您现在没有在设备 D1 上班，不能记录它的停机或恢复生产；请先扫码开始上班或换到这台设备']);
  });

  it('when the reason is deactivated or unknown, then 422 UNKNOWN_STOP_REASON', () => {
    expect(s.given([]).when(start(T('09:00'), ID1, 'OLD')).error.message).toBe('停机原因 OLD 已停用，请刷新后重新选择');
    expect(s.given([]).when(start(T('09:00'), ID1, 'XX')).error.code).toBe('UNKNOWN_STOP_REASON');
  });

  it('given a lasting stop with workers still on the device, when another starts, then 422 STOP_OVERLAPS naming it', () => {
    const r = s.given([started]).when(start(T('10:00'), ID2, 'BRK', facts({ attendance: attended(Infinity) }))).error;
    expect([r.status, r.code, r.details]).toEqual([422, 'STOP_OVERLAPS', { stopId: ID1, reasonCode: 'CHG', startAt: T('09:00'), endAt: null }]);
    expect(r.message).toBe('与这台设备的另一条停机记录（CHG 03-02 09:00–至今）时间重叠：同一台设备同一时间只能有一条停机记录，请先结束或修改那一条');
  });

  it('given a lasting stop whose device everybody left at 12:00, when a stop starts at 13:00, then the old one ends at 12:00 by the system first', () => {
    const r = s.given([started]).when(start(T('13:00'), ID2, 'BRK', facts({ attendance: attended(Date.parse(T('12:00'))) })));
    expect(r.events).toEqual([
      { type: 'StopEnded', data: { stopId: ID1, deviceNo: 'D1', endAt: T('12:00'), bySystem: true, by: null, at: T('13:00') } },
      { type: 'StopStarted', data: { ...started.data, stopId: ID2, reasonCode: 'BRK', startAt: T('13:00'), at: T('13:00') } },
    ]);
  });

  it('given a lasting stop, when ended, then StopEnded at now; ending it again decides nothing (idempotent)', () => {
    const end: StopCommand = { ...base(T('09:30'), worker, facts({ attendance: attended(Infinity) })), type: 'EndStop', stopId: ID1 };
    expect(s.given([started]).when(end).events).toEqual([ended]);
    expect(s.given([started, ended]).when(end).events).toEqual([]);
  });

  it('given a lasting stop, when a worker off the device ends it, then 409 NOT_ON_DEVICE; a manager from the console may', () => {
    const f = facts({ onDevice: false, attendance: attended(Infinity) });
    expect(s.given([started]).when({ ...base(T('09:30'), worker, f), type: 'EndStop', stopId: ID1 }).error.code).toBe('NOT_ON_DEVICE');
    expect(s.given([started]).when({ ...base(T('09:30'), manager, f), type: 'EndStop', stopId: ID1 }).events?.[0].data).toMatchObject({ endAt: T('09:30'), bySystem: false });
  });

  it('given no such stop, when ended, then 404 STOP_NOT_FOUND', () => {
    expect(s.given([]).when({ ...base(T('09:30')), type: 'EndStop', stopId: ID1 }).error.status).toBe(404);
  });

  it('in a closed month, when a stop starts, then 409 PERIOD_CLOSED', () => {
    const r = s.given([]).when(start(T('09:00'), ID1, 'CHG', facts({ closedMonths: ['2026-03'] }))).error;
    expect([r.status, r.code, r.message]).toEqual([409, 'PERIOD_CLOSED', '2026年3月已结账，不能再记录或修改该月的停机；如需修改，请经理先在“月结”中反结账']);
  });
});

describe('stop decider: past stops and corrections in the console', () => {
  const record = (startAt: string, endAt: string | null, note: string | undefined = '补录'): StopCommand => ({
    ...base(T('18:00'), manager),
    type: 'RecordStop',
    stopId: ID2,
    reasonCode: 'BRK',
    startAt,
    endAt,
    note,
  });

  it('given a stop 09:00–09:30, when a manager records 10:00–10:20, then StopStarted with both ends and the note', () => {
    expect(s.given([started, ended]).when(record(T('10:00'), T('10:20'))).events).toEqual([
      { type: 'StopStarted', data: { stopId: ID2, deviceNo: 'D1', reasonCode: 'BRK', startAt: T('10:00'), endAt: T('10:20'), note: '补录', by: { phone: manager.phone, name: manager.name }, at: T('18:00') } },
    ]);
  });

  it('a past stop touching another (09:30–09:40) is accepted; one overlapping it (09:20–09:40) is 422 STOP_OVERLAPS', () => {
    expect(s.given([started, ended]).when(record(T('09:30'), T('09:40'))).events).toHaveLength(1);
    const r = s.given([started, ended]).when(record(T('09:20'), T('09:40'))).error;
    expect([r.code, r.details.stopId, r.message]).toEqual([
      'STOP_OVERLAPS',
      ID1,
      '与这台设备的另一条停机记录（CHG 03-02 09:00–09:30）时间重叠：同一台设备同一时间只能有一条停机记录，请先结束或修改那一条',
    ]);
  });

  it.each([
    ['no end', T('10:00'), null, '补录', 'endNeeded'],
    ['an end before the start', T('10:00'), T('09:50'), '补录', 'order'],
    ['an end in the future', T('17:00'), T('19:00'), '补录', 'future'],
    ['no note', T('10:00'), T('10:20'), ' ', 'note'],
  ])('a past stop with %s is 422 INVALID_STOP', (_, from, to, note, problem) => {
    const r = s.given([]).when(record(from, to, note)).error;
    expect([r.status, r.code, r.details]).toEqual([422, 'INVALID_STOP', { problem }]);
  });

  it('given a stop, when corrected, then StopCorrected before → after with the note; the same values decide nothing', () => {
    const correct = (c: object): StopCommand => ({ ...base(T('18:00'), manager), type: 'CorrectStop', stopId: ID1, note: '实际 9:05 开始', ...c });
    expect(s.given([started, ended]).when(correct({ startAt: T('09:05'), reasonCode: 'BRK' })).events).toEqual([
      {
        type: 'StopCorrected',
        data: {
          stopId: ID1,
          deviceNo: 'D1',
          before: { reasonCode: 'CHG', startAt: T('09:00'), endAt: T('09:30') },
          after: { reasonCode: 'BRK', startAt: T('09:05'), endAt: T('09:30') },
          note: '实际 9:05 开始',
          by: { phone: manager.phone, name: manager.name },
          at: T('18:00'),
        },
      },
    ]);
    expect(s.given([started, ended]).when(correct({ startAt: T('09:00') })).events).toEqual([]);
    expect(s.given([started, ended]).when(correct({ endAt: T('08:59') })).error.details).toEqual({ problem: 'order' });
  });

  it('a correction out of a closed month, or into one, is 409 PERIOD_CLOSED', () => {
    const r = s
      .given([started, ended])
      .when({ ...base(T('18:00', '02'), manager, facts({ closedMonths: ['2026-03'] })), type: 'CorrectStop', stopId: ID1, note: '改', reasonCode: 'BRK' }).error;
    expect(r.code).toBe('PERIOD_CLOSED');
  });
});
