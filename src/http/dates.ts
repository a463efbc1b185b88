/**
 * Dates at the edge, in one place: instants in answers (`zonedIso`), and date query parameters: local dates `YYYY-MM-DD` in APP_TIMEZONE (decisions.md "HTTP
 * conventions"), inclusive. An invalid calendar date is a 422 VALIDATION_FAILED naming the parameter.
 */
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { isLocalDate, toZonedIso } from '../time.ts';

/** An instant as the API answers it: ISO 8601 with the offset of APP_TIMEZONE. */
export const zonedIso = (ctx: AppContext, d: Date): string => toZonedIso(d, ctx.config.timeZone);

/** An optional local-date filter; an empty value counts as absent. `label` is the Chinese name shown in errors. */
export const optionalLocalDate = (label: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || isLocalDate(v), `${label}应为有效日期，格式 YYYY-MM-DD`)
    .describe(`${label} YYYY-MM-DD（含当天，工厂时区）`);
