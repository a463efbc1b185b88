/**
 * 422 SPREADSHEET_TOO_LARGE, the refusal of a spreadsheet that passes one of the import's size limits (README
 * "Import limits"), with `details` naming the limit passed — one key per limit, its value the limit —
 * so that a client can say which (the document lists exactly these shapes, from `tooLargeDetails`).
 */
import { z } from 'zod';
import { unprocessable } from '../errors.ts';

/** The details of SPREADSHEET_TOO_LARGE: exactly one of these limits. */
export const tooLargeDetails = z.union([
  z.object({ maxInflatedBytes: z.number().int().describe('解压后最多的字节数（所有部分合计）') }),
  z.object({ maxSharedStrings: z.number().int().describe('共享文本最多的条数') }),
  z.object({ maxCells: z.number().int().describe('所有工作表最多的单元格数') }),
  z.object({ maxTableText: z.number().int().describe('读取的列中最多的字数') }),
  z.object({ maxHeapMb: z.number().int().describe('读取时最多可用的内存（MB）') }),
  z.object({ maxSeconds: z.number().int().describe('读取最多可用的秒数') }),
]);

export type TooLargeDetails = z.infer<typeof tooLargeDetails>;

/** AppError 422 SPREADSHEET_TOO_LARGE with the Chinese `message` and the limit passed (`details`). */
export const spreadsheetTooLarge = (message: string, details: TooLargeDetails) => unprocessable('SPREADSHEET_TOO_LARGE', message, details);
