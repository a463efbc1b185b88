/**
 * The stop reason decider (停机原因; domain/stop-reasons.ts), pure, on the stream `stop-reason-<code>`, the rules of
 * the defect reasons' decider (commands/defect-reasons/decider.ts). State: the reason, or none.
 *
 * - DefineStopReason {code, name, category} on no reason → StopReasonDefined (active); STOP_REASON_EXISTS (409)
 *   when the code is taken, also by a deactivated reason (reactivate it instead).
 * - ChangeStopReason {code, name?, category?, active?} → StopReasonChanged with the whole new state;
 *   STOP_REASON_NOT_FOUND (404) on no reason; nothing changed decides nothing. A reason is never deleted.
 * Both: INVALID_STOP_REASON (422, details.field `code` | `name`) for a code out of STOP_REASON_CODE_RE or a name of
 * 0 or more than STOP_REASON_NAME_MAX characters after trimming.
 */
import type { Decider } from '../decider.ts';
import type { StopReasonEvent } from '../../events/catalog.ts';
import { domainError } from '../../domain/errors.ts';
import { STOP_REASON_CODE_MAX, STOP_REASON_CODE_RE, STOP_REASON_NAME_MAX, type StopCategory, type StopReason } from '../../domain/stop-reasons.ts';

export type StopReasonCommand =
  | { readonly type: 'DefineStopReason'; readonly code: string; readonly name: string; readonly category: StopCategory; readonly at: string }
  | { readonly type: 'ChangeStopReason'; readonly code: string; readonly name?: string; readonly category?: StopCategory; readonly active?: boolean; readonly at: string };

export interface StopReasonState {
  readonly reason: StopReason | undefined;
}

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || [...trimmed].length > STOP_REASON_NAME_MAX) throw domainError('INVALID_STOP_REASON', { field: 'name' }, { max: STOP_REASON_NAME_MAX });
  return trimmed;
}

export const stopReasonDecider: Decider<StopReasonCommand, StopReasonState, StopReasonEvent> = {
  initialState: { reason: undefined },

  decide(c, state) {
    if (!STOP_REASON_CODE_RE.test(c.code)) throw domainError('INVALID_STOP_REASON', { field: 'code' }, { max: STOP_REASON_CODE_MAX });
    if (c.type === 'DefineStopReason') {
      if (state.reason) throw domainError('STOP_REASON_EXISTS', { code: c.code, name: state.reason.name, active: state.reason.active });
      return [{ type: 'StopReasonDefined', data: { code: c.code, name: checkedName(c.name), category: c.category, at: c.at } }];
    }
    const r = state.reason;
    if (!r) throw domainError('STOP_REASON_NOT_FOUND', { code: c.code });
    const next = { code: r.code, name: c.name === undefined ? r.name : checkedName(c.name), category: c.category ?? r.category, active: c.active ?? r.active };
    if (next.name === r.name && next.category === r.category && next.active === r.active) return [];
    return [{ type: 'StopReasonChanged', data: { ...next, at: c.at } }];
  },

  evolve(_, event) {
    const d = event.data;
    return { reason: { code: d.code, name: d.name, category: d.category, active: event.type === 'StopReasonChanged' ? event.data.active : true } };
  },
};
