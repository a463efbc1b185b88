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

export const importIdParams = z.object({ importId: z.string() });

export const IMPORT_ERRORS = [
  { status: 400, code: 'NOT_MULTIPART | FILE_REQUIRED | MALFORMED_UPLOAD', description: '不是 multipart 上传、缺少 file 字段或上传不完整' },
  { status: 413, code: 'FILE_TOO_LARGE', description: '文件超过 10 MB' },
  {
    status: 422,
    code: 'EMPTY_FILE | NOT_A_SPREADSHEET | SPREADSHEET_TOO_LARGE | UNREADABLE_SPREADSHEET | EMPTY_SHEET | MISSING_HEADERS | DUPLICATE_HEADER | NO_DATA_ROWS | TOO_MANY_ROWS | INVALID_CHARACTERS',
    description:
      '文件不是可读的 Excel 表格、没有所需表头或数据，超过 50000 行，解压后超过 48 MB、单元格超过 100 万个、共享文本超过 30 万条、读取所需内存或时间超过上限，或文件名含有无效字符',
  },
  { status: 503, code: 'IMPORT_BUSY', description: '正在处理其他导入文件，请稍后重试' },
] as const;

export const CONFIRM_ERRORS = [
  { status: 404, code: 'IMPORT_NOT_FOUND | IMPORT_EXPIRED', description: '预览不存在（或不是本人上传的）或已过期' },
  { status: 409, code: 'IMPORT_STALE | IMPORT_ALREADY_CONFIRMED', description: '预览之后数据已被修改，或已确认过' },
] as const;
