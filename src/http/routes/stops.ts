/**
 * Stops (停机; commands/stops/decider.ts, queries/stops.ts):
 * - `POST /api/devices/:deviceNo/stops {reasonCode}` → 201 the stop (a person clocked in on that device: 停机 from
 *   the phone); administrators and managers send `{reasonCode, startAt, endAt, note}` for a past stop;
 * - `POST /api/stops/:stopId/end` → the stop ended (恢复生产; idempotent);
 * - `PUT /api/stops/:stopId {reasonCode?, startAt?, endAt?, note}` → the stop corrected (administrators, managers;
 *   audited before → after in its event);
 * - `GET /api/stops?device=&workshop=&startDate=&endDate=&reason=&page=&pageSize=` → a page of stops of the devices
 *   the reader sees, a stop still recorded as lasting ended where the last worker left the device.
 * Instants ISO 8601 with the offset of APP_TIMEZONE.
 */
import { z } from 'zod';
import { access, ROLES } from '../../auth/roles.ts';
import { correctStop, endStop, recordStop, startStop, type StopAnswer } from '../../commands/stops/handlers.ts';
import { STOP_CATEGORIES } from '../../domain/stop-reasons.ts';
import type { AppContext } from '../../context.ts';
import { listStops } from '../../queries/stops.ts';
import { commonError } from '../common-errors.ts';
import { instant, optionalLocalDate, zonedIso as iso } from '../dates.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { actorOf, defineRoute, scopeOf, type ErrorDoc } from '../route.ts';
import { CONCURRENT_MODIFICATION, DEVICE_NOT_FOUND, NOT_IN_SCOPE, PERIOD_CLOSED } from './error-docs.ts';
import { stopReasonCode } from './stop-reasons.ts';

const stopSchema = z.object({
  stopId: z.string().describe('停机记录编号'),
  deviceNo: z.string().describe('设备编号'),
  reasonCode: z.string().describe('停机原因编码'),
  startAt: instant.describe('开始时间'),
  endAt: instant.nullable().describe('结束时间；null：仍在停机'),
  endedBySystem: z.boolean().describe('true：最后一名员工离开设备（下班或上班记录被系统结束）时由系统结束'),
});
const STOP_EXAMPLE = { stopId: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b', deviceNo: 'D1', reasonCode: 'BRK', startAt: '2026-03-02T10:00:00+08:00', endAt: null, endedBySystem: false };

const UNKNOWN_STOP_REASON: ErrorDoc = { status: 422, code: 'UNKNOWN_STOP_REASON', description: '停机原因不存在或已停用（details.reasonCode）', details: z.object({ reasonCode: z.string() }) };
const STOP_OVERLAPS: ErrorDoc = {
  status: 422,
  code: 'STOP_OVERLAPS',
  description: '与同一台设备的另一条停机记录时间重叠（details 为那一条：stopId、reasonCode、startAt、endAt，endAt 为 null 表示仍在停机）',
  details: z.object({ stopId: z.string(), reasonCode: z.string(), startAt: z.string(), endAt: z.string().nullable() }),
};
const NOT_ON_DEVICE: ErrorDoc = { status: 409, code: 'NOT_ON_DEVICE', description: '现在没有在这台设备上班（details.deviceNo）：先扫码开始上班或换到这台设备', details: z.object({ deviceNo: z.string() }) };
const STOP_NOT_FOUND: ErrorDoc = { status: 404, code: 'STOP_NOT_FOUND', description: '没有这条停机记录（details.stopId）', details: z.object({ stopId: z.string() }) };
const INVALID_STOP: ErrorDoc = {
  status: 422,
  code: 'INVALID_STOP',
  description: '停机时间或说明不符合规则（details.problem：order 结束不晚于开始，future 晚于现在，note 缺少说明，endNeeded 补录缺少结束时间）',
  details: z.object({ problem: z.enum(['order', 'future', 'note', 'endNeeded']) }),
};

const answer = (ctx: AppContext, s: StopAnswer) => ({
  stopId: s.stopId,
  deviceNo: s.deviceNo,
  reasonCode: s.reasonCode,
  startAt: iso(ctx, s.startAt),
  endAt: s.endAt ? iso(ctx, s.endAt) : null,
  endedBySystem: s.endedBySystem,
});

const note = z.string().max(200).meta({ title: '说明', description: '补录或修改的原因，1–200 字（后台补录、修改时必填）' });
const atInput = (title: string) => z.iso.datetime({ offset: true }).meta({ title, description: 'ISO 8601，带时区偏移，例如 2026-03-02T09:00:00+08:00' });

export const stopStartRoute = defineRoute({
  method: 'post',
  path: '/api/devices/:deviceNo/stops',
  tag: 'stops',
  summary: '停机：在这台设备上班的员工从现在开始记录停机；管理员、经理可补录过去的停机（带开始、结束时间和说明）',
  description:
    '同一台设备同一时间只能有一条停机记录（重叠返回 422 STOP_OVERLAPS 并指出那一条）。仍在停机时最后一名员工下班（或上班记录被系统结束），停机在那一刻由系统结束。已结账月份的停机不能记录。',
  access: [...ROLES],
  params: z.object({ deviceNo: z.string().min(1).max(200).meta({ title: '设备编号' }) }),
  body: z.object({ reasonCode: stopReasonCode, startAt: atInput('开始时间').optional(), endAt: atInput('结束时间').optional(), note: note.optional() }),
  status: 201,
  response: stopSchema,
  errors: [DEVICE_NOT_FOUND, NOT_ON_DEVICE, UNKNOWN_STOP_REASON, STOP_OVERLAPS, INVALID_STOP, PERIOD_CLOSED, NOT_IN_SCOPE, CONCURRENT_MODIFICATION],
  example: { params: { deviceNo: 'D1' }, body: { reasonCode: 'BRK' }, response: STOP_EXAMPLE },
  async handler({ params, body, user, req }, ctx) {
    const actor = actorOf(user, req);
    if (body.startAt === undefined && body.endAt === undefined && body.note === undefined) return answer(ctx, await startStop(ctx, actor, params.deviceNo, body.reasonCode));
    if (!(access.masterData as readonly string[]).includes(user.role)) throw commonError('FORBIDDEN', '补录过去的停机须由管理员或经理在后台操作');
    if (body.startAt === undefined) throw commonError('VALIDATION_FAILED', '补录过去的停机请填写开始时间');
    return answer(ctx, await recordStop(ctx, actor, params.deviceNo, { reasonCode: body.reasonCode, startAt: body.startAt, endAt: body.endAt, note: body.note }));
  },
});

const stopIdParams = z.object({ stopId: z.uuid({ error: '停机记录编号无效' }).meta({ title: '停机记录编号' }) });

export const stopEndRoute = defineRoute({
  method: 'post',
  path: '/api/stops/:stopId/end',
  tag: 'stops',
  summary: '恢复生产：结束停机（在这台设备上班的员工；管理员、经理也可在后台结束）；重复调用返回同样的结果',
  access: [...ROLES],
  params: stopIdParams,
  response: stopSchema,
  errors: [STOP_NOT_FOUND, NOT_ON_DEVICE, PERIOD_CLOSED, NOT_IN_SCOPE, CONCURRENT_MODIFICATION],
  example: { params: { stopId: STOP_EXAMPLE.stopId }, response: { ...STOP_EXAMPLE, endAt: '2026-03-02T10:20:00+08:00' } },
  async handler({ params, user, req }, ctx) {
    return answer(ctx, await endStop(ctx, actorOf(user, req), params.stopId));
  },
});

export const stopCorrectRoute = defineRoute({
  method: 'put',
  path: '/api/stops/:stopId',
  tag: 'stops',
  summary: '修改停机记录：原因、开始、结束时间（管理员、经理；须填写说明，修改前后记入审计）',
  description: '不填的字段不变；endAt 为 null 表示改为仍在停机。不能与同一设备的其他停机重叠；改动前后的月份都必须未结账。',
  access: access.masterData,
  params: stopIdParams,
  body: z.object({ reasonCode: stopReasonCode.optional(), startAt: atInput('开始时间').optional(), endAt: z.iso.datetime({ offset: true }).nullable().optional().meta({ title: '结束时间', description: 'ISO 8601，带时区偏移；null：改为仍在停机' }), note }),
  response: stopSchema,
  errors: [STOP_NOT_FOUND, INVALID_STOP, UNKNOWN_STOP_REASON, STOP_OVERLAPS, PERIOD_CLOSED, NOT_IN_SCOPE, CONCURRENT_MODIFICATION],
  example: { params: { stopId: STOP_EXAMPLE.stopId }, body: { startAt: '2026-03-02T09:55:00+08:00', note: '按设备记录更正' }, response: { ...STOP_EXAMPLE, startAt: '2026-03-02T09:55:00+08:00', endAt: '2026-03-02T10:20:00+08:00' } },
  async handler({ params, body, user, req }, ctx) {
    return answer(ctx, await correctStop(ctx, actorOf(user, req), params.stopId, body));
  },
});

const filterCode = (title: string) => z.string().max(200).optional().transform((v) => v || undefined).meta({ title, description: '空值等于不填' });

export const stopListRoute = defineRoute({
  method: 'get',
  path: '/api/stops',
  tag: 'stops',
  summary: '停机记录（管理员、经理；审核范围内车间的设备），开始时间从近到远',
  description: '日期按工厂时区，含当天：停机时间与日期范围有交叠即列出。仍在停机的记录若最后一名员工已离开设备，显示为在那一刻由系统结束。',
  access: access.insight,
  query: pageQuery.extend({
    device: filterCode('设备编号'),
    workshop: filterCode('车间编码'),
    reason: filterCode('停机原因编码'),
    startDate: optionalLocalDate('开始日期'),
    endDate: optionalLocalDate('结束日期'),
  }),
  response: pageOf(
    z.object({
      stopId: z.string(),
      deviceNo: z.string(),
      workshopCode: z.string().nullable().describe('设备所属车间；不属于任何车间为 null'),
      reasonCode: z.string(),
      reasonName: z.string(),
      category: z.enum(STOP_CATEGORIES).nullable().describe('原因当前的类别：planned 计划停机，unplanned 非计划停机'),
      startAt: instant,
      endAt: instant.nullable().describe('结束时间；null：仍在停机'),
      endedBy: z.enum(['person', 'system']).nullable().describe('person 由人结束；system 最后一名员工离开设备时由系统结束；null 仍在停机'),
      durationSeconds: z.number().int().describe('停机秒数（仍在停机：到现在）'),
      note: z.string().nullable().describe('补录或修改的说明'),
      recordedBy: z.object({ phone: z.string(), name: z.string().nullable() }).describe('记录人'),
    }),
  ),
  example: {
    query: { startDate: '2026-03-02', endDate: '2026-03-02', page: '1', pageSize: '20' },
    response: {
      items: [
        {
          stopId: STOP_EXAMPLE.stopId,
          deviceNo: 'D1',
          reasonCode: 'BRK',
          startAt: STOP_EXAMPLE.startAt,
          workshopCode: 'W1',
          reasonName: '设备故障',
          category: 'unplanned',
          endAt: '2026-03-02T10:20:00+08:00',
          endedBy: 'person',
          durationSeconds: 1200,
          note: null,
          recordedBy: { phone: '13800000011', name: '张三' },
        },
      ],
      page: 1,
      pageSize: 20,
      total: 1,
    },
  },
  async handler({ query, user }, ctx) {
    const { page, pageSize, ...filter } = query;
    const p = await listStops(ctx.db.pool, filter, { page, pageSize }, { scope: scopeOf(user), filter: {} }, ctx.clock.now(), ctx.clockSettings);
    return { ...p, items: p.items.map((s) => ({ ...s, startAt: iso(ctx, s.startAt), endAt: s.endAt ? iso(ctx, s.endAt) : null })) };
  },
});

export const stopRoutes = [stopStartRoute, stopEndRoute, stopCorrectRoute, stopListRoute];
