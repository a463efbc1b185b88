/**
 * What a worker's command decides on, and how it is known (issue #5: a worker's command is one round trip).
 *
 * Facts: the worker stream from a session's ClockedIn on (its events, version and folded state), the person's
 * name while the token's (phone, role) still holds in `personnel`, whether the scanned device is in use, and
 * the snapshots of named products.
 * - `loadWorkerFacts(q, ctx, query)` reads them fresh, in one statement (one snapshot, one round trip).
 * - `FactsCache` (facts-cache.ts) keeps, per process, the facts a command ended with, so that the next command
 *   can decide without reading. A cached fact is never trusted on its own: the append that follows checks every
 *   fact it used in its own statement (the stream's expected version; the conditions here: `personHolds`,
 *   `deviceInUse`, `productsAsCopied`), and when one no longer holds nothing is written and the command loads
 *   afresh and decides again. Several instances may therefore each cache the same worker.
 */
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/transaction.ts';
import { streams } from '../../events/catalog.ts';
import type { AppendCondition } from '../../events/store.ts';
import { overlay, rowsOf, type KnownRows, type SectionEvent } from '../../projections/ahead.ts';
import { fold } from '../decider.ts';
import { snapshotJson, snapshotOfRow, type ProductSnapshot } from '../report-lines.ts';
import { workerDecider, type ClockSettings, type WorkerDecision, type WorkerState } from './decider.ts';

/** An event of the loaded worker-stream section. */
export interface HistoryEvent extends SectionEvent {
  type: WorkerDecision['type'];
  data: any;
}

/**
 * The worker stream from a session's ClockedIn on: folded, and replayed through the inline projections. The events
 * themselves are not kept: nothing reads them once folded and projected, and a section lives in the facts cache
 * between a worker's commands.
 */
export interface WorkerSection {
  state: WorkerState;
  /** The stream's version to expect when appending (0: the stream does not exist yet). */
  version: number;
  /** The inline projections' rows of the section (projections/ahead.ts): what the next events touch. */
  rows: KnownRows;
}

export interface WorkerFacts {
  /** The person's name while (phone, role) holds in personnel; undefined when removed (or not asked). */
  personName?: string;
  /** The section; undefined when the asked session is not the worker's own (or unknown). */
  section?: WorkerSection;
  /** Whether some product uses the asked device (true when none was asked). */
  deviceInUse: boolean;
  /** Snapshots of the asked products that exist. */
  products: ProductSnapshot[];
}

export interface FactsQuery {
  phone: string;
  /** The token's role, checked against personnel; omitted for system commands. */
  role?: string;
  /** The latest session's section, or the section from `sessionId` (which must be the worker's own). */
  from: { latest: true } | { sessionId: string };
  deviceNo?: string;
  productIds?: readonly number[];
}

const SECTION = `json_agg(json_build_object('v', e.stream_version, 't', e.event_type, 's', e.schema_version, 'd', e.data,
                         'm', e.metadata, 'r', e.recorded_at) ORDER BY e.stream_version)`;
const OTHER_FACTS = `(SELECT name FROM personnel WHERE phone = $2 AND role = $3) AS person_name,
       ($4::text IS NULL OR EXISTS (SELECT 1 FROM products WHERE device_no = $4)) AS device_in_use,
       (SELECT json_agg(${snapshotJson('p')}) FROM products p WHERE p.id = ANY($5::bigint[])) AS products`;
/**
 * $1 stream, $2 phone, $3 role, $4 device, $5 product ids; latest: the section from the latest session on, i.e. from
 * the stream's last ClockedIn (read backwards through the unique index; the whole stream when there is none).
 */
const LATEST_SQL = `SELECT true AS own, ${OTHER_FACTS},
       (SELECT ${SECTION} FROM events e WHERE e.stream_id = $1
           AND e.stream_version >= COALESCE((SELECT l.stream_version FROM events l WHERE l.stream_id = $1 AND l.event_type = 'ClockedIn'
                                              ORDER BY l.stream_version DESC LIMIT 1), 1)) AS section`;
/** As LATEST_SQL, the section from session $6 on, when it is the worker's own. */
const SESSION_SQL = `WITH s AS (SELECT opened_version FROM sessions WHERE session_id = $6 AND employee_phone = $2)
SELECT EXISTS (SELECT 1 FROM s) AS own, ${OTHER_FACTS},
       (SELECT ${SECTION} FROM events e, s WHERE e.stream_id = $1 AND e.stream_version >= s.opened_version) AS section`;

/** The worker settings of the decider from the config (report window, session age, time zone, break minutes). */
export const clockSettings = (ctx: AppContext): ClockSettings => ({
  reportWindowMs: ctx.config.reportWindowMs,
  sessionMaxMs: ctx.config.sessionMaxMs,
  timeZone: ctx.config.timeZone,
  defaultBreakMinutes: ctx.config.defaultBreakMinutes,
});

/** The inline projections of the service. */
export const inlineProjections = (ctx: AppContext) => ctx.projections.filter((p) => p.mode === 'inline');

/** The section of `history` (events of the worker `phone`'s stream, in order, from a ClockedIn on). */
function sectionOf(ctx: AppContext, phone: string, history: HistoryEvent[]): WorkerSection {
  return {
    state: fold(workerDecider(clockSettings(ctx)), history as WorkerDecision[]),
    version: history.length ? history[history.length - 1].streamVersion : 0,
    rows: rowsOf(inlineProjections(ctx), streams.worker(phone), history),
  };
}

/**
 * The section after a command appended `added` to the worker stream, reaching `state` and writing `written`
 * (its inline rows): from the last ClockedIn of `added` when there is one, else the old section extended.
 */
export function sectionAfter(ctx: AppContext, phone: string, before: WorkerSection, added: HistoryEvent[], state: WorkerState, written: KnownRows): WorkerSection {
  const lastStart = added.map((e) => e.type).lastIndexOf('ClockedIn');
  if (lastStart >= 0) return sectionOf(ctx, phone, added.slice(lastStart));
  return {
    state,
    version: added.length ? added[added.length - 1].streamVersion : before.version,
    rows: overlay(before.rows, written),
  };
}

/**
 * Reads the facts of `query` in one statement through `q` (the pool, or a transaction's client): payloads upcast
 * through the store's registry. A session asked by id that is not the worker's own gives no section.
 */
export async function loadWorkerFacts(q: Queryable, ctx: AppContext, query: FactsQuery): Promise<WorkerFacts> {
  const bySession = 'sessionId' in query.from;
  const params: unknown[] = [streams.worker(query.phone), query.phone, query.role ?? null, query.deviceNo ?? null, [...new Set(query.productIds ?? [])]];
  if ('sessionId' in query.from) params.push(query.from.sessionId);
  const r = (await q.query(bySession ? SESSION_SQL : LATEST_SQL, params)).rows[0];
  const registry = ctx.store.registry;
  const history: HistoryEvent[] = (r.section ?? []).map((e: any) => ({
    type: e.t,
    data: registry.upcast(e.t, e.s, e.d),
    streamVersion: Number(e.v),
    metadata: e.m,
    recordedAt: new Date(e.r),
  }));
  return {
    personName: r.person_name ?? undefined,
    section: r.own ? sectionOf(ctx, query.phone, history) : undefined,
    deviceInUse: r.device_in_use,
    products: (r.products ?? []).map(snapshotOfRow),
  };
}

/** Condition: (phone, role) still holds in personnel, under `name` (the name the events' metadata carry). */
export const personHolds = (phone: string, role: string, name: string): AppendCondition => ({
  key: 'personHolds',
  values: [phone, role, name],
  sql: ([ph, r, n]) => `EXISTS (SELECT 1 FROM personnel WHERE phone = ${ph} AND role = ${r} AND name = ${n})`,
});

/** Condition: some product uses `deviceNo` (the device exists, decisions.md "Clocking"). */
export const deviceInUse = (deviceNo: string): AppendCondition => ({
  key: 'deviceInUse',
  values: [deviceNo],
  sql: ([d]) => `EXISTS (SELECT 1 FROM products WHERE device_no = ${d})`,
});

/**
 * Condition: every product of `snapshots` still exists with exactly the copied fields (each looked up by its
 * primary key: no snapshot without its unchanged product).
 */
export const productsAsCopied = (snapshots: readonly ProductSnapshot[]): AppendCondition => ({
  key: 'productsAsCopied',
  values: [JSON.stringify(snapshots)],
  sql: ([s]) => `NOT EXISTS (
        SELECT 1 FROM jsonb_to_recordset(${s}::jsonb)
             AS s("productId" bigint, "projectNo" text, "productName" text, "deviceNo" text, "processName" text,
                  "standardCycleSeconds" numeric, "standardWorkload" integer)
         WHERE NOT EXISTS (
               SELECT 1 FROM products pr
                WHERE pr.id = s."productId" AND pr.project_no = s."projectNo" AND pr.product_name = s."productName"
                  AND pr.device_no = s."deviceNo" AND pr.process_name = s."processName"
                  AND pr.standard_cycle_seconds = s."standardCycleSeconds" AND pr.standard_workload = s."standardWorkload"))`,
});
