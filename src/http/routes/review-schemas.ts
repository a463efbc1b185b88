/**
 * The answers shared by the report, review and report-administration routes: the status, the review answer's
 * schema and its mapping (`at` in APP_TIMEZONE), and examples (OpenAPI and documentation). The line and snapshot
 * schemas are the domain's (domain/report-line.ts).
 */
import { z } from 'zod';
import type { ReviewAnswer } from '../../commands/review/handlers.ts';
import type { AppContext } from '../../context.ts';
import { productSnapshotSchema, reportLineSchema } from '../../domain/report-line.ts';
import { instant, zonedIso } from '../dates.ts';

export { productSnapshotSchema, reportLineSchema };

export const reportStatus = z.enum(['pending', 'approved', 'rejected']).describe('pending 待审核、approved 已通过、rejected 已驳回');

/** The report after a review or break-interval command. */
export const reviewAnswerSchema = z.object({
  reportId: z.string(),
  status: reportStatus,
  breakMinutes: z.number().int(),
  effectiveSeconds: z.number().describe('有效工作时间（秒）'),
  lines: z.array(reportLineSchema),
  corrected: z.boolean().optional().describe('通过时：本次审核是否修正了明细行'),
  rejectReason: z.string().optional().describe('驳回时：驳回原因'),
  at: instant.describe('操作时间'),
});

/** A review command's answer as the API gives it (`at` in APP_TIMEZONE). */
export const reviewAnswer = (ctx: AppContext, a: ReviewAnswer) => ({ ...a, at: zonedIso(ctx, a.at) });

/** An example of `productSnapshotSchema`. */
export const PRODUCT_SNAPSHOT_EXAMPLE = {
  productId: 12,
  projectNo: 'P-2026-01',
  productName: '前围横梁',
  deviceNo: '冲床 01',
  processName: '冲压',
  standardCycleSeconds: 24,
  standardWorkload: 1200,
};

/** An example of `reviewAnswerSchema`. */
export const REVIEW_ANSWER_EXAMPLE = {
  reportId: '5f0c9a8e-7b1d-4f2a-8c3e-6d9b0a1e2f34',
  status: 'approved',
  breakMinutes: 60,
  effectiveSeconds: 28800,
  lines: [{ ...PRODUCT_SNAPSHOT_EXAMPLE, finishedQty: 480, defectiveQty: 25, outputQty: 505 }],
  at: '2026-03-02T18:01:00+08:00',
};
