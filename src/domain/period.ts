/**
 * Months: a month is `YYYY-MM`, the month of a report's `reportDate` (a local
 * date in APP_TIMEZONE). A month has ended when the local date today is in a later month.
 */

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** True when `s` is a month `YYYY-MM` (01–12). */
export const isMonth = (s: string): boolean => MONTH.test(s);

/** The month of a local date `YYYY-MM-DD`. */
export const monthOf = (localDate: string): string => localDate.slice(0, 7);

/** The first and last local dates of `month`. */
export function monthDates(month: string): { first: string; last: string } {
  const [y, m] = month.split('-').map(Number);
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { first: `${month}-01`, last: `${month}-${String(days).padStart(2, '0')}` };
}

/** The month after `month`. */
export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** Whether `month` has ended on local date `today` (today is in a later month). */
export const monthEnded = (month: string, today: string): boolean => monthOf(today) > month;

/** How people read a month: 2026-03 → 2026年3月. */
export const monthLabel = (month: string): string => `${month.slice(0, 4)}年${Number(month.slice(5, 7))}月`;
