/**
 * The HTTP answer of every domain error (domain/errors.ts): its status and the Chinese sentence the
 * person who gets it can act on, in one table. The type checker requires an entry for every code of
 * DomainErrorCatalog. `domainAnswer(err)` → `{status, message}` (errors.ts makes the body).
 */
import { LABELS, type ClockLabel } from '../domain/labels.ts';
import type { ClockAttempt, CloseBlockers, ContextOf, DetailsOf, DomainError, DomainErrorCode, PeriodWrite, QuantityField, ReasonPurpose, WorkOrderAction, WorkOrderField } from '../domain/errors.ts';
import { NOTES_MAX, STATUS_LABELS, type ShownStatus } from '../domain/work-orders.ts';
import { monthLabel } from '../domain/period.ts';
import type { WholeFactoryWrite } from '../domain/scope.ts';

type Status = 401 | 403 | 404 | 409 | 422;
type Entry<C extends DomainErrorCode> = {
  /** The status, or a function of the details when the same refusal answers differently by where it came from. */
  readonly status: Status | ((details: DetailsOf<C>) => Status);
  message(details: DetailsOf<C>, context: ContextOf<C>): string;
};

/** What a worker should tap now, by the label that fits (CLOCK_STATE_CONFLICT). */
const LABEL_HINTS: Record<ClockLabel, string> = {
  开始上班: '您当前没有进行中的上班记录，请点击“开始上班”',
  换设备: '这台设备还不在本次上班记录中，请点击“换设备”',
  下班报工: '这台设备已在本次上班记录中，请点击“下班报工”',
  继续报工: '您已下班，报工单还在填写时限内，请点击“继续报工”完成提交',
  重新报工: '报工单已超过填写时限，请点击“重新报工”',
};

/** What the worker tried, as the sentence opens (CLOCK_STATE_CONFLICT). */
const ATTEMPTS: Record<ClockAttempt, string> = {
  start: '现在不能开始上班：',
  switchDevice: '现在不能换设备：',
  finish: '现在不能下班报工：',
  report: '还没有下班，不能填写报工单：',
};

const QUANTITY_NAMES: Record<QuantityField, string> = { finishedQty: '成品数量', defectiveQty: '不良数量', outputQty: '产出数量' };
const STATUS_NAMES = { pending: '待审核', approved: '已通过', rejected: '已驳回' } as const;
/** What to do after a write into a closed month was refused (PERIOD_CLOSED). */
const AFTER_CLOSED: Record<PeriodWrite, string> = {
  review: '不能再审核；如需修改，请经理先在“月结”中反结账',
  breakChange: '不能再修改休息时间；如需修改，请经理先在“月结”中反结账',
  rate: '不能设置从该月生效的单价；请改为从未结账的月份生效，或请经理先反结账',
  submit: '请稍后重新提交报工单',
  stop: '不能再记录或修改该月的停机；如需修改，请经理先在“月结”中反结账',
};

const REASONS: Record<ReasonPurpose, (max: number) => string> = {
  reject: (max) => `请填写驳回原因（1–${max} 个字）`,
  breakChange: (max) => `修改原因最多 ${max} 个字`,
  rate: (max) => `调价原因最多 ${max} 个字`,
  reopen: (max) => `请填写反结账原因（1–${max} 个字）`,
};

/** Every blocker of a refused close, one sentence each (all blockers listed at once). */
function closeBlocked(d: CloseBlockers): string {
  const parts = d.blockers.map((b) =>
    b === 'PERIOD_NOT_ENDED'
      ? `${monthLabel(d.month)}还没有结束，月末之后才能结账`
      : b === 'PERIOD_HAS_PENDING'
        ? `还有 ${d.pendingTotal} 张报工单待审核，请先审核`
        : `有 ${d.unpricedTotal} 行明细的产品在报工日期没有计件单价，请先设置单价`,
  );
  return `${monthLabel(d.month)}不能结账：${parts.join('；')}`;
}

/** What is wrong with a shift, as a person fixes it (INVALID_SHIFT). */
function shiftProblem(d: DetailsOf<'INVALID_SHIFT'>): string {
  const n = 'window' in d ? `第 ${d.window + 1} 个休息时段` : '';
  switch (d.problem) {
    case 'name':
      return `请填写班次名称（1–${d.max} 个字）`;
    case 'time':
      return `班次的${d.field === 'start' ? '开始' : '结束'}时间应为 HH:mm（00:00–23:59）`;
    case 'tooManyWindows':
      return `一个班次最多 ${d.max} 个休息时段`;
    case 'windowTime':
      return `${n}的时间应为 HH:mm（00:00–23:59）`;
    case 'windowEmpty':
      return `${n}的开始和结束时间相同，请修改`;
    case 'windowOutside':
      return `${n}不在班次的上班时间内，请修改`;
    case 'windowsOverlap':
      return `${n}与其他休息时段重叠，请修改`;
  }
}

/** A number of minutes or hours as a person writes it (at most 2 decimals, no trailing zeros). */
const amount = (n: number) => String(Number(n.toFixed(2)));

const ANSWERS: { readonly [C in DomainErrorCode]: Entry<C> } = {
  ROLE_REVOKED: { status: 401, message: () => '账号或角色已被移除，请重新登录' },
  DEVICE_NOT_FOUND: { status: 404, message: () => '没有找到这台设备，请确认扫描的是本厂设备码' },
  SESSION_NOT_FOUND: { status: 404, message: () => '没有找到这次上班记录，请重新扫描设备码' },
  CLOCK_STATE_CONFLICT: {
    status: 409,
    message: (d, c) => ATTEMPTS[c.attempt] + (c.attempt === 'report' ? `请先扫描设备码并点击“${LABELS.finish}”` : LABEL_HINTS[d.label]),
  },
  REPORT_WINDOW_EXPIRED: {
    status: 409,
    message: (_, c) => `报工单已超过 ${amount(c.windowMinutes)} 分钟的填写时限，请重新扫描设备码并点击“${LABELS.reReport}”`,
  },
  SESSION_ABANDONED: {
    status: 409,
    message: (_, c) => `这次上班已超过 ${amount(c.maxHours)} 小时未完成报工，已自动结束，不能再提交；请扫描设备码重新“${LABELS.start}”`,
  },
  REPORT_ALREADY_SUBMITTED: { status: 409, message: () => '这次上班的报工单已经提交过了，不能重复提交；可在“我的报工”中查看' },
  NOT_IN_CREW: {
    status: 422,
    message: (d, c) =>
      c.from && c.to
        ? `第 ${d.line} 行：${d.name ?? d.phone} 在 ${c.from}–${c.to} 没有在设备 ${d.deviceNo} 上班，不能加入班组报工`
        : `第 ${d.line} 行：${d.name ?? d.phone} 不在这行班组报工的组员中，审核修正只能去掉组员`,
  },
  CREW_LINE_REPORTED: {
    status: 422,
    message: (d) => `第 ${d.line} 行：${d.submitterName ?? d.submitter} 已经为你所在的班组报过这个产品（报工单 ${d.reportId.slice(0, 8)}），请删掉这一行`,
  },
  PRODUCT_NOT_CANDIDATE: { status: 422, message: (d) => `第 ${d.line} 行：所选产品不是本次上班所用设备的产品，请刷新报工单后重新选择` },
  PRODUCT_NOT_ALLOWED: { status: 422, message: (d) => `第 ${d.line} 行的产品不是本报工单设备上的产品，不能填写` },
  NO_LINES: { status: 422, message: () => '请至少填写一个产品的数量' },
  TOO_MANY_LINES: { status: 422, message: (_, c) => `一张报工单最多 ${c.max} 行` },
  INVALID_QUANTITY: { status: 422, message: (d, c) => `第 ${d.line} 行：${QUANTITY_NAMES[d.field]}必须是 0 到 ${c.max} 之间的整数` },
  OUTPUT_QTY_MISMATCH: {
    status: 422,
    message: (d, c) => `第 ${d.line} 行：产出数量应等于成品数量加不良数量（${c.finishedQty} + ${c.defectiveQty} = ${d.expected}），填写的是 ${c.given}`,
  },
  OUTPUT_QTY_TOO_LARGE: {
    status: 422,
    message: (d, c) => `第 ${d.line} 行：成品数量加不良数量（${c.finishedQty} + ${c.defectiveQty}）超过了 ${d.max}，请检查数量`,
  },
  DUPLICATE_PRODUCT: { status: 422, message: (d, c) => `第 ${d.line} 行：产品“${c.productName}”（${c.processName}）已经填写过，同一产品只能填一行` },
  REPORT_NOT_FOUND: { status: 404, message: () => '没有找到这份报工单' },
  REPORT_ALREADY_REVIEWED: { status: 409, message: (d) => `这份报工单${STATUS_NAMES[d.status]}，不能再次审核` },
  INVALID_REASON: { status: 422, message: (_, c) => REASONS[c.purpose](c.max) },
  REPORT_REJECTED: { status: 409, message: () => '这份报工单已驳回，不能修改休息时间' },
  INVALID_BREAK_MINUTES: { status: 422, message: () => '休息时间必须是不小于 0 的整数分钟' },
  BREAK_EXCEEDS_WORKING_TIME: { status: 422, message: (d) => `休息时间不能超过上班到下班的时长，最多 ${d.maxBreakMinutes} 分钟` },
  PRODUCT_NOT_FOUND: { status: 404, message: () => '没有找到这个产品，可能已被删除' },
  INVALID_RATE: { status: 422, message: (d) => `${d.field === 'pieceRate' ? '计件单价' : '不良单价'}不符合规则：计件单价不能为负，单价绝对值不超过 99999.9999 元` },
  PERIOD_CLOSED: { status: 409, message: (d, c) => `${monthLabel(d.month)}已结账，${AFTER_CLOSED[c.write]}` },
  PERIOD_NOT_ENDED: { status: 409, message: closeBlocked },
  PERIOD_HAS_PENDING: { status: 409, message: closeBlocked },
  PERIOD_HAS_UNPRICED: { status: 409, message: closeBlocked },
  PERIOD_ALREADY_CLOSED: { status: 409, message: (d) => `${monthLabel(d.month)}已经结账（第 ${d.version} 次），不能重复结账` },
  PERIOD_NOT_CLOSED: { status: 409, message: (d) => `${monthLabel(d.month)}没有结账，不需要反结账` },
  // ---- organization ----
  WORKSHOP_EXISTS: { status: 409, message: (d) => `车间编号「${d.code}」已存在，请换一个编号，或修改已有车间的名称` },
  WORKSHOP_NOT_FOUND: { status: 404, message: (d) => `没有编号为「${d.code}」的车间，请先在“车间班组”中新建车间` },
  TEAM_EXISTS: { status: 409, message: (d) => `班组编号「${d.code}」已存在，请换一个编号，或修改已有班组` },
  TEAM_NOT_FOUND: { status: 404, message: (d) => `没有编号为「${d.code}」的班组，请先在“车间班组”中新建班组` },
  LEADER_NOT_FOUND: { status: 422, message: (d) => `班组长 ${d.phone} 不在人员清单中，请先在“人员”中添加此人` },
  NOT_A_WORKER: { status: 422, message: (d) => `${d.phone} 不是员工，只有人员清单中角色为员工的人才能加入班组` },
  MEMBERSHIP_DATE_TOO_EARLY: {
    status: 409,
    message: (d, c) =>
      c.action === 'join'
        ? `班组记录不能改写过去：加入或调动的生效日期最早为 ${d.earliest}，请改选这天或之后的日期`
        : `班组记录不能改写过去：离开日期最早为 ${d.earliest}（当前班组的加入日期），请改选这天或之后的日期`,
  },
  TEAM_MOVE_DATE: {
    status: 409,
    message: (d) =>
      d.earliest === null
        ? `班组调到其他车间的生效日期不能晚于今天（${d.latest}）`
        : `班组记录不能改写过去：调到其他车间的生效日期应在 ${d.earliest} 到 ${d.latest} 之间`,
  },
  NO_OPEN_MEMBERSHIP: { status: 409, message: (d) => `${d.phone} 当前不在任何班组，不需要离开班组` },
  // ---- shifts: shifts ----
  // ---- defect reasons (不良原因) ----
  INVALID_DEFECTS: {
    status: 422,
    message: (d) =>
      d.problem === 'qty' ? `第 ${d.line} 行第 ${d.index + 1} 个不良原因的数量应为不小于 1 的整数` : `第 ${d.line} 行的第 ${d.index + 1} 个不良原因重复了，同一原因请合并数量`,
  },
  UNKNOWN_DEFECT_REASON: {
    status: 422,
    message: (d, c) => (c.inactive ? `第 ${d.line} 行的不良原因 ${d.reasonCode} 已停用，请刷新后重新选择` : `第 ${d.line} 行的不良原因 ${d.reasonCode} 不存在，请刷新后重新选择`),
  },
  DEFECTS_SUM_MISMATCH: {
    status: 422,
    message: (d, c) =>
      d.defectsQty > d.defectiveQty
        ? `第 ${d.line} 行各不良原因的数量合计 ${d.defectsQty}，超过了不良数量 ${d.defectiveQty}，请核对`
        : `第 ${d.line} 行不良数量 ${d.defectiveQty}，已填原因的只有 ${d.defectsQty}${c.required ? '：每件不良都要填写原因' : ''}，请补齐`,
  },
  DEFECT_REASON_EXISTS: {
    status: 409,
    message: (d) => (d.active ? `不良原因编码 ${d.code} 已被「${d.name}」使用，请换一个编码` : `不良原因编码 ${d.code} 已被「${d.name}」使用（已停用），如需使用请重新启用它`),
  },
  DEFECT_REASON_NOT_FOUND: { status: 404, message: (d) => `没有找到不良原因 ${d.code}，请刷新不良原因列表` },
  INVALID_DEFECT_REASON: {
    status: 422,
    message: (d, c) => (d.field === 'code' ? `不良原因编码请填写 1–${c.max} 个英文字母、数字、- 或 _` : `不良原因名称请填写 1–${c.max} 个字`),
  },
  // ---- downtime (停机) ----
  STOP_REASON_EXISTS: {
    status: 409,
    message: (d) => (d.active ? `停机原因编码 ${d.code} 已被「${d.name}」使用，请换一个编码` : `停机原因编码 ${d.code} 已被「${d.name}」使用（已停用），如需使用请重新启用它`),
  },
  STOP_REASON_NOT_FOUND: { status: 404, message: (d) => `没有找到停机原因 ${d.code}，请刷新停机原因列表` },
  INVALID_STOP_REASON: {
    status: 422,
    message: (d, c) => (d.field === 'code' ? `停机原因编码请填写 1–${c.max} 个英文字母、数字、- 或 _` : `停机原因名称请填写 1–${c.max} 个字`),
  },
  UNKNOWN_STOP_REASON: {
    status: 422,
    message: (d, c) => (c.inactive ? `停机原因 ${d.reasonCode} 已停用，请刷新后重新选择` : `停机原因 ${d.reasonCode} 不存在，请刷新后重新选择`),
  },
  STOP_OVERLAPS: { status: 422, message: (_, c) => `与这台设备的另一条停机记录（${c.span}）时间重叠：同一台设备同一时间只能有一条停机记录，请先结束或修改那一条` },
  NOT_ON_DEVICE: { status: 409, message: (d) => `您现在没有在设备 ${d.deviceNo} 上班，不能记录它的停机或恢复生产；请先扫码开始上班或换到这台设备` },
  STOP_NOT_FOUND: { status: 404, message: () => '没有找到这条停机记录，请刷新停机列表' },
  INVALID_STOP: {
    status: 422,
    message: (d) =>
      ({
        order: '停机的结束时间必须晚于开始时间',
        future: '停机的时间不能晚于现在',
        note: '补录或修改停机请填写说明',
        endNeeded: '补录过去的停机请同时填写开始和结束时间',
      })[d.problem],
  },
  SHIFT_NOT_FOUND: { status: 404, message: () => '没有找到这个班次，请刷新班次列表' },
  INVALID_SHIFT: { status: 422, message: shiftProblem },
  UNKNOWN_SHIFT: { status: 422, message: () => '所选班次不存在，请刷新班次列表后重新选择' },
  INVALID_ROTATION: {
    status: 422,
    message: (d) => (d.field === 'rotation' ? `轮班顺序请填写 1–${d.max} 个班次（休息日也算一个）` : `每个班次连续的天数必须是 1–${d.max} 之间的整数`),
  },
  // ---- scopes: scoped review ----
  SELF_REVIEW: {
    status: 403,
    message: (_, c) =>
      c.write === 'review' ? '这是您自己的报工单，不能由您审核，请交给其他管理员审核' : '这是您自己的报工单，不能由您修改休息时间，请让其他经理修改',
  },
  OWN_SCOPE: { status: 403, message: () => '不能设置自己的审核范围，请让其他经理设置' },
  SCOPE_PERSON_NOT_FOUND: { status: 404, message: (_, c) => `这个手机号没有「${c.role === 'admin' ? '管理员' : '经理'}」角色，请先在人员中添加该角色` },
  UNKNOWN_SCOPE_CODES: {
    status: 422,
    message: (d) =>
      `审核范围中有不存在的${[d.workshops.length ? `车间：${d.workshops.join('、')}` : '', d.teams.length ? `班组：${d.teams.join('、')}` : ''].filter(Boolean).join('；')}，请检查编码`,
  },
  CLOSE_NEEDS_WHOLE_FACTORY: { status: 403, message: () => '您的审核范围只是部分车间或班组，月结和反结账须由负责全厂的经理操作' },
  NOT_IN_SCOPE: {
    status: 404,
    message: (d) =>
      d.kind === 'member'
        ? `员工 ${d.code} 目前所在的班组不在您的管理范围内，不能调动或移出；请联系负责全厂的管理员或经理`
        : `没有找到${SCOPE_KINDS[d.kind]}「${d.code}」，或它不在您的管理范围内；如需修改，请联系负责全厂的管理员或经理`,
  },
  WHOLE_FACTORY_ONLY: {
    status: 403,
    message: (_, c) => `您的管理范围只是部分车间或班组，${WHOLE_FACTORY_WRITES[c.write]}须由负责全厂的管理员或经理操作`,
  },
  // ---- work orders ----
  WORK_ORDER_EXISTS: { status: 409, message: (d) => `工单号 ${d.orderNo} 已存在，请换一个工单号，或修改已有的工单` },
  WORK_ORDER_NOT_FOUND: {
    status: (d) => (d.line === undefined ? 404 : 422),
    message: (d) => (d.line === undefined ? `没有找到工单 ${d.orderNo}，请刷新工单列表` : `第 ${d.line} 行：没有找到工单 ${d.orderNo}，请刷新报工单后重新选择工单`),
  },
  WORK_ORDER_NOT_OPEN: {
    status: 422,
    message: (d, c) => `第 ${d.line} 行：工单 ${d.orderNo} ${STATUS_LABELS[d.status as ShownStatus] ?? d.status}，不能再报${c.processName}工序，请选择其他工单或不指定工单`,
  },
  WORK_ORDER_WRONG_PRODUCT: {
    status: 422,
    message: (d, c) => `第 ${d.line} 行：工单 ${d.orderNo} 生产的是「${c.orderProduct}」，不是本行的「${c.lineProduct}」，请选择该产品的工单`,
  },
  WORK_ORDER_WRONG_OPERATION: {
    status: 422,
    message: (d, c) => `第 ${d.line} 行：工单 ${d.orderNo} 的工序路线（${c.operations.join('→')}）没有${d.processName}，请选择其他工单或不指定工单`,
  },
  WORK_ORDER_STATUS: { status: 409, message: (d, c) => `工单 ${d.orderNo} ${STATUS_LABELS[d.status as ShownStatus] ?? d.status}，${WORK_ORDER_ACTIONS[c.action]}` },
  WORK_ORDER_REPORTED: {
    status: 409,
    message: (d, c) =>
      c.action === 'cancel'
        ? `工单 ${d.orderNo} 已有报工，不能作废；如不再生产，请关闭工单`
        : `工单 ${d.orderNo} 的工序 ${d.processNames.join('、')} 已有报工，不能从工序路线中删除`,
  },
  INVALID_WORK_ORDER: { status: 422, message: (d, c) => WORK_ORDER_FIELDS[d.field](c.max) },
  UNKNOWN_WORK_ORDER_PRODUCT: { status: 422, message: (d) => `产品清单中没有项目号 ${d.projectNo}、产品名称「${d.productName}」的产品，请先在“产品”中添加` },
  UNKNOWN_WORK_ORDER_OPERATION: {
    status: 422,
    message: (d, c) => `产品「${c.productName}」在产品清单中没有工序：${d.processNames.join('、')}，请检查工序路线或先在“产品”中添加`,
  },
};

/** What an order's status refused, and what to do instead (WORK_ORDER_STATUS). */
const WORK_ORDER_ACTIONS: Record<WorkOrderAction, string> = {
  complete: '不能完工；只有已下达或生产中的工单可以完工',
  close: '不能关闭；只有已下达或生产中的工单可以关闭',
  reopen: '不需要重新打开；只有已完工或已关闭的工单可以重新打开',
  cancel: '不能作废；只有没有报工的已下达工单可以作废',
  change: '不能修改',
};

/** The rule of each field of an order, as a clerk fixes it (INVALID_WORK_ORDER). */
const WORK_ORDER_FIELDS: Record<WorkOrderField, (max: number) => string> = {
  orderNo: (max) => `工单号请填写 1–${max} 个字符，不能有空格和 / ? # % \\`,
  projectNo: () => '请填写项目号',
  productName: () => '请填写产品名称',
  plannedQty: (max) => `计划数量必须是 1 到 ${max} 之间的整数`,
  dueDate: () => '交期应为 YYYY-MM-DD 格式的日期',
  notes: (max) => `备注最多 ${max ?? NOTES_MAX} 个字`,
  operations: (max) => `工序路线请填写 1–${max} 道工序，每道工序只出现一次`,
  reason: (max) => `请填写原因（1–${max} 个字）`,
};

/** What a write outside the scope touched (NOT_IN_SCOPE). */
const SCOPE_KINDS = { workshop: '车间', team: '班组', device: '设备' } as const;
/** What only the whole factory does (WHOLE_FACTORY_ONLY). */
const WHOLE_FACTORY_WRITES: Record<WholeFactoryWrite, string> = { createWorkshop: '新建车间', shift: '新建或修改班次', scope: '设置审核范围', defectReason: '新建或修改不良原因', stopReason: '新建或修改停机原因' };

/** The status and sentence of domain error `err` (module docstring). */
export function domainAnswer<C extends DomainErrorCode>(err: DomainError<C>): { status: number; message: string } {
  const entry = ANSWERS[err.code] as Entry<C>;
  const status = typeof entry.status === 'function' ? entry.status(err.details as DetailsOf<C>) : entry.status;
  return { status, message: entry.message(err.details as DetailsOf<C>, err.context as ContextOf<C>) };
}

