/**
 * Zod schemas of the import answers, for the OpenAPI document (src/http/openapi.ts) of both imports.
 */
import { z } from 'zod';

const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const errorRowSchema = z.object({
  row: z.number().int().describe('表格中的行号（与 Excel 显示的一致）'),
  code: z.string().describe('原因代码（snake_case，稳定）'),
  reason: z.string().describe('中文原因'),
  values: z.record(z.string(), cell).describe('该行各列的原始值（按中文列名）'),
});

export const importCountsSchema = z.object({
  create: z.number().int(),
  update: z.number().int(),
  unchanged: z.number().int(),
  errors: z.number().int(),
});

export const previewSchema = <T extends z.ZodType>(row: T) =>
  z.object({
    importId: z.string().describe('确认导入时使用；30 分钟内有效'),
    expiresAt: z.string(),
    counts: importCountsSchema,
    create: z.array(row),
    update: z.array(row),
    unchanged: z.array(row),
    errors: z.array(errorRowSchema),
  });

export const confirmSchema = z.object({
  importId: z.string(),
  confirmedAt: z.string(),
  counts: z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int(), errors: z.number().int() }),
});

export const importIdParams = z.object({ importId: z.string().meta({ title: '导入编号', description: '预览返回的 importId' }) });
