/**
 * Read endpoints the web console needs beyond the specification's (issue #17), for managers and administrators
 * (`access.insight`):
 * - `GET /api/reports?startDate=&endDate=&employee=&status=&page=&pageSize=`: reports by report date, employee
 *   (phone or part of the name) and status (queries/report-browse.ts): the 报工单 page, where a manager finds the
 *   report whose break interval to change;
 * - `GET /api/reports/:reportId`: one report with its lines and effective working time;
 * - `GET /api/dashboard/summary?startDate=&endDate=`: the dashboard's charts, per employee and per day over the
 *   range, from the exact sums (queries/dashboard-summary.ts); range rules as the dashboard's.
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { unprocessable } from '../../errors.ts';
import { checkRange } from '../../queries/dashboard.ts';
import { dashboardSummary } from '../../queries/dashboard-summary.ts';
import { browseReports, reportById } from '../../queries/report-browse.ts';
import { optionalLocalDate } from '../dates.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { defineRoute } from '../route.ts';
import { RANGE_ERROR, rangeQuery } from './dashboard.ts';
import { reportItem } from './reviews.ts';

const NOT_FOUND = { status: 404, code: 'REPORT_NOT_FOUND', description: '没有这份报工单' };

export const reportListRoute = defineRoute({
  method: 'get',
  path: '/api/reports',
  tag: 'reports',
  summary: '报工单列表（经理、管理员；按报工日期倒序，再按提交时间倒序）',
  description: 'startDate、endDate（YYYY-MM-DD，含当天）可省略；employee 为手机号或姓名的一部分；status 为 pending、approved 或 rejected。',
  access: access.insight,
  query: pageQuery.extend({
    startDate: optionalLocalDate('开始日期'),
    endDate: optionalLocalDate('结束日期'),
    employee: z.string().trim().max(50).optional(),
    status: z.enum(['pending', 'approved', 'rejected']).optional(),
  }),
  response: pageOf(reportItem),
  errors: [{ status: 422, code: 'INVALID_DATE_RANGE', description: '结束日期早于开始日期' }],
  async handler({ query }, ctx) {
    const { page, pageSize, ...filter } = query;
    if (filter.startDate && filter.endDate && filter.endDate < filter.startDate) throw unprocessable('INVALID_DATE_RANGE', '结束日期不能早于开始日期');
    return browseReports(ctx.db.pool, filter, { page, pageSize }, ctx.config.timeZone);
  },
});

export const reportDetailRoute = defineRoute({
  method: 'get',
  path: '/api/reports/:reportId',
  tag: 'reports',
  summary: '一份报工单（经理、管理员）：员工、上下班时间、休息、有效工作时间与明细行',
  access: access.insight,
  params: z.object({ reportId: z.string().max(64) }),
  response: reportItem,
  errors: [NOT_FOUND],
  handler: ({ params }, ctx) => reportById(ctx.db.pool, params.reportId, ctx.config.timeZone),
});

const cycle = z.number().nullable();
export const dashboardSummaryRoute = defineRoute({
  method: 'get',
  path: '/api/dashboard/summary',
  tag: 'dashboard',
  summary: '看板图表：日期范围内按员工与按日期汇总（由精确合计计算）',
  description: 'byEmployee：每名员工在范围内的实际节拍与标准节拍（秒）、报工数量、成品数量、标准工作量；byDate：每天的报工数量、成品数量与标准工作量。',
  access: access.insight,
  query: rangeQuery,
  response: z.object({
    byEmployee: z.array(
      z.object({
        employeePhone: z.string(),
        employeeName: z.string().nullable(),
        actualCycleSeconds: cycle,
        standardCycleSeconds: cycle,
        reportedQty: z.number().int(),
        finishedQty: z.number().int(),
        standardWorkload: z.number().int(),
      }),
    ),
    byDate: z.array(z.object({ reportDate: z.string(), reportedQty: z.number().int(), finishedQty: z.number().int(), standardWorkload: z.number().int() })),
  }),
  errors: [RANGE_ERROR],
  handler: ({ query }, ctx) => dashboardSummary(ctx.db.pool, checkRange(query.startDate, query.endDate)),
});

export const officeRoutes = [reportListRoute, reportDetailRoute, dashboardSummaryRoute];
