/**
 * Work orders (生产工单; domain/work-orders.ts, commands/work-orders/, queries/work-orders.ts), administrators and
 * managers (scope does not narrow orders; it narrows the reports listed under one):
 * - `POST /api/work-orders {orderNo, projectNo, productName, plannedQty, dueDate?, notes?, operations}` → 201 the order;
 * - `GET /api/work-orders?status=&late=true&q=&dueFrom=&dueTo=&page=&pageSize=` → a page of orders with progress;
 * - `GET /api/work-orders/:orderNo` → the order with progress and its audit trail;
 * - `GET /api/work-orders/:orderNo/reports?processName=&page=&pageSize=` → the reports naming it, with their lines for it;
 * - `PATCH /api/work-orders/:orderNo {plannedQty?, dueDate?, notes?, operations?}`;
 * - `POST /api/work-orders/:orderNo/complete`, `/close {reason}`, `/reopen {reason}`, `/cancel`.
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import {
  cancelWorkOrder,
  changeWorkOrder,
  closeWorkOrder,
  completeWorkOrder,
  releaseWorkOrder,
  reopenWorkOrder,
} from '../../commands/work-orders/handlers.ts';
import { domainError } from '../../domain/errors.ts';
import { NOTES_MAX, OPERATIONS_MAX, ORDER_NO_MAX, ORDER_NO_RE, PLANNED_QTY_MAX, REASON_MAX, SHOWN_STATUSES } from '../../domain/work-orders.ts';
import { listWorkOrders, workOrderAudit, workOrderItem, workOrderReports, type WorkOrderItem } from '../../queries/work-orders.ts';
import { localDate as localDateOf } from '../../time.ts';
import type { AppContext } from '../../context.ts';
import { instant, localDate, optionalLocalDate, zonedIso } from '../dates.ts';
import { checkedRule } from '../json-schema.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { actorOf, defineRoute, type ErrorDoc } from '../route.ts';
import { CONCURRENT_MODIFICATION, PLATFORM_ERRORS } from './error-docs.ts';
import { RawBody } from '../route.ts';
import { ticketSceneFor, workOrderTicket } from '../../platform/work-order-tickets.ts';
import { importRoutes } from './import-routes.ts';
import { workOrderImport } from '../../work-orders/import.ts';
import { reportLineSchema, reportStatus } from './review-schemas.ts';

const orderNo = z
  .string()
  .regex(ORDER_NO_RE, { error: `工单号请填写 1–${ORDER_NO_MAX} 个字符，不能有空格和 / ? # % \\` })
  .meta({ title: '工单号', description: `1–${ORDER_NO_MAX} 个字符，不含空格和 / ? # % \\，例如 WO-2611-07（与 ERP 中的一致）` });
const plannedQty = checkedRule(z.number().meta({ title: '计划数量', description: `1–${PLANNED_QTY_MAX} 的整数（件）` }), { type: 'integer', minimum: 1, maximum: PLANNED_QTY_MAX });
const dueDate = localDate.nullable().meta({ title: '交期', description: 'YYYY-MM-DD（工厂时区）；null 表示没有交期' });
const notes = checkedRule(z.string().nullable().meta({ title: '备注', description: `最多 ${NOTES_MAX} 个字；null 或空表示没有` }), { maxLength: NOTES_MAX });
const operations = checkedRule(
  z.array(z.string().max(50)).meta({ title: '工序路线', description: `按顺序的工序名称，1–${OPERATIONS_MAX} 道，每道一次，都须是该产品在产品清单中的工序` }),
  { minItems: 1, maxItems: OPERATIONS_MAX, uniqueItems: true },
);
const reason = checkedRule(z.string().meta({ title: '原因', description: `1–${REASON_MAX} 个字` }), { minLength: 1, maxLength: REASON_MAX });

const operationSchema = z.object({
  sequence: z.number().int().describe('第几道工序（从 1 开始）'),
  processName: z.string().describe('工序'),
  approvedFinishedQty: z.number().int().describe('已通过的成品（件）'),
  approvedDefectiveQty: z.number().int().describe('已通过的不良（件）'),
  pendingFinishedQty: z.number().int().describe('待审核的成品（件）'),
  pendingDefectiveQty: z.number().int().describe('待审核的不良（件）'),
  reports: z.number().int().describe('报工单数（已通过与待审核）'),
  workers: z.number().int().describe('员工人数（已通过与待审核）'),
  firstReportDate: localDate.nullable().describe('最早报工日期'),
  lastReportDate: localDate.nullable().describe('最近报工日期'),
});
const orderSchema = z.object({
  orderNo: z.string(),
  projectNo: z.string(),
  productName: z.string(),
  plannedQty: z.number().int(),
  dueDate: localDate.nullable(),
  notes: z.string().nullable(),
  status: z.enum(SHOWN_STATUSES).describe('released 已下达、in_progress 生产中（已有报工）、completed 已完工、closed 已关闭、cancelled 已作废'),
  statusReason: z.string().nullable().describe('最近一次关闭或重新打开的原因'),
  late: z.boolean().describe('逾期：今天已过交期且工单仍未完工、关闭或作废'),
  goodQty: z.number().int().describe('合格产出：最后一道工序已通过的成品'),
  completionPct: z.number().describe('完成率 %（goodQty ÷ plannedQty，1 位小数）'),
  operations: z.array(operationSchema),
  releasedAt: instant.describe('下达时间'),
  changedAt: instant.describe('最近修改时间'),
});
const auditSchema = z.object({
  version: z.number().int().describe('工单记录的第几条'),
  type: z.string().describe('WorkOrderReleased 下达、WorkOrderChanged 修改、WorkOrderOperationsChanged 改工序、WorkOrderCompleted 完工、WorkOrderClosed 关闭、WorkOrderReopened 重新打开、WorkOrderCancelled 作废'),
  at: instant,
  actorPhone: z.string().nullable(),
  actorName: z.string().nullable(),
  role: z.string().nullable(),
  changes: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() })).describe('改了什么：字段、之前、之后'),
  reason: z.string().nullable(),
});

const answer = (ctx: AppContext, o: WorkOrderItem) => ({ ...o, releasedAt: zonedIso(ctx, o.releasedAt), changedAt: zonedIso(ctx, o.changedAt) });
const today = (ctx: AppContext) => localDateOf(ctx.clock.now(), ctx.config.timeZone);
/** The order as the API answers it after a command (read again: with its progress), or 404. */
async function current(ctx: AppContext, no: string) {
  const o = await workOrderItem(ctx.db.pool, no, today(ctx));
  if (!o) throw domainError('WORK_ORDER_NOT_FOUND', { orderNo: no });
  return answer(ctx, o);
}

const NOT_FOUND: ErrorDoc = { status: 404, code: 'WORK_ORDER_NOT_FOUND', description: '没有这个工单（details.orderNo）', details: z.object({ orderNo: z.string() }) };
const STATUS: ErrorDoc = {
  status: 409,
  code: 'WORK_ORDER_STATUS',
  description: '工单当前状态（details.status）不允许这个操作',
  details: z.object({ orderNo: z.string(), status: z.string() }),
};
const REPORTED: ErrorDoc = {
  status: 409,
  code: 'WORK_ORDER_REPORTED',
  description: '已有报工单写了这个工单（作废），或写了要删除的工序（details.processNames）',
  details: z.object({ orderNo: z.string(), processNames: z.array(z.string()) }),
};
const INVALID: ErrorDoc = {
  status: 422,
  code: 'INVALID_WORK_ORDER',
  description: '工单的字段不符合规则（details.field）',
  details: z.object({ field: z.enum(['orderNo', 'projectNo', 'productName', 'plannedQty', 'dueDate', 'notes', 'operations', 'reason']) }),
};
const UNKNOWN_OPERATION: ErrorDoc = {
  status: 422,
  code: 'UNKNOWN_WORK_ORDER_OPERATION',
  description: '工序路线中有该产品在产品清单中没有的工序（details.processNames）',
  details: z.object({ processNames: z.array(z.string()) }),
};
const UNKNOWN_PRODUCT: ErrorDoc = {
  status: 422,
  code: 'UNKNOWN_WORK_ORDER_PRODUCT',
  description: '产品清单中没有这个项目号 + 产品名称',
  details: z.object({ projectNo: z.string(), productName: z.string() }),
};

const EXAMPLE_OPS = [
  { sequence: 1, processName: '冲压', approvedFinishedQty: 500, approvedDefectiveQty: 3, pendingFinishedQty: 0, pendingDefectiveQty: 0, reports: 1, workers: 1, firstReportDate: '2026-03-02', lastReportDate: '2026-03-02' },
  { sequence: 2, processName: '折弯', approvedFinishedQty: 480, approvedDefectiveQty: 2, pendingFinishedQty: 0, pendingDefectiveQty: 0, reports: 1, workers: 1, firstReportDate: '2026-03-03', lastReportDate: '2026-03-03' },
];
const EXAMPLE = {
  orderNo: 'WO-2611-07',
  projectNo: 'P-2026-01',
  productName: '前围横梁',
  plannedQty: 5000,
  dueDate: '2026-03-06',
  notes: null,
  status: 'in_progress' as const,
  statusReason: null,
  late: false,
  goodQty: 480,
  completionPct: 9.6,
  operations: EXAMPLE_OPS,
  releasedAt: '2026-03-01T09:00:00+08:00',
  changedAt: '2026-03-01T09:00:00+08:00',
};
const RELEASE_BODY = { orderNo: 'WO-2611-07', projectNo: 'P-2026-01', productName: '前围横梁', plannedQty: 5000, dueDate: '2026-03-06', operations: ['冲压', '折弯'] };
const FRESH = { ...EXAMPLE, status: 'released' as const, goodQty: 0, completionPct: 0, operations: EXAMPLE_OPS.map((o) => ({ ...o, approvedFinishedQty: 0, approvedDefectiveQty: 0, reports: 0, workers: 0, firstReportDate: null, lastReportDate: null })) };
const params = z.object({ orderNo });

export const workOrderCreateRoute = defineRoute({
  method: 'post',
  path: '/api/work-orders',
  tag: 'work-orders',
  summary: '下达工单（管理员、经理）',
  description: '产品须在产品清单中（项目号 + 产品名称），工序路线的每道工序须是该产品在产品清单中的工序。',
  access: access.workOrders,
  body: z.object({ orderNo, projectNo: z.string().max(100).meta({ title: '项目号' }), productName: z.string().max(100).meta({ title: '产品名称' }), plannedQty, dueDate: dueDate.optional(), notes: notes.optional(), operations }),
  status: 201,
  response: orderSchema,
  errors: [{ status: 409, code: 'WORK_ORDER_EXISTS', description: '工单号已存在（含已作废的工单）', details: z.object({ orderNo: z.string() }) }, INVALID, UNKNOWN_PRODUCT, UNKNOWN_OPERATION, CONCURRENT_MODIFICATION],
  example: { body: RELEASE_BODY, response: FRESH },
  async handler({ body, user, req }, ctx) {
    const o = await releaseWorkOrder(ctx.commands, actorOf(user, req), body);
    return current(ctx, o.orderNo);
  },
});

export const workOrderListRoute = defineRoute({
  method: 'get',
  path: '/api/work-orders',
  tag: 'work-orders',
  summary: '工单列表与进度（管理员、经理）：按交期从早到晚',
  access: access.workOrders,
  query: pageQuery.extend({
    status: z.enum(SHOWN_STATUSES).optional().meta({ title: '状态' }),
    late: z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => v === 'true')
      .meta({ title: '只看逾期', description: 'true：只列逾期的工单' }),
    q: z.string().max(100).optional().meta({ title: '搜索', description: '工单号、项目号或产品名称中的文字' }),
    dueFrom: optionalLocalDate('交期从'),
    dueTo: optionalLocalDate('交期到'),
  }),
  response: pageOf(orderSchema),
  example: { query: { late: 'true' }, response: { items: [EXAMPLE], page: 1, pageSize: 20, total: 1 } },
  async handler({ query }, ctx) {
    const { page, pageSize, ...filter } = query;
    const p = await listWorkOrders(ctx.db.pool, filter, { page, pageSize }, today(ctx));
    return { ...p, items: p.items.map((o) => answer(ctx, o)) };
  },
});

export const workOrderGetRoute = defineRoute({
  method: 'get',
  path: '/api/work-orders/:orderNo',
  tag: 'work-orders',
  summary: '一个工单：进度与修改记录（管理员、经理）',
  access: access.workOrders,
  params,
  response: orderSchema.extend({ audit: z.array(auditSchema).describe('修改记录：谁、何时、改了什么（从早到晚）') }),
  errors: [NOT_FOUND],
  example: {
    params: { orderNo: 'WO-2611-07' },
    response: {
      ...EXAMPLE,
      audit: [
        {
          version: 1,
          type: 'WorkOrderReleased',
          at: '2026-03-01T09:00:00+08:00',
          actorPhone: '13800000002',
          actorName: '李经理',
          role: 'manager',
          changes: [{ field: 'plannedQty', before: null, after: 5000 }],
          reason: null,
        },
      ],
    },
  },
  async handler({ params: p }, ctx) {
    const o = await current(ctx, p.orderNo);
    const audit = (await workOrderAudit(ctx.db.pool, ctx.store, p.orderNo)).map((a) => ({ ...a, at: zonedIso(ctx, a.at) }));
    return { ...o, audit };
  },
});

export const workOrderReportsRoute = defineRoute({
  method: 'get',
  path: '/api/work-orders/:orderNo/reports',
  tag: 'work-orders',
  summary: '写了这个工单的报工单（管理员、经理；审核范围内），每张只列该工单的明细行',
  access: access.workOrders,
  params,
  query: pageQuery.extend({ processName: z.string().max(50).optional().meta({ title: '工序', description: '只看这道工序的' }) }),
  response: pageOf(
    z.object({
      reportId: z.string(),
      reportDate: localDate,
      employeePhone: z.string(),
      employeeName: z.string().nullable(),
      status: reportStatus,
      workshopCode: z.string().nullable(),
      teamCode: z.string().nullable(),
      lines: z.array(reportLineSchema),
    }),
  ),
  errors: [NOT_FOUND],
  example: {
    params: { orderNo: 'WO-2611-07' },
    query: {},
    response: { items: [], page: 1, pageSize: 20, total: 0 },
  },
  async handler({ params: p, query, user }, ctx) {
    await current(ctx, p.orderNo);
    const { page, pageSize, processName } = query;
    return workOrderReports(ctx.db.pool, p.orderNo, { phone: user.phone, role: user.role }, { page, pageSize }, processName);
  },
});

export const workOrderPatchRoute = defineRoute({
  method: 'patch',
  path: '/api/work-orders/:orderNo',
  tag: 'work-orders',
  summary: '修改工单：计划数量、交期、备注、工序路线（管理员、经理；留修改记录）',
  description: '不填的字段不变。工序可以追加；已有报工的工序不能删除。已作废的工单不能修改。',
  access: access.workOrders,
  params,
  body: z.object({ plannedQty: plannedQty.optional(), dueDate: dueDate.optional(), notes: notes.optional(), operations: operations.optional() }),
  response: orderSchema,
  errors: [NOT_FOUND, STATUS, REPORTED, INVALID, UNKNOWN_OPERATION, CONCURRENT_MODIFICATION],
  example: { params: { orderNo: 'WO-2611-07' }, body: { plannedQty: 5200, operations: ['冲压', '折弯'] }, response: { ...EXAMPLE, plannedQty: 5200, completionPct: 9.2 } },
  async handler({ params: p, body, user, req }, ctx) {
    await changeWorkOrder(ctx.commands, actorOf(user, req), p.orderNo, body);
    return current(ctx, p.orderNo);
  },
});

type Actor = ReturnType<typeof actorOf>;
const actionBase = (path: string, summary: string, errors: ErrorDoc[]) => ({
  method: 'post' as const,
  path: `/api/work-orders/:orderNo/${path}`,
  tag: 'work-orders',
  summary,
  access: access.workOrders,
  params,
  response: orderSchema,
  errors: [NOT_FOUND, STATUS, ...errors, CONCURRENT_MODIFICATION],
});
/** A status action without a body (complete, cancel) → the order as it stands. */
const action = (path: string, summary: string, run: (ctx: AppContext, actor: Actor, no: string) => Promise<unknown>, errors: ErrorDoc[]) =>
  defineRoute({
    ...actionBase(path, summary, errors),
    example: { params: { orderNo: 'WO-2611-07' }, response: EXAMPLE },
    async handler({ params: p, user, req }, ctx) {
      await run(ctx, actorOf(user, req), p.orderNo);
      return current(ctx, p.orderNo);
    },
  });
/** A status action with a reason (close, reopen) → the order as it stands. */
const reasonAction = (path: string, summary: string, run: (ctx: AppContext, actor: Actor, no: string, reason: string) => Promise<unknown>) =>
  defineRoute({
    ...actionBase(path, summary, [INVALID]),
    body: z.object({ reason }),
    example: { params: { orderNo: 'WO-2611-07' }, body: { reason: '材料不足，短缺关闭' }, response: EXAMPLE },
    async handler({ params: p, body, user, req }, ctx) {
      await run(ctx, actorOf(user, req), p.orderNo, body.reason);
      return current(ctx, p.orderNo);
    },
  });

export const workOrderCompleteRoute = action('complete', '完工（管理员、经理）：已下达或生产中的工单', (ctx, a, no) => completeWorkOrder(ctx.commands, a, no), []);
export const workOrderCloseRoute = reasonAction('close', '关闭工单（管理员、经理），须填原因，例如短缺关闭', (ctx, a, no, r) => closeWorkOrder(ctx.commands, a, no, r));
export const workOrderReopenRoute = reasonAction('reopen', '重新打开已完工或已关闭的工单（管理员、经理），须填原因', (ctx, a, no, r) => reopenWorkOrder(ctx.commands, a, no, r));
export const workOrderCancelRoute = action('cancel', '作废工单（管理员、经理）：只有还没有报工的工单可以作废', (ctx, a, no) => cancelWorkOrder(ctx.commands, a, no), [REPORTED]);

const importRow = z.object({
  row: z.number().int().describe('表格中的行号'),
  orderNo: z.string(),
  projectNo: z.string(),
  productName: z.string(),
  plannedQty: z.number().int(),
  dueDate: z.string().nullable(),
  notes: z.string().nullable(),
  operations: z.array(z.string()),
  changes: z
    .array(z.object({ field: z.enum(['plannedQty', 'dueDate', 'notes', 'operations']), label: z.string(), from: z.union([z.string(), z.number(), z.null()]), to: z.union([z.string(), z.number(), z.null()]) }))
    .optional()
    .describe('更新行：改变的字段（工序路线以 → 连接）'),
});

export const [workOrderImportRoute, workOrderImportConfirmRoute] = importRoutes({
  base: '/api/work-orders',
  tag: 'work-orders',
  kind: workOrderImport,
  title: '工单',
  description:
    'multipart/form-data，文件放在字段 file（.xlsx 或 .xls，≤ 10 MB，≤ 50000 行）。列：工单号、项目号、产品名称、计划数量、交期、工序路线（如 冲压→折弯→焊接 或 冲压,折弯,焊接）、备注。' +
    '返回预览：新增、更新（计划数量、交期、备注、工序路线）、不变和错误行；用 importId 确认后才写入，每个工单的下达和修改都留修改记录。',
  previewRow: importRow,
  exampleRow: { row: 2, orderNo: 'WO-2611-07', projectNo: 'P-2026-01', productName: '前围横梁', plannedQty: 5000, dueDate: '2026-03-06', notes: null, operations: ['冲压', '折弯'] },
  exampleError: { row: 3, code: 'unknown_product', reason: '产品清单中没有项目号 P-2026-09、产品名称「后围板」的产品，请先导入产品清单', values: { 工单号: 'WO-2611-08', 项目号: 'P-2026-09', 产品名称: '后围板', 计划数量: 200, 交期: null, 工序路线: '冲压', 备注: null } },
  confirmErrors: [REPORTED, CONCURRENT_MODIFICATION],
});

export const workOrderTicketRoute = defineRoute({
  method: 'get',
  path: '/api/work-orders/:orderNo/ticket.png',
  tag: 'work-orders',
  summary: '工票：工单的小程序码图片（管理员、经理；打印在工单上）',
  description: `scene 为 o=<工单短码>（例如 WO-2611-07 的是 ${ticketSceneFor('WO-2611-07')}），页面 pages/report/report，版本取 WX_ENV_VERSION。员工在报工单上“扫工票”选择这个工单。`,
  access: access.workOrders,
  params,
  example: { params: { orderNo: 'WO-2611-07' } },
  responseContentType: 'image/png',
  errors: [NOT_FOUND, ...PLATFORM_ERRORS, { status: 502, code: 'PLATFORM_PAGE_NOT_FOUND', description: '小程序页面不存在或未发布（41030）' }],
  async handler({ params: p }, ctx) {
    const t = await workOrderTicket(ctx, p.orderNo);
    return new RawBody(t.contentType, t.image, undefined, { 'cache-control': 'no-cache' });
  },
});

export const workOrderRoutes = [
  workOrderImportRoute,
  workOrderImportConfirmRoute,
  workOrderCreateRoute,
  workOrderListRoute,
  workOrderGetRoute,
  workOrderReportsRoute,
  workOrderTicketRoute,
  workOrderPatchRoute,
  workOrderCompleteRoute,
  workOrderCloseRoute,
  workOrderReopenRoute,
  workOrderCancelRoute,
];
