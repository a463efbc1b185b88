/**
 * GET /api/clock/state (spec 3.1, 4.5; decisions.md "Clocking"): the one action label for the worker at the
 * scanned device, with `sessionId` (when a session is open) and `expiresAt` (继续报工, 重新报工).
 * Throws 404 DEVICE_NOT_FOUND for a device no product uses.
 */
import type { AppContext } from '../context.ts';
import { resolveDevice } from '../devices/device.ts';
import { labelAt, type LabelAnswer, type OpenSession } from '../commands/clock/rules.ts';
import { clockSettings, type DeviceRef } from '../commands/clock/handlers.ts';
import { findOpenSession } from './sessions.ts';

/**
 * The one label (spec 3.1) for worker `phone` scanning `device` (`deviceNo` or `deviceKey`) now, with the resolved
 * `deviceNo`, and `sessionId` / `expiresAt` where they apply. Throws AppError 404 DEVICE_NOT_FOUND.
 */
export async function clockState(ctx: AppContext, phone: string, device: DeviceRef): Promise<LabelAnswer & { deviceNo: string }> {
  const deviceNo = await resolveDevice(ctx.db.pool, device);
  const open = await findOpenSession(ctx.db.pool, phone);
  return { deviceNo, ...labelAt(open as OpenSession | undefined, deviceNo, ctx.clock.now(), clockSettings(ctx)) };
}
