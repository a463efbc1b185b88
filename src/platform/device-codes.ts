/**
 * Device codes (spec 4.4; decisions.md "Device codes"): printable mini-program codes that open
 * `pages/clock/clock` for a device, generated through the platform's `getwxacodeunlimit` and stored in
 * `device_codes`, served without a token at `/api/device-codes/<device key>.png`.
 *
 * Scene rule (`sceneFor`): `deviceNo=<encodeURIComponent(device_no)>` when that fits the platform (at most 32
 * characters from `0-9A-Za-z!#$&'()*+,/:;=?@-._~`, so no `%`); otherwise (a space, Chinese, too long)
 * `d=<device key>` with the key of src/devices/device.ts, which the clock endpoints accept as `deviceKey`.
 * `env_version` is WX_ENV_VERSION; `check_path` is on for `release` only (trial and develop pages need not be
 * published). Unknown device (no product uses it): 404 DEVICE_NOT_FOUND. Platform failures: platform/errcodes.ts.
 */
import type { AppContext } from '../context.ts';
import { deviceKeyOf } from '../devices/device.ts';
import { notFound } from '../errors.ts';
import { toZonedIso } from '../time.ts';
import { hasImageMagic } from './client.ts';
import { platformFailure } from './errcodes.ts';
import { PlatformError } from './types.ts';

export const CLOCK_PAGE = 'pages/clock/clock';
/** Width in pixels of generated codes (the platform allows 280–1280); large enough to print sharply. */
export const CODE_WIDTH = 860;
const SCENE_OK = /^[0-9A-Za-z!#$&'()*+,/:;=?@\-._~]{1,32}$/;

/** The scene of a device's code (module docstring). */
export function sceneFor(deviceNo: string): string {
  const direct = `deviceNo=${encodeURIComponent(deviceNo)}`;
  return SCENE_OK.test(direct) ? direct : `d=${deviceKeyOf(deviceNo)}`;
}

export interface DeviceCode {
  deviceNo: string;
  deviceKey: string;
  scene: string;
  page: string;
  envVersion: string;
  /** Address of the stored image; absolute when PUBLIC_BASE_URL is set. */
  url: string;
  generatedAt: string;
}

const extensionOf = (contentType: string) => (contentType === 'image/jpeg' ? 'jpg' : 'png');
const imageUrl = (ctx: AppContext, key: string, contentType: string) =>
  `${ctx.config.publicBaseUrl}/api/device-codes/${key}.${extensionOf(contentType)}`;

/** Generates and stores the code of `deviceNo`. Throws 404 DEVICE_NOT_FOUND, or the platform failure. */
export async function generateDeviceCode(ctx: AppContext, deviceNo: string, actorPhone: string): Promise<DeviceCode> {
  const known = await ctx.db.pool.query(`SELECT 1 FROM products WHERE device_no = $1 LIMIT 1`, [deviceNo]);
  // Said to the administrator generating codes (not the scanning worker's sentence of devices/device.ts).
  if (known.rows.length === 0) throw notFound('DEVICE_NOT_FOUND', `没有产品使用设备“${deviceNo}”：请先在产品清单中添加使用这台设备的产品，再生成设备码`);
  const deviceKey = deviceKeyOf(deviceNo);
  const scene = sceneFor(deviceNo);
  const envVersion = ctx.config.wxEnvVersion;
  let image: Buffer;
  try {
    image = await ctx.platform.getUnlimitedQrCode({ scene, page: CLOCK_PAGE, checkPath: envVersion === 'release', envVersion, width: CODE_WIDTH });
  } catch (err) {
    throw platformFailure(err, 'qrcode');
  }
  if (!hasImageMagic(image)) throw platformFailure(new PlatformError(-2, 'the platform answered no image'), 'qrcode');
  const contentType = image[0] === 0x89 ? 'image/png' : 'image/jpeg';
  const at = ctx.clock.now();
  await ctx.db.pool.query(
    `INSERT INTO device_codes (device_no, device_key, scene, page, env_version, content_type, image, generated_at, generated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (device_no) DO UPDATE SET scene = EXCLUDED.scene, page = EXCLUDED.page, env_version = EXCLUDED.env_version,
       content_type = EXCLUDED.content_type, image = EXCLUDED.image, generated_at = EXCLUDED.generated_at,
       generated_by = EXCLUDED.generated_by`,
    [deviceNo, deviceKey, scene, CLOCK_PAGE, envVersion, contentType, image, at, actorPhone],
  );
  return { deviceNo, deviceKey, scene, page: CLOCK_PAGE, envVersion, url: imageUrl(ctx, deviceKey, contentType), generatedAt: toZonedIso(at, ctx.config.timeZone) };
}

export interface BulkResult {
  items: DeviceCode[];
  failed: { deviceNo: string; code: string; message: string }[];
}

/**
 * Generates the codes of every device (distinct `products.device_no`), one after the other. A device that
 * fails is listed in `failed` with the reason; after a platform rate limit the rest are listed as failed too.
 */
export async function generateAllDeviceCodes(ctx: AppContext, actorPhone: string): Promise<BulkResult> {
  const r = await ctx.db.pool.query(`SELECT DISTINCT device_no FROM products ORDER BY device_no`);
  const out: BulkResult = { items: [], failed: [] };
  let stop: { code: string; message: string } | undefined;
  for (const { device_no: deviceNo } of r.rows as { device_no: string }[]) {
    if (stop) {
      out.failed.push({ deviceNo, ...stop });
      continue;
    }
    try {
      out.items.push(await generateDeviceCode(ctx, deviceNo, actorPhone));
    } catch (err) {
      const e = err as { status?: number; code?: string; message?: string };
      if (typeof e.status !== 'number' || e.status === 500) throw err;
      out.failed.push({ deviceNo, code: e.code ?? 'PLATFORM_ERROR', message: e.message ?? '' });
      if (e.status === 429) stop = { code: e.code ?? 'PLATFORM_RATE_LIMITED', message: e.message ?? '' };
    }
  }
  return out;
}

/** The stored image of the device with key `deviceKey`, or undefined. */
export async function storedDeviceCode(ctx: AppContext, deviceKey: string): Promise<{ contentType: string; image: Buffer } | undefined> {
  const r = await ctx.db.pool.query(`SELECT content_type, image FROM device_codes WHERE device_key = $1`, [deviceKey]);
  return r.rows.length ? { contentType: r.rows[0].content_type, image: r.rows[0].image } : undefined;
}
