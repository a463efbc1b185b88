/**
 * Review endpoints (spec 4.7; decisions.md "Reports and review"), administrators only (`access.review`):
 * GET /api/reviews/pending, POST /api/reviews/:reportId/approve {lines?}, POST /api/reviews/:reportId/reject
 * {reason}, GET /api/reviews/mine?startDate=&endDate=&page=&pageSize=.
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { approveReport, rejectReport } from '../../commands/review/handlers.ts';
import { myReviews, pendingReviews } from '../../queries/reviews.ts';
import { optionalLocalDate } from '../dates.ts';
import { unprocessable } from '../../errors.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { defineRoute, type ErrorDoc } from '../route.ts';
import { reportLineSchema, reviewAnswerSchema } from './review-schemas.ts';

const reportIdParams = z.object({ reportId: z.string() });

/** A report as the review queue and the office's report list give it. */
export const reportItem = z.object({
  reportId: z.string(),
  employeePhone: z.string(),
  employeeName: z.string().nullable(),
  reportDate: z.string().describe('YYYY-MM-DD'),
  status: z.enum(['pending', 'approved', 'rejected']),
  devices: z.array(z.string()),
  clockInAt: z.string(),
  clockOutAt: z.string(),
  breakMinutes: z.number().int(),
  effectiveSeconds: z.number().describe('有效工作时间（秒）= 下班 − 上班 − 休息分钟 × 60'),
  lines: z.array(reportLineSchema),
  submittedAt: z.string(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  rejectReason: z.string().nullable(),
});

const NOT_FOUND: ErrorDoc = { status: 404, code: 'REPORT_NOT_FOUND', description: '没有这份报工单' };
const ALREADY: ErrorDoc = { status: 409, code: 'REPORT_ALREADY_REVIEWED', description: '报工单已审核（只能审核待审核的报工单）' };
const RACE: ErrorDoc = { status: 409, code: 'CONCURRENT_MODIFICATION', description: '同时修改冲突，请刷新后重试' };

const lineInput = z.object({
  productId: z.number().int(),
  finishedQty: z.number().describe('成品数量，不小于 0 的整数'),
  defectiveQty: z.number().describe('不良数量（含报废），不小于 0 的整数'),
  outputQty: z.number().optional().describe('产出数量 = 成品 + 不良；省略时自动计算'),
});

export const pendingReviewsRoute = defineRoute({
  method: 'get',
  path: '/api/reviews/pending',
  tag: 'reviews',
  summary: '待审核的报工单（最早提交的在前，分页）',
  access: access.review,
  query: pageQuery,
  response: pageOf(reportItem),
  async handler({ query }, ctx) {
    return pendingReviews(ctx.db.pool, query, ctx.config.timeZone);
  },
});

export const approveRoute = defineRoute({
  method: 'post',
  path: '/api/reviews/:reportId/approve',
  tag: 'reviews',
  summary: '审核通过，可同时修正明细行',
  description:
    '`lines` 给出时为修正后的全部明细行，规则与提交相同；修正行只能是本报工单已有的产品（保留提交时的标准节拍和标准工作量），' +
    '或本报工单设备上的候选产品（取当前的标准值）。与原明细相同则不记为修正。',
  access: access.review,
  params: reportIdParams,
  body: z.object({ lines: z.array(lineInput).optional() }),
  response: reviewAnswerSchema,
  errors: [
    NOT_FOUND,
    ALREADY,
    RACE,
    { status: 422, code: 'NO_LINES | INVALID_QUANTITY | OUTPUT_QTY_MISMATCH | DUPLICATE_PRODUCT | PRODUCT_NOT_ALLOWED | TOO_MANY_LINES', description: '修正的明细行不符合要求' },
  ],
  async handler({ params, body, req, user }, ctx) {
    return approveReport(ctx, user, params.reportId, body.lines, req.id);
  },
});

export const rejectRoute = defineRoute({
  method: 'post',
  path: '/api/reviews/:reportId/reject',
  tag: 'reviews',
  summary: '驳回报工单（须填写原因，1–200 字）',
  access: access.review,
  params: reportIdParams,
  body: z.object({ reason: z.string() }),
  response: reviewAnswerSchema,
  errors: [NOT_FOUND, ALREADY, RACE, { status: 422, code: 'INVALID_REASON', description: '驳回原因为空或超过 200 字' }],
  async handler({ params, body, req, user }, ctx) {
    return rejectReport(ctx, user, params.reportId, body.reason, req.id);
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
  async handler({ query, user }, ctx) {
    const { startDate, endDate, ...page } = query;
    if (startDate && endDate && endDate < startDate) throw unprocessable('INVALID_DATE_RANGE', '结束日期不能早于开始日期');
    return myReviews(ctx.db.pool, user.phone, { startDate, endDate }, page, ctx.config.timeZone);
  },
});

export const reviewRoutes = [pendingReviewsRoute, approveRoute, rejectRoute, myReviewsRoute];
