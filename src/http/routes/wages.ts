/**
 * Piece-rate wages, from the approved reports at the rates in force on their report dates:
 * - `GET /api/wages?month=&page=&pageSize=` (administrators, managers): the month's status and, by phone, each
 *   worker's reports, quantities, amount and unpriced lines, with the month's totals;
 * - `GET /api/wages.xlsx?month=` (administrators, managers): the payroll workbook, sheets 汇总 and 明细;
 * - `GET /api/wages/mine?month=` (workers: their own; the mini-program's 我的工资) — declared before
 *   `/api/wages/:phone`, which it would otherwise match;
 * - `GET /api/wages/:phone?month=` (administrators, managers): one worker's statement.
 * Administrators and managers read only the reports in their scope, narrowed by the `workshop` / `team` filters
 * (domain/scope.ts, queries/wages.ts); summary rows name the worker's team and workshop.
 * `month` is `YYYY-MM`, the month of the report dates (APP_TIMEZONE); absent: this month. Amounts are text with
 * 2 decimals, rates text with 4; an unpriced line has null rates and amount and is counted, never priced 0.
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { formatFen, formatRate } from '../../domain/money.ts';
import { DEFECT_CATEGORIES } from '../../domain/defect-reasons.ts';
import { monthOf } from '../../domain/period.ts';
import { wageStatement, wageSummary, type MonthStatus, type WageStatement } from '../../queries/wages.ts';
import type { AppContext } from '../../context.ts';
import { localDate as today } from '../../time.ts';
import { instant, localDate, zonedIso } from '../dates.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { defineRoute, RawBody } from '../route.ts';
import { amountText, monthQuery, monthText, rateText } from './money-schemas.ts';
import { PLACEMENT_EXAMPLE, placementFields, placementFilterShape, readerOf } from './dashboard.ts';
import { wageWorkbook, WAGES_XLSX } from './wage-workbook.ts';

/** The month asked, or this month in APP_TIMEZONE. */
export const monthOrNow = (ctx: AppContext, month: string | undefined) => month ?? monthOf(today(ctx.clock.now(), ctx.config.timeZone));

const statusFields = {
  status: z.enum(['open', 'closed']).describe('open 未结账、closed 已结账'),
  version: z.number().int().optional().describe('结账次数（反结账后再结账为 2）；从未结账时没有'),
  closedAt: instant.optional().describe('最近一次结账时间'),
  closedBy: z.object({ phone: z.string().nullable(), name: z.string().nullable() }).optional().describe('最近一次结账的经理'),
};

/** The status fields as answered. */
const statusOf = (ctx: AppContext, s: MonthStatus) => ({
  status: s.status,
  ...(s.version !== undefined ? { version: s.version } : {}),
  ...(s.closedAt ? { closedAt: zonedIso(ctx, s.closedAt), closedBy: s.closedBy } : {}),
});

const summaryItem = z.object({
  employeePhone: z.string(),
  employeeName: z.string().nullable(),
  reports: z.number().int().describe('已通过的报工单数'),
  finishedQty: z.number().int(),
  defectiveQty: z.number().int(),
  amount: amountText.describe('计件工资（元）= 各明细行金额之和'),
  unpricedLines: z.number().int().describe('没有单价的明细行数（不计入金额）'),
  ...placementFields,
});

export const wageSummaryRoute = defineRoute({
  method: 'get',
  path: '/api/wages',
  readModels: ['wages'],
  tag: 'wages',
  summary: '月度计件工资汇总（管理员、经理；按手机号，分页）',
  description: '只统计已通过的报工单（含修正后的明细），按报工日期所在月份；每行金额 = 成品 × 计件单价 +（工废 + 其他 + 未注明原因的不良）× 不良单价 + 料废 × 料废单价，按报工日期当天有效的单价，四舍五入到分（远离零）。',
  access: access.wages,
  query: pageQuery.extend({ month: monthQuery, ...placementFilterShape }),
  response: pageOf(summaryItem).extend({
    month: monthText,
    ...statusFields,
    previousAmount: amountText.optional().describe('再次结账后：上一次结账的总金额'),
    totals: z.object({
      reports: z.number().int(),
      finishedQty: z.number().int(),
      defectiveQty: z.number().int(),
      amount: amountText,
      unpricedLines: z.number().int(),
      pendingReports: z.number().int().describe('该月待审核的报工单数（不计入）'),
    }),
  }),
  example: {
    query: { month: '2026-03', page: '1', pageSize: '20' },
    response: {
      month: '2026-03',
      status: 'closed',
      version: 1,
      closedAt: '2026-04-02T09:00:00+08:00',
      closedBy: { phone: '13800000002', name: '李经理' },
      items: [
        { employeePhone: '13800138000', employeeName: '张三', reports: 22, finishedQty: 10500, defectiveQty: 120, amount: '13065.00', unpricedLines: 0, ...PLACEMENT_EXAMPLE },
      ],
      page: 1,
      pageSize: 20,
      total: 1,
      totals: { reports: 22, finishedQty: 10500, defectiveQty: 120, amount: '13065.00', unpricedLines: 0, pendingReports: 0 },
    },
  },
  async handler({ query, user }, ctx) {
    const { month, workshop, team, ...page } = query;
    const s = await wageSummary(ctx.db.pool, monthOrNow(ctx, month), page, readerOf(user, { workshop, team }));
    return {
      month: s.month,
      ...statusOf(ctx, s),
      ...(s.previousAmountFen !== undefined ? { previousAmount: formatFen(s.previousAmountFen) } : {}),
      items: s.items.map(({ amountFen, ...w }) => ({ ...w, amount: formatFen(amountFen) })),
      page: s.page,
      pageSize: s.pageSize,
      total: s.total,
      totals: (({ amountFen, ...t }) => ({ ...t, amount: formatFen(amountFen) }))(s.totals),
    };
  },
});

const statementSchema = z.object({
  month: monthText,
  ...statusFields,
  employeePhone: z.string(),
  employeeName: z.string().nullable(),
  amount: amountText.describe('本月计件工资（元）'),
  previousAmount: amountText.optional().describe('反结账后再次结账时：上一次结账时的金额'),
  unpricedLines: z.number().int(),
  reports: z.array(
    z.object({
      reportId: z.string(),
      reportDate: localDate,
      amount: amountText.describe('本单金额 = 有单价的明细行金额之和'),
      lines: z.array(
        z.object({
          productId: z.number().int(),
          projectNo: z.string(),
          productName: z.string(),
          deviceNo: z.string(),
          processName: z.string(),
          finishedQty: z.number().int(),
          defectiveQty: z.number().int(),
          pieceRate: rateText.nullable().describe('报工日期当天有效的计件单价；null：没有单价'),
          defectRate: rateText.nullable().describe('不良单价：工废、其他和未注明原因的不良按此计'),
          materialDefectRate: rateText.nullable().describe('料废单价（单价未单独设置时等于不良单价）；null：没有单价'),
          defects: z
            .array(
              z.object({
                reasonCode: z.string(),
                reasonName: z.string().describe('不良原因的当前名称'),
                category: z.enum(DEFECT_CATEGORIES).describe('报工时记录的类别：operator 工废、material 料废、other 其他'),
                qty: z.number().int(),
              }),
            )
            .describe('不良原因（没有填写时为空列表）'),
          operatorDefectQty: z.number().int().describe('工废数量'),
          materialDefectQty: z.number().int().describe('料废数量'),
          otherDefectQty: z.number().int().describe('其他原因的不良数量'),
          unexplainedDefectQty: z.number().int().describe('未注明原因的不良数量'),
          amount: amountText
            .nullable()
            .describe('成品 × 计件单价 +（工废 + 其他 + 未注明）× 不良单价 + 料废 × 料废单价，每行四舍五入到分一次；null：没有单价。班组报工行：本人分得的金额'),
          crew: z
            .object({
              submitter: z.string().describe('提交人手机号'),
              finishedQty: z.number().int().describe('整行成品数量'),
              defectiveQty: z.number().int().describe('整行不良数量'),
              amount: amountText.nullable().describe('整行金额（按整行数量计算、四舍五入到分一次）'),
              shares: z.array(
                z.object({
                  phone: z.string(),
                  name: z.string().nullable(),
                  weight: z.number().describe('分配权重'),
                  finishedQty: z.number().int(),
                  defectiveQty: z.number().int(),
                  amount: amountText.nullable().describe('分得的金额：整行金额按权重用最大余额法分到分，合计等于整行金额'),
                }),
              ),
            })
            .optional()
            .describe('班组报工：本行是本人的份额，这里是整行及每位组员的份额；其他行省略'),
        }),
      ),
    }),
  ),
});

const STATEMENT_EXAMPLE = {
  month: '2026-03',
  status: 'open',
  employeePhone: '13800138000',
  employeeName: '张三',
  amount: '601.00',
  unpricedLines: 0,
  reports: [
    {
      reportId: '5f0c9a8e-7b1d-4f2a-8c3e-6d9b0a1e2f34',
      reportDate: '2026-03-02',
      amount: '601.00',
      lines: [
        {
          productId: 12,
          projectNo: 'P-2026-01',
          productName: '前围横梁',
          deviceNo: '冲床 01',
          processName: '冲压',
          finishedQty: 480,
          defectiveQty: 5,
          pieceRate: '1.2500',
          defectRate: '-0.5000',
          materialDefectRate: '1.2500',
          defects: [
            { reasonCode: 'SCR', reasonName: '划伤', category: 'operator' as const, qty: 2 },
            { reasonCode: 'CRK', reasonName: '材料裂纹', category: 'material' as const, qty: 2 },
          ],
          operatorDefectQty: 2,
          materialDefectQty: 2,
          otherDefectQty: 0,
          unexplainedDefectQty: 1,
          amount: '601.00',
        },
      ],
    },
  ],
};

/** A statement as answered. */
function statementOf(ctx: AppContext, s: WageStatement) {
  return {
    month: s.month,
    ...statusOf(ctx, s),
    employeePhone: s.employeePhone,
    employeeName: s.employeeName,
    amount: formatFen(s.amountFen),
    ...(s.previousAmountFen !== undefined ? { previousAmount: formatFen(s.previousAmountFen) } : {}),
    unpricedLines: s.unpricedLines,
    reports: s.reports.map((r) => ({
      reportId: r.reportId,
      reportDate: r.reportDate,
      amount: formatFen(r.amountFen),
      lines: r.lines.map(({ amountFen, pieceRate, defectRate, materialDefectRate, crew, ...l }) => ({
        ...l,
        ...(crew
          ? {
              crew: {
                submitter: crew.submitter,
                finishedQty: crew.finishedQty,
                defectiveQty: crew.defectiveQty,
                amount: crew.amountFen === null ? null : formatFen(crew.amountFen),
                shares: crew.shares.map(({ amountFen: a, ...x }) => ({ ...x, amount: a === null ? null : formatFen(a) })),
              },
            }
          : {}),
        pieceRate: pieceRate === null ? null : formatRate(pieceRate),
        defectRate: defectRate === null ? null : formatRate(defectRate),
        materialDefectRate: materialDefectRate === null ? null : formatRate(materialDefectRate),
        amount: amountFen === null ? null : formatFen(amountFen),
      })),
    })),
  };
}

export const wageExportRoute = defineRoute({
  method: 'get',
  path: '/api/wages.xlsx',
  readModels: ['wages'],
  tag: 'wages',
  summary: '月度计件工资导出为 Excel（管理员、经理；汇总 与 明细 两张表）',
  description: `汇总：${WAGES_XLSX.summary.map(([h]) => h).join('、')}；明细：每个明细行一行，${WAGES_XLSX.lines.map(([h]) => h).join('、')}。`,
  access: access.wages,
  query: z.object({ month: monthQuery, ...placementFilterShape }),
  responseContentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  example: { query: { month: '2026-03' } },
  async handler({ query, user }, ctx) {
    const month = monthOrNow(ctx, query.month);
    const book = await wageWorkbook(ctx.db.pool, month, readerOf(user, query));
    return new RawBody('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', book, `计件工资_${month}.xlsx`);
  },
});

export const myWageRoute = defineRoute({
  method: 'get',
  path: '/api/wages/mine',
  readModels: ['wages'],
  tag: 'wages',
  summary: '我的计件工资（员工本人；小程序“我的工资”）',
  description: '本人该月已通过的报工单，每单的明细行与单价、金额。另一个手机号的工资单只有管理员、经理能看（员工访问 /api/wages/{phone} 得到 403）。',
  access: access.ownWages,
  query: z.object({ month: monthQuery }),
  response: statementSchema,
  example: { query: { month: '2026-03' }, response: STATEMENT_EXAMPLE },
  async handler({ query, user }, ctx) {
    return statementOf(ctx, await wageStatement(ctx.db.pool, monthOrNow(ctx, query.month), user.phone));
  },
});

export const workerWageRoute = defineRoute({
  method: 'get',
  path: '/api/wages/:phone',
  readModels: ['wages'],
  tag: 'wages',
  summary: '一名员工的月度计件工资单（管理员、经理）',
  access: access.wages,
  params: z.object({ phone: z.string().regex(/^1\d{10}$/, { error: '手机号应为 11 位数字' }).meta({ title: '手机号', description: '员工的 11 位手机号' }) }),
  query: z.object({ month: monthQuery, ...placementFilterShape }),
  response: statementSchema,
  example: { params: { phone: '13800138000' }, query: { month: '2026-03' }, response: STATEMENT_EXAMPLE },
  async handler({ params, query, user }, ctx) {
    return statementOf(ctx, await wageStatement(ctx.db.pool, monthOrNow(ctx, query.month), params.phone, readerOf(user, query)));
  },
});

/** In match order: `/api/wages/mine` before `/api/wages/:phone`. */
export const wageRoutes = [wageSummaryRoute, wageExportRoute, myWageRoute, workerWageRoute];
