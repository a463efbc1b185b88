/**
 * Stop reasons (停机原因; domain/stop-reasons.ts, commands/stop-reasons/decider.ts), as the defect reasons:
 * - `GET /api/stop-reasons[?active=true]` → every reason by code (everyone with a role: the phone's 停机 picker
 *   asks `active=true`);
 * - `POST /api/stop-reasons {code, name, category}` → 201 the reason; 409 STOP_REASON_EXISTS;
 * - `PUT /api/stop-reasons/:code {name?, category?, active?}` → the reason as it stands. Administrators and managers
 *   of the whole factory maintain them; a reason is never deleted.
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { changeStopReason, defineStopReason } from '../../commands/stop-reasons/handlers.ts';
import { STOP_CATEGORIES, STOP_REASON_CODE_MAX, STOP_REASON_CODE_RE, STOP_REASON_NAME_MAX } from '../../domain/stop-reasons.ts';
import { listStopReasons } from '../../queries/stop-reasons.ts';
import { checkedRule } from '../json-schema.ts';
import { actorOf, defineRoute, type ErrorDoc } from '../route.ts';
import { CONCURRENT_MODIFICATION, WHOLE_FACTORY_ONLY } from './error-docs.ts';

const category = z.enum(STOP_CATEGORIES).meta({ title: '类别', description: 'planned 计划停机（换模、保养、培训、会议：不计入计划生产时间）；unplanned 非计划停机（设备故障、待料、质量问题、停电：计入可用率损失）' });
const name = checkedRule(z.string().meta({ title: '停机原因名称', description: `1–${STOP_REASON_NAME_MAX} 个字，例如 换模、设备故障` }), { minLength: 1, maxLength: STOP_REASON_NAME_MAX });
export const stopReasonCode = z
  .string()
  .regex(STOP_REASON_CODE_RE, { error: `停机原因编码请填写 1–${STOP_REASON_CODE_MAX} 个英文字母、数字、- 或 _` })
  .meta({ title: '停机原因编码', description: `1–${STOP_REASON_CODE_MAX} 个英文字母、数字、- 或 _，例如 CHG` });

const reasonSchema = z.object({ code: z.string(), name: z.string(), category: z.enum(STOP_CATEGORIES), active: z.boolean() });
const CHANGEOVER = { code: 'CHG', name: '换模', category: 'planned' as const, active: true };

const INVALID_STOP_REASON: ErrorDoc = {
  status: 422,
  code: 'INVALID_STOP_REASON',
  description: '停机原因的编码或名称不符合规则（details.field 为 code 或 name）',
  details: z.object({ field: z.enum(['code', 'name']) }),
};
const STOP_REASON_EXISTS: ErrorDoc = {
  status: 409,
  code: 'STOP_REASON_EXISTS',
  description: '编码已被另一个停机原因使用（details.name；details.active 为 false 时它已停用，可重新启用）',
  details: z.object({ code: z.string(), name: z.string(), active: z.boolean() }),
};
const STOP_REASON_NOT_FOUND: ErrorDoc = { status: 404, code: 'STOP_REASON_NOT_FOUND', description: '没有这个停机原因（details.code）', details: z.object({ code: z.string() }) };

export const stopReasonListRoute = defineRoute({
  method: 'get',
  path: '/api/stop-reasons',
  tag: 'stops',
  summary: '停机原因列表（所有有角色的用户；active=true 只列可选用的）',
  access: 'authenticated',
  query: z.object({
    active: z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => v === 'true')
      .meta({ title: '只看启用的', description: 'true：只列启用的（记录停机时可选的）；不填或 false：全部，含已停用的' }),
  }),
  response: z.object({ items: z.array(reasonSchema) }),
  example: { query: { active: 'true' }, response: { items: [CHANGEOVER, { code: 'BRK', name: '设备故障', category: 'unplanned', active: true }] } },
  async handler({ query }, ctx) {
    return { items: await listStopReasons(ctx.db.pool, query.active) };
  },
});

export const stopReasonCreateRoute = defineRoute({
  method: 'post',
  path: '/api/stop-reasons',
  tag: 'stops',
  summary: '新建停机原因（管理员、经理）',
  description: '类别决定设备效率中停机的算法：计划停机不计入计划生产时间，非计划停机计入可用率损失。停机按原因当前的类别统计。',
  access: access.masterData,
  body: z.object({ code: stopReasonCode, name, category }),
  status: 201,
  response: reasonSchema,
  errors: [INVALID_STOP_REASON, STOP_REASON_EXISTS, WHOLE_FACTORY_ONLY, CONCURRENT_MODIFICATION],
  example: { body: { code: 'CHG', name: '换模', category: 'planned' }, response: CHANGEOVER },
  async handler({ body, user, req }, ctx) {
    return defineStopReason(ctx.commands, actorOf(user, req), body);
  },
});

export const stopReasonChangeRoute = defineRoute({
  method: 'put',
  path: '/api/stop-reasons/:code',
  tag: 'stops',
  summary: '修改停机原因：改名、改类别、停用或重新启用（管理员、经理；不能删除）',
  description: '不填的字段不变。用过的停机原因只能停用（active=false），不能删除：停用后不能再选，已记录的停机照旧。',
  access: access.masterData,
  params: z.object({ code: stopReasonCode }),
  body: z.object({ name: name.optional(), category: category.optional(), active: z.boolean().meta({ title: '启用' }).optional() }),
  response: reasonSchema,
  errors: [STOP_REASON_NOT_FOUND, INVALID_STOP_REASON, WHOLE_FACTORY_ONLY, CONCURRENT_MODIFICATION],
  example: { params: { code: 'CHG' }, body: { active: false }, response: { ...CHANGEOVER, active: false } },
  async handler({ params, body, user, req }, ctx) {
    return changeStopReason(ctx.commands, actorOf(user, req), params.code, body);
  },
});

export const stopReasonRoutes = [stopReasonListRoute, stopReasonCreateRoute, stopReasonChangeRoute];
