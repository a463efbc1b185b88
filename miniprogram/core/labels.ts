/**
 * The one label of `GET /api/clock/state` and what its big button does (spec 3.1; README "For the mini-program's
 * developer", the table "Scan labels"). Plain TypeScript, no `wx`.
 */

/** The five labels, exact interface values. */
export type ClockLabel = '开始上班' | '换设备' | '下班报工' | '继续报工' | '重新报工';

/** The clock operation behind a label, or none (继续报工 goes straight to the report). */
export type ClockOperation = 'start' | 'switch-device' | 'finish' | null;

export interface LabelAction {
  /** `POST /api/clock/<operation>`, or null. */
  operation: ClockOperation;
  /** After the operation: open the report (报工单) of the session. */
  thenReport: boolean;
  /** One sentence under the button: what pressing it does. */
  hint: string;
}

const ACTIONS: Record<ClockLabel, LabelAction> = {
  开始上班: { operation: 'start', thenReport: false, hint: '开始这次上班，从现在起计时' },
  换设备: { operation: 'switch-device', thenReport: false, hint: '把这台设备加入这次上班' },
  下班报工: { operation: 'finish', thenReport: true, hint: '下班，并在 30 分钟内填写报工单' },
  继续报工: { operation: null, thenReport: true, hint: '继续填写这次上班的报工单' },
  重新报工: { operation: 'finish', thenReport: true, hint: '填写时限已过：下班时间改为现在，重新填写报工单' },
};

/** Whether `label` is one of the five labels. */
export const isClockLabel = (label: unknown): label is ClockLabel => typeof label === 'string' && Object.prototype.hasOwnProperty.call(ACTIONS, label);

/** What the button of `label` does. */
export const actionOf = (label: ClockLabel): LabelAction => ACTIONS[label];
