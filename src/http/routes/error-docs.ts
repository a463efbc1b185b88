/**
 * Error answers that several routes share, as the document lists them (one entry per code, with the zod schema of
 * its `details`). Where each is thrown: the command or module named in its description.
 */
import { z } from 'zod';
import { ALL_LABELS } from '../../domain/labels.ts';
import type { ErrorDoc } from '../route.ts';

/** 409 from the event store (events/store.ts): every retry of a command lost a race. */
export const CONCURRENT_MODIFICATION: ErrorDoc = {
  status: 409,
  code: 'CONCURRENT_MODIFICATION',
  description: '同时有其他操作修改了同一数据，重试多次仍冲突：刷新后重试',
};

/** 409 of a write into a closed month (commands/facts.ts: the month is a fact of every write into it). */
export const PERIOD_CLOSED: ErrorDoc = {
  status: 409,
  code: 'PERIOD_CLOSED',
  description: '该月已结账（details.month）：不能再修改，需经理先反结账',
  details: z.object({ month: z.string() }),
};

const label = z.enum(ALL_LABELS).describe('此刻扫码应显示的标签');

/** 409 of the clock operations and the report (commands/clock/rules.ts). */
export const CLOCK_STATE_CONFLICT: ErrorDoc = {
  status: 409,
  code: 'CLOCK_STATE_CONFLICT',
  description: '操作与当前状态不符：details.label 是此刻应点击的标签，details.sessionId 是相关的上班记录',
  details: z.object({ label, sessionId: z.string().optional() }),
};

export const DEVICE_NOT_FOUND: ErrorDoc = {
  status: 404,
  code: 'DEVICE_NOT_FOUND',
  description: '没有产品使用这台设备（扫描的设备码不是本厂的，或设备已从产品清单移除）',
};

/** The report window and session errors of the draft and the submission (commands/clock/rules.ts). */
export const WINDOW_ERRORS: ErrorDoc[] = [
  { status: 404, code: 'SESSION_NOT_FOUND', description: '没有这条上班记录（或不是本人的）' },
  {
    status: 409,
    code: 'REPORT_WINDOW_EXPIRED',
    description: '已超过填写时限：重新扫码并点击“重新报工”（details.label = 重新报工）',
    details: z.object({ label: z.literal('重新报工'), sessionId: z.string() }),
  },
  {
    status: 409,
    code: 'REPORT_ALREADY_SUBMITTED',
    description: '这次上班已提交过报工单（details.reportId）',
    details: z.object({ sessionId: z.string(), reportId: z.string().optional() }),
  },
  {
    status: 409,
    code: 'SESSION_ABANDONED',
    description: '上班超过 SESSION_MAX_HOURS 小时未报工，已自动结束（details.label = 开始上班）',
    details: z.object({ label: z.literal('开始上班'), sessionId: z.string() }),
  },
  { ...CLOCK_STATE_CONFLICT, description: '还没有下班报工（details.label = 下班报工）' },
];

const line = z.number().int().describe('第几行（从 1 开始）');

/** The 422 errors of report lines (commands/report-lines.ts), for the submission and the approval. */
export const LINE_ERRORS: ErrorDoc[] = [
  { status: 422, code: 'NO_LINES', description: '没有明细行' },
  { status: 422, code: 'TOO_MANY_LINES', description: '明细行超过 200 行' },
  {
    status: 422,
    code: 'INVALID_QUANTITY',
    description: '数量不是 0–10000000 的整数',
    details: z.object({ line, field: z.enum(['finishedQty', 'defectiveQty', 'outputQty']) }),
  },
  {
    status: 422,
    code: 'OUTPUT_QTY_MISMATCH',
    description: '产出数量不等于成品 + 不良',
    details: z.object({ line, expected: z.number().int().describe('成品 + 不良') }),
  },
  {
    status: 422,
    code: 'OUTPUT_QTY_TOO_LARGE',
    description: '成品 + 不良超过 10000000（省略产出数量时）',
    details: z.object({ line, max: z.number().int().describe('产出数量的上限') }),
  },
  { status: 422, code: 'DUPLICATE_PRODUCT', description: '同一产品填了两行', details: z.object({ line, productId: z.number() }) },
  {
    status: 422,
    code: 'INVALID_DEFECTS',
    description: '不良原因的数量不是不小于 1 的整数（problem=qty），或同一原因填了两次（problem=duplicate）；index 为该行原因列表中的序号（从 0 起）',
    details: z.object({ line, index: z.number().int(), problem: z.enum(['qty', 'duplicate']) }),
  },
  {
    status: 422,
    code: 'UNKNOWN_DEFECT_REASON',
    description: '不良原因不存在或已停用（details.reasonCode）',
    details: z.object({ line, reasonCode: z.string() }),
  },
  {
    status: 422,
    code: 'DEFECTS_SUM_MISMATCH',
    description: '各不良原因的数量合计（defectsQty）超过该行不良数量（defectiveQty）；DEFECT_REASONS_REQUIRED=true 时合计不等于不良数量',
    details: z.object({ line, defectiveQty: z.number().int(), defectsQty: z.number().int() }),
  },
  // work orders (生产工单)
  { status: 422, code: 'WORK_ORDER_NOT_FOUND', description: '该行的工单不存在（details.orderNo）', details: z.object({ orderNo: z.string(), line }) },
  {
    status: 422,
    code: 'WORK_ORDER_NOT_OPEN',
    description: '该行的工单已完工、已关闭或已作废（details.status），不能再报工',
    details: z.object({ line, orderNo: z.string(), status: z.string() }),
  },
  { status: 422, code: 'WORK_ORDER_WRONG_PRODUCT', description: '该行的产品不是工单的产品（项目号 + 产品名称）', details: z.object({ line, orderNo: z.string() }) },
  {
    status: 422,
    code: 'WORK_ORDER_WRONG_OPERATION',
    description: '该行的工序不在工单的工序路线中',
    details: z.object({ line, orderNo: z.string(), processName: z.string() }),
  },
];

/** Details of a product or person refused by its rules (products/rules.ts, people/rules.ts). */
export const problemsDetails = z.array(
  z.object({ code: z.string().describe('问题代码（snake_case）'), field: z.string().optional().describe('字段'), reason: z.string().describe('中文说明') }),
);

/** `details` of a RetryLaterError (src/errors.ts): the seconds of its Retry-After header. */
export const retryAfterDetails = z.object({ retryAfterSeconds: z.number().int().min(1).describe('多少秒后可以再试（与响应头 Retry-After 相同）') });

/**
 * 429 of the sign-in rate limits (auth/rate-limit.ts: per IP, per openid, per person confirming a web login), on
 * every route that counts attempts; the answer carries Retry-After (http/errors.ts `errorHeaders`) and the same
 * seconds in `details`.
 */
export const TOO_MANY_LOGIN_ATTEMPTS: ErrorDoc = {
  status: 429,
  code: 'TOO_MANY_LOGIN_ATTEMPTS',
  description: '登录尝试过多（同一 IP、同一微信用户或同一人员）：按响应头 Retry-After 或 details.retryAfterSeconds 等待后再试',
  details: retryAfterDetails,
  retryAfter: true,
};

/** 422 of a person refused by its rules (people/service.ts): saving a person, and adding the first administrator. */
export const PERSON_INVALID: ErrorDoc = {
  status: 422,
  code: 'PERSON_INVALID',
  description: '手机号、姓名或角色不符合要求（details 列出每个问题）',
  details: problemsDetails,
};

/** Platform failures (platform/errcodes.ts) that every platform call may give. */
export const PLATFORM_ERRORS: ErrorDoc[] = [
  { status: 429, code: 'PLATFORM_RATE_LIMITED', description: '微信接口频率限制（45011）：一分钟后再试' },
  { status: 502, code: 'PLATFORM_ERROR', description: '微信接口返回了其他错误（message 中有错误码）' },
  { status: 503, code: 'PLATFORM_UNAVAILABLE', description: '微信服务不可用（系统繁忙或网络不通）' },
];

/** 404 of a write of the organization outside the person's scope (domain/scope.ts, the rule of writes). */
export const NOT_IN_SCOPE: ErrorDoc = {
  status: 404,
  code: 'NOT_IN_SCOPE',
  description:
    '您的管理范围只是部分车间或班组，而这次修改涉及范围以外（或不存在）的车间、班组、设备，或目前在范围以外班组的员工：details.kind（workshop / team / member / device）和 details.code 指出是哪一个',
  details: z.object({ kind: z.enum(['workshop', 'team', 'member', 'device']), code: z.string() }),
};

/** 403 of a write only a person of the whole factory makes (a new workshop, a shift, a scope; domain/scope.ts). */
export const WHOLE_FACTORY_ONLY: ErrorDoc = {
  status: 403,
  code: 'WHOLE_FACTORY_ONLY',
  description: '新建车间、新建或修改班次、设置审核范围、新建或修改不良原因、新建或修改停机原因须由负责全厂（没有设置审核范围）的管理员或经理操作',
};

/** Crew work (班组报工): a member who was not on the line's device during the submitter's session. */
export const NOT_IN_CREW: ErrorDoc = {
  status: 422,
  code: 'NOT_IN_CREW',
  description: '班组报工：组员在提交人这次上班时段内没有在该行产品的设备上班（details 给出行号、手机号、姓名、设备和时段）；审核修正时：组员不在原组员中',
  details: z.object({
    line: z.number().int(),
    phone: z.string(),
    name: z.string().nullable(),
    deviceNo: z.string(),
    windowFrom: z.string().nullable(),
    windowTo: z.string().nullable(),
  }),
};

/** Crew work: another's crew line already counts the worker for this product on this device then. */
export const CREW_LINE_REPORTED: ErrorDoc = {
  status: 422,
  code: 'CREW_LINE_REPORTED',
  description: '已有别人的班组报工行把你算在内（同一产品、同一设备、时段重叠）：details 给出那张报工单和提交人',
  details: z.object({ line: z.number().int(), productId: z.number().int(), reportId: z.string(), submitter: z.string(), submitterName: z.string().nullable() }),
};
