/**
 * Device list: the distinct device numbers of the products (a device exists when a product uses
 * it, src/devices/device.ts), each with its product count and its short `deviceKey` for code scenes.
 * Access: `access.masterData` (admin, manager).
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { listDevices } from '../../products/store.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { toPage } from '../../shared/page.ts';
import { defineRoute } from '../route.ts';

export const deviceListRoute = defineRoute({
  method: 'get',
  path: '/api/devices',
  tag: 'devices',
  summary: '设备列表（产品中出现的设备编号、产品数、设备短码 deviceKey、是否已生成小程序码、所属车间；分页，按编号排序）',
  access: access.masterData,
  query: pageQuery,
  response: pageOf(
    z.object({
      deviceNo: z.string(),
      deviceKey: z.string().describe('设备短码'),
      productCount: z.number().int().describe('使用这台设备的产品数'),
      hasCode: z.boolean().describe('已生成小程序码'),
      workshopCode: z.string().nullable().describe('所属车间编号；null：未设置'),
      workshopName: z.string().nullable().describe('所属车间名称'),
    }),
  ),
  example: {
    query: { page: '1', pageSize: '50' },
    response: { items: [{ deviceNo: '冲床 01', deviceKey: 'Qm7x2LpA0c', productCount: 3, hasCode: true, workshopCode: 'C1', workshopName: '冲压车间' }], page: 1, pageSize: 50, total: 1 },
  },
  async handler({ query }, ctx) {
    const { items, total } = await listDevices(ctx.db.pool, query);
    return toPage(items, total, query);
  },
});

export const deviceRoutes = [deviceListRoute];
