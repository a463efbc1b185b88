/**
 * Work tickets (工票): the printable mini-program code of a work order (domain/work-orders.ts), generated through the
 * platform's `getwxacodeunlimit` like a device code (platform/device-codes.ts), on demand (nothing stored: the
 * order's page prints it with the order).
 *
 * Scene `o=<key>`, the key of the order number by the device codes' rule (devices/device.ts `deviceKeyOf`: 10
 * characters of base64url SHA-256, so any order number fits the platform's 32 characters); page TICKET_PAGE (the
 * 报工单, whose 扫工票 chooses the order), `env_version` WX_ENV_VERSION, `check_path` for `release` only. Unknown
 * order: 404 WORK_ORDER_NOT_FOUND. Platform failures: platform/errcodes.ts.
 */
import type { AppContext } from '../context.ts';
import { deviceKeyOf } from '../devices/device.ts';
import { domainError } from '../domain/errors.ts';
import { hasImageMagic } from './client.ts';
import { CODE_WIDTH } from './device-codes.ts';
import { platformFailure } from './errcodes.ts';
import { PlatformError } from './types.ts';

export const TICKET_PAGE = 'pages/report/report';

/** The scene of order `orderNo`'s ticket: `o=<key>`. */
export const ticketSceneFor = (orderNo: string): string => `o=${deviceKeyOf(orderNo)}`;

/** The ticket image of `orderNo` → `{contentType, image}`. Throws WORK_ORDER_NOT_FOUND (404), or the platform failure. */
export async function workOrderTicket(ctx: AppContext, orderNo: string): Promise<{ contentType: string; image: Buffer }> {
  const known = await ctx.db.pool.query(`SELECT 1 FROM work_orders WHERE order_no = $1`, [orderNo]);
  if (known.rows.length === 0) throw domainError('WORK_ORDER_NOT_FOUND', { orderNo });
  const envVersion = ctx.config.wxEnvVersion;
  let image: Buffer;
  try {
    image = await ctx.platform.getUnlimitedQrCode({ scene: ticketSceneFor(orderNo), page: TICKET_PAGE, checkPath: envVersion === 'release', envVersion, width: CODE_WIDTH });
  } catch (err) {
    throw platformFailure(err, 'qrcode', TICKET_PAGE);
  }
  if (!hasImageMagic(image)) throw platformFailure(new PlatformError(-2, 'the platform answered no image'), 'qrcode', TICKET_PAGE);
  return { contentType: image[0] === 0x89 ? 'image/png' : 'image/jpeg', image };
}
