/** Response schemas shared by the review and report-administration routes (OpenAPI and documentation). */
import { z } from 'zod';

export const reportLineSchema = z.object({
  productId: z.number().int(),
  projectNo: z.string(),
  productName: z.string(),
  deviceNo: z.string(),
  processName: z.string(),
  standardCycleSeconds: z.number().describe('提交时的标准节拍（秒）'),
  standardWorkload: z.number().int().describe('提交时的标准工作量（件/天）'),
  finishedQty: z.number().int(),
  defectiveQty: z.number().int(),
  outputQty: z.number().int(),
});

/** The report after a review or break-interval command. */
export const reviewAnswerSchema = z.object({
  reportId: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  breakMinutes: z.number().int(),
  effectiveSeconds: z.number(),
  lines: z.array(reportLineSchema),
  corrected: z.boolean().optional().describe('本次审核是否修正了明细行'),
  rejectReason: z.string().optional(),
  at: z.string().describe('操作时间，ISO 8601 带时区'),
});
