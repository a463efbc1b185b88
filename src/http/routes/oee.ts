/**
 * The OEE read (设备综合效率), administrators and managers within their scope (queries/oee.ts, domain/oee.ts):
 * - `GET /api/oee?startDate=&endDate=&groupBy=device|workshop|day&device=&workshop=` → `{items, totals}`;
 * - `GET /api/oee/losses?startDate=&endDate=&device=&workshop=` → the stop time by reason, largest first;
 * - `GET /api/oee.xlsx`, `GET /api/oee/losses.xlsx`: the same as workbooks.
 */
import * as XLSX from 'xlsx';
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { checkRange } from '../../queries/dashboard.ts';
import { OEE_GROUPS, oeeCells, oeeLosses, oeeReport, type OeeFigures, type OeeFilter, type OeeGroup, type OeeItem, type OeeLoss } from '../../queries/oee.ts';
import { STOP_CATEGORIES } from '../../domain/stop-reasons.ts';
import type { AppContext } from '../../context.ts';
import type { CurrentUser } from '../route.ts';
import { checkedRule } from '../json-schema.ts';
import { defineRoute, RawBody, scopeOf } from '../route.ts';
import { RANGE_ERROR } from './dashboard.ts';

const rangeDate = (title: string) => checkedRule(z.string().optional().meta({ title, description: 'YYYY-MM-DD（含当天，工厂时区）' }), { format: 'date' });
const filterCode = (title: string) => z.string().max(200).optional().transform((v) => v || undefined).meta({ title, description: '空值等于不填' });
const filters = { device: filterCode('设备编号'), workshop: filterCode('车间编码') };
const oeeQuery = checkedRule(
  z.object({
    startDate: rangeDate('开始日期'),
    endDate: rangeDate('结束日期'),
    groupBy: z.enum(OEE_GROUPS).default('device').meta({ title: '分组', description: 'device 设备（默认）、workshop 车间（设备所属车间）、day 日期' }),
    ...filters,
  }),
  { required: ['startDate', 'endDate'] },
);
const lossQuery = checkedRule(z.object({ startDate: rangeDate('开始日期'), endDate: rangeDate('结束日期'), ...filters }), { required: ['startDate', 'endDate'] });

const pct = (d: string) => z.number().nullable().describe(`${d}，百分比，1 位小数（四舍五入）；分母为 0 时为 null`);
const figures = {
  attendedSeconds: z.number().describe('出勤时间（秒）：有员工在这台设备上班的时间的并集（多人同时在岗只算一次），按工厂时区零点切分到各天'),
  plannedSeconds: z.number().describe('计划生产时间（秒）= 出勤 − 班次的不带薪休息（所有在岗员工都在休息的时段）− 计划停机'),
  plannedStopSeconds: z.number().describe('计划停机（秒）：出勤内、休息外的计划停机'),
  unplannedStopSeconds: z.number().describe('非计划停机（秒）：计划生产时间内的非计划停机'),
  runSeconds: z.number().describe('运行时间（秒）= 计划生产时间 − 非计划停机'),
  idealSeconds: z.number().describe('理论时间（秒）= Σ 标准节拍 ×（成品 + 不良），已审核报工单、这台设备的产品、报工日期在这天'),
  goodQty: z.number().int().describe('成品数量'),
  totalQty: z.number().int().describe('产出数量（成品 + 不良）'),
  fullyProductiveSeconds: z.number().describe('完全有效时间（秒）= Σ 标准节拍 × 成品'),
  availabilityPct: pct('可用率 = 运行时间 ÷ 计划生产时间'),
  performancePct: pct('性能 = 理论时间 ÷ 运行时间（超过 100 照实显示：标准节拍或数量有误）'),
  qualityPct: pct('质量 = 完全有效时间 ÷ 理论时间（按标准时间加权）'),
  goodRatePct: pct('良品率 = 成品 ÷ 产出（按件数）'),
  oeePct: pct('OEE = 完全有效时间 ÷ 计划生产时间 = 可用率 × 性能 × 质量'),
};
const figuresSchema = z.object(figures);
const oeeSchema = z.object({
  items: z.array(z.object({ key: z.string().nullable().describe('设备编号、车间编码（不属于任何车间为 null）或日期'), label: z.string().describe('显示名称'), ...figures })),
  totals: figuresSchema.describe('合计：各项分子、分母分别求和后计算，不是各行百分比的平均'),
});
const D1: OeeFigures = {
  attendedSeconds: 18000,
  plannedSeconds: 16200,
  plannedStopSeconds: 1800,
  unplannedStopSeconds: 1200,
  runSeconds: 15000,
  idealSeconds: 9600,
  goodQty: 300,
  totalQty: 320,
  fullyProductiveSeconds: 9000,
  availabilityPct: 92.6,
  performancePct: 64,
  qualityPct: 93.8,
  goodRatePct: 93.8,
  oeePct: 55.6,
};

const lossSchema = z.object({
  items: z.array(
    z.object({
      reasonCode: z.string(),
      reasonName: z.string(),
      category: z.enum(STOP_CATEGORIES).describe('原因当前的类别'),
      categoryLabel: z.string().describe('计划停机 / 非计划停机'),
      stopSeconds: z.number().describe('停机秒数（计入 OEE 的部分：出勤内、休息外）'),
      stopMinutes: z.number().describe('停机分钟，1 位小数'),
      sharePct: z.number().describe('占停机总时间的百分比，1 位小数'),
      cumulativePct: z.number().describe('累计百分比，1 位小数；最后一项为 100'),
    }),
  ),
  totalStopSeconds: z.number().describe('停机总秒数 = 各项之和 = 计划停机 + 非计划停机'),
});
const LOSS_EXAMPLE = {
  items: [
    { reasonCode: 'CHG', reasonName: '换模', category: 'planned' as const, categoryLabel: '计划停机', stopSeconds: 1800, stopMinutes: 30, sharePct: 60, cumulativePct: 60 },
    { reasonCode: 'BRK', reasonName: '设备故障', category: 'unplanned' as const, categoryLabel: '非计划停机', stopSeconds: 1200, stopMinutes: 20, sharePct: 40, cumulativePct: 100 },
  ],
  totalStopSeconds: 3000,
};

const DESCRIPTION =
  '按设备与日期（工厂时区）计算：出勤为员工上班时间的并集；计划生产时间扣除班次中不带薪的休息时段（只在设置了班次时；默认休息没有具体时段，不扣除）和计划停机；运行时间再扣除非计划停机。' +
  '理论时间与完全有效时间来自已审核的报工单。多台设备或多天的合计由分子、分母分别求和后计算。有计划生产时间但没有报工时，性能和 OEE 为 0.0，质量为 null。';

const filterOf = (q: { device?: string; workshop?: string }): OeeFilter => ({ device: q.device, workshop: q.workshop });
const readerOf = (user: CurrentUser) => ({ scope: scopeOf(user), filter: {} });
/** The cells of the query, the kept dates summed as finely as `groupBy` needs (by day, else by device: the losses too). */
const cellsFor = (ctx: AppContext, user: CurrentUser, q: { startDate?: string; endDate?: string; device?: string; workshop?: string; groupBy?: OeeGroup }) => {
  const range = checkRange(q.startDate, q.endDate);
  const grain = q.groupBy === 'day' ? 'day' : 'device';
  return oeeCells(ctx.db.pool, range, filterOf(q), readerOf(user), ctx.clock.now(), ctx.clockSettings, grain).then((cells) => ({ range, cells }));
};

export const oeeRoute = defineRoute({
  method: 'get',
  path: '/api/oee',
  tag: 'oee',
  summary: '设备综合效率 OEE：可用率、性能、质量，按设备、车间或日期（管理员、经理；审核范围内车间的设备）',
  description: DESCRIPTION,
  access: access.insight,
  readModels: ['oee-days'],
  query: oeeQuery,
  response: oeeSchema,
  errors: [RANGE_ERROR],
  example: { query: { startDate: '2026-03-02', endDate: '2026-03-02', groupBy: 'device' }, response: { items: [{ key: 'D1', label: 'D1', ...D1 }], totals: D1 } },
  async handler({ query, user }, ctx) {
    const { cells } = await cellsFor(ctx, user, query);
    return oeeReport(cells, query.groupBy);
  },
});

export const oeeLossesRoute = defineRoute({
  method: 'get',
  path: '/api/oee/losses',
  tag: 'oee',
  summary: '停机损失：按停机原因的停机时间，从大到小，带类别、占比与累计占比（帕累托）',
  description: '只计入 OEE 的停机时间（出勤内、班次休息外），合计等于同一范围 OEE 的计划停机加非计划停机。百分比由精确合计计算，保留 1 位小数。',
  access: access.insight,
  readModels: ['oee-days'],
  query: lossQuery,
  response: lossSchema,
  errors: [RANGE_ERROR],
  example: { query: { startDate: '2026-03-02', endDate: '2026-03-02' }, response: LOSS_EXAMPLE },
  async handler({ query, user }, ctx) {
    return oeeLosses((await cellsFor(ctx, user, query)).cells);
  },
});

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const book = (sheet: string, rows: (string | number | null)[][]): Buffer => {
  const b = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(b, XLSX.utils.aoa_to_sheet(rows), sheet);
  return XLSX.write(b, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
};

/** The columns of the OEE workbook, in order, with the figure each shows. */
export const OEE_XLSX_HEADERS: readonly [string, keyof OeeFigures][] = [
  ['出勤(秒)', 'attendedSeconds'],
  ['计划生产(秒)', 'plannedSeconds'],
  ['计划停机(秒)', 'plannedStopSeconds'],
  ['非计划停机(秒)', 'unplannedStopSeconds'],
  ['运行(秒)', 'runSeconds'],
  ['理论(秒)', 'idealSeconds'],
  ['成品', 'goodQty'],
  ['产出', 'totalQty'],
  ['完全有效(秒)', 'fullyProductiveSeconds'],
  ['可用率%', 'availabilityPct'],
  ['性能%', 'performancePct'],
  ['质量%', 'qualityPct'],
  ['良品率%', 'goodRatePct'],
  ['OEE%', 'oeePct'],
];

function oeeWorkbook(r: { items: OeeItem[]; totals: OeeFigures }): Buffer {
  const rows: (string | number | null)[][] = [['分组', ...OEE_XLSX_HEADERS.map(([h]) => h)]];
  for (const i of r.items) rows.push([i.label, ...OEE_XLSX_HEADERS.map(([, k]) => i[k])]);
  rows.push(['合计', ...OEE_XLSX_HEADERS.map(([, k]) => r.totals[k])]);
  return book('设备效率', rows);
}

function lossWorkbook(r: { items: OeeLoss[]; totalStopSeconds: number }): Buffer {
  const rows: (string | number)[][] = [['停机原因', '类别', '停机分钟', '占比%', '累计%']];
  for (const i of r.items) rows.push([i.reasonName, i.categoryLabel, i.stopMinutes, i.sharePct, i.cumulativePct]);
  rows.push(['合计', '', Math.round(r.totalStopSeconds / 6) / 10, r.items.length ? 100 : 0, '']);
  return book('停机损失', rows);
}

export const oeeXlsxRoute = defineRoute({
  method: 'get',
  path: '/api/oee.xlsx',
  tag: 'oee',
  summary: '设备综合效率导出为 Excel（同样的日期范围、分组与筛选）',
  description: DESCRIPTION,
  access: access.insight,
  readModels: ['oee-days'],
  query: oeeQuery,
  responseContentType: XLSX_TYPE,
  errors: [RANGE_ERROR],
  example: { query: { startDate: '2026-03-01', endDate: '2026-03-31', groupBy: 'device' } },
  async handler({ query, user }, ctx) {
    const { range, cells } = await cellsFor(ctx, user, query);
    return new RawBody(XLSX_TYPE, oeeWorkbook(oeeReport(cells, query.groupBy)), `设备效率_${range.startDate}_${range.endDate}.xlsx`);
  },
});

export const oeeLossesXlsxRoute = defineRoute({
  method: 'get',
  path: '/api/oee/losses.xlsx',
  tag: 'oee',
  summary: '停机损失导出为 Excel（同样的日期范围与筛选）',
  access: access.insight,
  readModels: ['oee-days'],
  query: lossQuery,
  responseContentType: XLSX_TYPE,
  errors: [RANGE_ERROR],
  example: { query: { startDate: '2026-03-01', endDate: '2026-03-31' } },
  async handler({ query, user }, ctx) {
    const { range, cells } = await cellsFor(ctx, user, query);
    return new RawBody(XLSX_TYPE, lossWorkbook(oeeLosses(cells)), `停机损失_${range.startDate}_${range.endDate}.xlsx`);
  },
});

export const oeeRoutes = [oeeRoute, oeeLossesRoute, oeeXlsxRoute, oeeLossesXlsxRoute];
