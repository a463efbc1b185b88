/**
 * The worker's report endpoints (spec 4.6, 3.1 rule 2; decisions.md "Reports and review"), workers only, own
 * data only (another worker's session: 404):
 * - GET /api/reports/draft?sessionId= → the session's times, devices, break minutes, window end, candidates
 * - POST /api/reports {sessionId, lines: [{productId, finishedQty, defectiveQty, outputQty?}]} → 201
 *   {reportId, reportDate, status: "pending"}
 * - GET /api/reports/mine?startDate=&endDate=&status=&reportId=&page=&pageSize= → a page of the worker's reports
 *   (`reportId`: that one only, as the page a review-result message opens reads it)
 * (The manager's break-minutes PATCH and the audit log are in report-admin.ts.)
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { submitReport } from '../../commands/clock/handlers.ts';
import { MAX_LINES, MAX_QTY } from '../../domain/report-line.ts';
import { unprocessable } from '../../errors.ts';
import { reportDraft } from '../../queries/report-draft.ts';
import { myReports } from '../../queries/my-reports.ts';
import { instant, localDate, optionalLocalDate, zonedIso as iso } from '../dates.ts';
import { checkedRule } from '../json-schema.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { actorOf, defineRoute } from '../route.ts';
import { CONCURRENT_MODIFICATION, CREW_LINE_REPORTED, LINE_ERRORS, NOT_IN_CREW, PERIOD_CLOSED, WINDOW_ERRORS } from './error-docs.ts';
import { crewShareSchema } from '../../domain/report-line.ts';
import { breakSourceFields, PRODUCT_SNAPSHOT_EXAMPLE, productSnapshotSchema, reportLineSchema, reportStatus } from './review-schemas.ts';

const sessionId = z.uuid().meta({ title: '上班记录编号', description: '打卡接口返回的 sessionId' });

/** A quantity as a line gives it: the command checks the integer range (422 INVALID_QUANTITY with details.line). */
export const quantity = (title: string, description: string) =>
  checkedRule(z.number().meta({ title, description }), { type: 'integer', minimum: 0, maximum: MAX_QTY });

/** The lines of a submission or a correction: the command checks their count (422 NO_LINES, TOO_MANY_LINES). */
export const linesInput = (title: string) =>
  checkedRule(
    z
      .array(
        z.object({
          productId: z.number().int().meta({ title: '产品编号', description: '报工单草稿 candidates 中的 productId' }),
          finishedQty: quantity('成品数量', '不小于 0 的整数'),
          defectiveQty: quantity('不良数量', '不小于 0 的整数（报废计入不良）'),
          outputQty: quantity('产出数量', `省略时按 成品 + 不良 计算；填写时必须等于 成品 + 不良（因此不超过 ${MAX_QTY}）`).optional(),
          defects: z
            .array(
              z.object({
                reasonCode: z.string().max(40).meta({ title: '不良原因编码', description: 'GET /api/defect-reasons?active=true 中的 code' }),
                qty: checkedRule(z.number().meta({ title: '数量', description: '该原因的不良数量，不小于 1 的整数' }), { type: 'integer', minimum: 1, maximum: MAX_QTY }),
              }),
            )
            .max(50)
            .meta({
              title: '不良原因',
              description:
                '每个原因一次，数量合计不超过不良数量（超过：422 DEFECTS_SUM_MISMATCH）；没填原因的不良记为“未注明”。' +
                '服务配置 DEFECT_REASONS_REQUIRED=true 时合计必须等于不良数量。审核修正时省略表示保留该行原有的原因，[] 表示清除。',
            })
            .optional(),
          workOrderNo: z
            .string()
            .max(40)
            .nullable()
            .optional()
            .meta({
              title: '工单号',
              description:
                '该行计入的工单（草稿 candidates[].workOrders 中的 orderNo）；省略或 null 表示不指定工单。工单须未完工、未关闭、未作废，是该行产品的工单且工序路线含该行工序，' +
                '否则 422 WORK_ORDER_NOT_FOUND、WORK_ORDER_NOT_OPEN、WORK_ORDER_WRONG_PRODUCT、WORK_ORDER_WRONG_OPERATION。审核修正时省略表示保留该行原有的工单，null 表示清除。',
            }),
          crew: z
            .array(z.string().regex(/^1\d{10}$/, { error: '组员应为 11 位手机号' }).meta({ title: '组员手机号' }))
            .max(20)
            .meta({
              title: '班组报工组员',
              description:
                '班组报工（多人作业）：组员手机号（含提交人自己），取自草稿 candidates[].crew；只能去掉草稿提议的组员，' +
                '不能加入这次上班时段内没在该设备上班的人（422 NOT_IN_CREW）。省略：本人单独报工（审核修正时省略表示保留原组员）。',
            })
            .optional(),
        }),
      )
      .meta({ title }),
    { minItems: 1, maxItems: MAX_LINES },
  );

/** A draft's candidate: the product, its open work orders, and crew work's proposals (decisions.md "Crew work"). */
const draftCandidateSchema = productSnapshotSchema.extend({
  workOrders: z
    .array(
      z.object({
        orderNo: z.string().describe('工单号'),
        plannedQty: z.number().int().describe('计划数量'),
        reportedFinishedQty: z.number().int().describe('该工单这道工序已报的成品（已通过与待审核）'),
        dueDate: z.string().nullable().describe('交期 YYYY-MM-DD；没有时为 null'),
      }),
    )
    .describe('该产品未完工、未关闭的工单中工序路线含这道工序的，交期早的在前（没有交期的最后）；报工时可在 lines[].workOrderNo 中选择，也可不指定'),
  crew: z
    .array(
      z.object({
        phone: z.string(),
        name: z.string().nullable(),
        secondsOnDevice: z.number().int().describe('本次上班时段内在该设备上的秒数'),
        coefficient: z.number().describe('系数（报工当天），如 1.2'),
        clockInAt: z.string().describe('本次上班时段内最早上该设备的时刻（ISO 8601）：分配的余数相同时先上机者优先，再按手机号'),
      }),
    )
    .optional()
    .describe('班组报工（操作人数大于 1 的产品）：提议的组员，本人在前，其余按上机先后；提交时放入 lines[].crew（可去掉，不能加）'),
  crewLeftOut: z
    .array(z.object({ phone: z.string(), name: z.string().nullable(), reportId: z.string().describe('已把此人算在内的报工单') }))
    .optional()
    .describe('不再提议的组员：已自己报过或已在别人的班组报工里'),
  crewReportedBy: z
    .object({ reportId: z.string(), phone: z.string(), name: z.string().nullable() })
    .optional()
    .describe('已由此人的班组报工把你算在内（显示“已由 张三 班组报工”）：这一行不能再报'),
});

const SESSION_ID = '0b6f1f0e-3c1a-4d6e-9a57-2f1d2c3b4a59';
const LINE_EXAMPLE = PRODUCT_SNAPSHOT_EXAMPLE;

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
    breakMinutes: z
      .number()
      .int()
      .describe('休息时长（分钟）：员工当天有班次时为班次不带薪休息时段与上下班时间重叠的分钟数，否则为 DEFAULT_BREAK_MINUTES；不超过上班总分钟数'),
    devices: z.array(z.string()).describe('本次上班用过的设备，按出现顺序'),
    expiresAt: instant.describe('填写截止时间'),
    candidates: z.array(draftCandidateSchema).describe('使用本次上班设备的产品'),
    // shifts
    breakSource: z.enum(['shift', 'default']).describe('休息时间的来源：shift 按班次计算；default 默认休息时间'),
    shift: z.object({ shiftId: z.string(), name: z.string() }).nullable().describe('计算休息时间所依据的班次；default 时为 null'),
  }),
  errors: WINDOW_ERRORS,
  example: {
    query: { sessionId: SESSION_ID },
    response: {
      sessionId: SESSION_ID,
      clockInAt: '2026-03-02T08:00:00+08:00',
      clockOutAt: '2026-03-02T17:00:00+08:00',
      breakMinutes: 60,
      devices: ['冲床 01'],
      expiresAt: '2026-03-02T17:30:00+08:00',
      candidates: [{ ...LINE_EXAMPLE, workOrders: [{ orderNo: 'WO-2611-07', plannedQty: 5000, reportedFinishedQty: 1200, dueDate: '2026-03-06' }] }],
      breakSource: 'shift',
      shift: { shiftId: '5b0c1c3e-8f43-4d2e-9a51-1f4a1e2b3c4d', name: '白班' },
    },
  },
  async handler({ query, user }, ctx) {
    const d = await reportDraft(ctx.db.reads, ctx.clockSettings, ctx.clock.now(), user, query.sessionId, ctx.calendars);
    return {
      ...d,
      clockInAt: iso(ctx, d.clockInAt),
      clockOutAt: iso(ctx, d.clockOutAt),
      expiresAt: iso(ctx, d.expiresAt),
    };
  },
});

export const submitReportBody = z.object({ sessionId, lines: linesInput('明细') });

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
  response: z.object({
    reportId: z.string(),
    reportDate: localDate.describe('报工日期：确认提交当天'),
    status: z.literal('pending'),
    crewLines: z
      .array(z.object({ line: z.number().int().describe('行号（从 1 起）'), productId: z.number().int(), shares: z.array(crewShareSchema) }))
      .optional()
      .describe('班组报工行及各组员的份额；没有班组报工行时省略'),
  }),
  errors: [
    ...WINDOW_ERRORS,
    ...LINE_ERRORS,
    NOT_IN_CREW,
    CREW_LINE_REPORTED,
    {
      status: 422,
      code: 'PRODUCT_NOT_CANDIDATE',
      description: '所选产品不是本次上班所用设备的产品',
      details: z.object({ line: z.number().int(), productId: z.number() }),
    },
    { ...PERIOD_CLOSED, description: '报工日期（今天）所在月份已结账：只在月末与结账赛跑，或本服务的时钟落后于结账时才会遇到；报工单仍在填写时限内，稍后重新提交即可（details.month）' },
    CONCURRENT_MODIFICATION,
  ],
  example: {
    body: { sessionId: SESSION_ID, lines: [{ productId: 12, finishedQty: 500, defectiveQty: 5, defects: [{ reasonCode: 'SCR', qty: 2 }, { reasonCode: 'CRK', qty: 3 }] }] },
    response: { reportId: '5f0c9a8e-7b1d-4f2a-8c3e-6d9b0a1e2f34', reportDate: '2026-03-02', status: 'pending' },
  },
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
    status: reportStatus.optional().meta({ title: '状态', description: 'pending 待审核、approved 已通过、rejected 已驳回' }),
    reportId: z
      .uuid()
      .optional()
      .meta({ title: '报工单编号', description: '只看这一张报工单（审核结果通知打开的页面 pages/mine/detail 读取）；不是本人的报工单时结果为空' }),
  }),
  response: pageOf(
    z.object({
      reportId: z.string(),
      sessionId: z.string(),
      reportDate: localDate,
      status: reportStatus,
      clockInAt: instant,
      clockOutAt: instant,
      breakMinutes: z.number().int(),
      effectiveSeconds: z.number().describe('有效工作时间（秒）= 下班 − 上班 − 休息'),
      devices: z.array(z.string()),
      lines: z.array(reportLineSchema).describe('当前明细（审核修正后为修正值）'),
      submittedAt: instant,
      reviewedAt: instant.nullable(),
      rejectReason: z.string().nullable(),
      // shifts
      ...breakSourceFields,
      submittedBy: z
        .object({ phone: z.string(), name: z.string().nullable() })
        .optional()
        .describe('班组报工：别人提交、其班组报工行把你算在内的报工单，这是提交人（明细行 shares 中有你的份额）；你自己的报工单省略'),
    }),
  ),
  errors: [{ status: 422, code: 'INVALID_DATE_RANGE', description: '开始日期晚于结束日期' }],
  example: {
    query: { startDate: '2026-03-01', endDate: '2026-03-31', status: 'approved' },
    response: {
      items: [
        {
          reportId: '5f0c9a8e-7b1d-4f2a-8c3e-6d9b0a1e2f34',
          sessionId: SESSION_ID,
          reportDate: '2026-03-02',
          status: 'approved',
          clockInAt: '2026-03-02T08:00:00+08:00',
          clockOutAt: '2026-03-02T17:00:00+08:00',
          breakMinutes: 60,
          effectiveSeconds: 28800,
          devices: ['冲床 01'],
          lines: [{ ...LINE_EXAMPLE, finishedQty: 500, defectiveQty: 5, outputQty: 505 }],
          submittedAt: '2026-03-02T17:05:00+08:00',
          reviewedAt: '2026-03-02T18:01:00+08:00',
          rejectReason: null,
          breakSource: 'shift',
          shiftName: '白班',
        },
      ],
      page: 1,
      pageSize: 20,
      total: 1,
    },
  },
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
