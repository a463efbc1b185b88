/**
 * The defect reason decider (不良原因; commands/defect-reasons/decider.ts), given-when-then: given the reason's
 * stream, when a command, then the events or the refusal as the client gets it (status, code, sentence).
 */
import { describe, expect, it } from 'vitest';
import { defectReasonDecider } from '../../src/commands/defect-reasons/decider.ts';
import { scenario } from '../helpers/gwt.ts';

const AT = '2026-03-01T02:00:00.000Z';
const s = scenario(defectReasonDecider);
const defined = { type: 'DefectReasonDefined' as const, data: { code: 'SCR', name: '划伤', category: 'operator' as const, at: AT } };
const deactivated = { type: 'DefectReasonChanged' as const, data: { code: 'SCR', name: '划伤', category: 'operator' as const, active: false, at: AT } };

describe('defect reason decider', () => {
  it('given nothing, when DefineDefectReason, then DefectReasonDefined with the name trimmed', () => {
    expect(s.given([]).when({ type: 'DefineDefectReason', code: 'SCR', name: ' 划伤 ', category: 'operator', at: AT }).events).toEqual([defined]);
  });

  it('given a reason, when DefineDefectReason with its code, then 409 DEFECT_REASON_EXISTS naming it', () => {
    const r = s.given([defined]).when({ type: 'DefineDefectReason', code: 'SCR', name: '刮花', category: 'other', at: AT }).error;
    expect([r.status, r.code, r.details, r.message]).toEqual([409, 'DEFECT_REASON_EXISTS', { code: 'SCR', name: '划伤', active: true }, '不良原因编码 SCR 已被「划伤」使用，请换一个编码']);
  });

  it('given a deactivated reason, when DefineDefectReason with its code, then 409 saying to reactivate it', () => {
    const r = s.given([defined, deactivated]).when({ type: 'DefineDefectReason', code: 'SCR', name: '划伤', category: 'operator', at: AT }).error;
    expect([r.status, r.message]).toEqual([409, '不良原因编码 SCR 已被「划伤」使用（已停用），如需使用请重新启用它']);
  });

  it('given a reason, when ChangeDefectReason renames it, then DefectReasonChanged with the whole new state', () => {
    expect(s.given([defined]).when({ type: 'ChangeDefectReason', code: 'SCR', name: '表面划伤', at: AT }).events).toEqual([
      { type: 'DefectReasonChanged', data: { code: 'SCR', name: '表面划伤', category: 'operator', active: true, at: AT } },
    ]);
  });

  it('given a reason, when ChangeDefectReason deactivates it, then it is inactive; reactivating makes it active again', () => {
    const off = s.given([defined]).when({ type: 'ChangeDefectReason', code: 'SCR', active: false, at: AT });
    expect(off.events).toEqual([deactivated]);
    const on = s.given([defined, deactivated]).when({ type: 'ChangeDefectReason', code: 'SCR', active: true, at: AT });
    expect(on.events?.[0].data).toMatchObject({ active: true, name: '划伤' });
  });

  it('given a reason, when ChangeDefectReason changes nothing, then nothing', () => {
    expect(s.given([defined]).when({ type: 'ChangeDefectReason', code: 'SCR', name: '划伤', category: 'operator', active: true, at: AT }).events).toEqual([]);
  });

  it('given nothing, when ChangeDefectReason, then 404 DEFECT_REASON_NOT_FOUND', () => {
    const r = s.given([]).when({ type: 'ChangeDefectReason', code: 'XX', active: false, at: AT }).error;
    expect([r.status, r.code, r.message]).toEqual([404, 'DEFECT_REASON_NOT_FOUND', '没有找到不良原因 XX，请刷新不良原因列表']);
  });

  it.each([
    ['an empty name', { code: 'SCR', name: '  ' }, 'name', '不良原因名称请填写 1–30 个字'],
    ['a code with a space', { code: 'S R', name: '划伤' }, 'code', '不良原因编码请填写 1–20 个英文字母、数字、- 或 _'],
    ['a code of 21 characters', { code: 'A'.repeat(21), name: '划伤' }, 'code', '不良原因编码请填写 1–20 个英文字母、数字、- 或 _'],
  ])('when DefineDefectReason with %s, then 422 INVALID_DEFECT_REASON', (_, input, field, message) => {
    const r = s.given([]).when({ type: 'DefineDefectReason', ...input, category: 'material', at: AT }).error;
    expect([r.status, r.code, r.details, r.message]).toEqual([422, 'INVALID_DEFECT_REASON', { field }, message]);
  });
});
