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
import { pageOf, pageQuery } from '../pagination.ts';
import { toPage } from '../../shared/page.ts';
import { defineRoute } from '../route.ts';

const text = z.string().max(200);
const optionalText = text.nullable().optional();

export const productSchema = z.object({
  id: z.number().int(),
  projectNo: z.string().describe('项目号'),
  profileNo: z.string().nullable().describe('型材号'),
  productName: z.string().describe('产品名称'),
  materialCode: z.string().nullable().describe('物料编码'),
  materialName: z.string().nullable().describe('物料名称'),
  deviceNo: z.string().describe('使用设备'),
  processName: z.string().describe('工序'),
  stampingMethod: z.string().nullable().describe('冲压方式'),
  operatorCount: z.number().int().nullable().describe('操作人数'),
  standardCycleSeconds: z.number().describe('标准节拍，秒（3 位小数）'),
  standardWorkload: z.number().int().describe('标准工作量，件/天'),
  updatedAt: z.string(),
});

const previewRow = productSchema
  .omit({ id: true, updatedAt: true })
  .extend({
    row: z.number().int(),
    workloadComputed: z.boolean().describe('标准工作量为空，按 floor(28800 / 标准节拍) 计算'),
    id: z.number().int().optional(),
    changes: z
      .array(z.object({ field: z.string(), label: z.string(), from: z.union([z.string(), z.number(), z.null()]), to: z.union([z.string(), z.number(), z.null()]) }))
      .optional(),
  });

const keyQuery = z.object({
  projectNo: z.string().min(1),
  productName: z.string().min(1),
  deviceNo: z.string().min(1),
  processName: z.string().min(1),
});

const body = z.object({
  projectNo: text,
  profileNo: optionalText,
  productName: text,
  materialCode: optionalText,
  materialName: optionalText,
  deviceNo: text,
  processName: text,
  stampingMethod: optionalText,
  operatorCount: z.number().nullable().optional(),
  standardCycleSeconds: z.number().describe('秒，> 0，最多 3 位小数'),
  standardWorkload: z.number().nullable().optional().describe('不填时按 floor(28800 / 标准节拍) 计算'),
});

export const [productImportRoute, productImportConfirmRoute] = importRoutes({
  base: '/api/products',
  tag: 'products',
  kind: productImport,
  title: '产品清单',
  description: 'multipart/form-data，文件放在字段 file（.xlsx 或 .xls，≤ 10 MB，≤ 50000 行）。返回预览：新增、更新、不变和错误行；用 importId 确认后才写入。',
  previewRow,
});

export const productListRoute = defineRoute({
  method: 'get',
  path: '/api/products',
  tag: 'products',
  summary: '产品列表（分页；keyword 匹配项目号、型材号、产品名称、物料编码、物料名称、工序；deviceNo 精确匹配）',
  access: access.masterData,
  query: pageQuery.extend({ keyword: z.string().trim().max(100).optional(), deviceNo: z.string().optional() }),
  response: pageOf(productSchema),
  async handler({ query }, ctx) {
    const { items, total } = await listProducts(ctx.db.pool, { keyword: query.keyword || undefined, deviceNo: query.deviceNo }, query, ctx.config.timeZone);
    return toPage(items, total, query);
  },
});

export const productSaveRoute = defineRoute({
  method: 'post',
  path: '/api/products',
  tag: 'products',
  summary: '新增或更新产品（按 项目号+产品名称+使用设备+工序）',
  access: access.masterData,
  body,
  response: z.object({ product: productSchema, result: z.enum(['created', 'updated', 'unchanged']) }),
  errors: [{ status: 422, code: 'PRODUCT_INVALID', description: '字段不符合产品规则（details 列出每个问题）' }],
  async handler({ body }, ctx) {
    return saveProduct(ctx, {
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
    });
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
  async handler({ query }, ctx) {
    return { deleted: await removeProduct(ctx, query) };
  },
});

export const productRoutes = [productImportRoute, productImportConfirmRoute, productListRoute, productSaveRoute, productDeleteRoute];
