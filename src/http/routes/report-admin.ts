/**
 * Report administration (spec 4.6, 3.2; decisions.md "Reports and review"):
 * - PATCH /api/reports/:reportId/break-minutes {breakMinutes, reason?}: managers (`access.breakMinutes`);
 *   pending or approved reports; the dashboard and the audit log follow. The same operation answers POST too:
 *   WeChat's `wx.request` cannot send PATCH, and the mini-program's managers change breaks.
 * - GET /api/reports/:reportId/audit-logs: managers and administrators (`access.insight`).
 */
import { z } from 'zod';
import { ROLE_LABELS, access, isRole } from '../../auth/roles.ts';
import { changeBreakMinutes } from '../../commands/review/handlers.ts';
import { auditLogs } from '../../queries/audit-logs.ts';
import { instant } from '../dates.ts';
import { checkedRule } from '../json-schema.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { actorOf, defineRoute, scopeOf } from '../route.ts';
import { CONCURRENT_MODIFICATION, PERIOD_CLOSED } from './error-docs.ts';
import { REPORT_NOT_FOUND, SELF_REVIEW, reportIdParams } from './reviews.ts';
import { FLAGS_EXAMPLE, REVIEW_ANSWER_EXAMPLE, flagsSchema, reportLineSchema, reportStatus, reviewAnswer, reviewAnswerSchema } from './review-schemas.ts';

const REPORT_ID = REVIEW_ANSWER_EXAMPLE.reportId;

export const breakMinutesRoute = defineRoute({
  method: 'patch',
  path: '/api/reports/:reportId/break-minutes',
  tag: 'reports',
  summary: '修改报工单的休息时间（分钟，经理）',
  description:
    '待审核或已通过的报工单可改；有效工作时间（下班 − 上班 − 休息）不能为负。与原值相同时不产生记录。' +
    '改后按新的有效工作时间重新判断异常报工，回答的 `flags` 为改后的标记。',
  access: access.breakMinutes,
  params: reportIdParams,
  body: z.object({
    breakMinutes: checkedRule(z.number().meta({ title: '休息时间', description: '整数分钟，不小于 0，不超过上班到下班的分钟数' }), {
      type: 'integer',
      minimum: 0,
    }),
    reason: checkedRule(z.string().meta({ title: '修改原因', description: '可不填；最多 200 个字' }), { maxLength: 200 }).optional(),
  }),
  response: reviewAnswerSchema,
  errors: [
    REPORT_NOT_FOUND,
    { status: 409, code: 'REPORT_REJECTED', description: '已驳回的报工单不能修改', details: z.object({ status: reportStatus }) },
    PERIOD_CLOSED,
    CONCURRENT_MODIFICATION,
    SELF_REVIEW,
    { status: 422, code: 'INVALID_BREAK_MINUTES', description: '休息时间不是不小于 0 的整数' },
    {
      status: 422,
      code: 'BREAK_EXCEEDS_WORKING_TIME',
      description: '休息时间超过上班到下班的时长（details.maxBreakMinutes 为最大值）',
      details: z.object({ maxBreakMinutes: z.number().int() }),
    },
    { status: 422, code: 'INVALID_REASON', description: '修改原因超过 200 字' },
  ],
  example: {
    params: { reportId: REPORT_ID },
    body: { breakMinutes: 45, reason: '午休缩短' },
    response: { ...REVIEW_ANSWER_EXAMPLE, breakMinutes: 45, effectiveSeconds: 29700, at: '2026-03-02T18:30:00+08:00' },
  },
  async handler({ params, body, req, user }, ctx) {
    return reviewAnswer(ctx, await changeBreakMinutes(ctx, actorOf(user, req), params.reportId, body));
  },
});

/** The break change by POST, for clients that cannot send PATCH (WeChat's `wx.request`). */
export const breakMinutesPostRoute = defineRoute({
  ...breakMinutesRoute,
  method: 'post',
  summary: '修改报工单的休息时间（同上，POST 方式：微信小程序的 wx.request 不支持 PATCH）',
});

/** The Chinese word of each audit action, as people read the trail (通过, not `approved`). */
export const AUDIT_ACTION_LABELS = {
  submitted: '提交',
  corrected: '修正',
  approved: '通过',
  rejected: '驳回',
  break_changed: '修改休息时间',
} as const;
type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
const ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as [AuditAction, ...AuditAction[]];

const breakValue = z.object({ breakMinutes: z.number().int() });
/** A line as the audit log keeps it: the product and the quantities (the standards are on the report). */
const auditLine = reportLineSchema.omit({ standardCycleSeconds: true, standardWorkload: true });
const auditItem = z.object({
  action: z.enum(ACTIONS),
  actionLabel: z.enum(Object.values(AUDIT_ACTION_LABELS) as [string, ...string[]]).describe('操作的中文名称'),
  actorPhone: z.string().nullable(),
  actorName: z.string().nullable(),
  role: z.string().nullable().describe('操作人的角色；系统操作为 null'),
  roleLabel: z.string().nullable().describe('角色的中文名称'),
  at: instant,
  productId: z.number().int().nullable().describe('corrected：被修正的产品'),
  before: z.union([auditLine, breakValue, z.null()]).describe('corrected：修正前的明细行（新增时为 null）；break_changed：{breakMinutes}；其他为 null'),
  after: z
    .union([z.object({ lines: z.array(auditLine), breakMinutes: z.number().int() }), auditLine, breakValue, z.null()])
    .describe('submitted：提交的明细与休息时间；corrected：修正后的明细行（删除时为 null）；break_changed：{breakMinutes}；其他为 null'),
  reason: z.string().nullable(),
  flags: flagsSchema.describe(
    'submitted：提交时的异常标记；approved：审核人通过时已知的异常（已知异常）；break_changed：改后的异常标记；其他为空数组',
  ),
});

export const auditLogsRoute = defineRoute({
  method: 'get',
  path: '/api/reports/:reportId/audit-logs',
  tag: 'reports',
  summary: '报工单的审计记录（提交、修正、通过、驳回、修改休息时间）',
  access: access.insight,
  params: reportIdParams,
  query: pageQuery,
  response: pageOf(auditItem),
  errors: [REPORT_NOT_FOUND],
  example: {
    params: { reportId: REPORT_ID },
    response: {
      items: [
        {
          action: 'approved',
          actionLabel: '通过',
          actorPhone: '13800000001',
          actorName: '王管理',
          role: 'admin',
          roleLabel: '管理员',
          at: '2026-03-02T18:01:00+08:00',
          productId: null,
          before: null,
          after: null,
          reason: null,
          flags: FLAGS_EXAMPLE,
        },
      ],
      page: 1,
      pageSize: 20,
      total: 1,
    },
  },
  async handler({ params, query, user }, ctx) {
    const page = await auditLogs(ctx.db.pool, ctx.store, params.reportId, query, ctx.config.timeZone, scopeOf(user));
    return {
      ...page,
      items: page.items.map((e) => ({
        ...e,
        actionLabel: AUDIT_ACTION_LABELS[e.action],
        roleLabel: isRole(e.role) ? ROLE_LABELS[e.role] : null,
      })),
    };
  },
});

export const reportAdminRoutes = [breakMinutesRoute, breakMinutesPostRoute, auditLogsRoute];
