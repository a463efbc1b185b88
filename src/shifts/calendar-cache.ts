/**
 * Workers' shift calendars kept in the process (the clock cycle's figure: the shift lookup must not slow
 * the worker's path). A calendar (src/shifts/sql.ts `calendarSql`: three ShiftDays around a session's clock-in date)
 * is kept with the heads of the streams it was read from (events/heads.ts), by phone: a worker's sessions come one
 * after another, so the latest clock-in date is the one asked again (by the draft, then by the submission's facts).
 *
 * A kept calendar is a hint, never an answer on its own: whoever uses it checks its heads inside the statement that
 * relies on it (the submission's guarded append, commands/facts.ts; the draft's one statement,
 * queries/report-draft.ts), so a change made by another request or another instance is never missed, and the
 * calendar is read again.
 */
import type { ShiftDay } from '../domain/shift-breaks.ts';
import type { StreamHeads } from '../events/heads.ts';
import { Lru } from '../shared/lru.ts';

/** A worker's calendar around local date `date` (`YYYY-MM-DD`) and the heads it was read with. */
export interface KeptCalendar {
  readonly date: string;
  readonly days: readonly ShiftDay[];
  readonly heads: StreamHeads;
}

/** The calendars kept, by phone, at most `max` workers (the least recently used forgotten first). */
export class CalendarCache {
  private readonly byPhone: Lru<string, KeptCalendar>;

  constructor(max = 20_000) {
    this.byPhone = new Lru(max);
  }

  /** The worker's kept calendar; with `date`, only when it is around that clock-in date. */
  get(phone: string, date?: string): KeptCalendar | undefined {
    const kept = this.byPhone.get(phone);
    return kept && (date === undefined || kept.date === date) ? kept : undefined;
  }

  /** Keeps `calendar` as the worker's latest. */
  set(phone: string, calendar: KeptCalendar): void {
    this.byPhone.set(phone, calendar);
  }

  /** Forgets the worker's calendar (it proved stale). */
  delete(phone: string): void {
    this.byPhone.delete(phone);
  }
}
