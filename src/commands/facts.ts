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
  // issue #24 part B: shifts
  /** Shift ids an assignment or override names: which exist (shifts are never deleted, so no guard). */
  readonly shiftIds?: readonly string[];
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
  // issue #24 part B: shifts
  /** The asked shift ids that exist (absent when none were asked). */
  readonly knownShiftIds?: readonly string[];
}

export const NO_FACTS: Facts = { deviceInUse: true, products: [], closedMonths: [] };

/** $1 phone, $2 role, $3 device number, $4 product ids, $5 months, $6 shift ids; null parameters ask nothing. */
const FACTS_SQL = `SELECT (SELECT name FROM personnel WHERE phone = $1 AND role = $2) AS person_name,
       ($3::text IS NULL OR EXISTS (SELECT 1 FROM products WHERE device_no = $3)) AS device_in_use,
       (SELECT json_agg(${snapshotJson('p')}) FROM products p WHERE p.id = ANY($4::bigint[])) AS products,
       (SELECT array_agg(month ORDER BY month) FROM periods WHERE month = ANY($5::text[]) AND status = 'closed') AS closed_months,
       (SELECT array_agg(shift_id) FROM shifts WHERE shift_id = ANY($6::text[])) AS known_shift_ids`;

/** Reads the facts `query` asks, in one statement through `q` (the pool, or a transaction's client). */
export async function loadFacts(q: Queryable, query: FactQuery): Promise<Facts> {
  if (!query.person && query.deviceNo === undefined && !query.productIds?.length && !query.months?.length && !query.shiftIds?.length) return NO_FACTS;
  const ids = [...new Set(query.productIds ?? [])];
  const months = [...new Set(query.months ?? [])];
  const shiftIds = [...new Set(query.shiftIds ?? [])];
  const r = (await q.query(FACTS_SQL, [query.person?.phone ?? null, query.person?.role ?? null, query.deviceNo ?? null, ids, months, shiftIds])).rows[0];
  return {
    personName: r.person_name ?? undefined,
    deviceInUse: r.device_in_use,
    products: r.products ?? [],
    closedMonths: r.closed_months ?? [],
    ...(query.shiftIds ? { knownShiftIds: r.known_shift_ids ?? [] } : {}),
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
  if (checks.length) w.guard('facts', checks.join(' AND '));
  const months = [...new Set(query.months ?? [])].sort();
  if (months.length) w.guard('months', `months_open(${w.param(months)}::text[])`);
}
