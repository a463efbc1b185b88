/** The answer shared by the review and report-administration routes: its schema (OpenAPI) and its mapping. */
import { z } from 'zod';
import type { ReviewAnswer } from '../../commands/review/handlers.ts';
import type { AppContext } from '../../context.ts';
import { reportLineSchema } from '../../domain/report-line.ts';
import { zonedIso } from '../dates.ts';

/** The report after a review or break-interval command. */
export const reviewAnswerSchema = z.object({
  reportId: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  breakMinutes: z.number().int(),
  effectiveSeconds: z.number(),
  lines: z.array(reportLineSchema),
  corrected: z.boolean().optional().describe('本次审核是否修正了明细行'),
  rejectReason: z.string().optional(),
  at: z.string().describe('操作时间，ISO 8601 带时区'),
});

/** A review command's answer as the API gives it (`at` in APP_TIMEZONE). */
export const reviewAnswer = (ctx: AppContext, a: ReviewAnswer) => ({ ...a, at: zonedIso(ctx, a.at) });
