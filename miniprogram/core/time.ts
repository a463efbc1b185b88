/**
 * Times as a worker reads them, and the report window's countdown (spec 3.1: 30 minutes from 下班报工). Plain
 * TypeScript, no `wx`. The service writes instants as ISO 8601 with the factory's offset (`2026-03-02T17:00:00+08:00`);
 * a clock time is shown as written there (the factory's local time), never converted to the phone's zone.
 */

/** `HH:mm` of an ISO instant as the service wrote it (its own offset); the input itself when it is not one. */
export function clockTime(iso: string): string {
  const m = /T(\d{2}:\d{2})/.exec(iso);
  return m ? m[1] : iso;
}

/**
 * The clock-in time a confirmation names (`上班时间 08:00:12`): `HH:mm:ss` of an ISO instant as the service wrote it
 * (its own offset, the factory's local time), with `M月D日 ` before it when that is not the date of `nowMs`
 * (milliseconds since the epoch) in the same offset: a night shift confirmed after midnight. The input itself when
 * it is not an instant with an offset.
 */
export function clockInText(iso: string, nowMs: number): string {
  const m = /^(\d{4}-(\d{2})-(\d{2}))T(\d{2}:\d{2})(:\d{2})?(?:\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$/.exec(iso);
  if (!m) return iso;
  const offsetMs = m[6] === 'Z' ? 0 : (m[7] === '-' ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9])) * 60_000;
  const today = new Date(nowMs + offsetMs).toISOString().slice(0, 10);
  const time = `${m[4]}${m[5] ?? ':00'}`;
  return m[1] === today ? time : `${Number(m[2])}月${Number(m[3])}日 ${time}`;
}

/** `M月D日 HH:mm` of an ISO instant as the service wrote it. */
export function dayAndTime(iso: string): string {
  const m = /^\d{4}-(\d{2})-(\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${Number(m[1])}月${Number(m[2])}日 ${m[3]}` : iso;
}

/** A duration of `seconds` (≥ 0, whole or not) as `7 小时 05 分`; under an hour `45 分`. Negative: `0 分`. */
export function duration(seconds: number): string {
  const minutes = Math.max(0, Math.floor(seconds / 60));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h} 小时 ${String(m).padStart(2, '0')} 分` : `${m} 分`;
}

export interface WindowLeft {
  /** The window is over (no time left). */
  expired: boolean;
  /** Whole seconds left, 0 when expired. */
  seconds: number;
  /** `还剩 12 分 05 秒` or `填写时限已过`. */
  text: string;
}

/**
 * The time left in the report window that ends at `expiresAt` (ISO instant) at `nowMs` (milliseconds since the
 * epoch, the phone's clock). A report is still valid at exactly the end (README "Clocking": valid at 30:00), so
 * the window is over only after it. An unreadable `expiresAt` counts as over.
 */
export function windowLeft(expiresAt: string, nowMs: number): WindowLeft {
  const end = Date.parse(expiresAt);
  if (Number.isNaN(end) || nowMs > end) return { expired: true, seconds: 0, text: '填写时限已过' };
  const seconds = Math.floor((end - nowMs) / 1000);
  const text = `还剩 ${Math.floor(seconds / 60)} 分 ${String(seconds % 60).padStart(2, '0')} 秒`;
  return { expired: false, seconds, text };
}

/** The month `YYYY-MM` of `nowMs` on the phone's clock and zone. */
export function monthOf(nowMs: number): string {
  const d = new Date(nowMs);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

/** The month `delta` months from `month` (`YYYY-MM`). */
export function shiftMonth(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number);
  const index = y * 12 + (m - 1) + delta;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The local date `YYYY-MM-DD` of `nowMs` on the phone's clock and zone (the factory's, on a factory's phones). */
export function localDay(nowMs: number): string {
  const d = new Date(nowMs);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The Monday of the week of `day` (`YYYY-MM-DD`), the first day of 本周. */
export function weekStart(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  t.setUTCDate(t.getUTCDate() - ((t.getUTCDay() + 6) % 7));
  return t.toISOString().slice(0, 10);
}
