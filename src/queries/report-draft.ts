/**
 * GET /api/reports/draft?sessionId= (spec 4.6, 3.1 rule 2; decisions.md "Reports and review"): what the
 * worker fills the report from: the session's times, devices, starting break minutes, the window's end, and
 * the candidates: the products whose device is one of the session's devices (ordered by device as they
 * appeared in the session, then project, product, process).
 * Throws 404 SESSION_NOT_FOUND (also another worker's session), 409 REPORT_WINDOW_EXPIRED,
 * REPORT_ALREADY_SUBMITTED, SESSION_ABANDONED, CLOCK_STATE_CONFLICT (not clocked out yet).
 */
import type { AppContext } from '../context.ts';
import { assertReportable, initialBreakMinutes, sessionNotFound } from '../commands/clock/rules.ts';
import { clockSettings } from '../commands/clock/handlers.ts';
import { productsOfDevices, type ProductSnapshot } from '../commands/report-lines.ts';
import { findOwnSession } from './sessions.ts';

export interface ReportDraft {
  sessionId: string;
  clockInAt: Date;
  clockOutAt: Date;
  breakMinutes: number;
  devices: string[];
  expiresAt: Date;
  candidates: ProductSnapshot[];
}

/**
 * The draft of session `sessionId` of worker `phone` (module docstring): instants as Dates, starting break in whole
 * minutes, candidate products. Throws AppError 404 SESSION_NOT_FOUND, 409 REPORT_WINDOW_EXPIRED,
 * REPORT_ALREADY_SUBMITTED, SESSION_ABANDONED, CLOCK_STATE_CONFLICT.
 */
export async function reportDraft(ctx: AppContext, phone: string, sessionId: string): Promise<ReportDraft> {
  const s = await findOwnSession(ctx.db.pool, phone, sessionId);
  if (!s) throw sessionNotFound();
  assertReportable(s, ctx.clock.now(), clockSettings(ctx));
  const candidates = await productsOfDevices(ctx.db.pool, s.devices);
  return {
    sessionId: s.sessionId,
    clockInAt: new Date(s.clockInAt),
    clockOutAt: new Date(s.clockOutAt!),
    breakMinutes: initialBreakMinutes(s.clockInAt, s.clockOutAt!, ctx.config.defaultBreakMinutes),
    devices: [...s.devices],
    expiresAt: new Date(s.expiresAt!),
    candidates,
  };
}
