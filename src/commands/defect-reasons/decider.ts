/**
 * The defect reason decider (不良原因; domain/defect-reasons.ts): the reason-list decider
 * (commands/reason-list/decider.ts) with the defect reasons' names, on the stream `defect-reason-<code>`. State: the
 * reason, or none.
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
import { DEFECT_REASON_CODE_MAX, DEFECT_REASON_CODE_RE, DEFECT_REASON_NAME_MAX, type DefectCategory } from '../../domain/defect-reasons.ts';
import { reasonListDecider, type ReasonListCommand, type ReasonListState } from '../reason-list/decider.ts';

export type DefectReasonCommand = ReasonListCommand<'DefineDefectReason', 'ChangeDefectReason', DefectCategory>;
export type DefectReasonState = ReasonListState<DefectCategory>;

export const defectReasonDecider: Decider<DefectReasonCommand, DefectReasonState, DefectReasonEvent> = reasonListDecider<DefectCategory, 'DefineDefectReason', 'ChangeDefectReason', 'DefectReasonDefined', 'DefectReasonChanged'>({
  define: 'DefineDefectReason',
  change: 'ChangeDefectReason',
  defined: 'DefectReasonDefined',
  changed: 'DefectReasonChanged',
  errors: { invalid: 'INVALID_DEFECT_REASON', exists: 'DEFECT_REASON_EXISTS', notFound: 'DEFECT_REASON_NOT_FOUND' },
  codeRe: DEFECT_REASON_CODE_RE,
  codeMax: DEFECT_REASON_CODE_MAX,
  nameMax: DEFECT_REASON_NAME_MAX,
});
