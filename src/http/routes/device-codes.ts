/**
 * Device code endpoints (spec 4.4; decisions.md "Device codes"; logic in src/platform/device-codes.ts):
 * - `POST /api/devices/:deviceNo/qrcode` (admin, manager) → `{url, deviceNo, deviceKey, scene, page, envVersion, generatedAt}`;
 * - `POST /api/devices/qrcodes` (admin, manager) → every device's code: `{items, failed}`;
 * - `GET /api/device-codes/:file` (`<device key>.png`, no token) → the stored image.
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { notFound } from '../../errors.ts';
import { generateAllDeviceCodes, generateDeviceCode, storedDeviceCode } from '../../platform/device-codes.ts';
import { defineRoute, RawBody, type ErrorDoc } from '../route.ts';

const deviceCode = z.object({
  deviceNo: z.string(),
  deviceKey: z.string(),
  scene: z.string(),
  page: z.string(),
  envVersion: z.string(),
  url: z.string().describe('无需令牌即可访问的图片地址'),
  generatedAt: z.string(),
});

const PLATFORM_ERRORS: ErrorDoc[] = [
  { status: 429, code: 'PLATFORM_RATE_LIMITED', description: '微信接口频率限制' },
  { status: 502, code: 'PLATFORM_PAGE_NOT_FOUND', description: '小程序页面不存在或未发布（41030）' },
  { status: 502, code: 'PLATFORM_ERROR', description: '微信接口返回其他错误' },
  { status: 503, code: 'PLATFORM_UNAVAILABLE', description: '微信服务不可用' },
];

export const deviceCodeRoute = defineRoute({
  method: 'post',
  path: '/api/devices/:deviceNo/qrcode',
  tag: 'devices',
  summary: '生成设备的小程序码（可打印），返回图片地址',
  description:
    'scene 为 deviceNo=<encodeURIComponent(设备号)>；设备号含空格、中文或超过 32 个字符时为 d=<设备短码>，' +
    '小程序把它作为 deviceKey 传给打卡接口。页面 pages/clock/clock，版本取 WX_ENV_VERSION。',
  access: access.masterData,
  params: z.object({ deviceNo: z.string().min(1).max(200) }),
  response: deviceCode,
  errors: [{ status: 404, code: 'DEVICE_NOT_FOUND', description: '没有产品使用这台设备' }, ...PLATFORM_ERRORS],
  handler: ({ params, user }, ctx) => generateDeviceCode(ctx, params.deviceNo, user.phone),
});

export const allDeviceCodesRoute = defineRoute({
  method: 'post',
  path: '/api/devices/qrcodes',
  tag: 'devices',
  summary: '为全部设备生成小程序码',
  description: '逐台生成；失败的设备列在 failed 中并附原因，遇到微信频率限制时其余设备也列入 failed。',
  access: access.masterData,
  response: z.object({ items: z.array(deviceCode), failed: z.array(z.object({ deviceNo: z.string(), code: z.string(), message: z.string() })) }),
  errors: PLATFORM_ERRORS,
  handler: ({ user }, ctx) => generateAllDeviceCodes(ctx, user.phone),
});

export const deviceCodeImageRoute = defineRoute({
  method: 'get',
  path: '/api/device-codes/:file',
  tag: 'devices',
  summary: '设备小程序码图片（无需令牌）',
  access: 'public',
  params: z.object({ file: z.string().max(40) }),
  responseContentType: 'image/png',
  errors: [{ status: 404, code: 'DEVICE_CODE_NOT_FOUND', description: '这台设备还没有生成小程序码' }],
  async handler({ params }, ctx) {
    const m = /^([A-Za-z0-9_-]{10})\.(png|jpg)$/.exec(params.file);
    const found = m ? await storedDeviceCode(ctx, m[1]) : undefined;
    if (!found) throw notFound('DEVICE_CODE_NOT_FOUND', '这台设备还没有生成小程序码，请先在后台生成');
    return new RawBody(found.contentType, found.image, undefined, { 'cache-control': 'no-cache' });
  },
});

export const deviceCodeRoutes = [deviceCodeRoute, allDeviceCodesRoute, deviceCodeImageRoute];
