/**
 * The stop reason decider (停机原因; domain/stop-reasons.ts): the reason-list decider (commands/reason-list/decider.ts)
 * with the stop reasons' names, on the stream `stop-reason-<code>`. State: the reason, or none.
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
import { STOP_REASON_CODE_MAX, STOP_REASON_CODE_RE, STOP_REASON_NAME_MAX, type StopCategory } from '../../domain/stop-reasons.ts';
import { reasonListDecider, type ReasonListCommand, type ReasonListState } from '../reason-list/decider.ts';

export type StopReasonCommand = ReasonListCommand<'DefineStopReason', 'ChangeStopReason', StopCategory>;
export type StopReasonState = ReasonListState<StopCategory>;

export const stopReasonDecider: Decider<StopReasonCommand, StopReasonState, StopReasonEvent> = reasonListDecider<StopCategory, 'DefineStopReason', 'ChangeStopReason', 'StopReasonDefined', 'StopReasonChanged'>({
  define: 'DefineStopReason',
  change: 'ChangeStopReason',
  defined: 'StopReasonDefined',
  changed: 'StopReasonChanged',
  errors: { invalid: 'INVALID_STOP_REASON', exists: 'STOP_REASON_EXISTS', notFound: 'STOP_REASON_NOT_FOUND' },
  codeRe: STOP_REASON_CODE_RE,
  codeMax: STOP_REASON_CODE_MAX,
  nameMax: STOP_REASON_NAME_MAX,
});
