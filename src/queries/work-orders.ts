/**
 * Reading work orders (生产工单; domain/work-orders.ts): the list, one order with its audit trail, and the reports
 * naming an order. The order's row is the inline `work_orders` model (migrations/019); its progress is read from the
 * inline `work_order_progress` sums (migrations/023, projections/work-order-progress.ts), so both are as fresh as the
 * last append (no asynchronous model to wait for); the reports naming an order from the inline `reports` model
 * through the index of the orders the lines name (`report_work_orders`).
 *
 * Progress per operation (pieces): approved 成品 / 不良 (approved reports), pending 成品 / 不良 (pending reports),
 * `reports` and `workers` (distinct, approved and pending), the first and last report date. Rejected reports count
 * nowhere. The order's `goodQty` is its last operation's approved 成品; `completionPct` = goodQty ÷ plannedQty in
 * percent to 1 decimal from the integers (domain/work-orders.ts `completionPct`). `status` is the shown status
 * (`in_progress`: released and named by some report, rejected ones included); `late` per `isLate` on `today`.
 */
import type { Queryable } from '../db/transaction.ts';
import { completionPct, isLate, shownStatus, type ShownStatus, type StoredStatus } from '../domain/work-orders.ts';
import { storedScopeSql } from '../domain/scope.ts';
import type { ReportLine } from '../domain/report-line.ts';
import type { EventStore } from '../events/store.ts';
import { streams } from '../events/catalog.ts';
import { limitOffset, toPage, type Page, type PageQuery } from '../shared/page.ts';

/** One operation of an order with its progress. */
export interface OperationProgress {
  sequence: number;
  processName: string;
  approvedFinishedQty: number;
  approvedDefectiveQty: number;
  pendingFinishedQty: number;
  pendingDefectiveQty: number;
  reports: number;
  workers: number;
  firstReportDate: string | null;
  lastReportDate: string | null;
}

/** An order as the API lists it. */
export interface WorkOrderItem {
  orderNo: string;
  projectNo: string;
  productName: string;
  plannedQty: number;
  dueDate: string | null;
  notes: string | null;
  status: ShownStatus;
  statusReason: string | null;
  late: boolean;
  goodQty: number;
  completionPct: number;
  operations: OperationProgress[];
  releasedAt: Date;
  changedAt: Date;
}

/** The list's filters (all optional): shown status, late only, a text in the number/项目号/产品名称, due dates. */
export interface WorkOrderFilter {
  status?: ShownStatus;
  late?: boolean;
  q?: string;
  dueFrom?: string;
  dueTo?: string;
}

/** Whether some report (any status) names the order of column `orderCol` (the progress's `named_reports`). */
const REPORTED_SQL = (orderCol: string) => `EXISTS (SELECT 1 FROM work_order_progress g WHERE g.order_no = ${orderCol} AND g.named_reports > 0)`;

/**
 * The progress rows of `orderNos` ($1) per order and 工序 from the kept sums (projections/work-order-progress.ts;
 * a pair named only by rejected reports has a row of zeros: the order is named).
 */
const PROGRESS_SQL = `
  SELECT g.order_no, g.process_name, g.approved_finished_qty AS af, g.approved_defective_qty AS ad,
         g.pending_finished_qty AS pf, g.pending_defective_qty AS pd, g.reports, g.named_reports,
         (SELECT count(*) FROM work_order_progress_workers w
           WHERE w.order_no = g.order_no AND w.process_name = g.process_name AND w.reports > 0) AS workers,
         (SELECT to_char(min(d.report_date), 'YYYY-MM-DD') FROM work_order_progress_days d
           WHERE d.order_no = g.order_no AND d.process_name = g.process_name AND d.reports > 0) AS first_date,
         (SELECT to_char(max(d.report_date), 'YYYY-MM-DD') FROM work_order_progress_days d
           WHERE d.order_no = g.order_no AND d.process_name = g.process_name AND d.reports > 0) AS last_date
    FROM work_order_progress g
   WHERE g.order_no = ANY($1::text[])`;

type OrderRow = {
  order_no: string;
  project_no: string;
  product_name: string;
  planned_qty: string | number;
  due_date: string | null;
  notes: string | null;
  operations: string[];
  status: StoredStatus;
  status_reason: string | null;
  released_at: Date;
  changed_at: Date;
};
const ORDER_COLUMNS = `order_no, project_no, product_name, planned_qty, to_char(due_date, 'YYYY-MM-DD') AS due_date, notes, operations, status, status_reason, released_at, changed_at`;

/** The items of `rows` with their progress (one statement for all of them), in the order of `rows`. */
async function withProgress(q: Queryable, rows: readonly OrderRow[], today: string): Promise<WorkOrderItem[]> {
  if (rows.length === 0) return [];
  const progress = (await q.query(PROGRESS_SQL, [rows.map((r) => r.order_no)])).rows;
  // named by some report (any status): in progress when released
  const named = new Set(progress.filter((p) => Number(p.named_reports) > 0).map((p) => p.order_no as string));
  return rows.map((o) => {
    const operations = o.operations.map((processName, i): OperationProgress => {
      const p = progress.find((x) => x.order_no === o.order_no && x.process_name === processName);
      return {
        sequence: i + 1,
        processName,
        approvedFinishedQty: Number(p?.af ?? 0),
        approvedDefectiveQty: Number(p?.ad ?? 0),
        pendingFinishedQty: Number(p?.pf ?? 0),
        pendingDefectiveQty: Number(p?.pd ?? 0),
        reports: Number(p?.reports ?? 0),
        workers: Number(p?.workers ?? 0),
        firstReportDate: p?.first_date ?? null,
        lastReportDate: p?.last_date ?? null,
      };
    });
    const plannedQty = Number(o.planned_qty);
    const goodQty = operations.length ? operations[operations.length - 1].approvedFinishedQty : 0;
    return {
      orderNo: o.order_no,
      projectNo: o.project_no,
      productName: o.product_name,
      plannedQty,
      dueDate: o.due_date,
      notes: o.notes,
      status: shownStatus(o.status, named.has(o.order_no)),
      statusReason: o.status_reason,
      late: isLate({ status: o.status, dueDate: o.due_date }, today),
      goodQty,
      completionPct: completionPct(goodQty, plannedQty),
      operations,
      releasedAt: new Date(o.released_at),
      changedAt: new Date(o.changed_at),
    };
  });
}

/**
 * A page of orders meeting `filter`, by due date (earliest first, orders without one last), then number; `today` is
 * the local date the lateness is judged on.
 */
export async function listWorkOrders(q: Queryable, filter: WorkOrderFilter, page: PageQuery, today: string): Promise<Page<WorkOrderItem>> {
  const where: string[] = [];
  const params: unknown[] = [];
  const p = (v: unknown) => (params.push(v), `$${params.length}`);
  if (filter.status === 'in_progress') where.push(`o.status = 'released' AND ${REPORTED_SQL('o.order_no')}`);
  else if (filter.status === 'released') where.push(`o.status = 'released' AND NOT ${REPORTED_SQL('o.order_no')}`);
  else if (filter.status) where.push(`o.status = ${p(filter.status)}`);
  if (filter.late) where.push(`o.status = 'released' AND o.due_date < ${p(today)}::date`);
  if (filter.q) {
    const like = p(`%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(o.order_no ILIKE ${like} OR o.project_no ILIKE ${like} OR o.product_name ILIKE ${like})`);
  }
  if (filter.dueFrom) where.push(`o.due_date >= ${p(filter.dueFrom)}::date`);
  if (filter.dueTo) where.push(`o.due_date <= ${p(filter.dueTo)}::date`);
  const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const { limit, offset } = limitOffset(page);
  const total = Number((await q.query(`SELECT count(*) AS n FROM work_orders o ${w}`, params)).rows[0].n);
  const rows = (
    await q.query(`SELECT ${ORDER_COLUMNS} FROM work_orders o ${w} ORDER BY o.due_date ASC NULLS LAST, o.order_no LIMIT ${p(limit)} OFFSET ${p(offset)}`, params)
  ).rows as OrderRow[];
  return toPage(await withProgress(q, rows, today), total, page);
}

/** One order with its progress, or undefined. */
export async function workOrderItem(q: Queryable, orderNo: string, today: string): Promise<WorkOrderItem | undefined> {
  const rows = (await q.query(`SELECT ${ORDER_COLUMNS} FROM work_orders WHERE order_no = $1`, [orderNo])).rows as OrderRow[];
  return (await withProgress(q, rows, today))[0];
}

/** One entry of an order's audit trail: who, when, what. */
export interface WorkOrderAuditEntry {
  version: number;
  type: string;
  at: Date;
  actorPhone: string | null;
  actorName: string | null;
  role: string | null;
  /** The fields changed, before → after (a release lists its fields with `before` null). */
  changes: { field: string; before: unknown; after: unknown }[];
  reason: string | null;
}

const FIELDS = ['plannedQty', 'dueDate', 'notes'] as const;

/** The events of the order's stream as its audit trail, oldest first. */
export async function workOrderAudit(q: Queryable, store: EventStore, orderNo: string): Promise<WorkOrderAuditEntry[]> {
  const events = await store.readStream(q, streams.workOrder(orderNo));
  return events.map((e) => {
    const d = e.data as Record<string, any>;
    const m = e.metadata as Record<string, any>;
    let changes: WorkOrderAuditEntry['changes'] = [];
    if (e.type === 'WorkOrderReleased') changes = [...FIELDS, 'operations'].map((f) => ({ field: f, before: null, after: d[f] }));
    else if (e.type === 'WorkOrderChanged') changes = FIELDS.filter((f) => d[f] !== d.before[f]).map((f) => ({ field: f, before: d.before[f], after: d[f] }));
    else if (e.type === 'WorkOrderOperationsChanged') changes = [{ field: 'operations', before: d.before, after: d.operations }];
    else if (e.type === 'WorkOrderReopened') changes = [{ field: 'status', before: d.before, after: 'released' }];
    else if (e.type === 'WorkOrderCompleted') changes = [{ field: 'status', before: 'released', after: 'completed' }];
    else if (e.type === 'WorkOrderClosed') changes = [{ field: 'status', before: 'released', after: 'closed' }];
    else if (e.type === 'WorkOrderCancelled') changes = [{ field: 'status', before: 'released', after: 'cancelled' }];
    return {
      version: e.streamVersion,
      type: e.type,
      at: e.recordedAt,
      actorPhone: m?.actorPhone ?? null,
      actorName: m?.actorName ?? null,
      role: m?.role ?? null,
      changes,
      reason: d.reason ?? null,
    };
  });
}

/** A report naming an order, with its lines for that order. */
export interface WorkOrderReport {
  reportId: string;
  reportDate: string;
  employeePhone: string;
  employeeName: string | null;
  status: 'pending' | 'approved' | 'rejected';
  workshopCode: string | null;
  teamCode: string | null;
  /** The report's lines for the order (as stored: domain/report-line.ts). */
  lines: ReportLine[];
}

/**
 * A page of the reports naming `orderNo` within the scope stored for (`phone`, `role`), newest report date first,
 * each with its lines for the order (optionally only those at `processName`).
 */
export async function workOrderReports(
  q: Queryable,
  orderNo: string,
  person: { phone: string; role: string },
  page: PageQuery,
  processName?: string,
): Promise<Page<WorkOrderReport>> {
  const { limit, offset } = limitOffset(page);
  const where = `r.lines @? '$[*].workOrderNo' AND report_work_orders(r.lines) && ARRAY[$1::text] AND ${storedScopeSql('r.workshop_code', 'r.team_code', '$2', '$3')}
    AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM jsonb_array_elements(r.lines) x WHERE x ->> 'workOrderNo' = $1 AND x ->> 'processName' = $4))`;
  const params = [orderNo, person.phone, person.role, processName ?? null];
  const total = Number((await q.query(`SELECT count(*) AS n FROM reports r WHERE ${where}`, params)).rows[0].n);
  const rows = (
    await q.query(
      `SELECT r.report_id, to_char(r.report_date, 'YYYY-MM-DD') AS report_date, r.employee_phone, p.name AS employee_name, r.status, r.workshop_code, r.team_code,
              (SELECT COALESCE(jsonb_agg(x), '[]') FROM jsonb_array_elements(r.lines) x WHERE x ->> 'workOrderNo' = $1 AND ($4::text IS NULL OR x ->> 'processName' = $4)) AS lines
         FROM reports r LEFT JOIN LATERAL (SELECT name FROM personnel WHERE phone = r.employee_phone ORDER BY role = 'worker' DESC LIMIT 1) p ON true
        WHERE ${where}
        ORDER BY r.report_date DESC, r.submitted_at DESC, r.report_id
        LIMIT $5 OFFSET $6`,
      [...params, limit, offset],
    )
  ).rows;
  return toPage(
    rows.map((r) => ({
      reportId: r.report_id,
      reportDate: r.report_date,
      employeePhone: r.employee_phone,
      employeeName: r.employee_name ?? null,
      status: r.status,
      workshopCode: r.workshop_code,
      teamCode: r.team_code,
      lines: r.lines,
    })),
    total,
    page,
  );
}
