/**
 * The facts a decision relies on besides its stream, declared in one typed form:
 * - the person: the actor (phone, role) still holds the role in `personnel`, under a name (the name the events'
 *   metadata carry);
 * - the device: some product uses the scanned device (decisions.md "Clocking");
 * - the products: the snapshots of the products the command copies (domain/report-line.ts), still exactly so;
 * - the months the command writes into: which of them are closed. Its guard takes
 *   each month's lock SHARED and then reads the months' status with a fresh snapshot (migrations/011
 *   `months_open`), so a close, which takes the lock EXCLUSIVE, either waits for this write to commit and counts
 *   it, or has committed first and this write is refused: never a write after the close and outside its figures.
 * - the report's scope: the report is in the acting person's scope, by the one rule
 *   (domain/scope.ts) against the scope stored for the person and role (`scopes`); the guard checks it again, so a
 *   scope narrowed between the decision and the append writes nothing.
 * `FactQuery` says which a command needs, `loadFacts` reads them in one statement, and `guardFacts` turns the
 * facts a decision used into one guard of the command's append (db/guarded-write.ts), so that a decision made on
 * facts that changed meanwhile (read from the per-process cache, or changed by another request) writes nothing.
 * Each fact's SQL is written here once, next to its type: the shape of a statement follows from which facts it
 * has, with nothing to keep in step by convention.
 *
 * Organization facts: which of some workshops and teams exist, the roles of some phones in
 * personnel (a team's leaders, a member), and the placement of a worker on a local date (the team covering that date
 * in `team_memberships` and that team's workshop, queries/organization.ts rules): a submission records it. They are
 * read by the same one statement as the others (the worker's submission adds no round trip).
 *
 * Crew work: who was on the crew lines' devices during the submitter's session, and which lines count the
 * submitter or the members named already for the lines' products then (src/crew/sql.ts); read by the same one
 * statement, never cached, and the guard checks that no such line was added since (two crew lines racing to name the
 * same person: one of them decides again and leaves the person out, or is refused).
 *
 * Shift facts: which of some shift ids exist (a team's assignment or override names them; shifts
 * are never deleted, so no guard), and the worker's shift calendar around a session's clock-in date (`shiftsOf`:
 * src/shifts/sql.ts, three ShiftDays), read by the same one statement and cached per worker by the caching
 * repository (src/shifts/calendar-cache.ts).
 *
 * The placement and the calendar are read with the heads of the streams they come from (events/heads.ts:
 * `member-<phone>`, `team-<code>`; `team-shifts-<team>`, `shift-<id>`), and their guard is those heads: still at the
 * versions read (a few index look-ups), so a racing move, assignment, override or shift change writes nothing,
 * without reading the placement and the calendar again inside the append (the clock cycle's figure).
 *
 * Work order facts (domain/work-orders.ts, migrations/019): the orders a report's lines name, with the pieces the
 * order's other reports have at each operation (the flow flags, domain/work-order-flow.ts) and the heads of their
 * streams; the guard `work_orders_hold` takes each order's lock SHARED and checks the heads with a fresh snapshot, so
 * an order completed, closed or cancelled meanwhile refuses the line on the next attempt. The 工序 of a product in
 * the catalog (an order's operations). The 工序 some report names an order at; the guard
 * `work_order_reported_within` takes the order's lock EXCLUSIVE and checks no report names it at another 工序 since
 * (a cancel, an operation removed), so it and a submission naming the order never both pass.
 */
import type { GuardedWrite } from '../db/guarded-write.ts';
import type { Queryable } from '../db/transaction.ts';
import type { ProductSnapshot } from '../domain/report-line.ts';
import { membershipCoversSql } from '../domain/membership.ts';
import { NO_PLACEMENT, type Placement } from '../domain/placement.ts';
import { snapshotJson, snapshotsHold } from '../products/snapshot.ts';
import type { ShiftDay } from '../domain/shift-breaks.ts';
import { calendarSql } from '../shifts/sql.ts';
import { outsideScopeSql, storedScopeSql, type ScopeTarget, type WholeFactoryWrite } from '../domain/scope.ts';
import { streamPrefixes } from '../events/catalog.ts';
import type { DefectReason } from '../domain/defect-reasons.ts';
import type { StoredStatus } from '../domain/work-orders.ts';
import type { StopReason } from '../domain/stop-reasons.ts';
import type { AttendanceSegment } from '../domain/stops.ts';
import { attendanceSql, onDeviceSql } from '../domain/presence-sql.ts';
import { headsParameters, streamHeadsHoldSql, streamHeadsSql, type StreamHeads } from '../events/heads.ts';
import { coverageRow, crewCoverageSql, crewPresenceSql } from '../crew/sql.ts';
import type { CrewFacts } from './crew-lines.ts';

/** The facts a command needs (each optional). */
export interface FactQuery {
  /** The acting person (absent for the system's own commands). */
  readonly person?: { readonly phone: string; readonly role: string };
  /** The scanned device. */
  readonly deviceNo?: string;
  /** The products the command may copy. */
  readonly productIds?: readonly number[];
  /** The months (`YYYY-MM`) the command writes into; each must be open. */
  readonly months?: readonly string[];
  // ---- organization ----
  /** Workshop codes whose existence the command relies on. */
  readonly workshopCodes?: readonly string[];
  /** Team codes whose existence the command relies on. */
  readonly teamCodes?: readonly string[];
  /** Phones whose roles in personnel the command relies on (a team's leaders, a member). */
  readonly people?: readonly string[];
  /** The worker's team and workshop on a local date `YYYY-MM-DD` (a submission's report date). */
  readonly placementOf?: { readonly phone: string; readonly date: string };
  // ---- shifts: shifts ----
  /** Shift ids an assignment or override names: which exist (shifts are never deleted, so no guard). */
  readonly shiftIds?: readonly string[];
  /**
   * The worker's calendar around a session's clock-in date (local `YYYY-MM-DD`): for that date and the days before
   * and after, the worker's team that day and the team's shift (a submission's break, domain/shift-breaks.ts).
   */
  readonly shiftsOf?: { readonly phone: string; readonly date: string };
  // ---- scopes ----
  /** A report (UUID) the person acts on: is it in the person's scope? Needs `person`. */
  readonly reportInScope?: string;
  /**
   * What a write of the organization, shifts, overrides, devices or memberships touches (domain/scope.ts
   * `ScopeTarget`): is each inside the person's scope? Needs `person`.
   */
  readonly writeScope?: readonly ScopeTarget[];
  /** Defect reason codes a report's lines name (domain/defect-reasons.ts): which exist, their category, active. */
  readonly defectReasonCodes?: readonly string[];
  // ---- work orders ----
  /** The orders a report's lines name, with the pieces of their reports other than `exceptReport` (a correction's). */
  readonly workOrders?: { readonly orderNos: readonly string[]; readonly exceptReport?: string };
  /** A product (项目号, 产品名称) whose 工序 in the catalog an order's operations are checked against. */
  readonly workOrderProduct?: { readonly projectNo: string; readonly productName: string };
  /** An order whose reported 工序 a cancel or an operation's removal relies on. */
  readonly workOrderReported?: string;
  /**
   * Crew work (src/crew/sql.ts, commands/crew-lines.ts): the submitter's session window [from, to) (ISO instants),
   * the products of its lines (`productIds`: which already count the phones; `crewProductIds`: the crew lines',
   * whose devices' presence is read), the submitter and the members named (`phones`), the report date (the members'
   * coefficients) and how far back a session overlapping the window may have begun (hours).
   */
  readonly crewOf?: {
    readonly from: string;
    readonly to: string;
    readonly productIds: readonly number[];
    readonly crewProductIds: readonly number[];
    readonly phones: readonly string[];
    readonly date: string;
    readonly lookBackHours: number;
  };
  // ---- downtime (停机) ----
  /** Is `phone` clocked in on `deviceNo` now (its session's open segment, the presence in the sessions' rows: migrations/030)? */
  readonly onDevice?: { readonly phone: string; readonly deviceNo: string };
  /** Stop reason codes a stop names (domain/stop-reasons.ts): which exist, their category, active. */
  readonly stopReasonCodes?: readonly string[];
  /**
   * The presence segments on `deviceNo` lasting at or after instant `from` (ISO): the device's attendance since;
   * `lookBackHours` from domain/presence-sql.ts presenceLookBackHours.
   */
  readonly deviceAttendance?: { readonly deviceNo: string; readonly from: string; readonly lookBackHours: number };
}

/** An order a report line names, as the facts read it (domain/work-orders.ts), with its other reports' pieces. */
export interface WorkOrderFact {
  readonly orderNo: string;
  readonly projectNo: string;
  readonly productName: string;
  readonly plannedQty: number;
  readonly operations: readonly string[];
  readonly status: StoredStatus;
  /** Per operation reported at: 成品 and 不良 of the approved and pending reports (but the one excepted). */
  readonly reported: readonly { readonly processName: string; readonly finishedQty: number; readonly defectiveQty: number }[];
}

/** The facts as read (or cached). */
export interface Facts {
  /** The person's name while (phone, role) holds in personnel; undefined when not (or not asked). */
  readonly personName?: string;
  /** Whether some product uses the asked device (true when none was asked). */
  readonly deviceInUse: boolean;
  /** Snapshots of the asked products that exist. */
  readonly products: readonly ProductSnapshot[];
  /** The asked months that are closed. */
  readonly closedMonths: readonly string[];
  // ---- organization ----
  /** The asked workshop codes that exist (absent: none asked). */
  readonly workshops?: readonly string[];
  /** The asked team codes that exist (absent: none asked). */
  readonly teams?: readonly string[];
  /** The asked phones that are in personnel, with their roles (absent: none asked). */
  readonly people?: readonly { readonly phone: string; readonly roles: readonly string[] }[];
  /** The placement asked by `placementOf` (NO_PLACEMENT: in no team that day; absent: not asked). */
  readonly placement?: Placement;
  /**
   * The dates the placement holds for (the covering membership's `validFrom`…`validTo`, `to` null: open; in no team:
   * the date asked only), so that a cache may answer for another date of the span (the guard still checks it).
   */
  readonly placementSpan?: { readonly from: string; readonly to: string | null };
  // ---- shifts: shifts ----
  /** The asked shift ids that exist (absent when none were asked). */
  readonly knownShiftIds?: readonly string[];
  /** The calendar asked by `shiftsOf`, three days in date order (absent: not asked). */
  readonly shiftDays?: readonly ShiftDay[];
  /**
   * The heads of the streams the placement and the calendar were read from (absent: neither asked), what their
   * guard checks (module docstring).
   */
  readonly heads?: StreamHeads;
  // ---- scopes ----
  /** Whether the asked report exists and is in the person's scope (true when none was asked). */
  readonly reportInScope: boolean;
  /** The first asked write target outside the person's scope (absent: all inside, or none asked). */
  readonly outsideScope?: ScopeTarget;
  /** The asked defect reasons that exist (absent: none asked). */
  readonly defectReasons?: readonly DefectReason[];
  // ---- work orders ----
  /** The asked orders that exist (absent: none asked). */
  readonly workOrders?: readonly WorkOrderFact[];
  /** The heads of the asked orders' streams (absent: none asked), what their guard checks. */
  readonly workOrderHeads?: StreamHeads;
  /** The 工序 of the asked product in the catalog; null: no such product (absent: not asked). */
  readonly workOrderCatalog?: readonly string[] | null;
  /** The 工序 some report names the asked order at (absent: not asked). */
  readonly workOrderReported?: readonly string[];
  /** Crew work: the presence on the crew lines' devices, the lines counting the phones already, names (absent: not asked). */
  readonly crew?: CrewFacts;
  // ---- downtime (停机) ----
  /** Whether the asked person is clocked in on the asked device (absent: not asked). */
  readonly onDevice?: boolean;
  /** The asked stop reasons that exist (absent: none asked). */
  readonly stopReasons?: readonly StopReason[];
  /** The asked device's presence segments (absent: not asked), in the order the guard compares them. */
  readonly deviceAttendance?: readonly AttendanceSegment[];
}

export const NO_FACTS: Facts = { deviceInUse: true, products: [], closedMonths: [], reportInScope: true };

/** The report `report` is in the scope of person `phone` in role `role` (domain/scope.ts). */
const IN_SCOPE_SQL = (report: string, phone: string, role: string) =>
  `EXISTS (SELECT 1 FROM reports r WHERE r.report_id = ${report}::uuid AND ${storedScopeSql('r.workshop_code', 'r.team_code', phone, role)})`;

/**
 * The team covering local date `date` for `phone` and its workshop on that date (the dated team_workshops,
 * migrations/017) with the dates both hold for (the membership's, cut at the team's moves), as one JSON
 * object `{placement: {teamCode, workshopCode, from, to} | null, heads}` with the heads of `member-<phone>` and of
 * the team's stream (SQL expressions as arguments).
 */
const placementSql = (phone: string, date: string) =>
  `(SELECT json_build_object('placement', p.placement,
                             'heads', ${streamHeadsSql(`ARRAY['${streamPrefixes.member}' || ${phone}, '${streamPrefixes.team}' || (p.placement ->> 'teamCode')]`)})
      FROM (SELECT (SELECT json_build_object('teamCode', m.team_code, 'workshopCode', tw.workshop_code,
                                             'from', GREATEST(m.valid_from, tw.valid_from),
                                             'to', LEAST(m.valid_to, (SELECT min(n.valid_from) - 1 FROM team_workshops n
                                                                       WHERE n.team_code = m.team_code AND n.valid_from > ${date})))
                      FROM team_memberships m
                      CROSS JOIN LATERAL (SELECT w.workshop_code, w.valid_from FROM team_workshops w
                                           WHERE w.team_code = m.team_code AND w.valid_from <= ${date}
                                           ORDER BY w.valid_from DESC LIMIT 1) tw
                     WHERE m.phone = ${phone} AND ${membershipCoversSql('m', date)}
                     ORDER BY m.valid_from DESC LIMIT 1) AS placement) p)`;

/**
 * The asked orders ($17) as JSON `{orders: [...WorkOrderFact], heads}`: each order's row (migrations/019) and the
 * pieces per operation of its approved and pending reports but $18, and the heads of the orders' streams.
 */
const WORK_ORDERS_SQL = `(CASE WHEN cardinality($17::text[]) = 0 THEN NULL ELSE json_build_object(
  'orders', (SELECT json_agg(json_build_object('orderNo', o.order_no, 'projectNo', o.project_no, 'productName', o.product_name,
                                               'plannedQty', o.planned_qty, 'operations', o.operations, 'status', o.status,
                                               'reported', COALESCE((SELECT json_agg(json_build_object('processName', x.process_name, 'finishedQty', x.f, 'defectiveQty', x.d))
                                                  FROM (SELECT l ->> 'processName' AS process_name, sum((l ->> 'finishedQty')::bigint) AS f, sum((l ->> 'defectiveQty')::bigint) AS d
                                                          FROM reports r CROSS JOIN LATERAL jsonb_array_elements(r.lines) l
                                                         WHERE r.lines @? '$[*].workOrderNo' AND report_work_orders(r.lines) && ARRAY[o.order_no] AND l ->> 'workOrderNo' = o.order_no
                                                           AND r.status <> 'rejected' AND ($18::uuid IS NULL OR r.report_id <> $18::uuid)
                                                         GROUP BY 1) x), '[]'::json)))
               FROM work_orders o WHERE o.order_no = ANY($17::text[])),
  'heads', ${streamHeadsSql(`(SELECT array_agg('${streamPrefixes.workOrder}' || n) FROM unnest($17::text[]) n)`)}) END)`;

/**
 * $1 phone, $2 role, $3 device number, $4 product ids, $5 months; null parameters ask nothing. The organization:
 * $6 workshop codes, $7 team codes, $8 phones, $9 placement phone, $10 placement date. $11 shift
 * ids, $12 phone and $13 clock-in date of the shift calendar  (src/shifts/sql.ts). $14 a report id whose scope is asked.
 * $15 the targets of a write whose scope is asked (jsonb, domain/scope.ts `outsideScopeSql`). $16 the defect reason
 * codes a report's lines name. $17 work order numbers and $18 the report left out of their pieces; $19 项目号 and
 * $20 产品名称 of the product whose 工序 are asked; $21 the order whose reported 工序 are asked.
 * Crew work: $22 window from, $23 window to, $24 crew lines' product ids, $25 the lines'
 * product ids, $26 phones, $27 report date, $28 look-back hours (src/crew/sql.ts).
 * Downtime: $29 the device whose presence of $1 is asked, $30 stop reason codes, $31 a device and
 * $32 an instant from which its attendance is asked.
 */
const FACTS_SQL = `SELECT (SELECT name FROM personnel WHERE phone = $1 AND role = $2) AS person_name,
       ($3::text IS NULL OR EXISTS (SELECT 1 FROM products WHERE device_no = $3)) AS device_in_use,
       (SELECT json_agg(${snapshotJson('p')}) FROM products p WHERE p.id = ANY($4::bigint[])) AS products,
       (SELECT array_agg(month ORDER BY month) FROM periods WHERE month = ANY($5::text[]) AND status = 'closed') AS closed_months,
       (SELECT array_agg(code) FROM workshops WHERE code = ANY($6::text[])) AS workshops,
       (SELECT array_agg(code) FROM teams WHERE code = ANY($7::text[])) AS teams,
       (SELECT json_agg(x) FROM (SELECT phone, array_agg(role ORDER BY role) AS roles FROM personnel WHERE phone = ANY($8::text[]) GROUP BY phone) x) AS people,
       CASE WHEN $9::text IS NULL THEN NULL ELSE ${placementSql('$9::text', '$10::date')} END AS placement,
       (SELECT array_agg(shift_id) FROM shifts WHERE shift_id = ANY($11::text[])) AS known_shift_ids,
       CASE WHEN $12::text IS NULL THEN NULL ELSE ${calendarSql('$12::text', '$13::date')} END AS calendar,
       ($14::uuid IS NULL OR ${IN_SCOPE_SQL('$14', '$1', '$2')}) AS report_in_scope,
       CASE WHEN $15::jsonb IS NULL THEN NULL ELSE ${outsideScopeSql('$15', '$1', '$2')} END AS outside_scope,
       (SELECT json_agg(json_build_object('code', code, 'name', name, 'category', category, 'active', active)) FROM defect_reasons WHERE code = ANY($16::text[])) AS defect_reasons,
       ${WORK_ORDERS_SQL} AS work_orders,
       CASE WHEN $19::text IS NULL THEN NULL ELSE (SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_build_object('processes', array_agg(DISTINCT process_name ORDER BY process_name)) END
                                                     FROM products WHERE project_no = $19 AND product_name = $20) END AS work_order_catalog,
       CASE WHEN $21::text IS NULL THEN NULL ELSE (SELECT COALESCE(array_agg(DISTINCT l ->> 'processName'), '{}') FROM reports r CROSS JOIN LATERAL jsonb_array_elements(r.lines) l
                                                    WHERE r.lines @? '$[*].workOrderNo' AND report_work_orders(r.lines) && ARRAY[$21::text] AND l ->> 'workOrderNo' = $21) END AS work_order_reported,
       CASE WHEN $22::timestamptz IS NULL THEN NULL ELSE json_build_object(
         'sessions', CASE WHEN cardinality($24::bigint[]) = 0 THEN '[]'::json
                          ELSE ${crewPresenceSql('$22::timestamptz', '$23::timestamptz', '(SELECT array_agg(device_no) FROM products WHERE id = ANY($24::bigint[]))', '$27::date', '$28::int')} END,
         'coverage', (SELECT COALESCE(json_agg(c), '[]'::json) FROM (${crewCoverageSql('$22::timestamptz', '$23::timestamptz', '$25::bigint[]', '$26::text[]')}) c),
         'names', (SELECT COALESCE(json_agg(json_build_object('phone', x.phone, 'name', x.name)), '[]'::json)
                     FROM (SELECT phone, min(name) AS name FROM personnel WHERE phone = ANY($26::text[]) GROUP BY phone) x)) END AS crew,
       CASE WHEN $29::text IS NULL THEN NULL ELSE ${onDeviceSql('$1::text', '$29::text')} END AS on_device,
       (SELECT json_agg(json_build_object('code', code, 'name', name, 'category', category, 'active', active)) FROM stop_reasons WHERE code = ANY($30::text[])) AS stop_reasons,
       CASE WHEN $31::text IS NULL THEN NULL ELSE ${attendanceSql('$31::text', '$32::text', '$33::int')} END AS device_attendance`;

const asked = (xs: readonly unknown[] | undefined) => xs !== undefined && xs.length > 0;

/** Reads the facts `query` asks, in one statement through `q` (the pool, or a transaction's client). */
export async function loadFacts(q: Queryable, query: FactQuery): Promise<Facts> {
  const org = asked(query.workshopCodes) || asked(query.teamCodes) || asked(query.people) || query.placementOf !== undefined;
  const shifts = asked(query.shiftIds) || query.shiftsOf !== undefined; // shifts
  if (!query.person && query.deviceNo === undefined && !query.productIds?.length && !query.months?.length && !org && !shifts && query.reportInScope === undefined && query.writeScope === undefined && !asked(query.defectReasonCodes) && !query.workOrders?.orderNos.length && !query.workOrderProduct && query.workOrderReported === undefined && !query.crewOf && !query.onDevice && !asked(query.stopReasonCodes) && !query.deviceAttendance) return NO_FACTS;
  const crew = query.crewOf;
  const ids = [...new Set(query.productIds ?? [])];
  const months = [...new Set(query.months ?? [])];
  const r = (
    await q.query(FACTS_SQL, [
      query.person?.phone ?? null,
      query.person?.role ?? null,
      query.deviceNo ?? null,
      ids,
      months,
      [...new Set(query.workshopCodes ?? [])],
      [...new Set(query.teamCodes ?? [])],
      [...new Set(query.people ?? [])],
      query.placementOf?.phone ?? null,
      query.placementOf?.date ?? null,
      [...new Set(query.shiftIds ?? [])],
      query.shiftsOf?.phone ?? null,
      query.shiftsOf?.date ?? null,
      query.reportInScope ?? null,
      query.writeScope ? JSON.stringify(query.writeScope) : null,
      [...new Set(query.defectReasonCodes ?? [])],
      [...new Set(query.workOrders?.orderNos ?? [])],
      query.workOrders?.exceptReport ?? null,
      query.workOrderProduct?.projectNo ?? null,
      query.workOrderProduct?.productName ?? null,
      query.workOrderReported ?? null,
      crew?.from ?? null,
      crew?.to ?? null,
      [...new Set(crew?.crewProductIds ?? [])],
      [...new Set(crew?.productIds ?? [])],
      [...new Set(crew?.phones ?? [])],
      crew?.date ?? null,
      crew?.lookBackHours ?? null,
      query.onDevice?.deviceNo ?? null,
      [...new Set(query.stopReasonCodes ?? [])],
      query.deviceAttendance?.deviceNo ?? null,
      query.deviceAttendance?.from ?? null,
      query.deviceAttendance?.lookBackHours ?? null,
    ])
  ).rows[0];
  const placed = r.placement?.placement;
  // One snapshot: the two sets of heads agree on the streams they share.
  const heads: StreamHeads | undefined = r.placement || r.calendar ? { ...r.placement?.heads, ...r.calendar?.heads } : undefined;
  return {
    personName: r.person_name ?? undefined,
    deviceInUse: r.device_in_use,
    products: r.products ?? [],
    closedMonths: r.closed_months ?? [],
    reportInScope: r.report_in_scope,
    ...(r.outside_scope ? { outsideScope: outsideTarget(r.outside_scope) } : {}),
    ...(query.workshopCodes ? { workshops: r.workshops ?? [] } : {}),
    ...(query.teamCodes ? { teams: r.teams ?? [] } : {}),
    ...(query.people ? { people: r.people ?? [] } : {}),
    ...(query.placementOf
      ? placed
        ? { placement: { teamCode: placed.teamCode, workshopCode: placed.workshopCode }, placementSpan: { from: placed.from, to: placed.to } }
        : { placement: NO_PLACEMENT, placementSpan: { from: query.placementOf.date, to: query.placementOf.date } }
      : {}),
    ...(query.shiftIds ? { knownShiftIds: r.known_shift_ids ?? [] } : {}),
    ...(query.defectReasonCodes ? { defectReasons: r.defect_reasons ?? [] } : {}),
    ...(query.onDevice ? { onDevice: r.on_device === true } : {}),
    ...(query.stopReasonCodes ? { stopReasons: r.stop_reasons ?? [] } : {}),
    ...(query.deviceAttendance ? { deviceAttendance: r.device_attendance ?? [] } : {}),
    ...(query.shiftsOf ? { shiftDays: r.calendar?.days ?? [] } : {}),
    ...(heads ? { heads } : {}),
    ...(query.workOrders?.orderNos.length
      ? {
          workOrders: ((r.work_orders?.orders ?? []) as WorkOrderFact[]).map((o) => ({
            ...o,
            plannedQty: Number(o.plannedQty),
            reported: o.reported.map((x) => ({ processName: x.processName, finishedQty: Number(x.finishedQty), defectiveQty: Number(x.defectiveQty) })),
          })),
          workOrderHeads: r.work_orders?.heads ?? {},
        }
      : {}),
    ...(query.workOrderProduct ? { workOrderCatalog: r.work_order_catalog ? r.work_order_catalog.processes : null } : {}),
    ...(query.workOrderReported !== undefined ? { workOrderReported: r.work_order_reported ?? [] } : {}),
    ...(r.crew ? { crew: { sessions: r.crew.sessions ?? [], coverage: (r.crew.coverage ?? []).map(coverageRow), names: r.crew.names ?? [] } } : {}),
  };
}

/** The target `{kind, code, write}` that `outsideScopeSql` answered, as a ScopeTarget. */
const outsideTarget = (o: { kind: string; code: string | null; write: string | null }): ScopeTarget =>
  o.kind === 'factory' ? { kind: 'factory', write: o.write as WholeFactoryWrite } : { kind: o.kind as 'workshop' | 'team' | 'member' | 'device', code: o.code ?? '' };

/**
 * Adds to `w` the guard `facts`: every fact of `query` still holds as `facts` say — the person under
 * `facts.personName`, the device in use, and the asked products that `facts` has, unchanged — and the guard
 * `months`: every asked month is open, read under its shared lock with a fresh snapshot (module docstring). No
 * guard when the query asks nothing.
 */
export function guardFacts(w: GuardedWrite, query: FactQuery, facts: Facts): void {
  const checks: string[] = [];
  if (query.person) {
    const [phone, role, name] = [w.param(query.person.phone), w.param(query.person.role), w.param(facts.personName ?? null)];
    checks.push(`EXISTS (SELECT 1 FROM personnel WHERE phone = ${phone} AND role = ${role} AND name = ${name})`);
  }
  if (query.deviceNo !== undefined) checks.push(`EXISTS (SELECT 1 FROM products WHERE device_no = ${w.param(query.deviceNo)})`);
  const asked = new Set(query.productIds ?? []);
  const used = facts.products.filter((p) => asked.has(p.productId));
  if (used.length) checks.push(snapshotsHold(w.param(JSON.stringify(used))));
  // workshops and teams are never removed (existence read once holds); the people's roles and the
  // placement may change, so the append checks they are still as read.
  for (const p of facts.people ?? []) {
    if (!query.people?.includes(p.phone)) continue;
    checks.push(`(SELECT array_agg(role ORDER BY role) FROM personnel WHERE phone = ${w.param(p.phone)}) = ${w.param(p.roles)}::text[]`);
  }
  // the organization and the shifts: the placement and the calendar still as read: their streams still at the heads read.
  if (query.placementOf || query.shiftsOf) {
    if (!facts.heads) throw new Error('facts: a placement or a calendar without the heads it was read with');
    const [ids, versions] = headsParameters(facts.heads);
    checks.push(streamHeadsHoldSql(`${w.param(ids)}::text[]`, `${w.param(versions)}::bigint[]`));
  }
  // scopes: the report is still in the person's scope.
  if (query.reportInScope !== undefined && query.person && facts.reportInScope) {
    checks.push(IN_SCOPE_SQL(w.param(query.reportInScope), w.param(query.person.phone), w.param(query.person.role)));
  }
  // The targets of an organization write still inside the person's scope (domain/scope.ts).
  if (query.writeScope !== undefined && query.person && !facts.outsideScope) {
    checks.push(`${outsideScopeSql(w.param(JSON.stringify(query.writeScope)), w.param(query.person.phone), w.param(query.person.role))} IS NULL`);
  }
  // The defect reasons the lines used: still active, of the category recorded with the lines.
  const reasons = (facts.defectReasons ?? []).filter((r) => r.active && query.defectReasonCodes?.includes(r.code));
  if (reasons.length) {
    const list = w.param(JSON.stringify(reasons.map((r) => ({ code: r.code, category: r.category }))));
    checks.push(
      `(SELECT count(*) FROM defect_reasons d JOIN jsonb_to_recordset(${list}::jsonb) AS x(code text, category text) ON d.code = x.code AND d.category = x.category WHERE d.active) = ${reasons.length}`,
    );
  }
  // work orders: the orders named still as read (their streams at the heads read, under each order's shared lock);
  // the 工序 reported at an order still those read (under its exclusive lock).
  if (query.workOrders?.orderNos.length && facts.workOrderHeads) {
    const [ids, versions] = headsParameters(facts.workOrderHeads);
    if (ids.length) checks.push(`work_orders_hold(${w.param(ids)}::text[], ${w.param(versions)}::bigint[])`);
  }
  if (query.workOrderReported !== undefined && facts.workOrderReported) {
    checks.push(`work_order_reported_within(${w.param(query.workOrderReported)}, ${w.param([...facts.workOrderReported])}::text[])`);
  }
  // Crew work: the lines counting the phones for the products then are still those read (none added since), read
  // under the phones' locks with a fresh snapshot (migrations/021 crew_coverage_holds): racing submissions that
  // count the same person are decided one after the other. A submission without crew lines whose submitter nothing
  // counts yet (the usual one, also as the facts cache assumes it) needs only the lighter crew_lines_name_nobody.
  if (query.crewOf && facts.crew) {
    const c = query.crewOf;
    if (facts.crew.coverage.length === 0 && c.crewProductIds.length === 0 && c.phones.every((p) => p === query.person?.phone)) {
      // No crew line and nothing counting the submitter: only another's crew line naming them could (migrations/025).
      checks.push(`crew_lines_name_nobody(${w.param(query.person!.phone)}::text, ${w.param(c.from)}::timestamptz, ${w.param(c.to)}::timestamptz, ${w.param([...new Set(c.productIds)])}::bigint[])`);
    } else {
      const coverage = `${w.param(crewCoverageSql('$1', '$2', '$3', '$4'))}::text`;
      const args = [`${w.param(c.from)}::timestamptz`, `${w.param(c.to)}::timestamptz`, `${w.param([...new Set(c.productIds)])}::bigint[]`, `${w.param([...new Set(c.phones)])}::text[]`];
      checks.push(`crew_coverage_holds(${coverage}, ${args.join(', ')}, ${facts.crew.coverage.length})`);
    }
  }
  // Downtime: still on the device, the stop reasons used still active, the device's attendance still as read.
  if (query.onDevice && query.person && facts.onDevice) checks.push(onDeviceSql(w.param(query.person.phone), w.param(query.onDevice.deviceNo)));
  const stopReasons = (facts.stopReasons ?? []).filter((r) => r.active && query.stopReasonCodes?.includes(r.code));
  if (stopReasons.length) checks.push(`(SELECT count(*) FROM stop_reasons WHERE active AND code = ANY(${w.param(stopReasons.map((r) => r.code))}::text[])) = ${stopReasons.length}`);
  if (query.deviceAttendance && facts.deviceAttendance) {
    const a = query.deviceAttendance;
    const sql = attendanceSql(`${w.param(a.deviceNo)}::text`, `${w.param(a.from)}::text`, `${w.param(a.lookBackHours)}::int`);
    checks.push(`coalesce(${sql}::jsonb, '[]'::jsonb) = ${w.param(JSON.stringify(facts.deviceAttendance))}::jsonb`);
  }
  if (checks.length) w.guard('facts', checks.join(' AND '));
  const months = [...new Set(query.months ?? [])].sort();
  if (months.length) w.guard('months', `months_open(${w.param(months)}::text[])`);
}
