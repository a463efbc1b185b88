/**
 * The two routes of a two-phase spreadsheet import (decisions.md "Spreadsheet import"), for any import kind:
 * `POST <base>/import` (multipart, field `file`) → the preview, writing nothing; `POST <base>/import/:importId/confirm`
 * → writes the preview's good rows in one transaction. Access: `access.masterData` (admin, manager).
 */
import type { z } from 'zod';
import { access } from '../../auth/roles.ts';
import type { ImportKind } from '../../imports/kind.ts';
import { confirmImport, previewImport } from '../../imports/service.ts';
import { readUpload } from '../../imports/upload.ts';
import { CONFIRM_ERRORS, IMPORT_ERRORS, confirmSchema, importIdParams, previewSchema } from '../../imports/schemas.ts';
import { defineRoute, type AnyRoute } from '../route.ts';

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
      errors: IMPORT_ERRORS,
      async handler({ req, user }, ctx) {
        return previewImport(ctx, spec.kind, await readUpload(req), user.phone);
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
      errors: CONFIRM_ERRORS,
      handler: ({ params, user }, ctx) => confirmImport(ctx, spec.kind, params.importId, user.phone),
    }),
  ];
}
