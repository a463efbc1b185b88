/**
 * The answers shared by the report, review and report-administration routes: the status, the plausibility flags
 *, the review answer's schema and its mapping (`at` in APP_TIMEZONE), and examples (OpenAPI and
 * documentation). The line, snapshot and flag schemas are the domain's (domain/report-line.ts, plausibility.ts).
 */
import { z } from 'zod';
import type { ReviewAnswer } from '../../commands/review/handlers.ts';
import type { AppContext } from '../../context.ts';
import { crewShareSchema, productSnapshotSchema, reportLineSchema } from '../../domain/report-line.ts';
import { amountText } from './money-schemas.ts';
import { plausibilityFlagSchema, withMessage, plausibilityFlags } from '../../domain/plausibility.ts';
import { instant, zonedIso } from '../dates.ts';

export { productSnapshotSchema, reportLineSchema };

/**
 * A report line as the office's report answers give it (the review queue, 我审核的, the report list, one report):
 * a crew line's shares carry each member's amount (queries/crew-amounts.ts).
 */
export const pricedReportLineSchema = reportLineSchema.extend({
  shares: z
    .array(
      crewShareSchema.extend({
        amount: amountText
          .nullable()
          .describe('分得的金额：整行按报工日期的单价计算一次（四舍五入到分），再按权重用最大余额法分到分，合计等于整行金额；null：该产品在报工日期没有单价'),
      }),
    )
    .optional()
    .describe('班组报工：各组员分得的份额与金额（合计等于本行）；不是班组报工时省略'),
});

export const reportStatus = z.enum(['pending', 'approved', 'rejected']).describe('pending 待审核、approved 已通过、rejected 已驳回');

const message = { message: z.string().describe('异常说明：一句带数字的中文，可直接显示给审核人') };

/**
 * A plausibility flag as the API gives it (异常报工): `code`, `message`, the figures it was judged on, and
 * the fields of `extra`. Codes: NO_WORKING_TIME（有效工作时间为 0 却有产出）、CYCLE_TOO_FAST（实际节拍低于标准节拍的
 * PLAUSIBLE_MIN_CYCLE_RATIO）、OUTPUT_OVER_WORKLOAD（产出超过这段时间标准工作量的 PLAUSIBLE_MAX_WORKLOAD_RATIO 倍）、
 * SESSION_TOO_LONG（上班到下班超过 SESSION_MAX_HOURS − 1 小时）.
 */
export function flagAnswerSchema<X extends z.ZodRawShape>(extra: X) {
  const [noTime, tooFast, overWorkload, tooLong, exceedsPrevious, overPlanned] = plausibilityFlagSchema.options;
  const fields = { ...message, ...extra };
  return z
    .discriminatedUnion('code', [
      noTime.extend(fields),
      tooFast.extend(fields),
      overWorkload.extend(fields),
      tooLong.extend(fields),
      exceedsPrevious.extend(fields),
      overPlanned.extend(fields),
    ])
    .describe(
    '异常报工标记：NO_WORKING_TIME 有效工作时间为 0 却有产出；CYCLE_TOO_FAST 实际节拍快于标准节拍的 PLAUSIBLE_MIN_CYCLE_RATIO（默认一半）；' +
      'OUTPUT_OVER_WORKLOAD 产出超过这段时间标准工作量的 PLAUSIBLE_MAX_WORKLOAD_RATIO 倍（默认 2 倍）；SESSION_TOO_LONG 上班到下班超过 SESSION_MAX_HOURS 减 1 小时；' +
      'EXCEEDS_PREVIOUS_OPERATION 工单某道工序的成品 + 不良超过上道工序的成品（WORK_ORDER_FLOW_TOLERANCE 件以上）；OVER_PLANNED 工单某道工序的成品超过计划数量的 1 + WORK_ORDER_OVERRUN_RATIO 倍。' +
      '标记不阻止审核通过。',
  );
}
export const flagSchema = flagAnswerSchema({});
/** The flags of a report, as the API gives them. */
export const flagsSchema = z.array(flagSchema).describe('异常报工标记（空数组：没有异常）；审核人仍可通过');

/**
 * Where a report's break came from (domain/placement.ts): `shift` computed from the worker's
 * shift (named), `default` DEFAULT_BREAK_MINUTES, `manager` changed by a manager; the fields of every report view.
 */
export const breakSourceFields = {
  breakSource: z
    .enum(['shift', 'default', 'manager'])
    .describe('休息时间的来源：shift 按班次的不带薪休息时段计算（与上下班时间重叠的分钟数）；default 默认休息时间（DEFAULT_BREAK_MINUTES）；manager 经理修改过'),
  shiftName: z.string().nullable().describe('计算休息时间所依据的班次名称（提交时的名称）；不是按班次计算时为 null'),
};

/** The report after a review or break-interval command. */
export const reviewAnswerSchema = z.object({
  reportId: z.string(),
  status: reportStatus,
  breakMinutes: z.number().int(),
  effectiveSeconds: z.number().describe('有效工作时间（秒）'),
  lines: z.array(reportLineSchema),
  flags: flagsSchema,
  corrected: z.boolean().optional().describe('通过时：本次审核是否修正了明细行'),
  rejectReason: z.string().optional().describe('驳回时：驳回原因'),
  at: instant.describe('操作时间'),
});

/** A review command's answer as the API gives it (`at` in APP_TIMEZONE). */
export const reviewAnswer = (ctx: AppContext, a: ReviewAnswer) => ({ ...a, flags: a.flags.map(withMessage), at: zonedIso(ctx, a.at) });

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
  flags: [],
  at: '2026-03-02T18:01:00+08:00',
};

/** An example of a report that cannot be true: 205 pieces at a standard 30 s reported for 08:00–08:08, no break. */
export const FLAGGED_EXAMPLE = {
  clockInAt: '2026-03-02T08:00:00+08:00',
  clockOutAt: '2026-03-02T08:08:00+08:00',
  breakMinutes: 0,
  effectiveSeconds: 480,
  lines: [{ ...PRODUCT_SNAPSHOT_EXAMPLE, standardCycleSeconds: 30, finishedQty: 200, defectiveQty: 5, outputQty: 205 }],
};

/** Its flags, judged as the defaults judge (computed, not typed in). */
export const FLAGS_EXAMPLE = plausibilityFlags(FLAGGED_EXAMPLE, { minCycleRatio: 0.5, maxWorkloadRatio: 2, maxSpanMs: 15 * 3_600_000 }).map(withMessage);
