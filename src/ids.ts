/**
 * Identifiers of the rows every worker writes all day (clock sessions, reports): UUIDs of version 7 (RFC 9562),
 * whose first 48 bits are the instant in milliseconds since the epoch and the other 74 random. New ones sort after
 * older ones, so each lands at the right edge of the B-tree indexes keyed by them (sessions, reports, the device
 * presence, the consumers' pending rows): PostgreSQL appends there without descending the tree and touches a few
 * pages per checkpoint, where a random (version 4) id lands on any leaf, anywhere in a table of years (bench/README.md
 * "Time-ordered ids"). Still a UUID to every reader and column (`uuid`); nothing reads the instant back out of it.
 */
import { v7 } from 'uuid';

/** A new time-ordered UUID for a row created at `at` (the service clock's instant, src/clock.ts). */
export const timeOrderedId = (at: Date): string => v7({ msecs: at.getTime() });
