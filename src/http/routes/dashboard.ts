/**
 * Dashboard endpoints (spec 4.8; decisions.md "Calculations"), managers and administrators (`access.insight`):
 * - GET /api/dashboard/reports?startDate=&endDate=&page=&pageSize=: a page of merged rows.
 * - GET /api/dashboard/reports.xlsx?startDate=&endDate=: every row of the range as a spreadsheet with Chinese
 *   headers (DASHBOARD_XLSX_HEADERS), at most EXPORT_MAX_ROWS rows (422 EXPORT_TOO_LARGE beyond).
 * Missing or malformed dates, end before start, or a range over 366 days: 422 INVALID_DATE_RANGE.
 * A row's `flags` are the plausibility flags of its approved reports: its figures cannot be true; the
 * export writes their sentences in the column 异常.
 */
import { z } from 'zod';
import * as XLSX from 'xlsx';
import { access } from '../../auth/roles.ts';
import { unprocessable } from '../../errors.ts';
import { checkRange, dashboardPage, dashboardRows, type DashboardReader, type DashboardRow } from '../../queries/dashboard.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { localDate } from '../dates.ts';
import { checkedRule } from '../json-schema.ts';
import { defineRoute, RawBody, scopeOf, type CurrentUser, type ErrorDoc } from '../route.ts';
import { flagAnswerSchema } from './review-schemas.ts';

/** Most rows one export may hold (a year of ~270 workers); beyond it the manager narrows the range. */
export const EXPORT_MAX_ROWS = 100_000;

export const RANGE_ERROR: ErrorDoc = {
  status: 422,
  code: 'INVALID_DATE_RANGE',
  description: '缺少日期、日期无效、结束早于开始或超过 366 天（details.field 指出哪个日期）',
  details: z.object({ field: z.enum(['startDate', 'endDate']) }).optional(),
};

/** A required date of the range; the query checks it (422 INVALID_DATE_RANGE), so that all range errors share one code. */
const rangeDate = (title: string) =>
  checkedRule(z.string().optional().meta({ title, description: 'YYYY-MM-DD（含当天，工厂时区）' }), { format: 'date' });
const rangeShape = { startDate: rangeDate('开始日期'), endDate: rangeDate('结束日期') };
const bothDates = { required: ['startDate', 'endDate'] };
export const rangeQuery = checkedRule(z.object(rangeShape), bothDates);

// ---- scopes: the workshop and team filters, and the rows' placement ----
const filterCode = (title: string) =>
  z.string().trim().max(40).optional().meta({ title, description: `${title}编码；只看这个${title}（在您的审核范围内；范围外的${title}结果为空）` });
/** The `workshop` and `team` query parameters of the dashboard and wages (domain/scope.ts ReportFilter). */
export const placementFilterShape = { workshop: filterCode('车间'), team: filterCode('班组') };
/** The reader of a dashboard or wages reading: the user's scope and the filters given (blank = none). */
export const readerOf = (user: CurrentUser, q: { workshop?: string; team?: string }): DashboardReader => ({
  scope: scopeOf(user),
  filter: { workshop: q.workshop || undefined, team: q.team || undefined },
});
/** The fields naming a row's workshop and team (codes and current names; null for none). */
export const placementFields = {
  workshopCode: z.string().nullable().describe('车间编码；不属于任何车间为 null'),
  workshopName: z.string().nullable().describe('车间名称'),
  teamCode: z.string().nullable().describe('班组编码；不属于任何班组为 null'),
  teamName: z.string().nullable().describe('班组名称'),
};
export const PLACEMENT_EXAMPLE = { workshopCode: 'W1', workshopName: '冲压车间', teamCode: 'T1', teamName: '冲压一班' };

const pct = 'null：除数为 0';
const dashboardRow = z.object({
  reportDate: localDate,
  employeePhone: z.string(),
  employeeName: z.string().nullable(),
  reportCount: z.number().int().describe('合并的已通过报工单数'),
  actualCycleSeconds: z.number().nullable().describe(`实际节拍（秒）= Σ有效工作秒数 / Σ(成品+不良)，两位小数；${pct}`),
  standardCycleSeconds: z.number().nullable().describe(`标准节拍（秒）= Σ(标准节拍×产出) / Σ产出；${pct}`),
  cycleTimeDiffPct: z.number().nullable().describe(`节拍差异 % = (实际 − 标准) / 标准 × 100，正数表示比标准慢；${pct}`),
  reportedQty: z.number().int().describe('报工数量 = Σ产出'),
  finishedQty: z.number().int(),
  defectiveQty: z.number().int(),
  standardWorkload: z.number().int().describe('标准工作量 = Σ明细行标准工作量'),
  workloadDiffPct: z.number().nullable().describe(`工作量差异 % = (Σ成品 − 标准工作量) / 标准工作量 × 100；${pct}`),
  flags: z
    .array(flagAnswerSchema({ reportId: z.string().describe('有这个标记的报工单') }))
    .describe(
      '这一行已通过报工单的异常报工标记（带中文说明与报工单编号）；空数组：没有异常',
    ),
  untrusted: z
    .object({
      cycleTime: z.boolean().describe('true：实际节拍与节拍差异不可信（有 NO_WORKING_TIME、CYCLE_TOO_FAST 或 SESSION_TOO_LONG 标记，或实际节拍为 0）'),
      workload: z.boolean().describe('true：工作量差异不可信（有 NO_WORKING_TIME 或 OUTPUT_OVER_WORKLOAD 标记）'),
    })
    .describe('这一行哪些数字不可信：网页后台在这些格子里显示“异常”而不是数字'),
  ...placementFields,
});

export const dashboardRoute = defineRoute({
  method: 'get',
  path: '/api/dashboard/reports',
  readModels: ['dashboard'],
  tag: 'dashboard',
  summary: '看板：已通过报工单按日期 + 员工（+ 班组）合并（日期倒序，再按手机号）；可按车间、班组筛选',
  description: '只含您审核范围内的报工单；员工当天换了班组时分成两行。workshop、team 为车间、班组编码。',
  access: access.insight,
  query: checkedRule(pageQuery.extend({ ...rangeShape, ...placementFilterShape }), bothDates),
  response: pageOf(dashboardRow),
  errors: [RANGE_ERROR],
  example: {
    query: { startDate: '2026-03-01', endDate: '2026-03-31', page: '1', pageSize: '20' },
    response: {
      items: [
        {
          reportDate: '2026-03-02',
          employeePhone: '13800138000',
          employeeName: '张三',
          reportCount: 1,
          actualCycleSeconds: 19.6,
          standardCycleSeconds: 16,
          cycleTimeDiffPct: 22.52,
          reportedQty: 1515,
          finishedQty: 1480,
          defectiveQty: 35,
          standardWorkload: 3600,
          workloadDiffPct: -58.89,
          flags: [],
          untrusted: { cycleTime: false, workload: false },
          ...PLACEMENT_EXAMPLE,
        },
      ],
      page: 1,
      pageSize: 20,
      total: 1,
    },
  },
  async handler({ query, user }, ctx) {
    const { startDate, endDate, workshop, team, ...page } = query;
    return dashboardPage(ctx.db.pool, checkRange(startDate, endDate), page, readerOf(user, { workshop, team }));
  },
});

/** Column headers of the export, in order, with the row field each shows. */
export const DASHBOARD_XLSX_HEADERS: readonly [string, keyof DashboardRow][] = [
  ['日期', 'reportDate'],
  ['手机号', 'employeePhone'],
  ['姓名', 'employeeName'],
  ['车间', 'workshopName'],
  ['班组', 'teamName'],
  ['报工单数', 'reportCount'],
  ['实际节拍(秒)', 'actualCycleSeconds'],
  ['标准节拍(秒)', 'standardCycleSeconds'],
  ['节拍差异(%)', 'cycleTimeDiffPct'],
  ['报工数量', 'reportedQty'],
  ['成品数量', 'finishedQty'],
  ['不良数量', 'defectiveQty'],
  ['标准工作量', 'standardWorkload'],
  ['工作量差异(%)', 'workloadDiffPct'],
];

/** The column of the export that names a row's plausibility flags; empty when there are none. */
export const DASHBOARD_XLSX_FLAGS = '异常';

/** The rows as an .xlsx workbook (one sheet 看板); null figures are empty cells. */
export function dashboardWorkbook(rows: readonly DashboardRow[]): Buffer {
  const aoa: unknown[][] = [[...DASHBOARD_XLSX_HEADERS.map(([h]) => h), DASHBOARD_XLSX_FLAGS]];
  for (const r of rows) aoa.push([...DASHBOARD_XLSX_HEADERS.map(([, k]) => r[k] ?? null), r.flags.map((f) => f.message).join('；') || null]);
  const sheet = XLSX.utils.aoa_to_sheet(aoa);
  sheet['!cols'] = [...DASHBOARD_XLSX_HEADERS.map(([h]) => ({ wch: Math.max(10, h.length * 2 + 2) })), { wch: 60 }];
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, '看板');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

export const dashboardXlsxRoute = defineRoute({
  method: 'get',
  path: '/api/dashboard/reports.xlsx',
  readModels: ['dashboard'],
  tag: 'dashboard',
  summary: '看板导出为 Excel（.xlsx，中文表头，同样的日期范围与车间、班组筛选）',
  access: access.insight,
  query: checkedRule(z.object({ ...rangeShape, ...placementFilterShape }), bothDates),
  responseContentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  errors: [RANGE_ERROR, { status: 422, code: 'EXPORT_TOO_LARGE', description: `超过 ${EXPORT_MAX_ROWS} 行，请缩小日期范围` }],
  example: { query: { startDate: '2026-03-01', endDate: '2026-03-31' } },
  async handler({ query, user }, ctx) {
    const range = checkRange(query.startDate, query.endDate);
    const rows = await dashboardRows(ctx.db.pool, range, EXPORT_MAX_ROWS, readerOf(user, query));
    if (rows.length > EXPORT_MAX_ROWS) {
      throw unprocessable('EXPORT_TOO_LARGE', `导出超过 ${EXPORT_MAX_ROWS} 行，请缩小日期范围后分段导出`);
    }
    return new RawBody(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      dashboardWorkbook(rows),
      `看板_${range.startDate}_${range.endDate}.xlsx`,
    );
  },
});

export const dashboardRoutes = [dashboardRoute, dashboardXlsxRoute];
