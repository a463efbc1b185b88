/**
 * GET /api/reports/draft?sessionId= (spec 4.6, 3.1 rule 2; decisions.md "Reports and review"): what the
 * worker fills the report from: the session's times, devices, starting break minutes (from the worker's
 * shift as the submission will compute it, with its source and shift), the window's end, and
 * the candidates: the products whose device is one of the session's devices (ordered by device as they
 * appeared in the session, then project, product, process).
 * Throws domain errors ROLE_REVOKED, SESSION_NOT_FOUND (also another worker's session), REPORT_WINDOW_EXPIRED,
 * REPORT_ALREADY_SUBMITTED, SESSION_ABANDONED, CLOCK_STATE_CONFLICT (not clocked out yet).
 *
 * The worker's calendar may come from a CalendarCache (src/shifts/calendar-cache.ts, shared with the submission's
 * facts): the draft's statement checks the kept calendar's date and stream heads, and only when they no longer hold
 * (or nothing is kept) a second statement reads the calendar, so a draft never shows a break from a calendar that
 * changed. The calendar's SQL is not part of the draft's statement: a plan holding it costs PostgreSQL its
 * start-up even when the calendar is not read (measured: about as much as the round trip itself).
 */
import { keyedQueryable, type StatementRunner } from '../db/transaction.ts';
import { initialBreakMinutes, reportableSession, sessionNotFound, type ClockSettings } from '../domain/clock.ts';
import { domainError } from '../domain/errors.ts';
import type { ProductSnapshot } from '../domain/report-line.ts';
import { snapshotJson } from '../products/snapshot.ts';
import { SESSION_COLUMNS, toSession } from './sessions.ts';
import { sessionBreak } from '../domain/shift-breaks.ts';
import { readCalendar } from '../shifts/sql.ts';
import type { CalendarCache } from '../shifts/calendar-cache.ts';
import { headsParameters, streamHeadsHoldSql } from '../events/heads.ts';
import { localDate } from '../time.ts';
import { coverageRow, crewCoverageSql, crewLinesNamingSql, crewPresenceSql, type CoverageRow } from '../crew/sql.ts';
import { onDevice, type CrewSession } from '../domain/crew-presence.ts';
import type { Queryable } from '../db/transaction.ts';

/** Crew work: a member a crew candidate proposes (src/crew/sql.ts; domain/crew-presence.ts `onDevice`). */
export interface CrewProposal {
  phone: string;
  name: string | null;
  /** Whole seconds on the candidate's device inside the session's window. */
  secondsOnDevice: number;
  /** The coefficient (系数) on the report date, e.g. 1.2. */
  coefficient: number;
  /** The first instant on the device inside the window (ISO 8601): the split's tie-break (domain/crew-split.ts). */
  clockInAt: string;
}

/** A candidate product of the draft, with its crew when its 操作人数 > 1 and who counts the worker already. */
export type DraftCandidate = ProductSnapshot & {
  crew?: CrewProposal[];
  /** Members left out because their own or another crew's line counts them already for the product then. */
  crewLeftOut?: { phone: string; name: string | null; reportId: string }[];
  /** Another's crew line counts this worker already for the product then (a line of it would be refused). */
  crewReportedBy?: { reportId: string; phone: string; name: string | null };
};

/**
 * An open work order a candidate may count toward (domain/work-orders.ts): of the candidate's product, with its 工序
 * among the operations; `reportedFinishedQty` is that operation's approved and pending 成品 (pieces).
 */
export interface DraftWorkOrder {
  orderNo: string;
  plannedQty: number;
  reportedFinishedQty: number;
  dueDate: string | null;
}

export interface ReportDraft {
  sessionId: string;
  clockInAt: Date;
  clockOutAt: Date;
  breakMinutes: number;
  devices: string[];
  expiresAt: Date;
  candidates: (DraftCandidate & { workOrders: DraftWorkOrder[] })[];
  /** Where the starting break comes from, and the shift (domain/shift-breaks.ts sessionBreak). */
  breakSource: 'shift' | 'default';
  shift: { shiftId: string; name: string } | null;
}

/**
 * The open orders of the session's candidates' products (earliest due first, then number), each with its operations
 * and the approved and pending 成品 per operation reported at (work orders, migrations/019; the kept progress sums,
 * migrations/023). Reads the session's products from the FROM item `pc` (`project_nos`, `product_names`: one entry per
 * product, as DRAFT_SQL reads them once).
 */
export const DRAFT_ORDERS_SQL = `(SELECT json_agg(json_build_object('orderNo', o.order_no, 'projectNo', o.project_no, 'productName', o.product_name,
                                   'plannedQty', o.planned_qty, 'dueDate', to_char(o.due_date, 'YYYY-MM-DD'), 'operations', o.operations,
                                   'finished', (SELECT json_object_agg(g.process_name, g.approved_finished_qty + g.pending_finished_qty)
                                                  FROM work_order_progress g WHERE g.order_no = o.order_no))
                          ORDER BY o.due_date ASC NULLS LAST, o.order_no)
     FROM work_orders o
    WHERE o.status = 'released'
      AND (o.project_no, o.product_name) IN (SELECT * FROM unnest(pc.project_nos, pc.product_names)))`;

/**
 * One statement: whether the person still holds the role ($1 phone, $2 role), the session $3 when it is theirs,
 * its candidates in the order of the session's devices, then project, product, process, and whether the kept
 * calendar of date $5 with the heads $6 (stream ids) and $7 (versions) is the one of the session's local clock-in
 * date (zone $4) and still holds.
 */
const DRAFT_SQL = `SELECT EXISTS (SELECT 1 FROM personnel WHERE phone = $1 AND role = $2) AS person_holds,
       ${SESSION_COLUMNS.split(', ').map((c) => `s.${c}`).join(', ')},
       pc.candidates,
       ${DRAFT_ORDERS_SQL} AS work_orders,
       pc.crew_product_ids,
       CASE WHEN s.clock_out_at IS NULL THEN NULL
            ELSE (SELECT json_agg(c) FROM (${crewLinesNamingSql('$1::text', 's.clock_in_at', 's.clock_out_at', 'pc.ids')}) c) END AS crew_coverage,
       COALESCE((s.clock_in_at AT TIME ZONE $4::text)::date = $5::date AND ${streamHeadsHoldSql('$6::text[]', '$7::bigint[]')}, false) AS calendar_kept
  FROM (SELECT 1) AS one LEFT JOIN sessions s ON s.session_id = $3 AND s.employee_phone = $1
  -- The session's products, read once for the candidates, the orders and the crew parts.
  LEFT JOIN LATERAL (SELECT json_agg(${snapshotJson('p')} ORDER BY array_position(s.devices, p.device_no), p.project_no, p.product_name, p.process_name, p.id) AS candidates,
                            COALESCE(array_agg(p.id), '{}') AS ids,
                            array_agg(p.id) FILTER (WHERE p.operator_count > 1) AS crew_product_ids,
                            array_agg(p.project_no) AS project_nos, array_agg(p.product_name) AS product_names
                       FROM products p WHERE p.device_no = ANY(s.devices)) pc ON true`;

/**
 * The draft of session `sessionId` of `worker` at `now` (module docstring), in one round trip (two when the
 * calendar is read) through `reads` (Database.reads: batched with other workers' reads, keyed by the worker's phone;
 * or the pool): instants as Dates, starting break in whole minutes, candidate products; `calendars`, when given,
 * keeps the worker's calendar. Throws the domain errors of the module docstring.
 */
export async function reportDraft(
  reads: StatementRunner,
  settings: ClockSettings,
  now: Date,
  worker: { phone: string; role: string },
  sessionId: string,
  calendars?: CalendarCache,
): Promise<ReportDraft> {
  const q = keyedQueryable(reads, worker.phone);
  const kept = calendars?.get(worker.phone);
  const [ids, versions] = headsParameters(kept?.heads ?? {});
  const r = (await q.query(DRAFT_SQL, [worker.phone, worker.role, sessionId, settings.timeZone, kept?.date ?? null, ids, versions])).rows[0];
  if (!r.person_holds) throw domainError('ROLE_REVOKED');
  if (!r.session_id) throw sessionNotFound();
  const s = reportableSession(toSession(r), now, settings);
  // The same rule as the submission (commands/clock/decider.ts), from the same calendar SQL.
  const presence = { clockInAt: s.clockInAt, clockOutAt: s.clockOutAt };
  const clockInDate = localDate(new Date(s.clockInAt), settings.timeZone);
  let calendar = r.calendar_kept && kept?.date === clockInDate ? kept : undefined;
  if (!calendar) {
    calendar = await readCalendar(q, worker.phone, clockInDate);
    calendars?.set(worker.phone, calendar);
  }
  const started = sessionBreak(presence, clockInDate, calendar.days, settings.timeZone, initialBreakMinutes(s.clockInAt, s.clockOutAt, settings.defaultBreakMinutes));
  const candidates = await crewCandidates(q, settings, now, worker.phone, s, r.candidates ?? [], (r.crew_product_ids ?? []).map(Number), (r.crew_coverage ?? []).map(coverageRow));
  return {
    sessionId: s.sessionId,
    clockInAt: new Date(s.clockInAt),
    clockOutAt: new Date(s.clockOutAt),
    breakMinutes: started.breakMinutes,
    breakSource: started.breakSource,
    shift: started.shift,
    devices: [...s.devices],
    expiresAt: new Date(s.expiresAt),
    candidates: candidates.map((c) => ({ ...c, workOrders: ordersOf(c, r.work_orders ?? []) })),
  };
}

type DraftOrderRow = { orderNo: string; projectNo: string; productName: string; plannedQty: number | string; dueDate: string | null; operations: string[]; finished: Record<string, number | string> | null };

/** The open orders of `rows` that candidate `c` may count toward (its product, its 工序 among the operations), in order. */
function ordersOf(c: ProductSnapshot, rows: readonly DraftOrderRow[]): DraftWorkOrder[] {
  return rows
    .filter((o) => o.projectNo === c.projectNo && o.productName === c.productName && o.operations.includes(c.processName))
    .map((o) => ({ orderNo: o.orderNo, plannedQty: Number(o.plannedQty), reportedFinishedQty: Number(o.finished?.[c.processName] ?? 0), dueDate: o.dueDate }));
}

/**
 * Crew work (decisions.md "Crew work"): the candidates with `crewReportedBy` where another's crew line counts the
 * worker already, and for products whose 操作人数 > 1 the members proposed: everyone on the product's device during
 * the session (the worker first), with their seconds there and coefficient on today's date, less those whom a line
 * counts already (`crewLeftOut`). One more statement, only when some candidate is such a product.
 */
async function crewCandidates(
  q: Queryable,
  settings: ClockSettings,
  now: Date,
  phone: string,
  s: { clockInAt: string | Date; clockOutAt: string | Date },
  candidates: ProductSnapshot[],
  crewProductIds: number[],
  mine: CoverageRow[],
): Promise<DraftCandidate[]> {
  const reportedBy = (productId: number) => {
    const c = mine.find((x) => x.productId === productId && x.submitter !== phone);
    return c ? { crewReportedBy: { reportId: c.reportId, phone: c.submitter, name: c.submitterName } } : {};
  };
  if (!crewProductIds.length) return candidates.map((c) => ({ ...c, ...reportedBy(c.productId) }));
  const window = { from: new Date(s.clockInAt).toISOString(), to: new Date(s.clockOutAt).toISOString() };
  const date = localDate(now, settings.timeZone);
  const lookBack = Math.ceil(settings.sessionMaxMs / 3_600_000) + 24;
  const crewOf = candidates.filter((c) => crewProductIds.includes(c.productId));
  const r = (
    await q.query(
      `SELECT ${crewPresenceSql('$1::timestamptz', '$2::timestamptz', '$3::text[]', '$4::date', '$5::int')} AS sessions`,
      [window.from, window.to, [...new Set(crewOf.map((c) => c.deviceNo))], date, lookBack],
    )
  ).rows[0];
  const sessions: CrewSession[] = r.sessions ?? [];
  const present = new Map(crewOf.map((c) => [c.productId, onDevice(sessions, c.deviceNo, window, now.toISOString(), phone)]));
  const others = [...new Set([...present.values()].flatMap((ms) => ms.map((m) => m.phone)))].filter((p) => p !== phone);
  const covered = others.length
    ? (
        await q.query(`${crewCoverageSql('$1::timestamptz', '$2::timestamptz', '$3::bigint[]', '$4::text[]')}`, [window.from, window.to, crewProductIds, others])
      ).rows.map(coverageRow)
    : [];
  return candidates.map((c) => {
    const members = present.get(c.productId);
    if (!members) return { ...c, ...reportedBy(c.productId) };
    const left = members.filter((m) => m.phone !== phone && covered.some((x) => x.productId === c.productId && x.phone === m.phone));
    const crew = members
      .filter((m) => !left.includes(m))
      .map((m) => ({ phone: m.phone, name: m.name, secondsOnDevice: m.seconds, coefficient: m.coefficient / 100, clockInAt: m.firstAt }));
    const leftOut = left.map((m) => ({ phone: m.phone, name: m.name, reportId: covered.find((x) => x.productId === c.productId && x.phone === m.phone)!.reportId }));
    return { ...c, crew, ...(leftOut.length ? { crewLeftOut: leftOut } : {}), ...reportedBy(c.productId) };
  });
}
