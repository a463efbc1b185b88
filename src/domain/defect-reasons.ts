/**
 * Defect reasons (不良原因): why defective pieces were lost, and whose loss it is, which decides their pay.
 *
 * A reason is `{code, name, category, active}`: `code` 1–DEFECT_REASON_CODE_MAX characters of letters, digits,
 * `-` and `_` (it names the stream `defect-reason-<code>` and travels in report lines); `name` 1–
 * DEFECT_REASON_NAME_MAX characters after trimming; `category` one of DEFECT_CATEGORIES:
 * - `operator` 工废: the worker's doing, priced at the rate entry's `defectRate`;
 * - `material` 料废: the material's, priced at `materialDefectRate` (domain/money.ts `lineAmountFen`);
 * - `other` 其他: machine, setup, unknown, priced as 工废.
 * A reason in use is deactivated (`active: false`), never deleted: past lines keep naming it. Pure.
 */
import { z } from 'zod';

export const DEFECT_CATEGORIES = ['operator', 'material', 'other'] as const;
/** A reason's category (module docstring). */
export type DefectCategory = (typeof DEFECT_CATEGORIES)[number];
export const defectCategorySchema = z.enum(DEFECT_CATEGORIES);
/** The Chinese label of each category, as the office reads it. */
export const DEFECT_CATEGORY_LABELS: Record<DefectCategory, string> = { operator: '工废', material: '料废', other: '其他' };
/** The label of defective pieces a line gives no reason for. */
export const UNEXPLAINED_LABEL = '未注明';

export const DEFECT_REASON_CODE_MAX = 20;
export const DEFECT_REASON_NAME_MAX = 30;
export const DEFECT_REASON_CODE_RE = /^[A-Za-z0-9_-]{1,20}$/;

/** A defect reason as the read model and the commands know it. */
export interface DefectReason {
  readonly code: string;
  readonly name: string;
  readonly category: DefectCategory;
  readonly active: boolean;
}
