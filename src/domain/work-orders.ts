/**
 * Work orders (生产工单) and their operations (工序): the model's rules, pure (decisions.md "Work orders").
 *
 * An order is `{orderNo, projectNo, productName, plannedQty, dueDate, notes, operations, status}`:
 * - `orderNo`: 1–ORDER_NO_MAX characters after trimming, no whitespace inside (ORDER_NO_RE), as the factory's ERP
 *   writes it; unique and immutable (it names the stream `work-order-<orderNo>`).
 * - `projectNo` + `productName`: a product of the catalog (some row of `products` has them).
 * - `plannedQty`: whole pieces, 1…PLANNED_QTY_MAX.
 * - `dueDate`: a local date `YYYY-MM-DD` in APP_TIMEZONE, or null.
 * - `notes`: at most NOTES_MAX characters, or null.
 * - `operations`: the ordered 工序 names (sequence 1…n), 1…OPERATIONS_MAX, each once, each a 工序 of the product
 *   somewhere in the catalog.
 * - `status` as stored: `released` (下达), `completed` (完工), `closed` (关闭), `cancelled` (作废). The status shown
 *   (`shownStatus`) is `in_progress` for a released order that some report names.
 * An order is open (takes new report lines) while released; late (`isLate`) when today is after its due date and it
 * is still released.
 */
import { z } from 'zod';

export const ORDER_NO_MAX = 40;
/** An order number: no whitespace, no `/`, `?`, `#`, `\` or `%` (it is a path segment of the API), 1–40 characters. */
export const ORDER_NO_RE = /^[^\s/?#\\%]{1,40}$/u;
export const PLANNED_QTY_MAX = 1_000_000_000;
export const NOTES_MAX = 200;
export const OPERATIONS_MAX = 30;
export const REASON_MAX = 200;

export const STORED_STATUSES = ['released', 'completed', 'closed', 'cancelled'] as const;
export type StoredStatus = (typeof STORED_STATUSES)[number];
/** The statuses an order is shown with (and filtered by). */
export const SHOWN_STATUSES = ['released', 'in_progress', 'completed', 'closed', 'cancelled'] as const;
export type ShownStatus = (typeof SHOWN_STATUSES)[number];

export const STATUS_LABELS: Readonly<Record<ShownStatus, string>> = {
  released: '已下达',
  in_progress: '生产中',
  completed: '已完工',
  closed: '已关闭',
  cancelled: '已作废',
};

export const workOrderStatusSchema = z.enum(STORED_STATUSES);

/** A work order as its events leave it. */
export interface WorkOrder {
  readonly orderNo: string;
  readonly projectNo: string;
  readonly productName: string;
  readonly plannedQty: number;
  readonly dueDate: string | null;
  readonly notes: string | null;
  readonly operations: readonly string[];
  readonly status: StoredStatus;
}

/** The status shown: `in_progress` for a released order that some report names. */
export const shownStatus = (status: StoredStatus, reported: boolean): ShownStatus => (status === 'released' && reported ? 'in_progress' : status);

/** An order takes new report lines only while released (in progress included). */
export const isOpen = (status: StoredStatus): boolean => status === 'released';

/** Late: `today` (local date) is after the due date and the order is still open. */
export const isLate = (o: { status: StoredStatus; dueDate: string | null }, today: string): boolean => isOpen(o.status) && o.dueDate !== null && today > o.dueDate;

/**
 * `good ÷ planned` in percent to 1 decimal, rounded half away from zero from the integers (never a float ratio):
 * 333 of 1000 → 33.3, 2 of 3 → 66.7.
 */
export function completionPct(good: number, planned: number): number {
  if (planned <= 0) return 0;
  // tenths of a percent = good × 1000 / planned, rounded half up (both non-negative)
  const tenths = (BigInt(good) * 2000n + BigInt(planned)) / (2n * BigInt(planned));
  return Number(tenths) / 10;
}

/**
 * The operation list as the command gives it: names trimmed; an entry written as `冲压→折弯→焊接` or `冲压,折弯,焊接`
 * (an import's cell) splits on →, ->, ＞, >, commas (, ，、) and semicolons. Empty names are dropped.
 */
export function splitRoute(text: string): string[] {
  return text
    .split(/→|->|＞|>|,|，|、|;|；/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
