/**
 * People endpoints (spec 4.3; decisions.md "Roles", "Spreadsheet import", "HTTP conventions"): import with
 * preview and confirmation, list, create/update, remove one role. Access: `access.masterData` (admin, manager).
 */
import { z } from 'zod';
import { ROLES, access } from '../../auth/roles.ts';
import { importRoutes } from './import-routes.ts';
import { peopleImport } from '../../people/import.ts';
import { removePersonRole, savePerson } from '../../people/service.ts';
import { MAX_NAME_LENGTH, ROLE_ALIASES } from '../../people/rules.ts';
import { listPeople } from '../../people/store.ts';
import { checkedRule } from '../json-schema.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { toPage } from '../../shared/page.ts';
import { instant } from '../dates.ts';
import { actorOf, defineRoute } from '../route.ts';
import { setScope } from '../../commands/scopes/handlers.ts';
import { NOT_IN_SCOPE, PERSON_INVALID, WHOLE_FACTORY_ONLY } from './error-docs.ts';

const role = z.enum(ROLES).describe('worker 员工、admin 管理员、manager 经理');

const personSchema = z.object({
  phone: z.string(),
  name: z.string(),
  roles: z.array(role).describe('该手机号拥有的全部角色'),
});

/** A team as a preview row's membership change names it. */
const teamRef = z.object({ teamCode: z.string(), teamName: z.string(), workshopCode: z.string(), workshopName: z.string().nullable() });
const previewRow = z.object({
  row: z.number().int().describe('表格中的行号'),
  phone: z.string(),
  name: z.string(),
  role,
  workshop: z.string().optional().describe('表中「车间」列（编号或名称），未填时没有'),
  team: z.string().optional().describe('表中「班组」列（编号或名称），未填时没有'),
  membership: z
    .object({
      action: z.enum(['join', 'move']).describe('join 加入（当前不在班组）、move 调动'),
      from: teamRef.nullable().describe('调动前的班组；加入时为 null'),
      to: teamRef,
    })
    .optional()
    .describe('确认导入后的班组变化，从确认当天起生效；没有变化时没有'),
});

export const [peopleImportRoute, peopleImportConfirmRoute] = importRoutes({
  base: '/api/people',
  tag: 'people',
  kind: peopleImport,
  title: '人员清单',
  description:
    'multipart/form-data，文件放在字段 file。角色可填 员工/工人/操作工、管理员/审核员、经理/主管/管理者 或 worker/admin/manager。' +
    '可选列「车间」「班组」（编号或名称；班组名称重复时须填编号或同时填车间）：员工加入或调动到该班组，从确认导入当天起生效，预览的 membership 列出每个变化；班组为空时不改变班组。',
  previewRow,
  confirmErrors: [{ ...NOT_IN_SCOPE, description: '导入要把员工加入或调动到您管理范围以外的班组，或调动目前在范围以外班组的员工：整个文件没有导入' }],
  exampleRow: {
    row: 3,
    phone: '13800138000',
    name: '张三',
    role: 'worker',
    workshop: '冲压车间',
    team: '冲压一班',
    membership: { action: 'join', from: null, to: { teamCode: 'C1-A', teamName: '冲压一班', workshopCode: 'C1', workshopName: '冲压车间' } },
  },
  exampleError: { row: 4, code: 'bad_phone', reason: '手机号「1380013」不是 11 位手机号码，请检查是否多写或漏写了数字', values: { 手机号: '1380013', 姓名: '李四', 角色: '员工' } },
});

/** The role words the personnel rules accept (people/rules.ts), for the document's pattern. */
const ROLE_WORDS = [...ROLE_ALIASES.keys()].join('|');

// ---- scopes: scopes ----
const scopeRole = z.enum(['admin', 'manager']).describe('admin 管理员、manager 经理');
/** A person's scope in one role (domain/scope.ts). */
const scopeSchema = z.object({
  role: scopeRole,
  workshops: z.array(z.string()).describe('车间编码'),
  teams: z.array(z.string()).describe('班组编码'),
});
const codes = (title: string) =>
  z
    .array(z.string().max(40).meta({ title: `${title}编码` }))
    .max(100)
    .meta({ title, description: `${title}编码，最多 100 个（首尾空白去掉，空的忽略）；不填或为空：不按${title}限定` });

export const personScopeRoute = defineRoute({
  method: 'put',
  path: '/api/people/:phone/scope',
  tag: 'people',
  summary: '设置管理员或经理的审核范围（车间、班组；都为空为全厂；经理）',
  description:
    '审核范围内的报工单才能看到和操作：待审核、审核、驳回、修改休息时间、报工单及其审计记录、报工单列表、看板与工资。' +
    '报工单的车间在范围的车间中，或其班组在范围的班组中，即在范围内；不属于任何班组的报工单只有全厂范围的人能看到。不能设置自己的范围。',
  access: access.scopes,
  params: z.object({ phone: z.string().max(40).meta({ title: '手机号' }) }),
  body: z.object({
    role: scopeRole.meta({ title: '角色' }),
    workshops: codes('车间').default([]),
    teams: codes('班组').default([]),
  }),
  response: z.object({ phone: z.string(), role: scopeRole, workshops: z.array(z.string()), teams: z.array(z.string()) }),
  errors: [
    WHOLE_FACTORY_ONLY,
    { status: 403, code: 'OWN_SCOPE', description: '不能设置自己的审核范围' },
    { status: 404, code: 'SCOPE_PERSON_NOT_FOUND', description: '该手机号没有这个角色' },
    {
      status: 422,
      code: 'UNKNOWN_SCOPE_CODES',
      description: '范围中有不存在的车间或班组编码（details 列出）',
      details: z.object({ workshops: z.array(z.string()), teams: z.array(z.string()) }),
    },
  ],
  example: {
    params: { phone: '13800000001' },
    body: { role: 'admin', workshops: ['W1'], teams: [] },
    response: { phone: '13800000001', role: 'admin', workshops: ['W1'], teams: [] },
  },
  handler: ({ params, body, user, req }, ctx) => setScope(ctx.commands, actorOf(user, req), { phone: params.phone, ...body }),
});

const PERSON_EXAMPLE = { phone: '13800138000', name: '张三', roles: ['worker'] };

export const peopleListRoute = defineRoute({
  method: 'get',
  path: '/api/people',
  tag: 'people',
  summary: '人员列表（分页；keyword 匹配手机号或姓名；role 只列出拥有该角色的人）',
  access: access.masterData,
  query: pageQuery.extend({
    keyword: z.string().trim().max(50).optional().meta({ title: '关键字', description: '匹配手机号或姓名；去掉首尾空白后最多 50 个字' }),
    role: role.optional().meta({ title: '角色' }),
  }),
  response: pageOf(personSchema.extend({ createdAt: instant, scope: z.array(scopeSchema).describe('管理员、经理角色的审核范围（两个列表都为空：全厂）') })),
  example: {
    query: { keyword: '张', role: 'worker' },
    response: { items: [{ ...PERSON_EXAMPLE, createdAt: '2026-03-02T07:40:00+08:00', scope: [] }], page: 1, pageSize: 20, total: 1 },
  },
  async handler({ query }, ctx) {
    const { items, total } = await listPeople(ctx.db.pool, { keyword: query.keyword || undefined, role: query.role }, query, ctx.config.timeZone);
    return toPage(items, total, query);
  },
});

export const personSaveRoute = defineRoute({
  method: 'post',
  path: '/api/people',
  tag: 'people',
  summary: '新增或更新人员（添加角色；姓名不同时改名，作用于该手机号的全部角色）',
  access: access.masterData,
  body: z.object({
    phone: checkedRule(z.string().max(40).meta({ title: '手机号', description: '11 位中国大陆手机号（也接受空格、短横线和 +86 前缀）' }), {
      pattern: '^1[3-9][0-9]{9}$',
    }),
    name: checkedRule(z.string().max(100).meta({ title: '姓名', description: `最多 ${MAX_NAME_LENGTH} 个字` }), { maxLength: MAX_NAME_LENGTH, pattern: '\\S' }),
    role: checkedRule(z.string().max(40).meta({ title: '角色', description: 'worker / admin / manager 或中文角色名；几个角色用顿号分隔' }), {
      pattern: `^(${ROLE_WORDS})(、(${ROLE_WORDS}))*$`,
    }),
  }),
  response: z.object({ person: personSchema, result: z.enum(['created', 'updated', 'unchanged']) }),
  errors: [PERSON_INVALID],
  example: {
    body: { phone: '13800138000', name: '张三', role: '员工' },
    response: { person: PERSON_EXAMPLE, result: 'created' },
  },
  async handler({ body }, ctx) {
    return savePerson(ctx, body);
  },
});

export const personRoleDeleteRoute = defineRoute({
  method: 'delete',
  path: '/api/people/:phone',
  tag: 'people',
  summary: '删除手机号的一个角色（该角色的登录令牌立即失效）',
  access: access.masterData,
  params: z.object({ phone: z.string().max(40).meta({ title: '手机号' }) }),
  query: z.object({ role: role.meta({ title: '角色' }) }),
  errors: [{ status: 404, code: 'PERSON_ROLE_NOT_FOUND', description: '该手机号没有这个角色' }],
  example: { params: { phone: '13800138000' }, query: { role: 'worker' } },
  async handler({ params, query }, ctx) {
    await removePersonRole(ctx, params.phone, query.role);
  },
});

export const peopleRoutes = [
  peopleImportRoute,
  peopleImportConfirmRoute,
  peopleListRoute,
  personSaveRoute,
  personRoleDeleteRoute,
  // scopes
  personScopeRoute,
];
