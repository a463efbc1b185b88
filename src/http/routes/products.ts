/**
 * Product endpoints (spec 4.2; decisions.md "Spreadsheet import", "HTTP conventions"): import with preview
 * and confirmation, list, create/update, delete. Access: `access.masterData` (admin, manager).
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { importRoutes } from './import-routes.ts';
import { productImport } from '../../products/import.ts';
import { removeProduct, saveProduct } from '../../products/service.ts';
import { listProducts } from '../../products/store.ts';
import { ratesInForce } from '../../queries/rates.ts';
import { formatRate } from '../../domain/money.ts';
import { localDate as dateOf } from '../../time.ts';
import { rateText } from './money-schemas.ts';
import { RATE_ERRORS, rateAnswer, rateAnswerSchema, rateFields } from './rates.ts';
import { CONCURRENT_MODIFICATION, PERIOD_CLOSED } from './error-docs.ts';
import { unprocessable } from '../../errors.ts';
import { DAILY_STANDARD_SECONDS, MAX_TEXT_LENGTH } from '../../products/rules.ts';
import { PRODUCT_FIELD_LABELS, type ProductField } from '../../products/model.ts';
import { instant, localDate } from '../dates.ts';
import { checkedRule } from '../json-schema.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { toPage } from '../../shared/page.ts';
import { actorOf, defineRoute } from '../route.ts';
import { problemsDetails } from './error-docs.ts';

const L = PRODUCT_FIELD_LABELS;

export const productSchema = z.object({
  id: z.number().int(),
  projectNo: z.string().describe(L.projectNo),
  profileNo: z.string().nullable().describe(L.profileNo),
  productName: z.string().describe(L.productName),
  materialCode: z.string().nullable().describe(L.materialCode),
  materialName: z.string().nullable().describe(L.materialName),
  deviceNo: z.string().describe(L.deviceNo),
  processName: z.string().describe(L.processName),
  stampingMethod: z.string().nullable().describe(L.stampingMethod),
  operatorCount: z.number().int().nullable().describe(L.operatorCount),
  standardCycleSeconds: z.number().describe('标准节拍，秒（3 位小数）'),
  standardWorkload: z.number().int().describe('标准工作量，件/天'),
  updatedAt: instant,
});

const PRODUCT_EXAMPLE = {
  id: 12,
  projectNo: 'P-2026-01',
  profileNo: 'XC-30',
  productName: '前围横梁',
  materialCode: 'M-1001',
  materialName: '冷轧板',
  deviceNo: '冲床 01',
  processName: '冲压',
  stampingMethod: '单冲',
  operatorCount: 1,
  standardCycleSeconds: 24,
  standardWorkload: 1200,
  updatedAt: '2026-03-02T07:45:00+08:00',
};

const cellValue = z.union([z.string(), z.number(), z.null()]);
const previewRow = productSchema
  .omit({ id: true, updatedAt: true })
  .extend({
    row: z.number().int().describe('表格中的行号'),
    workloadComputed: z.boolean().describe('标准工作量为空，按 floor(28800 / 标准节拍) 计算'),
    id: z.number().int().optional().describe('更新行：现有产品的编号'),
    changes: z
      .array(z.object({ field: z.string(), label: z.string(), from: cellValue, to: cellValue }))
      .optional()
      .describe('更新行：改变的字段（含计件单价 pieceRate、不良单价 defectRate、料废单价 materialDefectRate：从生效日期当天有效的单价改为表中的单价）'),
    rate: z
      .object({
        pieceRate: rateText,
        defectRate: rateText,
        materialDefectRate: rateText.optional().describe('料废单价；没有：料废按不良单价计'),
        effectiveFrom: localDate.nullable().describe('null：从确认导入当天起'),
      })
      .optional()
      .describe('本行设置的单价（与当时有效的单价不同时）；确认导入时记为调价'),
  });

/** Text the product rules trim and require (products/rules.ts: PRODUCT_INVALID when blank or over 200 characters). */
const requiredText = (field: ProductField) =>
  checkedRule(z.string().max(MAX_TEXT_LENGTH).meta({ title: L[field] }), { pattern: '\\S' });
const optionalText = (field: ProductField) => z.string().max(MAX_TEXT_LENGTH).nullable().optional().meta({ title: L[field] });

const keyQuery = z.object({
  projectNo: z.string().min(1).meta({ title: L.projectNo }),
  productName: z.string().min(1).meta({ title: L.productName }),
  deviceNo: z.string().min(1).meta({ title: L.deviceNo }),
  processName: z.string().min(1).meta({ title: L.processName }),
});

/** The product's fields, and a rate with it (不良单价, 生效日期 and 调价原因 only with 计件单价: PRODUCT_INVALID). */
const fields = z.object({
  projectNo: requiredText('projectNo'),
  profileNo: optionalText('profileNo'),
  productName: requiredText('productName'),
  materialCode: optionalText('materialCode'),
  materialName: optionalText('materialName'),
  deviceNo: requiredText('deviceNo'),
  processName: requiredText('processName'),
  stampingMethod: optionalText('stampingMethod'),
  operatorCount: checkedRule(z.number(), { type: 'integer', minimum: 0, maximum: 999 })
    .nullable()
    .optional()
    .meta({ title: L.operatorCount, description: '0–999 的整数，可为 null' }),
  standardCycleSeconds: checkedRule(z.number().meta({ title: L.standardCycleSeconds, description: '秒，大于 0，不超过 28800，保留 3 位小数' }), {
    minimum: 0.0005,
    maximum: DAILY_STANDARD_SECONDS,
  }),
  standardWorkload: checkedRule(z.number(), { type: 'integer', minimum: 1, maximum: 100_000_000 })
    .nullable()
    .optional()
    .meta({ title: L.standardWorkload, description: '件/天；不填或 null 时按 floor(28800 / 标准节拍) 计算' }),
  // A rate with the product (同一事务). 不良单价 and 生效日期 only with 计件单价 (PRODUCT_INVALID otherwise).
  pieceRate: rateFields.pieceRate.optional(),
  defectRate: rateFields.defectRate,
  materialDefectRate: rateFields.materialDefectRate,
  effectiveFrom: rateFields.effectiveFrom.optional().meta({ title: '生效日期', description: 'YYYY-MM-DD（工厂时区）；不填为今天；只在填写计件单价时有效' }),
  rateReason: rateFields.reason.meta({ title: '调价原因', description: '可不填；最多 200 个字' }),
});
const body = checkedRule(fields, { dependentRequired: { defectRate: ['pieceRate'], materialDefectRate: ['pieceRate'], effectiveFrom: ['pieceRate'], rateReason: ['pieceRate'] } });

export const [productImportRoute, productImportConfirmRoute] = importRoutes({
  base: '/api/products',
  tag: 'products',
  kind: productImport,
  title: '产品清单',
  description: 'multipart/form-data，文件放在字段 file（.xlsx 或 .xls，≤ 10 MB，≤ 50000 行）。返回预览：新增、更新、不变和错误行；用 importId 确认后才写入。',
  previewRow,
  exampleRow: { ...(({ id: _id, updatedAt: _at, ...fields }) => fields)(PRODUCT_EXAMPLE), row: 3, workloadComputed: false },
  confirmErrors: [{ ...PERIOD_CLOSED, description: '预览之后，某行单价生效日期所在的月份已结账' }, CONCURRENT_MODIFICATION],
  exampleError: {
    row: 5,
    code: 'zero_cycle',
    reason: '标准节拍必须大于 0 秒（表中是 0）',
    values: { 项目号: 'P-2026-01', 产品名称: '后围板', 使用设备: '冲床 02', 工序: '冲压', 标准节拍: 0 },
  },
});

/** A product as the list shows it: with the rate in force today, null when it has none. */
const productListItem = productSchema.extend({
  rate: z
    .object({
      pieceRate: rateText,
      defectRate: rateText,
      materialDefectRate: rateText.describe('料废单价（未设置时等于不良单价）'),
      effectiveFrom: localDate.describe('这条单价的生效日期'),
    })
    .nullable()
    .describe('今天有效的计件单价、不良单价与料废单价；null：没有单价'),
});

export const productListRoute = defineRoute({
  method: 'get',
  path: '/api/products',
  tag: 'products',
  summary: '产品列表（分页；keyword 匹配项目号、型材号、产品名称、物料编码、物料名称、工序；deviceNo 精确匹配）',
  access: access.masterData,
  query: pageQuery.extend({
    keyword: z.string().trim().max(100).optional().meta({ title: '关键字', description: '去掉首尾空白后最多 100 个字' }),
    deviceNo: z.string().optional().meta({ title: L.deviceNo, description: '精确匹配' }),
  }),
  response: pageOf(productListItem),
  example: {
    query: { keyword: '横梁', page: '1' },
    response: { items: [{ ...PRODUCT_EXAMPLE, rate: { pieceRate: '1.2500', defectRate: '-0.5000', materialDefectRate: '-0.5000', effectiveFrom: '2026-03-01' } }], page: 1, pageSize: 20, total: 1 },
  },
  async handler({ query }, ctx) {
    const { items, total } = await listProducts(ctx.db.pool, { keyword: query.keyword || undefined, deviceNo: query.deviceNo }, query, ctx.config.timeZone);
    const today = dateOf(ctx.clock.now(), ctx.config.timeZone);
    const rates = await ratesInForce(ctx.db.pool, items.map((p) => p.id), today);
    const rateOf = (id: number) => {
      const r = rates.get(id);
      return r
        ? { pieceRate: formatRate(r.pieceRate), defectRate: formatRate(r.defectRate), materialDefectRate: formatRate(r.materialDefectRate), effectiveFrom: r.effectiveFrom }
        : null;
    };
    return toPage(items.map((p) => ({ ...p, rate: rateOf(p.id) })), total, query);
  },
});

export const productSaveRoute = defineRoute({
  method: 'post',
  path: '/api/products',
  tag: 'products',
  summary: '新增或更新产品（按 项目号+产品名称+使用设备+工序），可同时设置计件单价',
  description: '填写 pieceRate（及 defectRate、materialDefectRate、effectiveFrom、rateReason）时，在同一事务中设置该产品从生效日期起的单价（与 POST /api/products/{productId}/rates 相同的规则）。',
  access: access.masterData,
  body,
  response: z.object({ product: productSchema, result: z.enum(['created', 'updated', 'unchanged']), rate: rateAnswerSchema.optional().describe('设置的单价（请求中有计件单价时）') }),
  errors: [{ status: 422, code: 'PRODUCT_INVALID', description: '字段不符合产品规则（details 列出每个问题）', details: problemsDetails }, ...RATE_ERRORS],
  example: {
    body: { ...(({ id: _id, updatedAt: _at, ...fields }) => fields)(PRODUCT_EXAMPLE), pieceRate: '1.25', defectRate: '-0.5', materialDefectRate: '1.25', effectiveFrom: '2026-03-01' },
    response: { product: PRODUCT_EXAMPLE, result: 'created', rate: { productId: 12, pieceRate: '1.2500', defectRate: '-0.5000', materialDefectRate: '1.2500', effectiveFrom: '2026-03-01' } },
  },
  async handler({ body, user, req }, ctx) {
    const withoutPieceRate = [body.defectRate, body.materialDefectRate, body.effectiveFrom, body.rateReason].some((v) => v !== undefined);
    if (body.pieceRate === undefined && withoutPieceRate) {
      const problem = { code: 'no_piece_rate', field: 'pieceRate', reason: '填写了不良单价、料废单价、生效日期或调价原因，但计件单价为空，请填写计件单价' };
      throw unprocessable('PRODUCT_INVALID', problem.reason, [problem]);
    }
    const rate =
      body.pieceRate === undefined
        ? undefined
        : {
            pieceRate: body.pieceRate,
            defectRate: body.defectRate ?? 0,
            ...(body.materialDefectRate !== undefined ? { materialDefectRate: body.materialDefectRate } : {}),
            effectiveFrom: body.effectiveFrom,
            reason: body.rateReason,
            actor: actorOf(user, req),
          };
    const saved = await saveProduct(ctx, {
      projectNo: body.projectNo,
      profileNo: body.profileNo ?? null,
      productName: body.productName,
      materialCode: body.materialCode ?? null,
      materialName: body.materialName ?? null,
      deviceNo: body.deviceNo,
      processName: body.processName,
      stampingMethod: body.stampingMethod ?? null,
      operatorCount: body.operatorCount ?? null,
      standardCycleSeconds: body.standardCycleSeconds,
      standardWorkload: body.standardWorkload ?? null,
    }, rate);
    return { product: saved.product, result: saved.result, ...(saved.rate ? { rate: rateAnswer(saved.rate) } : {}) };
  },
});

export const productDeleteRoute = defineRoute({
  method: 'delete',
  path: '/api/products',
  tag: 'products',
  summary: '删除产品（查询参数 projectNo、productName、deviceNo、processName）',
  access: access.masterData,
  query: keyQuery,
  response: z.object({ deleted: productSchema }),
  errors: [{ status: 404, code: 'PRODUCT_NOT_FOUND', description: '没有这个产品' }],
  example: {
    query: { projectNo: 'P-2026-01', productName: '前围横梁', deviceNo: '冲床 01', processName: '冲压' },
    response: { deleted: PRODUCT_EXAMPLE },
  },
  async handler({ query }, ctx) {
    return { deleted: await removeProduct(ctx, query) };
  },
});

export const productRoutes = [productImportRoute, productImportConfirmRoute, productListRoute, productSaveRoute, productDeleteRoute];
