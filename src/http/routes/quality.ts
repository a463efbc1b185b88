/**
 * The quality read (质量), administrators and managers within their scope (queries/quality.ts):
 * - `GET /api/quality/defects?startDate=&endDate=&groupBy=&workshop=&team=` → the Pareto of defective pieces of the
 *   approved reports dated in the range;
 * - `GET /api/quality/defects.xlsx` the same as a workbook (one sheet 不良分析).
 * Grouping by work order is not offered: the service has no work orders.
 */
import * as XLSX from 'xlsx';
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { checkRange } from '../../queries/dashboard.ts';
import { defectPareto, QUALITY_GROUPS, type DefectPareto } from '../../queries/quality.ts';
import { checkedRule } from '../json-schema.ts';
import { defineRoute, RawBody } from '../route.ts';
import { placementFilterShape, RANGE_ERROR, readerOf } from './dashboard.ts';

const rangeDate = (title: string) => checkedRule(z.string().optional().meta({ title, description: 'YYYY-MM-DD（含当天，工厂时区）' }), { format: 'date' });
const qualityQuery = checkedRule(
  z.object({
    startDate: rangeDate('开始日期'),
    endDate: rangeDate('结束日期'),
    groupBy: z
      .enum(QUALITY_GROUPS)
      .default('reason')
      .meta({ title: '分组', description: 'reason 不良原因（默认；未填原因的为“未注明”）、category 类别（工废、料废、其他、未注明）、product 产品、device 设备、team 班组、worker 员工、workOrder 工单（未指定工单的行为“未指定工单”）' }),
    ...placementFilterShape,
  }),
  { required: ['startDate', 'endDate'] },
);

const paretoSchema = z.object({
  items: z.array(
    z.object({
      key: z.string().nullable().describe('分组的编码（原因编码、类别、产品编号、设备编号、班组编码、手机号）；null：未注明原因或不属于班组'),
      label: z.string().describe('显示名称'),
      defectiveQty: z.number().int().describe('不良数量'),
      sharePct: z.number().describe('占不良总数的百分比，1 位小数'),
      cumulativePct: z.number().describe('累计百分比，1 位小数；最后一项为 100'),
    }),
  ),
  totalDefectiveQty: z.number().int().describe('不良总数'),
  totalOutputQty: z.number().int().describe('产出总数'),
  defectRatePct: z.number().describe('不良率 = 不良 / 产出，百分比，1 位小数'),
});

const EXAMPLE = {
  items: [
    { key: 'CRK', label: '材料裂纹', defectiveQty: 3, sharePct: 50, cumulativePct: 50 },
    { key: 'SCR', label: '划伤', defectiveQty: 2, sharePct: 33.3, cumulativePct: 83.3 },
    { key: null, label: '未注明', defectiveQty: 1, sharePct: 16.7, cumulativePct: 100 },
  ],
  totalDefectiveQty: 6,
  totalOutputQty: 106,
  defectRatePct: 5.7,
};

const DESCRIPTION =
  '只统计已通过审核的报工单，按报工日期；从大到小排列（帕累托）。百分比由整数合计计算，保留 1 位小数，最后一项的累计为 100。' +
  '按原因分组时，没填原因的不良记为“未注明”；按类别分组时“未注明”与“其他”分开。类别是报工时记录的类别，之后改类别不影响。暂不支持按工单分组（系统中没有工单）。';

export const qualityDefectsRoute = defineRoute({
  method: 'get',
  path: '/api/quality/defects',
  tag: 'quality',
  summary: '不良分析：按原因、类别、产品、设备、班组或员工的帕累托（管理员、经理；审核范围内）',
  description: DESCRIPTION,
  access: access.insight,
  readModels: ['quality'],
  query: qualityQuery,
  response: paretoSchema,
  errors: [RANGE_ERROR],
  example: { query: { startDate: '2026-03-01', endDate: '2026-03-31', groupBy: 'reason' }, response: EXAMPLE },
  async handler({ query, user }, ctx) {
    return defectPareto(ctx.db.pool, checkRange(query.startDate, query.endDate), query.groupBy, readerOf(user, query));
  },
});

/** The Pareto as a workbook: one row per group, then 合计. */
function paretoWorkbook(p: DefectPareto): Buffer {
  const rows: (string | number)[][] = [['分组', '不良数量', '占比%', '累计%']];
  for (const i of p.items) rows.push([i.label, i.defectiveQty, i.sharePct, i.cumulativePct]);
  rows.push(['合计', p.totalDefectiveQty, p.totalDefectiveQty ? 100 : 0, ''], ['产出', p.totalOutputQty, '', ''], ['不良率%', p.defectRatePct, '', '']);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), '不良分析');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

export const qualityDefectsXlsxRoute = defineRoute({
  method: 'get',
  path: '/api/quality/defects.xlsx',
  tag: 'quality',
  summary: '不良分析导出为 Excel（同样的日期范围、分组与车间、班组筛选）',
  description: DESCRIPTION,
  access: access.insight,
  readModels: ['quality'],
  query: qualityQuery,
  responseContentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  errors: [RANGE_ERROR],
  example: { query: { startDate: '2026-03-01', endDate: '2026-03-31', groupBy: 'category' } },
  async handler({ query, user }, ctx) {
    const range = checkRange(query.startDate, query.endDate);
    const p = await defectPareto(ctx.db.pool, range, query.groupBy, readerOf(user, query));
    return new RawBody('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', paretoWorkbook(p), `不良分析_${range.startDate}_${range.endDate}.xlsx`);
  },
});

export const qualityRoutes = [qualityDefectsRoute, qualityDefectsXlsxRoute];
