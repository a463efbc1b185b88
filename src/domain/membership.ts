/**
 * Team memberships as dated intervals, pure.
 *
 * A worker's membership of a team holds from `validFrom` to `validTo` inclusive (local dates `YYYY-MM-DD` in
 * APP_TIMEZONE); `validTo` null: still open. A worker's memberships never overlap: at most one team covers any
 * date. Moving a worker ends the open membership the day before the new one starts; history is never rewritten, so
 * a new date is never before what the history already fixes (`earliestStart`, `earliestEnd`).
 */
import { addDays } from '../time.ts';

export interface Membership {
  readonly teamCode: string;
  /** First day, local date. */
  readonly validFrom: string;
  /** Last day (inclusive), local date; null while open. */
  readonly validTo: string | null;
  /** The member's coefficient (系数) during the membership, hundredths (domain/crew-split.ts); absent: 1.00. */
  readonly coefficient?: number;
}

/** The membership covering local date `date`, or undefined (in no team that day). */
export function membershipOn(history: readonly Membership[], date: string): Membership | undefined {
  return history.find((m) => m.validFrom <= date && (m.validTo === null || m.validTo >= date));
}

/**
 * `membershipOn`'s rule in SQL: the `team_memberships` row aliased `alias` covers `date` (an SQL expression of type
 * date, e.g. `$2::date` or `d.day`): valid_from <= date and (valid_to IS NULL or valid_to >= date). The one place
 * the SQL reads "who is in which team on a date" (facts, the shift calendar, the office's lists).
 */
export const membershipCoversSql = (alias: string, date: string): string =>
  `${alias}.valid_from <= ${date} AND (${alias}.valid_to IS NULL OR ${alias}.valid_to >= ${date})`;

/** The open membership (validTo null), if any: it is the latest one. */
export function openMembership(history: readonly Membership[]): Membership | undefined {
  const last = history[history.length - 1];
  return last && last.validTo === null ? last : undefined;
}

/**
 * The earliest date a new membership (join or move) may start on, given `history` (in order): the day after the
 * open membership's first day (the open one must keep at least its first day), or the day after the last one
 * ended; undefined when the worker never was in a team (any date).
 */
export function earliestStart(history: readonly Membership[]): string | undefined {
  const last = history[history.length - 1];
  if (!last) return undefined;
  return addDays(last.validTo ?? last.validFrom, 1);
}

/** The earliest last day of the open membership when it is ended: its first day (a one-day membership). */
export const earliestEnd = (open: Membership): string => open.validFrom;
