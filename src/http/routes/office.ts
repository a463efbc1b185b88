/**
 * Read endpoints the web console needs beyond the specification's, for managers and administrators
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
import { localDate, optionalLocalDate } from '../dates.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { defineRoute, scopeOf } from '../route.ts';
import { PLACEMENT_EXAMPLE, RANGE_ERROR, placementFields, placementFilterShape, rangeQuery, readerOf } from './dashboard.ts';
import { checkedRule } from '../json-schema.ts';
import { REPORT_ITEM_EXAMPLE, REPORT_NOT_FOUND, reportItem } from './reviews.ts';
import { reportStatus } from './review-schemas.ts';

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
    employee: z.string().trim().max(50).optional().meta({ title: '员工', description: '手机号，或姓名的一部分' }),
    status: reportStatus.optional().meta({ title: '状态' }),
    ...placementFilterShape,
  }),
  response: pageOf(reportItem),
  errors: [{ status: 422, code: 'INVALID_DATE_RANGE', description: '结束日期早于开始日期' }],
  example: {
    query: { startDate: '2026-03-01', endDate: '2026-03-31', employee: '张', status: 'pending', page: '1', pageSize: '20' },
    response: { items: [REPORT_ITEM_EXAMPLE], page: 1, pageSize: 20, total: 1 },
  },
  async handler({ query, user }, ctx) {
    const { page, pageSize, ...filter } = query;
    if (filter.startDate && filter.endDate && filter.endDate < filter.startDate) throw unprocessable('INVALID_DATE_RANGE', '结束日期不能早于开始日期');
    const { workshop, team, ...rest } = filter;
    return browseReports(ctx.db.pool, { ...rest, workshop: workshop || undefined, team: team || undefined }, { page, pageSize }, ctx.config.timeZone, scopeOf(user));
  },
});

export const reportDetailRoute = defineRoute({
  method: 'get',
  path: '/api/reports/:reportId',
  tag: 'reports',
  summary: '一份报工单（经理、管理员）：员工、上下班时间、休息、有效工作时间、明细行与异常报工标记',
  access: access.insight,
  params: z.object({ reportId: z.string().max(64).meta({ title: '报工单编号' }) }),
  response: reportItem,
  errors: [REPORT_NOT_FOUND],
  example: { params: { reportId: REPORT_ITEM_EXAMPLE.reportId }, response: REPORT_ITEM_EXAMPLE },
  handler: ({ params, user }, ctx) => reportById(ctx.db.pool, params.reportId, ctx.config.timeZone, scopeOf(user)),
});

const cycle = z.number().nullable().describe('秒；没有产出时为 null');
export const dashboardSummaryRoute = defineRoute({
  method: 'get',
  path: '/api/dashboard/summary',
  readModels: ['dashboard'],
  tag: 'dashboard',
  summary: '看板图表：日期范围内按员工与按日期汇总（由精确合计计算）',
  description:
    'byEmployee：每名员工在范围内的实际节拍与标准节拍（秒）、报工数量、成品数量、标准工作量、有异常标记的报工单数；byDate：每天的报工数量、成品数量与标准工作量。',
  access: access.insight,
  query: checkedRule(z.object({ ...rangeQuery.shape, ...placementFilterShape }), { required: ['startDate', 'endDate'] }),
  response: z.object({
    byEmployee: z.array(
      z.object({
        employeePhone: z.string(),
        employeeName: z.string().nullable(),
        actualCycleSeconds: cycle,
        standardCycleSeconds: cycle,
        reportedQty: z.number().int().describe('报工数量（产出）'),
        finishedQty: z.number().int().describe('成品数量'),
        standardWorkload: z.number().int().describe('标准工作量'),
        flaggedReports: z.number().int().describe('其中有异常报工标记的已通过报工单数（>0 时实际节拍不可信）'),
      }),
    ),
    byDate: z.array(
      z.object({
        reportDate: localDate,
        reportedQty: z.number().int().describe('报工数量（产出）'),
        finishedQty: z.number().int().describe('成品数量'),
        standardWorkload: z.number().int().describe('标准工作量'),
      }),
    ),
  }),
  errors: [RANGE_ERROR],
  example: {
    query: { startDate: '2026-03-01', endDate: '2026-03-31' },
    response: {
      byEmployee: [
        {
          employeePhone: '13800138000',
          employeeName: '张三',
          actualCycleSeconds: 19.6,
          standardCycleSeconds: 16,
          reportedQty: 1515,
          finishedQty: 1490,
          standardWorkload: 3600,
          flaggedReports: 0,
        },
      ],
      byDate: [{ reportDate: '2026-03-02', reportedQty: 1515, finishedQty: 1490, standardWorkload: 3600 }],
    },
  },
  handler: ({ query, user }, ctx) => dashboardSummary(ctx.db.pool, checkRange(query.startDate, query.endDate), readerOf(user, query)),
});

export const officeRoutes = [reportListRoute, reportDetailRoute, dashboardSummaryRoute];
