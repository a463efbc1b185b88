/**
 * Dates and instants in requests and answers, in one place (decisions.md "HTTP conventions"): local dates
 * `YYYY-MM-DD` in APP_TIMEZONE (inclusive filters), instants ISO 8601 with the zone's offset.
 */
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { toZonedIso } from '../time.ts';

/** An instant as the API answers it: ISO 8601 with the offset of APP_TIMEZONE. */
export const zonedIso = (ctx: AppContext, d: Date): string => toZonedIso(d, ctx.config.timeZone);

/** An instant in an answer: ISO 8601 with the offset of APP_TIMEZONE, e.g. `2026-03-02T08:00:00+08:00`. */
export const instant = z.iso.datetime({ offset: true }).describe('ISO 8601，带 APP_TIMEZONE 的时区偏移');

/** A local date `YYYY-MM-DD` (APP_TIMEZONE) in an answer. */
export const localDate = z.iso.date().describe('YYYY-MM-DD（工厂时区）');

/**
 * An optional local-date filter `YYYY-MM-DD` (a real calendar date); an empty value counts as absent. `title` is
 * the Chinese name shown in errors and in the document.
 */
export const optionalLocalDate = (title: string) =>
  z
    .union([z.iso.date(), z.literal('')], { error: `${title}应为有效日期，例如 2026-03-02` })
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .meta({ title, description: 'YYYY-MM-DD，含当天，工厂时区；空值等于不填' });
