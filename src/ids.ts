/**
 * Identifiers of the rows every worker writes all day (clock sessions, reports): UUIDs of version 7 (RFC 9562),
 * whose first 48 bits are the instant in milliseconds since the epoch and the other 74 random. New ones sort after
 * older ones, so each lands at the right edge of the B-tree indexes keyed by them (sessions, reports, the consumers'
 * pending rows): PostgreSQL appends there and touches a few pages, where a random (version 4) id lands on any leaf
 * of an index of years (bench/README.md "Time-ordered ids", `npm run bench -- ids`). Still a UUID to every reader
 * and column (`uuid`); nothing reads the instant back out of it.
 *
 * Made from `crypto.randomUUID` (a version 4 UUID: 122 random bits from a pool of entropy Node refills in bulk), its
 * first 48 bits replaced by the instant and its version digit by 7; the `uuid` package's `v7` asked the system for
 * 16 random bytes per id, which cost the clock cycle 2 % of the service's CPU (bench/README.md, same section).
 */
import { randomUUID } from 'node:crypto';

/** A new time-ordered UUID for a row created at `at` (the service clock's instant, src/clock.ts; 0 ≤ ms < 2^48). */
export function timeOrderedId(at: Date): string {
  const ms = at.getTime().toString(16).padStart(12, '0');
  // randomUUID: xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx (V: the variant, 8–b); from position 15 on it stays as it is.
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
