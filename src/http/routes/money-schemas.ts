/**
 * Money in requests and answers (domain/money.ts): rates given as decimal text or JSON numbers and
 * parsed into ten-thousandths of a yuan without a float multiplication (422 VALIDATION_FAILED naming the field
 * otherwise), rates answered as text with 4 decimals (`"1.2500"`), amounts as text with 2 decimals (`"168.01"`),
 * and the month parameter `YYYY-MM`.
 */
import { z } from 'zod';
import { MAX_RATE, RATE_SCALE, parseRate, rateProblemText } from '../../domain/money.ts';
import { checkedRule } from '../json-schema.ts';

const LIMIT = MAX_RATE / RATE_SCALE;

/**
 * A rate field of a request, titled `title` (计件单价, 不良单价): decimal text (`"1.25"`, `"-0.5"`) or a JSON number
 * (`0.8`, read through its shortest decimal form), at most 4 decimals, within ±99,999.9999 yuan, not negative
 * unless `allowNegative` → ten-thousandths of a yuan. JSON Schema's `multipleOf` is checked in binary floating
 * point (0.0003 / 0.0001 is not whole there), so the number's 4 decimals are stated in words.
 */
export const rateInput = (title: string, allowNegative: boolean) =>
  z
    .union([
      checkedRule(z.string(), { pattern: allowNegative ? '^-?\\d{1,5}(\\.\\d{1,4})?$' : '^\\d{1,5}(\\.\\d{1,4})?$' }),
      checkedRule(z.number(), { minimum: allowNegative ? -LIMIT : 0, maximum: LIMIT }),
    ])
    .transform((v, ctx) => {
      const r = parseRate(v, allowNegative);
      if (r.ok) return r.value;
      ctx.addIssue({ code: 'custom', message: rateProblemText(title, r.problem) });
      return z.NEVER;
    })
    .meta({
      title,
      description: `元/件，最多 4 位小数：数字或文本，如 1.25、"0.8"${allowNegative ? '、"-0.5"（负数为扣款）' : '；不能为负'}；绝对值不超过 99999.9999`,
    });

/** A rate in an answer. */
export const rateText = z.string().regex(/^-?\d+\.\d{4}$/).describe('元/件，4 位小数的文本，如 "1.2500"');
/** An amount in an answer. */
export const amountText = z.string().regex(/^-?\d+\.\d{2}$/).describe('元，2 位小数的文本，如 "168.01"');

/** A month `YYYY-MM`. */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
export const monthText = z.string().regex(MONTH_PATTERN).describe('YYYY-MM（工厂时区的报工日期所在月份）');

/** The optional `month` query parameter: a month `YYYY-MM`; absent: the current month in APP_TIMEZONE. */
export const monthQuery = z
  .string()
  .regex(MONTH_PATTERN, { error: '月份应为 YYYY-MM，例如 2026-03' })
  .optional()
  .meta({ title: '月份', description: 'YYYY-MM；不填为本月（工厂时区）' });

/** The `:month` path parameter. */
export const monthParams = z.object({ month: z.string().regex(MONTH_PATTERN, { error: '月份应为 YYYY-MM，例如 2026-03' }).meta({ title: '月份', description: 'YYYY-MM' }) });
