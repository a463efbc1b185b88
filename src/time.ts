/**
 * Time-zone logic, in one place. Local dates are `YYYY-MM-DD` strings in the factory's zone
 * (`APP_TIMEZONE`, decisions.md "HTTP conventions"); instants are `Date`s or ISO 8601 strings with offset.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function parts(at: Date, timeZone: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(at)) out[p.type] = p.value;
  return out;
}

/** The local calendar date (`YYYY-MM-DD`) of an instant in `timeZone` (kept per whole UTC minute, as the offset). */
export function localDate(at: Date, timeZone: string): string {
  return perMinute(dates, at, timeZone, () => new Date(at.getTime() + offsetMinutes(at, timeZone) * 60_000).toISOString().slice(0, 10));
}
/** Local dates by zone and whole UTC minute (a date changes only at a local midnight, on a minute boundary). */
const dates = new Map<string, Map<number, string>>();

/** The answer kept in `byZone` for `timeZone` and the whole UTC minute of `at` (`kept`), computed by `compute`. */
function perMinute<V>(byZone: Map<string, Map<number, V>>, at: Date, timeZone: string, compute: () => V): V {
  let byMinute = byZone.get(timeZone);
  if (!byMinute) byZone.set(timeZone, (byMinute = new Map()));
  return kept(byMinute, Math.floor(at.getTime() / 60_000), compute);
}

/**
 * The answer kept in `answers` for `key`, computed by `compute` the first time (at most KEPT answers: beyond that the
 * map starts again empty). The date arithmetic below is asked the same few questions over and over.
 */
function kept<K, V>(answers: Map<K, V>, key: K, compute: () => V): V {
  let v = answers.get(key);
  if (v === undefined) {
    if (answers.size >= KEPT) answers.clear();
    answers.set(key, (v = compute()));
  }
  return v;
}
const KEPT = 4096;

/** Offsets by zone and whole UTC minute: a zone's offset only changes on a minute boundary (formatToParts is slow). */
const offsets = new Map<string, Map<number, number>>();

/** Offset of `timeZone` from UTC at instant `at`, in minutes (Asia/Shanghai: +480). */
export function offsetMinutes(at: Date, timeZone: string): number {
  return perMinute(offsets, at, timeZone, () => {
    const p = parts(at, timeZone);
    const asUtc = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
    return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  });
}

/** Text already in the form `Date.prototype.toISOString` gives (UTC, milliseconds). */
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * An instant (a Date, or text Date can parse: ISO 8601 with an offset) as UTC ISO 8601 text, `2026-03-02T00:00:00.000Z`,
 * as the read models store instants. Text already in that form is returned as it is (most events' instants are:
 * the projections ask this on every event). Throws RangeError for what is no instant.
 */
export function utcIso(at: unknown): string {
  if (typeof at === 'string' && UTC_ISO.test(at)) return at;
  return (at instanceof Date ? at : new Date(String(at))).toISOString();
}

/** ISO 8601 text of an instant with the zone's offset, e.g. `2026-03-02T08:00:00.000+08:00`. */
export function toZonedIso(at: Date, timeZone: string): string {
  const off = offsetMinutes(at, timeZone);
  const local = new Date(at.getTime() + off * 60_000).toISOString().slice(0, -1);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `s` is a real calendar date in `YYYY-MM-DD` form (2026-02-30 is not). */
export function isLocalDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/** Whole days from local date `a` to local date `b` (b − a). Both must be valid `YYYY-MM-DD`. */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/**
 * The local date `days` days after `date` (`YYYY-MM-DD`; negative days go back). Answers are kept (by date and
 * days): the few dates around today are asked for every session's break, and parsing and
 * formatting a Date each time was a tenth of the server's extra cost per clock cycle (bench/README.md).
 */
export function addDays(date: string, days: number): string {
  return kept(shiftedDates, `${date}${days}`, () => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10));
}

const shiftedDates = new Map<string, string>();

/**
 * The instant at which the wall clock of `timeZone` shows local time `time` (`HH:mm`) on local date `date` (a
 * shift's break windows). On a day the zone's offset changes it resolves as ECMAScript Temporal's `compatible`
 * disambiguation: a time inside the skipped hour (spring forward, e.g. 02:30 in Europe/Berlin on 2026-03-29) moves
 * forward by the gap (03:30 CEST), a time the clock shows twice (autumn, 02:30 on 2026-10-25) is its first
 * occurrence (02:30 CEST). `date` must be a valid local date and `time` a valid `HH:mm`.
 */
export function localInstant(date: string, time: string, timeZone: string): Date {
  return new Date(localInstantMs(date, time, timeZone));
}

/** `localInstant` in milliseconds since the epoch (no Date made: what arithmetic on instants wants). */
export function localInstantMs(date: string, time: string, timeZone: string): number {
  return kept(instants, `${timeZone} ${date} ${time}`, () => resolveLocal(date, time, timeZone));
}

/** localInstant's answers by zone, date and time, in ms (the same few shift times are asked for every session). */
const instants = new Map<string, number>();

function resolveLocal(date: string, time: string, timeZone: string): number {
  const wall = Date.parse(`${date}T${time}:00Z`);
  const before = offsetMinutes(new Date(wall - 86_400_000), timeZone);
  const after = offsetMinutes(new Date(wall + 86_400_000), timeZone);
  const fits = (off: number) => {
    const at = wall - off * 60_000;
    return at + offsetMinutes(new Date(at), timeZone) * 60_000 === wall ? at : undefined;
  };
  const candidates = [fits(before), fits(after)].filter((t): t is number => t !== undefined);
  // A skipped time: the offset before the change, which lands after the gap.
  return candidates.length ? Math.min(...candidates) : wall - before * 60_000;
}
