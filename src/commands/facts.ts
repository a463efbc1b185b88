/**
 * The facts a decision relies on besides its stream (issue #15), declared in one typed form:
 * - the person: the actor (phone, role) still holds the role in `personnel`, under a name (the name the events'
 *   metadata carry);
 * - the device: some product uses the scanned device (decisions.md "Clocking");
 * - the products: the snapshots of the products the command copies (domain/report-line.ts), still exactly so;
 * - the months the command writes into (issue #22 "The monthly close"): which of them are closed. Its guard takes
 *   each month's lock SHARED and then reads the months' status with a fresh snapshot (migrations/011
 *   `months_open`), so a close, which takes the lock EXCLUSIVE, either waits for this write to commit and counts
 *   it, or has committed first and this write is refused: never a write after the close and outside its figures.
 * - the report's scope (issue #24 part S): the report is in the acting person's scope, by the one rule
 *   (domain/scope.ts) against the scope stored for the person and role (`scopes`); the guard checks it again, so a
 *   scope narrowed between the decision and the append writes nothing.
 * `FactQuery` says which a command needs, `loadFacts` reads them in one statement, and `guardFacts` turns the
 * facts a decision used into one guard of the command's append (db/guarded-write.ts), so that a decision made on
 * facts that changed meanwhile (read from the per-process cache, or changed by another request) writes nothing.
 * Each fact's SQL is written here once, next to its type: the shape of a statement follows from which facts it
 * has, with nothing to keep in step by convention.
 */
import type { GuardedWrite } from '../db/guarded-write.ts';
import type { Queryable } from '../db/transaction.ts';
import type { ProductSnapshot } from '../domain/report-line.ts';
import { snapshotJson, snapshotsHold } from '../products/snapshot.ts';
import { storedScopeSql } from '../domain/scope.ts';

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
  /** A report (UUID) the person acts on: is it in the person's scope? Needs `person` (issue #24 part S). */
  readonly reportInScope?: string;
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
  /** Whether the asked report exists and is in the person's scope (true when none was asked). */
  readonly reportInScope: boolean;
}

export const NO_FACTS: Facts = { deviceInUse: true, products: [], closedMonths: [], reportInScope: true };

/** The report $6 is in the scope of person $1 in role $2 (domain/scope.ts). */
const IN_SCOPE_SQL = (report: string, phone: string, role: string) =>
  `EXISTS (SELECT 1 FROM reports r WHERE r.report_id = ${report}::uuid AND ${storedScopeSql('r.workshop_code', 'r.team_code', phone, role)})`;

/** $1 phone, $2 role, $3 device number, $4 product ids, $5 months, $6 report in scope; null parameters ask nothing. */
const FACTS_SQL = `SELECT (SELECT name FROM personnel WHERE phone = $1 AND role = $2) AS person_name,
       ($3::text IS NULL OR EXISTS (SELECT 1 FROM products WHERE device_no = $3)) AS device_in_use,
       (SELECT json_agg(${snapshotJson('p')}) FROM products p WHERE p.id = ANY($4::bigint[])) AS products,
       (SELECT array_agg(month ORDER BY month) FROM periods WHERE month = ANY($5::text[]) AND status = 'closed') AS closed_months,
       ($6::uuid IS NULL OR ${IN_SCOPE_SQL('$6', '$1', '$2')}) AS report_in_scope`;

/** Reads the facts `query` asks, in one statement through `q` (the pool, or a transaction's client). */
export async function loadFacts(q: Queryable, query: FactQuery): Promise<Facts> {
  if (!query.person && query.deviceNo === undefined && !query.productIds?.length && !query.months?.length && query.reportInScope === undefined) return NO_FACTS;
  const ids = [...new Set(query.productIds ?? [])];
  const months = [...new Set(query.months ?? [])];
  const r = (await q.query(FACTS_SQL, [query.person?.phone ?? null, query.person?.role ?? null, query.deviceNo ?? null, ids, months, query.reportInScope ?? null])).rows[0];
  return {
    personName: r.person_name ?? undefined,
    deviceInUse: r.device_in_use,
    products: r.products ?? [],
    closedMonths: r.closed_months ?? [],
    reportInScope: r.report_in_scope,
  };
}

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
  if (query.reportInScope !== undefined && query.person && facts.reportInScope) {
    checks.push(IN_SCOPE_SQL(w.param(query.reportInScope), w.param(query.person.phone), w.param(query.person.role)));
  }
  if (checks.length) w.guard('facts', checks.join(' AND '));
  const months = [...new Set(query.months ?? [])].sort();
  if (months.length) w.guard('months', `months_open(${w.param(months)}::text[])`);
}
