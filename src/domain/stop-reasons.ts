/**
 * Stop reasons (停机原因): why a device stood still, and whether the stop was planned, which decides where the OEE
 * read counts it (domain/oee.ts): a planned stop (计划停机: 换模, 保养, 培训, 会议) is taken out of the planned
 * production time, an unplanned one (非计划停机: 设备故障, 待料, 质量问题, 停电) out of the run time.
 *
 * A reason is `{code, name, category, active}`: `code` and `name` under the rules of the defect reasons
 * (domain/defect-reasons.ts: 1–20 letters, digits, `-`, `_`; a name of 1–30 characters after trimming; the code
 * names the stream `stop-reason-<code>` and travels in the stop events); `category` one of STOP_CATEGORIES. A reason
 * in use is deactivated (`active: false`), never deleted: past stops keep naming it. Pure.
 */
import { z } from 'zod';
import { DEFECT_REASON_CODE_MAX, DEFECT_REASON_CODE_RE, DEFECT_REASON_NAME_MAX } from './defect-reasons.ts';

export const STOP_CATEGORIES = ['planned', 'unplanned'] as const;
/** A stop reason's category (module docstring). */
export type StopCategory = (typeof STOP_CATEGORIES)[number];
export const stopCategorySchema = z.enum(STOP_CATEGORIES);
/** The Chinese label of each category, as the office reads it. */
export const STOP_CATEGORY_LABELS: Record<StopCategory, string> = { planned: '计划停机', unplanned: '非计划停机' };

/** The same rules as a defect reason's code and name (module docstring). */
export const STOP_REASON_CODE_MAX = DEFECT_REASON_CODE_MAX;
export const STOP_REASON_NAME_MAX = DEFECT_REASON_NAME_MAX;
export const STOP_REASON_CODE_RE = DEFECT_REASON_CODE_RE;

/** A stop reason as the read model and the commands know it. */
export interface StopReason {
  readonly code: string;
  readonly name: string;
  readonly category: StopCategory;
  readonly active: boolean;
}
