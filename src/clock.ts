/**
 * The clock abstraction: every rule that depends on "now" asks a `Clock`, never `Date.now()` directly, so
 * tests can move time (e.g. across the 30-minute report window).
 */
export interface Clock {
  /** The current instant. */
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved; for tests and the demo. */
export class ManualClock implements Clock {
  private ms: number;
  constructor(start: Date | string = '2026-03-02T08:00:00+08:00') {
    this.ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  /** Moves the clock forward by `ms` milliseconds (negative moves it back). */
  advance(ms: number): void {
    this.ms += ms;
  }
  set(at: Date | string): void {
    this.ms = new Date(at).getTime();
  }
}
