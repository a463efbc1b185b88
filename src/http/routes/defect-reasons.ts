/**
 * Defect reasons (不良原因; domain/defect-reasons.ts, commands/defect-reasons/decider.ts):
 * - `GET /api/defect-reasons[?active=true]` → every reason by code (everyone with a role: the phone's picker asks
 *   `active=true`);
 * - `POST /api/defect-reasons {code, name, category}` → 201 the reason; 409 DEFECT_REASON_EXISTS;
 * - `PUT /api/defect-reasons/:code {name?, category?, active?}` → the reason as it stands (rename, recategorise,
 *   deactivate, reactivate). Administrators and managers of the whole factory maintain them; a reason is never
 *   deleted (a deactivated one stays on the lines that name it).
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { changeDefectReason, defineDefectReason } from '../../commands/defect-reasons/handlers.ts';
import { DEFECT_CATEGORIES, DEFECT_REASON_CODE_MAX, DEFECT_REASON_CODE_RE, DEFECT_REASON_NAME_MAX } from '../../domain/defect-reasons.ts';
import { listDefectReasons } from '../../queries/defect-reasons.ts';
import { checkedRule } from '../json-schema.ts';
import { actorOf, defineRoute, type ErrorDoc } from '../route.ts';
import { CONCURRENT_MODIFICATION, WHOLE_FACTORY_ONLY } from './error-docs.ts';

const category = z.enum(DEFECT_CATEGORIES).meta({ title: '类别', description: 'operator 工废（工人造成，按不良单价计）；material 料废（材料造成，按料废单价计）；other 其他（设备、调机、不明，按不良单价计）' });
const name = checkedRule(z.string().meta({ title: '不良原因名称', description: `1–${DEFECT_REASON_NAME_MAX} 个字，例如 划伤、材料裂纹` }), { minLength: 1, maxLength: DEFECT_REASON_NAME_MAX });
const code = z
  .string()
  .regex(DEFECT_REASON_CODE_RE, { error: `不良原因编码请填写 1–${DEFECT_REASON_CODE_MAX} 个英文字母、数字、- 或 _` })
  .meta({ title: '不良原因编码', description: `1–${DEFECT_REASON_CODE_MAX} 个英文字母、数字、- 或 _，例如 SCR` });

const reasonSchema = z.object({ code: z.string(), name: z.string(), category: z.enum(DEFECT_CATEGORIES), active: z.boolean() });
const SCRATCH = { code: 'SCR', name: '划伤', category: 'operator' as const, active: true };

const INVALID_DEFECT_REASON: ErrorDoc = {
  status: 422,
  code: 'INVALID_DEFECT_REASON',
  description: '不良原因的编码或名称不符合规则（details.field 为 code 或 name）',
  details: z.object({ field: z.enum(['code', 'name']) }),
};
const DEFECT_REASON_EXISTS: ErrorDoc = {
  status: 409,
  code: 'DEFECT_REASON_EXISTS',
  description: '编码已被另一个不良原因使用（details.name；details.active 为 false 时它已停用，可重新启用）',
  details: z.object({ code: z.string(), name: z.string(), active: z.boolean() }),
};
const DEFECT_REASON_NOT_FOUND: ErrorDoc = { status: 404, code: 'DEFECT_REASON_NOT_FOUND', description: '没有这个不良原因（details.code）', details: z.object({ code: z.string() }) };

export const defectReasonListRoute = defineRoute({
  method: 'get',
  path: '/api/defect-reasons',
  tag: 'defect-reasons',
  summary: '不良原因列表（所有有角色的用户；active=true 只列可选用的）',
  access: 'authenticated',
  query: z.object({
    active: z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => v === 'true')
      .meta({ title: '只看启用的', description: 'true：只列启用的（报工时可选的）；不填或 false：全部，含已停用的' }),
  }),
  response: z.object({ items: z.array(reasonSchema) }),
  example: { query: { active: 'true' }, response: { items: [SCRATCH, { code: 'CRK', name: '材料裂纹', category: 'material', active: true }] } },
  async handler({ query }, ctx) {
    return { items: await listDefectReasons(ctx.db.pool, query.active) };
  },
});

export const defectReasonCreateRoute = defineRoute({
  method: 'post',
  path: '/api/defect-reasons',
  tag: 'defect-reasons',
  summary: '新建不良原因（管理员、经理）',
  description: '类别决定工资：工废和其他按产品的不良单价计，料废按料废单价计。已有报工单记录了当时的类别，以后改类别不会改变已计的工资。',
  access: access.masterData,
  body: z.object({ code, name, category }),
  status: 201,
  response: reasonSchema,
  errors: [INVALID_DEFECT_REASON, DEFECT_REASON_EXISTS, WHOLE_FACTORY_ONLY, CONCURRENT_MODIFICATION],
  example: { body: { code: 'SCR', name: '划伤', category: 'operator' }, response: SCRATCH },
  async handler({ body, user, req }, ctx) {
    return defineDefectReason(ctx.commands, actorOf(user, req), body);
  },
});

export const defectReasonChangeRoute = defineRoute({
  method: 'put',
  path: '/api/defect-reasons/:code',
  tag: 'defect-reasons',
  summary: '修改不良原因：改名、改类别、停用或重新启用（管理员、经理；不能删除）',
  description: '不填的字段不变。用过的不良原因只能停用（active=false），不能删除：停用后报工时不能再选，已记录的报工单照旧。',
  access: access.masterData,
  params: z.object({ code }),
  body: z.object({ name: name.optional(), category: category.optional(), active: z.boolean().meta({ title: '启用' }).optional() }),
  response: reasonSchema,
  errors: [DEFECT_REASON_NOT_FOUND, INVALID_DEFECT_REASON, WHOLE_FACTORY_ONLY, CONCURRENT_MODIFICATION],
  example: { params: { code: 'SCR' }, body: { active: false }, response: { ...SCRATCH, active: false } },
  async handler({ params, body, user, req }, ctx) {
    return changeDefectReason(ctx.commands, actorOf(user, req), params.code, body);
  },
});

export const defectReasonRoutes = [defectReasonListRoute, defectReasonCreateRoute, defectReasonChangeRoute];
