/**
 * The monthly close:
 * - `GET /api/periods` (administrators, managers): every month with reports or a close, newest first (a reader with
 *   a scope: its reports' counts, no close amounts; queries/periods.ts), and whether the reader's scope is the
 *   whole factory (only such a manager closes);
 * - `POST /api/periods/:month/close` (managers): closes the month → its figures; 409 with every blocker at once;
 * - `POST /api/periods/:month/reopen {reason}` (managers): opens it again; a later close is version 2.
 * While a month is closed, every write into it answers 409 PERIOD_CLOSED (commands/facts.ts).
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { closePeriod, reopenPeriod, type PeriodDeps } from '../../commands/periods/handlers.ts';
import type { AppContext } from '../../context.ts';
import { formatFen } from '../../domain/money.ts';
import { listPeriods } from '../../queries/periods.ts';
import { instant, localDate, zonedIso } from '../dates.ts';
import { checkedRule } from '../json-schema.ts';
import { actorOf, defineRoute, scopeOf, type ErrorDoc } from '../route.ts';
import { isWholeFactory } from '../../domain/scope.ts';
import { CONCURRENT_MODIFICATION } from './error-docs.ts';
import { amountText, monthParams, monthText } from './money-schemas.ts';

const who = z.object({ phone: z.string().nullable(), name: z.string().nullable() });

const employeeName = z.string().nullable().describe('员工姓名（人员清单中已没有此人：null）');

/** The close's blockers (domain/errors.ts CloseBlockers): the details of each of its 409s. */
const blockersDetails = z.object({
  month: z.string(),
  blockers: z.array(z.enum(['PERIOD_NOT_ENDED', 'PERIOD_HAS_PENDING', 'PERIOD_HAS_UNPRICED'])).describe('全部阻止结账的原因'),
  pending: z.array(z.object({ reportId: z.string(), reportDate: localDate, employeePhone: z.string(), employeeName: employeeName })).describe('待审核的报工单（最多 200 张）'),
  pendingTotal: z.number().int(),
  unpriced: z
    .array(
      z.object({
        reportId: z.string(),
        reportDate: localDate,
        employeePhone: z.string(),
        employeeName: employeeName,
        productId: z.number().int(),
        projectNo: z.string(),
        productName: z.string(),
        deviceNo: z.string(),
        processName: z.string(),
      }),
    )
    .describe('报工日期没有计件单价的明细行（最多 200 行）'),
  unpricedTotal: z.number().int(),
});

/** Only a manager of the whole factory closes or reopens a month. */
const CLOSE_NEEDS_WHOLE_FACTORY: ErrorDoc = { status: 403, code: 'CLOSE_NEEDS_WHOLE_FACTORY', description: '审核范围只是部分车间或班组的经理不能结账、反结账' };

const CLOSE_ERRORS: ErrorDoc[] = [
  { status: 409, code: 'PERIOD_NOT_ENDED', description: '该月还没有结束（工厂时区）；details 列出全部阻止原因', details: blockersDetails },
  { status: 409, code: 'PERIOD_HAS_PENDING', description: '该月还有待审核的报工单（details.pending）；details 列出全部阻止原因', details: blockersDetails },
  { status: 409, code: 'PERIOD_HAS_UNPRICED', description: '该月有明细行没有单价（details.unpriced：报工单与产品）；details 列出全部阻止原因', details: blockersDetails },
  { status: 409, code: 'PERIOD_ALREADY_CLOSED', description: '该月已结账', details: z.object({ month: z.string(), version: z.number().int() }) },
  CONCURRENT_MODIFICATION,
  CLOSE_NEEDS_WHOLE_FACTORY,
];

const periodDeps = (ctx: AppContext): PeriodDeps => ({ commands: ctx.commands, pool: ctx.db.pool, timeZone: ctx.config.timeZone });

export const periodListRoute = defineRoute({
  method: 'get',
  path: '/api/periods',
  readModels: ['wages'],
  tag: 'wages',
  summary: '月份列表与结账状态（管理员、经理；有报工单或结过账的月份，新的在前）',
  description:
    '审核范围只是部分车间或班组的读者：已通过、待审核只计其范围内的报工单；结账金额、员工数和结账记录的金额是全厂的，为 null。' +
    'wholeFactory 表示读者的审核范围是否为全厂（只有全厂范围的经理能结账、反结账）。',
  access: access.wages,
  response: z.object({
    wholeFactory: z.boolean().describe('读者的审核范围是否为全厂；只有全厂范围的经理能结账、反结账'),
    items: z.array(
      z.object({
        month: monthText,
        status: z.enum(['open', 'closed']),
        version: z.number().int().describe('结账次数'),
        closedAt: instant.nullable().describe('最近一次结账时间'),
        closedBy: who.nullable(),
        amount: amountText.nullable().describe('最近一次结账的总金额（没有结过账，或读者的审核范围不是全厂：null）'),
        workers: z.number().int().nullable().describe('最近一次结账的员工数（同上）'),
        reports: z.number().int().describe('已通过的报工单数（读者审核范围内）'),
        pendingReports: z.number().int().describe('待审核的报工单数（读者审核范围内）'),
        history: z
          .array(
            z.object({
              action: z.enum(['closed', 'reopened']),
              actionLabel: z.enum(['结账', '反结账']),
              version: z.number().int(),
              at: instant,
              by: who,
              amount: amountText.nullable().describe('该次结账的金额（读者的审核范围不是全厂：null）'),
              reason: z.string().optional(),
            }),
          )
          .describe('结账与反结账记录（谁、何时、金额、原因）'),
      }),
    ),
  }),
  example: {
    response: {
      wholeFactory: true,
      items: [
        {
          month: '2026-03',
          status: 'closed',
          version: 2,
          closedAt: '2026-04-03T10:00:00+08:00',
          closedBy: { phone: '13800000002', name: '李经理' },
          amount: '13065.00',
          workers: 1,
          reports: 22,
          pendingReports: 0,
          history: [
            { action: 'closed', actionLabel: '结账', version: 1, at: '2026-04-02T09:00:00+08:00', by: { phone: '13800000002', name: '李经理' }, amount: '13060.00' },
            { action: 'reopened', actionLabel: '反结账', version: 1, at: '2026-04-02T15:00:00+08:00', by: { phone: '13800000002', name: '李经理' }, amount: '13060.00', reason: '补录单价' },
            { action: 'closed', actionLabel: '结账', version: 2, at: '2026-04-03T10:00:00+08:00', by: { phone: '13800000002', name: '李经理' }, amount: '13065.00' },
          ],
        },
      ],
    },
  },
  async handler({ user }, ctx) {
    const scope = scopeOf(user);
    const items = await listPeriods(ctx.db.pool, scope);
    return {
      wholeFactory: isWholeFactory(scope),
      items: items.map((p) => ({
        month: p.month,
        status: p.status,
        version: p.version,
        closedAt: p.closedAt ? zonedIso(ctx, p.closedAt) : null,
        closedBy: p.closedBy,
        amount: p.amountFen === null ? null : formatFen(p.amountFen),
        workers: p.workers,
        reports: p.reports,
        pendingReports: p.pendingReports,
        history: p.history.map(({ amountFen, at, ...h }) => ({
          ...h,
          actionLabel: h.action === 'closed' ? '结账' : '反结账',
          at: zonedIso(ctx, at),
          amount: amountFen === null ? null : formatFen(amountFen),
        })),
      })),
    };
  },
});

export const periodCloseRoute = defineRoute({
  method: 'post',
  path: '/api/periods/:month/close',
  tag: 'wages',
  summary: '月结：结账（经理）',
  description:
    '该月结束后、没有待审核的报工单、每行明细都有单价时才能结账；否则 409，details 一次列出全部原因（待审核的报工单、没有单价的明细行）。' +
    '结账后，该月报工单的审核、修正、驳回、修改休息时间，以及生效日期在该月的调价，都答 409 PERIOD_CLOSED；该月工资单保持结账时的金额。',
  access: access.periodClose,
  params: monthParams,
  response: z.object({
    month: monthText,
    status: z.literal('closed'),
    version: z.number().int().describe('第几次结账'),
    closedAt: instant,
    closedBy: who,
    amount: amountText.describe('该月计件工资总额'),
    workers: z.number().int(),
  }),
  errors: CLOSE_ERRORS,
  example: {
    params: { month: '2026-03' },
    response: { month: '2026-03', status: 'closed', version: 1, closedAt: '2026-04-02T09:00:00+08:00', closedBy: { phone: '13800000002', name: '李经理' }, amount: '13065.00', workers: 1 },
  },
  async handler({ params, user, req }, ctx) {
    const c = await closePeriod(periodDeps(ctx), actorOf(user, req), params.month);
    return { month: c.month, status: c.status, version: c.version, closedAt: zonedIso(ctx, c.closedAt), closedBy: c.closedBy, amount: formatFen(c.amountFen), workers: c.workers };
  },
});

export const periodReopenRoute = defineRoute({
  method: 'post',
  path: '/api/periods/:month/reopen',
  tag: 'wages',
  summary: '月结：反结账（经理，必须填写原因）',
  description: '重新打开已结账的月份；之后再结账，版本号加 1，工资单同时显示上一次结账的金额。',
  access: access.periodClose,
  params: monthParams,
  body: z.object({
    reason: checkedRule(z.string().meta({ title: '反结账原因', description: '1–200 个字' }), { minLength: 1, maxLength: 200, pattern: '\\S' }),
  }),
  response: z.object({ month: monthText, status: z.literal('open'), version: z.number().int().describe('被重新打开的那次结账的版本号') }),
  errors: [
    { status: 409, code: 'PERIOD_NOT_CLOSED', description: '该月没有结账', details: z.object({ month: z.string() }) },
    { status: 422, code: 'INVALID_REASON', description: '没有填写原因，或超过 200 字' },
    CONCURRENT_MODIFICATION,
    CLOSE_NEEDS_WHOLE_FACTORY,
  ],
  example: { params: { month: '2026-03' }, body: { reason: '补录漏审的报工单' }, response: { month: '2026-03', status: 'open', version: 1 } },
  async handler({ params, body, user, req }, ctx) {
    return reopenPeriod(periodDeps(ctx), actorOf(user, req), params.month, body.reason);
  },
});

export const periodRoutes = [periodListRoute, periodCloseRoute, periodReopenRoute];
