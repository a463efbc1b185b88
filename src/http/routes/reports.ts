/**
 * The worker's report endpoints (spec 4.6, 3.1 rule 2; decisions.md "Reports and review"), workers only, own
 * data only (another worker's session: 404):
 * - GET /api/reports/draft?sessionId= → the session's times, devices, break minutes, window end, candidates
 * - POST /api/reports {sessionId, lines: [{productId, finishedQty, defectiveQty, outputQty?}]} → 201
 *   {reportId, reportDate, status: "pending"}
 * - GET /api/reports/mine?startDate=&endDate=&status=&page=&pageSize= → a page of the worker's reports
 * (The manager's break-minutes PATCH and the audit log are issue #6's, in report-admin.ts.)
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { submitReport } from '../../commands/clock/handlers.ts';
import { MAX_LINES, productSnapshotSchema as candidateSchema, reportLineSchema as lineSchema } from '../../domain/report-line.ts';
import { unprocessable } from '../../errors.ts';
import { reportDraft } from '../../queries/report-draft.ts';
import { myReports } from '../../queries/my-reports.ts';
import { optionalLocalDate, zonedIso as iso } from '../dates.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { actorOf, defineRoute, type ErrorDoc } from '../route.ts';

const instant = z.string().describe('ISO 8601，带 APP_TIMEZONE 时区偏移');
const sessionId = z.uuid({ error: 'sessionId 不是有效的上班记录编号' }).describe('上班记录编号');

const WINDOW_ERRORS: ErrorDoc[] = [
  { status: 404, code: 'SESSION_NOT_FOUND', description: '没有这条上班记录（或不是本人的）' },
  { status: 409, code: 'REPORT_WINDOW_EXPIRED', description: '已超过填写时限：重新扫码并点击“重新报工”（details.label = 重新报工）' },
  { status: 409, code: 'REPORT_ALREADY_SUBMITTED', description: '这次上班已提交过报工单（details.reportId）' },
  { status: 409, code: 'SESSION_ABANDONED', description: '上班超过 SESSION_MAX_HOURS 未报工，已自动结束' },
  { status: 409, code: 'CLOCK_STATE_CONFLICT', description: '还没有下班报工（details.label = 下班报工）' },
];

export const reportDraftRoute = defineRoute({
  method: 'get',
  path: '/api/reports/draft',
  tag: 'reports',
  summary: '报工单草稿：本次上班的时间、设备、休息分钟数与可选产品（受填写时限约束）',
  access: access.worker,
  personCheckedByHandler: true,
  lean: true,
  query: z.object({ sessionId }),
  response: z.object({
    sessionId: z.string(),
    clockInAt: instant,
    clockOutAt: instant,
    breakMinutes: z.number().int().describe('休息时长（分钟），初始为 DEFAULT_BREAK_MINUTES，不超过上班总分钟数'),
    devices: z.array(z.string()),
    expiresAt: instant.describe('填写截止时间'),
    candidates: z.array(candidateSchema).describe('使用本次上班设备的产品'),
  }),
  errors: WINDOW_ERRORS,
  async handler({ query, user }, ctx) {
    const d = await reportDraft(ctx.db.pool, ctx.clockSettings, ctx.clock.now(), user, query.sessionId);
    return {
      ...d,
      clockInAt: iso(ctx, d.clockInAt),
      clockOutAt: iso(ctx, d.clockOutAt),
      expiresAt: iso(ctx, d.expiresAt),
    };
  },
});

const qty = (name: string) => z.number({ error: `${name}必须是数字` });

export const submitReportBody = z.object({
  sessionId,
  lines: z
    .array(
      z.object({
        productId: z.number({ error: 'productId 必须是产品编号' }).int('productId 必须是产品编号'),
        finishedQty: qty('成品数量').describe('成品数量，不小于 0 的整数'),
        defectiveQty: qty('不良数量').describe('不良数量，不小于 0 的整数（报废计入不良）'),
        outputQty: qty('产出数量').optional().describe('产出数量；省略时按 成品 + 不良 计算，填写时必须相等'),
      }),
      { error: 'lines 必须是明细行列表' },
    )
    .max(MAX_LINES, `一张报工单最多 ${MAX_LINES} 行`),
});

export const submitReportRoute = defineRoute({
  method: 'post',
  path: '/api/reports',
  tag: 'reports',
  summary: '确认提交报工单（report_date 为确认当天，APP_TIMEZONE）',
  description: '产品的标准节拍与标准工作量在提交时复制进报工单。同一次上班只能提交一次。',
  access: access.worker,
  personCheckedByHandler: true,
  lean: true,
  body: submitReportBody,
  status: 201,
  response: z.object({ reportId: z.string(), reportDate: z.string().describe('YYYY-MM-DD'), status: z.enum(['pending']) }),
  errors: [
    ...WINDOW_ERRORS,
    { status: 422, code: 'NO_LINES | INVALID_QUANTITY | OUTPUT_QTY_MISMATCH | DUPLICATE_PRODUCT | PRODUCT_NOT_CANDIDATE', description: '明细行校验失败（details.line 为第几行）' },
  ],
  async handler({ body, user, req }, ctx) {
    return submitReport(ctx, actorOf(user, req), body);
  },
});

export const myReportsRoute = defineRoute({
  method: 'get',
  path: '/api/reports/mine',
  tag: 'reports',
  summary: '我的报工单（按报工日期倒序，分页）',
  access: access.worker,
  query: pageQuery.extend({
    startDate: optionalLocalDate('开始日期'),
    endDate: optionalLocalDate('结束日期'),
    status: z.enum(['pending', 'approved', 'rejected'], { error: '状态只能是 pending、approved 或 rejected' }).optional(),
  }),
  response: pageOf(
    z.object({
      reportId: z.string(),
      sessionId: z.string(),
      reportDate: z.string(),
      status: z.enum(['pending', 'approved', 'rejected']),
      clockInAt: instant,
      clockOutAt: instant,
      breakMinutes: z.number().int(),
      effectiveSeconds: z.number().describe('有效工作时间（秒）= 下班 − 上班 − 休息'),
      devices: z.array(z.string()),
      lines: z.array(lineSchema).describe('当前明细（审核修正后为修正值）'),
      submittedAt: instant,
      reviewedAt: instant.nullable(),
      rejectReason: z.string().nullable(),
    }),
  ),
  errors: [{ status: 422, code: 'INVALID_DATE_RANGE', description: '开始日期晚于结束日期' }],
  async handler({ query, user }, ctx) {
    if (query.startDate && query.endDate && query.startDate > query.endDate) {
      throw unprocessable('INVALID_DATE_RANGE', '开始日期不能晚于结束日期');
    }
    const page = await myReports(ctx.db.pool, user.phone, query);
    return {
      ...page,
      items: page.items.map((r) => ({
        ...r,
        clockInAt: iso(ctx, r.clockInAt),
        clockOutAt: iso(ctx, r.clockOutAt),
        submittedAt: iso(ctx, r.submittedAt),
        reviewedAt: r.reviewedAt ? iso(ctx, r.reviewedAt) : null,
      })),
    };
  },
});

export const reportRoutes = [reportDraftRoute, submitReportRoute, myReportsRoute];
