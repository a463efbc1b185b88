/**
 * Review endpoints (spec 4.7; decisions.md "Reports and review"), administrators only (`access.review`):
 * GET /api/reviews/pending?flagged=, POST /api/reviews/:reportId/approve {lines?}, POST /api/reviews/:reportId/reject
 * {reason}, GET /api/reviews/mine?startDate=&endDate=&page=&pageSize=. Every report and answer carries its
 * plausibility flags (`flags`); `flagged=true` lists only flagged pending reports.
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { approveReport, rejectReport } from '../../commands/review/handlers.ts';
import { myReviews, pendingReviews } from '../../queries/reviews.ts';
import { instant, localDate, optionalLocalDate } from '../dates.ts';
import { unprocessable } from '../../errors.ts';
import { checkedRule } from '../json-schema.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { actorOf, defineRoute, scopeOf, type ErrorDoc } from '../route.ts';
import { CONCURRENT_MODIFICATION, LINE_ERRORS, PERIOD_CLOSED } from './error-docs.ts';
import { linesInput } from './reports.ts';
import { breakSourceFields, FLAGGED_EXAMPLE, FLAGS_EXAMPLE, REVIEW_ANSWER_EXAMPLE, flagsSchema, pricedReportLineSchema, reportStatus, reviewAnswer, reviewAnswerSchema } from './review-schemas.ts';

/** The `:reportId` of a report route. */
export const reportIdParams = z.object({ reportId: z.string().meta({ title: '报工单编号' }) });
const REPORT_ID = '5f0c9a8e-7b1d-4f2a-8c3e-6d9b0a1e2f34';

/** A report as the review queue and the office's report list give it. */
export const reportItem = z.object({
  reportId: z.string(),
  employeePhone: z.string(),
  employeeName: z.string().nullable(),
  reportDate: localDate,
  status: reportStatus,
  devices: z.array(z.string()),
  clockInAt: instant,
  clockOutAt: instant,
  breakMinutes: z.number().int(),
  effectiveSeconds: z.number().describe('有效工作时间（秒）= 下班 − 上班 − 休息分钟 × 60'),
  lines: z.array(pricedReportLineSchema),
  flags: flagsSchema,
  submittedAt: instant,
  reviewedBy: z.string().nullable().describe('审核人手机号'),
  reviewedAt: instant.nullable(),
  rejectReason: z.string().nullable(),
  // shifts: where the break came from
  ...breakSourceFields,
  // scopes: where the report is counted
  workshopCode: z.string().nullable().describe('车间编码（报工日期当天员工所在班组的车间）；不属于任何班组为 null'),
  workshopName: z.string().nullable().describe('车间名称'),
  teamCode: z.string().nullable().describe('班组编码；不属于任何班组为 null'),
  teamName: z.string().nullable().describe('班组名称'),
});

/** An example of `reportItem`. */
export const REPORT_ITEM_EXAMPLE = {
  reportId: REPORT_ID,
  employeePhone: '13800138000',
  employeeName: '张三',
  reportDate: '2026-03-02',
  status: 'pending',
  devices: ['冲床 01'],
  clockInAt: '2026-03-02T08:00:00+08:00',
  clockOutAt: '2026-03-02T17:00:00+08:00',
  breakMinutes: 60,
  effectiveSeconds: 28800,
  lines: REVIEW_ANSWER_EXAMPLE.lines,
  flags: [],
  submittedAt: '2026-03-02T17:05:00+08:00',
  reviewedBy: null,
  reviewedAt: null,
  rejectReason: null,
  breakSource: 'shift',
  shiftName: '白班',
  workshopCode: 'W1',
  workshopName: '冲压车间',
  teamCode: 'T1',
  teamName: '冲压一班',
};

const PAGE_EXAMPLE = { items: [REPORT_ITEM_EXAMPLE], page: 1, pageSize: 20, total: 1 };

/** 404 of every route on one report (commands/review/decider.ts); also a report outside the reader's scope. */
export const REPORT_NOT_FOUND: ErrorDoc = { status: 404, code: 'REPORT_NOT_FOUND', description: '没有这份报工单（或不在您的审核范围内）' };
/** 403 of the review and break routes on one's own report. */
export const SELF_REVIEW: ErrorDoc = { status: 403, code: 'SELF_REVIEW', description: '不能审核或修改自己的报工单' };
const ALREADY: ErrorDoc = {
  status: 409,
  code: 'REPORT_ALREADY_REVIEWED',
  description: '报工单已审核（只能审核待审核的报工单）',
  details: z.object({ status: reportStatus }),
};

/** A reason of 1–200 characters after trimming; the command checks it (422 INVALID_REASON). */
const REASON_RULE = { minLength: 1, maxLength: 200, pattern: '\\S' };

export const pendingReviewsRoute = defineRoute({
  method: 'get',
  path: '/api/reviews/pending',
  tag: 'reviews',
  summary: '待审核的报工单（最早提交的在前，分页；可只看异常报工）',
  description:
    '每份报工单带 `flags`（异常报工标记，带中文说明）：有标记的报工单数据不可能为真（例如 0 分钟报了 205 件），请核对后再审核；仍可通过。' +
    '`flagged=true` 只列有异常标记的，`false` 只列没有的。',
  access: access.review,
  query: pageQuery.extend({
    flagged: z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => (v === undefined ? undefined : v === 'true'))
      .meta({ title: '只看异常', description: 'true：只列有异常标记的报工单；false：只列没有的；不填：全部' }),
  }),
  response: pageOf(reportItem),
  example: {
    query: { page: '1', pageSize: '20', flagged: 'true' },
    response: { ...PAGE_EXAMPLE, items: [{ ...REPORT_ITEM_EXAMPLE, ...FLAGGED_EXAMPLE, submittedAt: '2026-03-02T08:10:00+08:00', flags: FLAGS_EXAMPLE }] },
  },
  async handler({ query, user }, ctx) {
    const { flagged, ...page } = query;
    return pendingReviews(ctx.db.pool, page, ctx.config.timeZone, flagged, scopeOf(user));
  },
});

export const approveRoute = defineRoute({
  method: 'post',
  path: '/api/reviews/:reportId/approve',
  tag: 'reviews',
  summary: '审核通过，可同时修正明细行',
  description:
    '`lines` 给出时为修正后的全部明细行，规则与提交相同；修正行只能是本报工单已有的产品（保留提交时的标准节拍和标准工作量），' +
    '或本报工单设备上的候选产品（取当前的标准值）。与原明细相同则不记为修正。有异常标记的报工单也可通过：审计记录写明“已知异常”；' +
    '修正后按修正的数量重新判断异常，回答的 `flags` 为通过时的标记。',
  access: access.review,
  params: reportIdParams,
  body: z.object({ lines: linesInput('修正后的明细').optional() }),
  response: reviewAnswerSchema,
  errors: [
    REPORT_NOT_FOUND,
    ALREADY,
    PERIOD_CLOSED,
    CONCURRENT_MODIFICATION,
    SELF_REVIEW,
    ...LINE_ERRORS,
    {
      status: 422,
      code: 'PRODUCT_NOT_ALLOWED',
      description: '修正行的产品既不在本报工单上，也不是本报工单设备上的产品',
      details: z.object({ line: z.number().int(), productId: z.number() }),
    },
  ],
  example: {
    params: { reportId: REPORT_ID },
    body: { lines: [{ productId: 12, finishedQty: 480, defectiveQty: 25, defects: [{ reasonCode: 'SCR', qty: 20 }] }] },
    response: {
      ...REVIEW_ANSWER_EXAMPLE,
      lines: REVIEW_ANSWER_EXAMPLE.lines.map((l) => ({ ...l, defects: [{ reasonCode: 'SCR', qty: 20, category: 'operator' as const }] })),
      corrected: true,
    },
  },
  async handler({ params, body, req, user }, ctx) {
    return reviewAnswer(ctx, await approveReport(ctx, actorOf(user, req), params.reportId, body.lines));
  },
});

export const rejectRoute = defineRoute({
  method: 'post',
  path: '/api/reviews/:reportId/reject',
  tag: 'reviews',
  summary: '驳回报工单（须填写原因，1–200 字）',
  access: access.review,
  params: reportIdParams,
  body: z.object({ reason: checkedRule(z.string().meta({ title: '驳回原因', description: '1–200 个字（去掉首尾空白后）' }), REASON_RULE) }),
  response: reviewAnswerSchema,
  errors: [REPORT_NOT_FOUND, ALREADY, PERIOD_CLOSED, CONCURRENT_MODIFICATION, SELF_REVIEW, { status: 422, code: 'INVALID_REASON', description: '驳回原因为空或超过 200 字' }],
  example: {
    params: { reportId: REPORT_ID },
    body: { reason: '数量与班组记录不符，请核对' },
    response: { ...REVIEW_ANSWER_EXAMPLE, status: 'rejected', rejectReason: '数量与班组记录不符，请核对' },
  },
  async handler({ params, body, req, user }, ctx) {
    return reviewAnswer(ctx, await rejectReport(ctx, actorOf(user, req), params.reportId, body.reason));
  },
});

export const myReviewsRoute = defineRoute({
  method: 'get',
  path: '/api/reviews/mine',
  tag: 'reviews',
  summary: '我审核过的报工单（按审核日期筛选，最新的在前）',
  description: '`startDate`、`endDate`（YYYY-MM-DD，含当天，按工厂时区的审核日期）可省略。',
  access: access.review,
  query: pageQuery.extend({ startDate: optionalLocalDate('开始日期'), endDate: optionalLocalDate('结束日期') }),
  response: pageOf(reportItem),
  errors: [{ status: 422, code: 'INVALID_DATE_RANGE', description: '结束日期早于开始日期（日期格式错误为 VALIDATION_FAILED）' }],
  example: {
    query: { startDate: '2026-03-01', endDate: '2026-03-31' },
    response: { ...PAGE_EXAMPLE, items: [{ ...PAGE_EXAMPLE.items[0], status: 'approved', reviewedBy: '13800000001', reviewedAt: '2026-03-02T18:01:00+08:00' }] },
  },
  async handler({ query, user }, ctx) {
    const { startDate, endDate, ...page } = query;
    if (startDate && endDate && endDate < startDate) throw unprocessable('INVALID_DATE_RANGE', '结束日期不能早于开始日期');
    return myReviews(ctx.db.pool, user.phone, { startDate, endDate }, page, ctx.config.timeZone, scopeOf(user));
  },
});

export const reviewRoutes = [pendingReviewsRoute, approveRoute, rejectRoute, myReviewsRoute];
