/**
 * People endpoints (spec 4.3; decisions.md "Roles", "Spreadsheet import", "HTTP conventions"): import with
 * preview and confirmation, list, create/update, remove one role. Access: `access.masterData` (admin, manager).
 */
import { z } from 'zod';
import { ROLES, access } from '../../auth/roles.ts';
import { importRoutes } from './import-routes.ts';
import { peopleImport } from '../../people/import.ts';
import { removePersonRole, savePerson } from '../../people/service.ts';
import { listPeople } from '../../people/store.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { toPage } from '../../shared/page.ts';
import { defineRoute } from '../route.ts';

const role = z.enum(ROLES);

const personSchema = z.object({
  phone: z.string(),
  name: z.string(),
  roles: z.array(role).describe('该手机号拥有的全部角色'),
});

const previewRow = z.object({ row: z.number().int(), phone: z.string(), name: z.string(), role });

export const [peopleImportRoute, peopleImportConfirmRoute] = importRoutes({
  base: '/api/people',
  tag: 'people',
  kind: peopleImport,
  title: '人员清单',
  description: 'multipart/form-data，文件放在字段 file。角色可填 员工/工人/操作工、管理员/审核员、经理/主管/管理者 或 worker/admin/manager。',
  previewRow,
});

export const peopleListRoute = defineRoute({
  method: 'get',
  path: '/api/people',
  tag: 'people',
  summary: '人员列表（分页；keyword 匹配手机号或姓名；role 只列出拥有该角色的人）',
  access: access.masterData,
  query: pageQuery.extend({ keyword: z.string().trim().max(50).optional(), role: role.optional() }),
  response: pageOf(personSchema.extend({ createdAt: z.string() })),
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
    phone: z.string().max(40),
    name: z.string().max(100),
    role: z.string().max(40).describe('worker / admin / manager 或中文角色名；可用顿号分隔多个角色'),
  }),
  response: z.object({ person: personSchema, result: z.enum(['created', 'updated', 'unchanged']) }),
  errors: [{ status: 422, code: 'PERSON_INVALID', description: '手机号、姓名或角色不符合要求（details 列出每个问题）' }],
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
  params: z.object({ phone: z.string().max(40) }),
  query: z.object({ role }),
  errors: [{ status: 404, code: 'PERSON_ROLE_NOT_FOUND', description: '该手机号没有这个角色' }],
  async handler({ params, query }, ctx) {
    await removePersonRole(ctx, params.phone, query.role);
  },
});

export const peopleRoutes = [peopleImportRoute, peopleImportConfirmRoute, peopleListRoute, personSaveRoute, personRoleDeleteRoute];
