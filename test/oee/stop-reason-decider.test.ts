/**
 * The stop reason decider (停机原因; commands/stop-reasons/decider.ts), given-when-then: given the reason's stream,
 * when a command, then the events or the refusal as the client gets it (status, code, sentence).
 */
import { describe, expect, it } from 'vitest';
import { stopReasonDecider } from '../../src/commands/stop-reasons/decider.ts';
import { scenario } from '../helpers/gwt.ts';

const AT = '2026-03-01T02:00:00.000Z';
const s = scenario(stopReasonDecider);
const defined = { type: 'StopReasonDefined' as const, data: { code: 'CHG', name: '换模', category: 'planned' as const, at: AT } };
const deactivated = { type: 'StopReasonChanged' as const, data: { code: 'CHG', name: '换模', category: 'planned' as const, active: false, at: AT } };

describe('stop reason decider', () => {
  it('given nothing, when DefineStopReason, then StopReasonDefined with the name trimmed', () => {
    expect(s.given([]).when({ type: 'DefineStopReason', code: 'CHG', name: ' 换模 ', category: 'planned', at: AT }).events).toEqual([defined]);
  });

  it('given a reason, when DefineStopReason with its code, then 409 STOP_REASON_EXISTS naming it', () => {
    const r = s.given([defined]).when({ type: 'DefineStopReason', code: 'CHG', name: '换型', category: 'unplanned', at: AT }).error;
    expect([r.status, r.code, r.details, r.message]).toEqual([409, 'STOP_REASON_EXISTS', { code: 'CHG', name: '换模', active: true }, '停机原因编码 CHG 已被「换模」使用，请换一个编码']);
  });

  it('given a deactivated reason, when DefineStopReason with its code, then 409 saying to reactivate it', () => {
    const r = s.given([defined, deactivated]).when({ type: 'DefineStopReason', code: 'CHG', name: '换模', category: 'planned', at: AT }).error;
    expect([r.status, r.message]).toEqual([409, '停机原因编码 CHG 已被「换模」使用（已停用），如需使用请重新启用它']);
  });

  it('given a reason, when ChangeStopReason recategorises it, then StopReasonChanged with the whole new state', () => {
    expect(s.given([defined]).when({ type: 'ChangeStopReason', code: 'CHG', category: 'unplanned', at: AT }).events).toEqual([
      { type: 'StopReasonChanged', data: { code: 'CHG', name: '换模', category: 'unplanned', active: true, at: AT } },
    ]);
  });

  it('given a reason, when ChangeStopReason deactivates it, then it is inactive; reactivating makes it active again', () => {
    expect(s.given([defined]).when({ type: 'ChangeStopReason', code: 'CHG', active: false, at: AT }).events).toEqual([deactivated]);
    const on = s.given([defined, deactivated]).when({ type: 'ChangeStopReason', code: 'CHG', active: true, at: AT });
    expect(on.events?.[0].data).toMatchObject({ active: true, name: '换模' });
  });

  it('given a reason, when ChangeStopReason changes nothing, then nothing', () => {
    expect(s.given([defined]).when({ type: 'ChangeStopReason', code: 'CHG', name: '换模', category: 'planned', active: true, at: AT }).events).toEqual([]);
  });

  it('given nothing, when ChangeStopReason, then 404 STOP_REASON_NOT_FOUND', () => {
    const r = s.given([]).when({ type: 'ChangeStopReason', code: 'XX', active: false, at: AT }).error;
    expect([r.status, r.code, r.message]).toEqual([404, 'STOP_REASON_NOT_FOUND', '没有找到停机原因 XX，请刷新停机原因列表']);
  });

  it.each([
    ['an empty name', { code: 'CHG', name: '  ' }, 'name', '停机原因名称请填写 1–30 个字'],
    ['a code with a space', { code: 'C G', name: '换模' }, 'code', '停机原因编码请填写 1–20 个英文字母、数字、- 或 _'],
    ['a code of 21 characters', { code: 'A'.repeat(21), name: '换模' }, 'code', '停机原因编码请填写 1–20 个英文字母、数字、- 或 _'],
  ])('when DefineStopReason with %s, then 422 INVALID_STOP_REASON', (_, input, field, message) => {
    const r = s.given([]).when({ type: 'DefineStopReason', ...input, category: 'unplanned', at: AT }).error;
    expect([r.status, r.code, r.details, r.message]).toEqual([422, 'INVALID_STOP_REASON', { field }, message]);
  });
});
