/**
 * The defect reason decider (不良原因; domain/defect-reasons.ts), pure, on the stream `defect-reason-<code>`.
 * State: the reason, or none.
 *
 * - DefineDefectReason {code, name, category} on no reason → DefectReasonDefined (active); DEFECT_REASON_EXISTS
 *   (409) when the code is taken, also by a deactivated reason (reactivate it instead).
 * - ChangeDefectReason {code, name?, category?, active?} → DefectReasonChanged with the whole new state;
 *   DEFECT_REASON_NOT_FOUND (404) on no reason; nothing changed decides nothing. A reason is never deleted:
 *   `active: false` takes it out of the pickers, the lines that name it keep it.
 * Both: INVALID_DEFECT_REASON (422, details.field `code` | `name`) for a code out of DEFECT_REASON_CODE_RE or a
 * name of 0 or more than DEFECT_REASON_NAME_MAX characters after trimming.
 */
import type { Decider } from '../decider.ts';
import type { DefectReasonEvent } from '../../events/catalog.ts';
import { domainError } from '../../domain/errors.ts';
import { DEFECT_REASON_CODE_RE, DEFECT_REASON_NAME_MAX, type DefectCategory, type DefectReason } from '../../domain/defect-reasons.ts';

export type DefectReasonCommand =
  | { readonly type: 'DefineDefectReason'; readonly code: string; readonly name: string; readonly category: DefectCategory; readonly at: string }
  | {
      readonly type: 'ChangeDefectReason';
      readonly code: string;
      readonly name?: string;
      readonly category?: DefectCategory;
      readonly active?: boolean;
      readonly at: string;
    };

export interface DefectReasonState {
  readonly reason: DefectReason | undefined;
}

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || [...trimmed].length > DEFECT_REASON_NAME_MAX) throw domainError('INVALID_DEFECT_REASON', { field: 'name' }, { max: DEFECT_REASON_NAME_MAX });
  return trimmed;
}

export const defectReasonDecider: Decider<DefectReasonCommand, DefectReasonState, DefectReasonEvent> = {
  initialState: { reason: undefined },

  decide(c, state) {
    if (!DEFECT_REASON_CODE_RE.test(c.code)) throw domainError('INVALID_DEFECT_REASON', { field: 'code' }, { max: 20 });
    if (c.type === 'DefineDefectReason') {
      if (state.reason) throw domainError('DEFECT_REASON_EXISTS', { code: c.code, name: state.reason.name, active: state.reason.active });
      return [{ type: 'DefectReasonDefined', data: { code: c.code, name: checkedName(c.name), category: c.category, at: c.at } }];
    }
    const r = state.reason;
    if (!r) throw domainError('DEFECT_REASON_NOT_FOUND', { code: c.code });
    const next = {
      code: r.code,
      name: c.name === undefined ? r.name : checkedName(c.name),
      category: c.category ?? r.category,
      active: c.active ?? r.active,
    };
    if (next.name === r.name && next.category === r.category && next.active === r.active) return [];
    return [{ type: 'DefectReasonChanged', data: { ...next, at: c.at } }];
  },

  evolve(_, event) {
    const d = event.data;
    return { reason: { code: d.code, name: d.name, category: d.category, active: event.type === 'DefectReasonChanged' ? event.data.active : true } };
  },
};
