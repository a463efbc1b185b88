/**
 * The lines this phone submitted, per report (storage key `submitted`, the latest 50 reports), so that 我的报工 can
 * show an approval's corrected lines as before → after: `GET /api/reports/mine` gives the lines as they stand now,
 * and the audit trail is for managers and administrators only. A report submitted from another phone shows its
 * current lines only.
 */
import type { SubmittedLine } from '../core/corrections';

const KEY = 'submitted';
const KEEP = 50;

type Store = { reportId: string; lines: SubmittedLine[] }[];

function read(): Store {
  try {
    const s = wx.getStorageSync(KEY);
    return Array.isArray(s) ? s : [];
  } catch {
    return [];
  }
}

/** Remembers the `lines` submitted as `reportId`. */
export function rememberSubmitted(reportId: string, lines: SubmittedLine[]): void {
  const rest = read().filter((r) => r.reportId !== reportId);
  wx.setStorageSync(KEY, [{ reportId, lines }, ...rest].slice(0, KEEP));
}

/** The lines submitted as `reportId` from this phone, or undefined. */
export function submittedLines(reportId: string): SubmittedLine[] | undefined {
  return read().find((r) => r.reportId === reportId)?.lines;
}
