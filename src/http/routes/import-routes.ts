/**
 * The two routes of a two-phase spreadsheet import (decisions.md "Spreadsheet import"), for any import kind:
 * `POST <base>/import` (multipart, field `file`) → the preview, writing nothing; `POST <base>/import/:importId/confirm`
 * → writes the preview's good rows in one transaction. Access: `access.masterData` (admin, manager).
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import type { ImportKind } from '../../imports/kind.ts';
import { MAX_IMPORT_ROWS, MAX_UPLOAD_BYTES } from '../../imports/limits.ts';
import { IMPORT_RETRY_AFTER_SECONDS, MAX_QUEUED } from '../../imports/parse-pool.ts';
import { confirmImport, previewImport } from '../../imports/service.ts';
import { readUpload } from '../../imports/upload.ts';
import { confirmSchema, importIdParams, previewSchema } from '../../imports/schemas.ts';
import { MAX_TABLE_TEXT } from '../../spreadsheet/table.ts';
import { tooLargeDetails } from '../../spreadsheet/too-large.ts';
import { MAX_CELLS, MAX_SHARED_STRINGS } from '../../spreadsheet/workbook.ts';
import { MAX_INFLATED_BYTES } from '../../spreadsheet/zip.ts';
import { actorOf, defineRoute, type AnyRoute, type ErrorDoc } from '../route.ts';
import { ChunkedJson } from '../chunked-json.ts';
import { retryAfterDetails } from './error-docs.ts';

const MB = MAX_UPLOAD_BYTES / 1024 / 1024;

/** The upload's refusals (imports/upload.ts, imports/service.ts, spreadsheet/table.ts). */
const UPLOAD_ERRORS: ErrorDoc[] = [
  { status: 400, code: 'NOT_MULTIPART', description: '不是 multipart/form-data 上传' },
  { status: 400, code: 'FILE_REQUIRED', description: '没有 file 字段' },
  { status: 400, code: 'MALFORMED_UPLOAD', description: '上传内容不完整或格式不正确' },
  { status: 413, code: 'FILE_TOO_LARGE', description: `文件超过 ${MB} MB`, details: z.object({ maxBytes: z.number().int() }) },
  { status: 422, code: 'EMPTY_FILE', description: '文件是空的' },
  { status: 422, code: 'NOT_A_SPREADSHEET', description: '不是 Excel 表格（.xlsx 或 .xls）' },
  {
    status: 422,
    code: 'SPREADSHEET_TOO_LARGE',
    description:
      `表格解压后超过 ${MAX_INFLATED_BYTES / 1024 / 1024} MB、单元格超过 ${MAX_CELLS / 10_000} 万个、共享文本超过 ${MAX_SHARED_STRINGS / 10_000} 万条、` +
      `读取的文字超过 ${MAX_TABLE_TEXT / 10_000} 万字，或读取所需的内存或时间超过上限（details 的一个字段说明是哪个上限及其值）`,
    details: tooLargeDetails,
  },
  { status: 422, code: 'UNREADABLE_SPREADSHEET', description: '表格损坏、加密或没有工作表' },
  { status: 422, code: 'EMPTY_SHEET', description: '表格没有任何内容' },
  {
    status: 422,
    code: 'MISSING_HEADERS',
    description: '前 20 行中找不到包含全部必需列的表头行（details.missing 列出缺少的列）',
    details: z.object({ sheet: z.string().optional(), row: z.number().int().optional(), missing: z.array(z.string()) }),
  },
  { status: 422, code: 'DUPLICATE_HEADER', description: '同一表头出现了不止一次' },
  { status: 422, code: 'NO_DATA_ROWS', description: '表头下面没有数据行' },
  {
    status: 422,
    code: 'TOO_MANY_ROWS',
    description: `数据超过 ${MAX_IMPORT_ROWS} 行`,
    details: z.object({ maxRows: z.number().int() }),
  },
  {
    status: 503,
    code: 'IMPORT_BUSY',
    description: `同时上传的文件超过 ${1 + MAX_QUEUED} 个，正在处理其他导入文件：按响应头 Retry-After 或 details.retryAfterSeconds（${IMPORT_RETRY_AFTER_SECONDS} 秒）等待后重试`,
    details: retryAfterDetails,
    retryAfter: true,
  },
];

/** The confirmation's refusals (imports/service.ts). */
const CONFIRM_ERRORS: ErrorDoc[] = [
  { status: 404, code: 'IMPORT_NOT_FOUND', description: '预览不存在（或不是本人上传的）' },
  { status: 404, code: 'IMPORT_EXPIRED', description: '预览已过期（30 分钟内有效）' },
  { status: 409, code: 'IMPORT_STALE', description: '预览之后数据已被修改：重新上传' },
  { status: 409, code: 'IMPORT_ALREADY_CONFIRMED', description: '这次导入已确认过' },
];

const IMPORT_ID = '3d8f6a2c-1b4e-4f7a-9c5d-0e2f4a6b8c1d';

/**
 * The two routes of a spreadsheet import of `spec.kind` under `spec.base` (module docstring):
 * `[upload → preview, confirm]`, both for admin and manager.
 */
export function importRoutes<TRow extends { row: number }, TStored>(spec: {
  /** e.g. `/api/products` */
  base: string;
  tag: string;
  kind: ImportKind<TRow, TStored>;
  /** Chinese name of the list, e.g. 产品清单 */
  title: string;
  description: string;
  previewRow: z.ZodType;
  /** One good row of the preview, as the document's example shows it. */
  exampleRow: unknown;
  /** One error row of the preview (code, reason, values), as the document's example shows it. */
  exampleError: unknown;
  /** Refusals of this kind's confirmation besides the common ones (the events its write makes). */
  confirmErrors?: ErrorDoc[];
}): [AnyRoute, AnyRoute] {
  return [
    defineRoute({
      method: 'post',
      path: `${spec.base}/import`,
      tag: spec.tag,
      summary: `上传${spec.title}（预览，不写入）`,
      description: spec.description,
      access: access.masterData,
      multipart: true,
      response: previewSchema(spec.previewRow),
      errors: UPLOAD_ERRORS,
      example: {
        response: {
          importId: IMPORT_ID,
          expiresAt: '2026-03-02T08:30:00+08:00',
          counts: { create: 1, update: 0, unchanged: 0, errors: 1 },
          create: [spec.exampleRow],
          update: [],
          unchanged: [],
          errors: [spec.exampleError],
        },
      },
      async handler({ req, user }, ctx) {
        // Up to 50,000 rows: written in pieces, so that other requests are not held up meanwhile.
        return new ChunkedJson(await previewImport(ctx, spec.kind, await readUpload(req), user.phone));
      },
    }),
    defineRoute({
      method: 'post',
      path: `${spec.base}/import/:importId/confirm`,
      tag: spec.tag,
      summary: `确认${spec.title}导入（一次事务写入预览中的全部正确行）`,
      access: access.masterData,
      params: importIdParams,
      response: confirmSchema,
      errors: [...CONFIRM_ERRORS, ...(spec.confirmErrors ?? [])],
      example: {
        params: { importId: IMPORT_ID },
        response: { importId: IMPORT_ID, confirmedAt: '2026-03-02T08:05:00+08:00', counts: { created: 1, updated: 0, unchanged: 0, errors: 1 } },
      },
      handler: ({ params, user, req }, ctx) => confirmImport(ctx, spec.kind, params.importId, user.phone, actorOf(user, req)),
    }),
  ];
}
