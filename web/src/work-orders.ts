/**
 * Work orders (生产工单) in the console: the Chinese labels of their status and audit entries, the status actions
 * (完工, 关闭 and 重新打开 with a reason, 作废) asked and sent as one step, and the work ticket (工票) as a picture.
 * Shared by the list (WorkOrdersPage.vue), the order's page (WorkOrderPage.vue) and the ticket sheet
 * (WorkOrderPrintPage.vue).
 */
import { ElMessage, ElMessageBox } from 'element-plus';
import 'element-plus/es/components/message/style/css';
import 'element-plus/es/components/message-box/style/css';
import { api, ApiError, CONSOLE_HEADERS, unwrap } from './api/client';
import type { WorkOrder } from './api/types';

export type OrderStatus = WorkOrder['status'];
export type OrderAction = 'complete' | 'close' | 'reopen' | 'cancel';

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = { released: '已下达', in_progress: '生产中', completed: '已完工', closed: '已关闭', cancelled: '已作废' };
export const ORDER_STATUS_TAGS: Record<OrderStatus, 'info' | 'primary' | 'success' | 'warning' | 'danger'> = {
  released: 'info',
  in_progress: 'primary',
  completed: 'success',
  closed: 'warning',
  cancelled: 'danger',
};
const ACTION_TITLES: Record<OrderAction, string> = { complete: '完工', close: '关闭工单', reopen: '重新打开', cancel: '作废工单' };

/** Whether the order takes new report lines (released or in production). */
export const isOpen = (o: Pick<WorkOrder, 'status'>) => o.status === 'released' || o.status === 'in_progress';

/** A bar's share of the planned quantity as a CSS width, in percent, at most 100. */
export const barWidth = (qty: number, planned: number) => `${Math.min(100, planned > 0 ? (qty * 100) / planned : 0)}%`;

/** Asks a reason (close, reopen); undefined when the person cancels. */
async function askReason(title: string): Promise<string | undefined> {
  try {
    const r = await ElMessageBox.prompt('请填写原因', title, { confirmButtonText: '确定', cancelButtonText: '取消', inputValidator: (v) => (v?.trim() ? true : '请填写原因') });
    return r.value.trim();
  } catch {
    return undefined;
  }
}

/**
 * Runs a status action on order `orderNo` after asking: a reason for 关闭 and 重新打开, a confirmation for 完工 and
 * 作废. Says the outcome in a message (the service's sentence on a refusal). True when the order changed.
 */
export async function orderAction(orderNo: string, action: OrderAction): Promise<boolean> {
  const title = ACTION_TITLES[action];
  let why: string | undefined;
  if (action === 'close' || action === 'reopen') {
    why = await askReason(`${title} ${orderNo}`);
    if (why === undefined) return false;
  } else {
    try {
      await ElMessageBox.confirm(`${title} ${orderNo}？`, title, { confirmButtonText: '确定', cancelButtonText: '取消', type: 'warning' });
    } catch {
      return false;
    }
  }
  try {
    const path = { orderNo };
    if (action === 'complete') await unwrap(api.POST('/api/work-orders/{orderNo}/complete', { params: { path } }));
    if (action === 'close') await unwrap(api.POST('/api/work-orders/{orderNo}/close', { params: { path }, body: { reason: why! } }));
    if (action === 'reopen') await unwrap(api.POST('/api/work-orders/{orderNo}/reopen', { params: { path }, body: { reason: why! } }));
    if (action === 'cancel') await unwrap(api.POST('/api/work-orders/{orderNo}/cancel', { params: { path } }));
    ElMessage.success(`${title}：${orderNo}`);
    return true;
  } catch (err) {
    ElMessage.error((err as Error).message);
    return false;
  }
}

/** The labels of an order's fields as its audit trail names them. */
export const FIELD_LABELS: Record<string, string> = {
  projectNo: '项目号',
  productName: '产品名称',
  plannedQty: '计划数量',
  dueDate: '交期',
  notes: '备注',
  operations: '工序路线',
  status: '状态',
};
/** The labels of the order's events (the audit trail's `type`). */
export const EVENT_LABELS: Record<string, string> = {
  WorkOrderReleased: '下达',
  WorkOrderChanged: '修改',
  WorkOrderOperationsChanged: '修改工序路线',
  WorkOrderCompleted: '完工',
  WorkOrderClosed: '关闭',
  WorkOrderReopened: '重新打开',
  WorkOrderCancelled: '作废',
};

/** A value of the audit trail as a person reads it: a route as 冲压→折弯, a status by its label, nothing as 空. */
export function auditValue(field: string, v: unknown): string {
  if (v === null || v === undefined || v === '') return '空';
  if (Array.isArray(v)) return v.join('→');
  if (field === 'status') return ORDER_STATUS_LABELS[v as OrderStatus] ?? String(v);
  return String(v);
}

/**
 * The work ticket (工票) of `orderNo` as an object URL of its PNG (GET /api/work-orders/{orderNo}/ticket.png, with the
 * console's header: the picture is not public). Throws ApiError with the service's sentence when it fails.
 */
export async function ticketUrl(orderNo: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`/api/work-orders/${encodeURIComponent(orderNo)}/ticket.png`, { headers: CONSOLE_HEADERS });
  } catch {
    throw new ApiError(0, 'NETWORK', '无法连接服务，请检查网络后重试');
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
    throw new ApiError(res.status, body?.error?.code ?? 'ERROR', body?.error?.message ?? `工票 ${orderNo} 取不到（服务返回 ${res.status}）`);
  }
  return URL.createObjectURL(await res.blob());
}
