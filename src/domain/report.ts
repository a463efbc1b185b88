/**
 * Reports (spec 2.4, 3.2; decisions.md "Calculations"), rules shared by the report decider and the queries: what
 * names a report, and its effective working time.
 */
import { domainError } from './errors.ts';

/** REPORT_NOT_FOUND. */
export const reportNotFound = () => domainError('REPORT_NOT_FOUND');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A report id from a path, lower-cased; anything that is not a UUID names no report: REPORT_NOT_FOUND. */
export function parseReportId(id: string): string {
  if (!UUID.test(id)) throw reportNotFound();
  return id.toLowerCase();
}

/** Milliseconds between clock-in and clock-out (ISO 8601 instants). */
export const spanMs = (r: { clockInAt: string; clockOutAt: string }): number => Date.parse(r.clockOutAt) - Date.parse(r.clockInAt);

/** Effective working time in milliseconds: clock-out − clock-in − breakMinutes × 60 s (decisions.md "Calculations"). */
export const effectiveMs = (r: { clockInAt: string; clockOutAt: string }, breakMinutes: number): number => spanMs(r) - breakMinutes * 60_000;
