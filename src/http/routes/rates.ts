/**
 * Piece rates, administrators and managers (`access.wages`):
 * - `POST /api/products/:productId/rates {pieceRate, defectRate?, materialDefectRate?, effectiveFrom, reason?}` →
 *   201 the entry (materialDefectRate 料废单价: omitted, 料废 is priced at the defect rate), rates
 *   as text with 4 decimals; the same `effectiveFrom` again replaces the entry (also an event);
 * - `GET /api/products/:productId/rates` → every entry, newest `effectiveFrom` first, with who set it and when.
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { setRate, type RateAnswer } from '../../commands/rates/handlers.ts';
import { formatRate } from '../../domain/money.ts';
import { rateHistory } from '../../queries/rates.ts';
import { instant, localDate, zonedIso } from '../dates.ts';
import { checkedRule } from '../json-schema.ts';
import { actorOf, defineRoute, type ErrorDoc } from '../route.ts';
import { CONCURRENT_MODIFICATION, PERIOD_CLOSED } from './error-docs.ts';
import { rateInput, rateText } from './money-schemas.ts';

const productParams = z.object({
  productId: z.string().regex(/^[1-9]\d{0,14}$/, { error: '产品编号应为正整数' }).meta({ title: '产品编号', description: '产品列表中的 id' }),
});

/** 404 of a rate route: no such product. */
export const PRODUCT_NOT_FOUND: ErrorDoc = { status: 404, code: 'PRODUCT_NOT_FOUND', description: '没有这个产品（或已删除）' };

/** The rate fields of a request (this route's body; also `POST /api/products`). */
export const rateFields = {
  pieceRate: rateInput('计件单价', false),
  defectRate: rateInput('不良单价', true).optional(),
  materialDefectRate: rateInput('料废单价', true)
    .describe('料废（材料造成的不良）的单价，元/件，可为负；不填则与不良单价相同（料废按不良单价计，与以前一样）')
    .optional(),
  effectiveFrom: localDate.meta({ title: '生效日期', description: 'YYYY-MM-DD（工厂时区），从这天起生效，直到下一次调价' }),
  reason: checkedRule(z.string().meta({ title: '调价原因', description: '可不填；最多 200 个字' }), { maxLength: 200 }).optional(),
};

/** The entry as answered: rates as text with 4 decimals. */
export const rateAnswer = (a: RateAnswer) => ({
  productId: a.productId,
  pieceRate: formatRate(a.pieceRate),
  defectRate: formatRate(a.defectRate),
  materialDefectRate: formatRate(a.materialDefectRate ?? a.defectRate),
  effectiveFrom: a.effectiveFrom,
});
export const rateAnswerSchema = z.object({
  productId: z.number().int(),
  pieceRate: rateText,
  defectRate: rateText,
  materialDefectRate: rateText.describe('料废单价（未设置时等于不良单价）'),
  effectiveFrom: localDate,
});

/** Errors of setting a rate (commands/rates/decider.ts). */
export const RATE_ERRORS: ErrorDoc[] = [
  PERIOD_CLOSED,
  CONCURRENT_MODIFICATION,
  { status: 422, code: 'INVALID_REASON', description: '调价原因超过 200 字' },
];

export const rateSetRoute = defineRoute({
  method: 'post',
  path: '/api/products/:productId/rates',
  tag: 'wages',
  summary: '设置产品的计件单价（管理员、经理；从生效日期起有效，直到下一次调价）',
  description:
    '单价为元/件，最多 4 位小数，可用数字或文本（"1.25"、0.8、"-0.5"）；计件单价不能为负，不良单价可为负（扣款）或正（料废计酬），默认 0。' +
    '同一生效日期再次设置会替换该条（也记为一次调价）。生效日期所在月份已结账时拒绝（409 PERIOD_CLOSED）。',
  access: access.wages,
  params: productParams,
  body: z.object(rateFields),
  status: 201,
  response: rateAnswerSchema,
  errors: [PRODUCT_NOT_FOUND, ...RATE_ERRORS],
  example: {
    params: { productId: '12' },
    body: { pieceRate: '1.25', defectRate: '-0.5', materialDefectRate: '1.25', effectiveFrom: '2026-03-15', reason: '三月中旬调价' },
    response: { productId: 12, pieceRate: '1.2500', defectRate: '-0.5000', materialDefectRate: '1.2500', effectiveFrom: '2026-03-15' },
  },
  async handler({ params, body, user, req }, ctx) {
    const answer = await setRate(ctx.commands, actorOf(user, req), {
      productId: Number(params.productId),
      effectiveFrom: body.effectiveFrom,
      pieceRate: body.pieceRate,
      defectRate: body.defectRate ?? 0,
      ...(body.materialDefectRate !== undefined ? { materialDefectRate: body.materialDefectRate } : {}),
      reason: body.reason,
    });
    return rateAnswer(answer);
  },
});

export const rateHistoryRoute = defineRoute({
  method: 'get',
  path: '/api/products/:productId/rates',
  tag: 'wages',
  summary: '产品的单价记录（管理员、经理；生效日期新的在前）',
  access: access.wages,
  params: productParams,
  response: z.object({
    items: z.array(
      z.object({
        pieceRate: rateText,
        defectRate: rateText,
        materialDefectRate: rateText.describe('料废单价（未设置时等于不良单价）'),
        effectiveFrom: localDate.describe('从这天起生效，直到下一条的生效日期'),
        setAt: instant.describe('设置时间'),
        setBy: z.object({ phone: z.string().nullable(), name: z.string().nullable() }).describe('设置人'),
        reason: z.string().optional(),
      }),
    ),
  }),
  errors: [PRODUCT_NOT_FOUND],
  example: {
    params: { productId: '12' },
    response: {
      items: [
        { pieceRate: '1.2500', defectRate: '-0.5000', materialDefectRate: '1.2500', effectiveFrom: '2026-03-15', setAt: '2026-03-14T09:00:00+08:00', setBy: { phone: '13800000002', name: '李经理' }, reason: '三月中旬调价' },
        { pieceRate: '1.2000', defectRate: '0.0000', materialDefectRate: '0.0000', effectiveFrom: '2026-03-01', setAt: '2026-02-27T10:00:00+08:00', setBy: { phone: '13800000002', name: '李经理' } },
      ],
    },
  },
  async handler({ params }, ctx) {
    const items = await rateHistory(ctx.db.pool, Number(params.productId));
    return {
      items: items.map((r) => ({
        ...r,
        pieceRate: formatRate(r.pieceRate),
        defectRate: formatRate(r.defectRate),
        materialDefectRate: formatRate(r.materialDefectRate),
        setAt: zonedIso(ctx, r.setAt),
      })),
    };
  },
});

export const rateRoutes = [rateSetRoute, rateHistoryRoute];
