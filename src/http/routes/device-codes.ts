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
import { instant } from '../dates.ts';
import { defineRoute, RawBody, type ErrorDoc } from '../route.ts';
import { PLATFORM_ERRORS } from './error-docs.ts';

const deviceCode = z.object({
  deviceNo: z.string(),
  deviceKey: z.string().describe('设备短码'),
  scene: z.string().describe('deviceNo=<编码后的设备编号> 或 d=<设备短码>'),
  page: z.string(),
  envVersion: z.enum(['release', 'trial', 'develop']),
  url: z.string().describe('无需令牌即可访问的图片地址（设置 PUBLIC_BASE_URL 时为绝对地址）'),
  generatedAt: instant,
});

const CODE_ERRORS: ErrorDoc[] = [
  ...PLATFORM_ERRORS,
  { status: 502, code: 'PLATFORM_PAGE_NOT_FOUND', description: '小程序页面不存在或未发布（41030）' },
];

const CODE_EXAMPLE = {
  deviceNo: '冲床 01',
  deviceKey: 'Qm7x2LpA0c',
  scene: 'd=Qm7x2LpA0c',
  page: 'pages/clock/clock',
  envVersion: 'release',
  url: '/api/device-codes/Qm7x2LpA0c.png',
  generatedAt: '2026-03-02T07:50:00+08:00',
};

export const deviceCodeRoute = defineRoute({
  method: 'post',
  path: '/api/devices/:deviceNo/qrcode',
  tag: 'devices',
  summary: '生成设备的小程序码（可打印），返回图片地址',
  description:
    'scene 为 deviceNo=<encodeURIComponent(设备号)>；设备号含空格、中文或超过 32 个字符时为 d=<设备短码>，' +
    '小程序把它作为 deviceKey 传给打卡接口。页面 pages/clock/clock，版本取 WX_ENV_VERSION。',
  access: access.masterData,
  params: z.object({ deviceNo: z.string().min(1).max(200).meta({ title: '设备编号', description: '产品清单“使用设备”中的编号，URL 编码' }) }),
  response: deviceCode,
  errors: [{ status: 404, code: 'DEVICE_NOT_FOUND', description: '没有产品使用这台设备：先在产品清单中添加使用它的产品' }, ...CODE_ERRORS],
  example: { params: { deviceNo: '冲床 01' }, response: CODE_EXAMPLE },
  handler: ({ params, user }, ctx) => generateDeviceCode(ctx, params.deviceNo, user.phone),
});

export const allDeviceCodesRoute = defineRoute({
  method: 'post',
  path: '/api/devices/qrcodes',
  tag: 'devices',
  summary: '为全部设备生成小程序码',
  description: '逐台生成；失败的设备列在 failed 中并附原因，遇到微信频率限制时其余设备也列入 failed。',
  access: access.masterData,
  response: z.object({
    items: z.array(deviceCode).describe('已生成的设备码'),
    failed: z.array(z.object({ deviceNo: z.string(), code: z.string().describe('错误代码'), message: z.string() })).describe('生成失败的设备及原因'),
  }),
  example: { response: { items: [CODE_EXAMPLE], failed: [] } },
  handler: ({ user }, ctx) => generateAllDeviceCodes(ctx, user.phone),
});

export const deviceCodeImageRoute = defineRoute({
  method: 'get',
  path: '/api/device-codes/:file',
  tag: 'devices',
  summary: '设备小程序码图片（无需令牌）',
  access: 'public',
  params: z.object({ file: z.string().max(40).meta({ title: '图片文件名', description: '<设备短码>.png（生成接口返回的 url 中的文件名）' }) }),
  example: { params: { file: 'Qm7x2LpA0c.png' } },
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
