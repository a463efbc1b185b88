/**
 * Date query parameters, in one place: local dates `YYYY-MM-DD` in APP_TIMEZONE (decisions.md "HTTP
 * conventions"), inclusive. An invalid calendar date is a 422 VALIDATION_FAILED naming the parameter.
 */
import { z } from 'zod';
import { isLocalDate } from '../time.ts';

/** An optional local-date filter; an empty value counts as absent. `label` is the Chinese name shown in errors. */
export const optionalLocalDate = (label: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || isLocalDate(v), `${label}应为有效日期，格式 YYYY-MM-DD`)
    .describe(`${label} YYYY-MM-DD（含当天，工厂时区）`);
