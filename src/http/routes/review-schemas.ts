/** Answer schemas shared by the report, review and report-administration routes (OpenAPI and documentation). */
import { z } from 'zod';
import { instant } from '../dates.ts';

export const reportStatus = z.enum(['pending', 'approved', 'rejected']).describe('pending 待审核、approved 已通过、rejected 已驳回');

/** The product fields a report line copies at submission (commands/report-lines.ts), as a draft offers them. */
export const productSnapshotSchema = z.object({
  productId: z.number().int(),
  projectNo: z.string().describe('项目号'),
  productName: z.string().describe('产品名称'),
  deviceNo: z.string().describe('使用设备'),
  processName: z.string().describe('工序'),
  standardCycleSeconds: z.number().describe('标准节拍（秒），提交时复制'),
  standardWorkload: z.number().int().describe('标准工作量（件/天），提交时复制'),
});

export const reportLineSchema = productSnapshotSchema.extend({
  finishedQty: z.number().int().describe('成品数量'),
  defectiveQty: z.number().int().describe('不良数量（报废计入不良）'),
  outputQty: z.number().int().describe('产出数量 = 成品 + 不良'),
});

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
