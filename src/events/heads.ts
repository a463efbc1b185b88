/**
 * Stream heads: the versions of the streams a decision's facts were read from (the clock cycle's
 * figure). A fact such as a worker's team on a date or the worker's shift calendar is read from inline read models,
 * and each of those rows is written in the same statement as the event of its stream (one stream per row's owner:
 * `member-<phone>`, `team-<code>`, `team-shifts-<team>`, `shift-<id>`, events/catalog.ts). So the fact still holds
 * exactly when every stream it was read from is still at the version read with it, in one snapshot: the append's
 * guard checks those versions (a few index look-ups on `events_stream_version_unique`) instead of reading the fact
 * again, and a cache may hold the fact with its heads (src/shifts/calendar-cache.ts).
 *
 * A stream with no event has version 0; versions only grow, so a head that moved never comes back.
 */

/** Stream id → its version (its last `stream_version`; 0: no event yet). */
export type StreamHeads = Readonly<Record<string, number>>;

/** SQL: the version of stream `id` (a text expression), 0 when it has no event. */
const versionOf = (id: string) => `(SELECT COALESCE(max(e.stream_version), 0) FROM events e WHERE e.stream_id = ${id})`;

/**
 * SQL: the heads of the streams whose ids the SQL expression `ids` (text[], nulls and repeats ignored) gives, as one
 * JSON object `{streamId: version}` (`{}` for none); read in the statement's snapshot, beside the facts it goes with.
 */
export const streamHeadsSql = (ids: string): string =>
  `(SELECT COALESCE(json_object_agg(h.id, ${versionOf('h.id')}), '{}'::json) FROM (SELECT DISTINCT id FROM unnest(${ids}) AS u(id) WHERE id IS NOT NULL) h)`;

/**
 * SQL: every stream of `ids` (text[]) is still at the version at the same place of `versions` (bigint[]): a guard
 * (db/guarded-write.ts) or a cache's check. Both are SQL expressions, usually parameters (`headsParameters`).
 */
export const streamHeadsHoldSql = (ids: string, versions: string): string =>
  `NOT EXISTS (SELECT 1 FROM unnest(${ids}, ${versions}) AS h(id, version) WHERE ${versionOf('h.id')} <> h.version)`;

/** `heads` as the two arrays `streamHeadsHoldSql` takes: the stream ids and their versions, in one order. */
export function headsParameters(heads: StreamHeads): [string[], number[]] {
  const ids = Object.keys(heads);
  return [ids, ids.map((id) => heads[id])];
}

/**
 * The heads of both `a` and `b`, or undefined when they disagree on a stream (facts read at different times: at most
 * one can still hold, so the caller reads them again).
 */
export function mergeHeads(a: StreamHeads, b: StreamHeads): StreamHeads | undefined {
  if (a === b) return a; // kept together (commands/repository.ts)
  for (const id of Object.keys(b)) if (id in a && a[id] !== b[id]) return undefined;
  return { ...a, ...b };
}
