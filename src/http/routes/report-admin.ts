/**
 * Report administration (spec 4.6, 3.2; decisions.md "Reports and review"):
 * - PATCH /api/reports/:reportId/break-minutes {breakMinutes, reason?}: managers (`access.breakMinutes`);
 *   pending or approved reports; the dashboard and the audit log follow.
 * - GET /api/reports/:reportId/audit-logs: managers and administrators (`access.insight`).
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { changeBreakMinutes } from '../../commands/review/handlers.ts';
import { auditLogs } from '../../queries/audit-logs.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { actorOf, defineRoute } from '../route.ts';
import { reviewAnswer, reviewAnswerSchema } from './review-schemas.ts';

const reportIdParams = z.object({ reportId: z.string() });
const NOT_FOUND = { status: 404, code: 'REPORT_NOT_FOUND', description: '没有这份报工单' };

export const breakMinutesRoute = defineRoute({
  method: 'patch',
  path: '/api/reports/:reportId/break-minutes',
  tag: 'reports',
  summary: '修改报工单的休息时间（分钟，经理）',
  description: '待审核或已通过的报工单可改；有效工作时间（下班 − 上班 − 休息）不能为负。与原值相同时不产生记录。',
  access: access.breakMinutes,
  params: reportIdParams,
  body: z.object({ breakMinutes: z.number().describe('整数分钟，不小于 0'), reason: z.string().optional() }),
  response: reviewAnswerSchema,
  errors: [
    NOT_FOUND,
    { status: 409, code: 'REPORT_REJECTED', description: '已驳回的报工单不能修改' },
    { status: 409, code: 'CONCURRENT_MODIFICATION', description: '同时修改冲突，请刷新后重试' },
    { status: 422, code: 'INVALID_BREAK_MINUTES | BREAK_EXCEEDS_WORKING_TIME | INVALID_REASON', description: '休息时间不合法或超过上班时长' },
  ],
  async handler({ params, body, req, user }, ctx) {
    return reviewAnswer(ctx, await changeBreakMinutes(ctx.commands, actorOf(user, req), params.reportId, body));
  },
});

const auditItem = z.object({
  action: z.enum(['submitted', 'corrected', 'approved', 'rejected', 'break_changed']),
  actorPhone: z.string().nullable(),
  actorName: z.string().nullable(),
  role: z.string().nullable(),
  at: z.string(),
  productId: z.number().int().nullable().describe('corrected：被修正的产品'),
  before: z.unknown().describe('corrected：修正前的明细行（新增时为 null）；break_changed：{breakMinutes}'),
  after: z.unknown().describe('submitted：提交的明细与休息时间；corrected：修正后的明细行（删除时为 null）；break_changed：{breakMinutes}'),
  reason: z.string().nullable(),
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
  errors: [NOT_FOUND],
  async handler({ params, query }, ctx) {
    return auditLogs(ctx.db.pool, ctx.store, params.reportId, query, ctx.config.timeZone);
  },
});

export const reportAdminRoutes = [breakMinutesRoute, auditLogsRoute];
