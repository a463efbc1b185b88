/**
 * Workshops (车间), teams (班组), memberships and devices' workshops, administrators and managers
 * (`access.organization`). Thin: each write is one command of commands/organization/handlers.ts, each read a query
 * of queries/organization.ts. Local dates `YYYY-MM-DD` in APP_TIMEZONE; a missing date is today.
 * - `GET /api/workshops?date=` → every workshop with its teams, leaders and member counts on the date;
 * - `POST /api/workshops {code, name}`, `PUT /api/workshops/:code {name}`;
 * - `POST /api/teams {code, name, workshopCode, leaders}`, `PUT /api/teams/:code {name, workshopCode, leaders}`;
 * - `GET /api/teams/:code/members?date=` → the members on the date, with their membership's dates;
 * - `GET /api/people/:phone/memberships` → the person's whole history, newest first;
 * - `POST /api/memberships {phone, teamCode, validFrom?}` (join or move), `POST /api/memberships/end {phone, validTo?}`;
 * - `PUT /api/devices/:deviceNo/workshop {workshopCode | null}`.
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { endMembership, saveTeam, saveWorkshop, setDeviceWorkshop, startMembership } from '../../commands/organization/handlers.ts';
import { listWorkshops, membershipHistory, teamMembers, workshopNameOf } from '../../queries/organization.ts';
import { localDate as todayIn } from '../../time.ts';
import type { AppContext } from '../../context.ts';
import { localDate, optionalLocalDate } from '../dates.ts';
import { checkedRule } from '../json-schema.ts';
import { parseCoefficient } from '../../domain/crew-split.ts';
import { actorOf, defineRoute, type ErrorDoc } from '../route.ts';
import { CONCURRENT_MODIFICATION, DEVICE_NOT_FOUND, NOT_IN_SCOPE, WHOLE_FACTORY_ONLY } from './error-docs.ts';

const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,19}$/;
const CODE_RULE = '字母、数字、- 或 _，1–20 个字符，以字母或数字开头；建好后不能修改';
const code = (title: string) => z.string().regex(CODE_PATTERN, { error: `${title}只能用${CODE_RULE}` }).meta({ title, description: CODE_RULE });
const name = (title: string) =>
  checkedRule(z.string().trim().min(1, { error: `请填写${title}` }).max(50, { error: `${title}最多 50 个字` }).meta({ title, description: '1–50 个字' }), {
    pattern: '\\S',
    maxLength: 50,
  });
const phone = (title: string) => z.string().regex(/^1\d{10}$/, { error: `${title}应为 11 位手机号` }).meta({ title, description: '11 位手机号' });
const dateQuery = z.object({ date: optionalLocalDate('日期') });

const today = (ctx: AppContext) => todayIn(ctx.clock.now(), ctx.config.timeZone);

// ---- errors -------------------------------------------------------------------------------------------------
const codeDetails = z.object({ code: z.string() });
const phoneDetails = z.object({ phone: z.string() });
const WORKSHOP_NOT_FOUND: ErrorDoc = { status: 404, code: 'WORKSHOP_NOT_FOUND', description: '没有这个车间（details.code）', details: codeDetails };
const WORKSHOP_EXISTS: ErrorDoc = { status: 409, code: 'WORKSHOP_EXISTS', description: '车间编号已存在（details.code）', details: codeDetails };
const TEAM_NOT_FOUND: ErrorDoc = { status: 404, code: 'TEAM_NOT_FOUND', description: '没有这个班组（details.code）', details: codeDetails };
const TEAM_EXISTS: ErrorDoc = { status: 409, code: 'TEAM_EXISTS', description: '班组编号已存在（details.code）', details: codeDetails };
const LEADER_NOT_FOUND: ErrorDoc = { status: 422, code: 'LEADER_NOT_FOUND', description: '班组长不在人员清单中（details.phone）', details: phoneDetails };
const NOT_A_WORKER: ErrorDoc = { status: 422, code: 'NOT_A_WORKER', description: '只有角色为员工的人才能加入班组（details.phone）', details: phoneDetails };
const MEMBERSHIP_DATE_TOO_EARLY: ErrorDoc = {
  status: 409,
  code: 'MEMBERSHIP_DATE_TOO_EARLY',
  description: '日期早于已有的班组记录：历史不能改写，details.earliest 是最早可选的日期',
  details: z.object({ earliest: z.string() }),
};
const TEAM_MOVE_DATE: ErrorDoc = {
  status: 409,
  code: 'TEAM_MOVE_DATE',
  description: '调入日期早于上一次调动的次日（details.earliest），或晚于今天（details.latest）：历史不能改写',
  details: z.object({ earliest: z.string().nullable(), latest: z.string() }),
};
const NO_OPEN_MEMBERSHIP: ErrorDoc = { status: 409, code: 'NO_OPEN_MEMBERSHIP', description: '此人当前不在任何班组（details.phone）', details: phoneDetails };

// ---- schemas ------------------------------------------------------------------------------------------------
/** A coefficient (系数) in an answer: hundredths / 100, e.g. 1.2 (domain/crew-split.ts). */
const coefficientAnswer = z.number().describe('系数（班组报工按系数分配时使用），0.1–9.99，默认 1');
/** A coefficient in a request: a number or text of at most 2 decimals, 0.1–9.99 → hundredths. */
const coefficientInput = z
  .union([checkedRule(z.string(), { pattern: '^(0\\.[1-9]\\d?|[1-9](\\.\\d{1,2})?)$' }), checkedRule(z.number(), { minimum: 0.1, maximum: 9.99 })])
  .transform((v, ctx) => {
    const hundredths = parseCoefficient(v);
    if (hundredths !== undefined) return hundredths;
    ctx.addIssue({ code: 'custom', message: '系数应为 0.1 到 9.99 之间、最多 2 位小数的数字，例如 1.2' });
    return z.NEVER;
  })
  .meta({ title: '系数', description: '0.1–9.99，最多 2 位小数（数字或文本，如 1.2、"1.20"）；不填：新班组为 1，同一班组不变' });

const personRef = z.object({ phone: z.string(), name: z.string().nullable().describe('人员清单中的姓名；已不在清单中时为 null') });
const teamItem = z.object({
  code: z.string(),
  name: z.string(),
  workshopCode: z.string(),
  leaders: z.array(personRef).describe('班组长'),
  memberCount: z.number().int().describe('当天的组员人数'),
});
const workshopAnswer = z.object({ code: z.string(), name: z.string() });
const teamAnswer = z.object({ code: z.string(), name: z.string(), workshopCode: z.string(), leaders: z.array(z.string()).describe('班组长手机号') });
const membershipItem = z.object({
  teamCode: z.string(),
  teamName: z.string().nullable(),
  workshopCode: z.string().nullable(),
  workshopName: z.string().nullable(),
  validFrom: localDate.describe('加入日期（含当天）'),
  validTo: localDate.nullable().describe('最后一天（含当天）；null：仍在该班组'),
  coefficient: coefficientAnswer,
});
const historyAnswer = z.object({ phone: z.string(), items: z.array(membershipItem).describe('全部班组记录，新的在前') });

const EXAMPLE_TEAM = { code: 'C1-A', name: '冲压一班', workshopCode: 'C1', leaders: [{ phone: '13800000011', name: '王班长' }], memberCount: 12 };
const EXAMPLE_HISTORY = {
  phone: '13800138000',
  items: [
    { teamCode: 'C1-B', teamName: '冲压二班', workshopCode: 'C1', workshopName: '冲压车间', validFrom: '2026-03-16', validTo: null, coefficient: 1.2 },
    { teamCode: 'C1-A', teamName: '冲压一班', workshopCode: 'C1', workshopName: '冲压车间', validFrom: '2026-03-01', validTo: '2026-03-15', coefficient: 1 },
  ],
};

const teamBody = {
  name: name('班组名称'),
  workshopCode: code('所属车间编号'),
  leaders: z.array(phone('班组长手机号')).min(1, { error: '请至少指定一名班组长' }).max(10, { error: '班组长最多 10 人' }).meta({ title: '班组长', description: '1–10 个手机号，须在人员清单中' }),
};

// ---- routes -------------------------------------------------------------------------------------------------
export const workshopListRoute = defineRoute({
  method: 'get',
  path: '/api/workshops',
  tag: 'organization',
  summary: '车间与班组（每个车间的班组、班组长和当天的组员人数；按编号排序）',
  access: access.organization,
  query: dateQuery,
  response: z.object({ date: localDate.describe('组员人数所按的日期'), items: z.array(z.object({ code: z.string(), name: z.string(), teams: z.array(teamItem) })) }),
  example: { query: { date: '2026-03-16' }, response: { date: '2026-03-16', items: [{ code: 'C1', name: '冲压车间', teams: [EXAMPLE_TEAM] }] } },
  async handler({ query }, ctx) {
    const date = query.date ?? today(ctx);
    return { date, items: await listWorkshops(ctx.db.pool, date) };
  },
});

export const workshopCreateRoute = defineRoute({
  method: 'post',
  path: '/api/workshops',
  tag: 'organization',
  summary: '新建车间（编号唯一，建好后不能修改）',
  access: access.organization,
  body: z.object({ code: code('车间编号'), name: name('车间名称') }),
  status: 201,
  response: workshopAnswer,
  errors: [WORKSHOP_EXISTS, WHOLE_FACTORY_ONLY, CONCURRENT_MODIFICATION],
  example: { body: { code: 'C1', name: '冲压车间' }, response: { code: 'C1', name: '冲压车间' } },
  async handler({ body, user, req }, ctx) {
    return saveWorkshop(ctx.commands, actorOf(user, req), { ...body, create: true });
  },
});

export const workshopRenameRoute = defineRoute({
  method: 'put',
  path: '/api/workshops/:code',
  tag: 'organization',
  summary: '修改车间名称',
  access: access.organization,
  params: z.object({ code: code('车间编号') }),
  body: z.object({ name: name('车间名称') }),
  response: workshopAnswer,
  errors: [WORKSHOP_NOT_FOUND, NOT_IN_SCOPE, CONCURRENT_MODIFICATION],
  example: { params: { code: 'C1' }, body: { name: '冲压一车间' }, response: { code: 'C1', name: '冲压一车间' } },
  async handler({ params, body, user, req }, ctx) {
    return saveWorkshop(ctx.commands, actorOf(user, req), { code: params.code, name: body.name, create: false });
  },
});

export const teamCreateRoute = defineRoute({
  method: 'post',
  path: '/api/teams',
  tag: 'organization',
  summary: '新建班组（属于一个车间，有一名或多名班组长）',
  access: access.organization,
  body: z.object({ code: code('班组编号'), ...teamBody }),
  status: 201,
  response: teamAnswer,
  errors: [TEAM_EXISTS, WORKSHOP_NOT_FOUND, LEADER_NOT_FOUND, NOT_IN_SCOPE, CONCURRENT_MODIFICATION],
  example: {
    body: { code: 'C1-A', name: '冲压一班', workshopCode: 'C1', leaders: ['13800000011'] },
    response: { code: 'C1-A', name: '冲压一班', workshopCode: 'C1', leaders: ['13800000011'] },
  },
  async handler({ body, user, req }, ctx) {
    return saveTeam(ctx.commands, actorOf(user, req), { ...body, create: true }, ctx.config.timeZone);
  },
});

export const teamChangeRoute = defineRoute({
  method: 'put',
  path: '/api/teams/:code',
  tag: 'organization',
  summary: '修改班组（名称、所属车间、班组长；组员不变，已提交的报工单仍记在提交时的车间）',
  description:
    '调到其他车间时，workshopFrom 为在新车间的第一天（默认今天；不能早于上一次调动的次日，不能晚于今天）：此前的日子仍属原车间（组员的班组记录按日期显示当时的车间）。',
  access: access.organization,
  params: z.object({ code: code('班组编号') }),
  body: z.object({
    ...teamBody,
    workshopFrom: localDate.optional().meta({ title: '调入日期', description: '调到其他车间时，在新车间的第一天（YYYY-MM-DD，工厂时区）；默认今天' }),
  }),
  response: teamAnswer,
  errors: [TEAM_NOT_FOUND, WORKSHOP_NOT_FOUND, LEADER_NOT_FOUND, TEAM_MOVE_DATE, NOT_IN_SCOPE, CONCURRENT_MODIFICATION],
  example: {
    params: { code: 'C1-A' },
    body: { name: '冲压一班', workshopCode: 'C1', leaders: ['13800000011', '13800000012'] },
    response: { code: 'C1-A', name: '冲压一班', workshopCode: 'C1', leaders: ['13800000011', '13800000012'] },
  },
  async handler({ params, body, user, req }, ctx) {
    return saveTeam(ctx.commands, actorOf(user, req), { code: params.code, ...body, create: false }, ctx.config.timeZone);
  },
});

export const teamMembersRoute = defineRoute({
  method: 'get',
  path: '/api/teams/:code/members',
  tag: 'organization',
  summary: '班组在某天的组员（含各自加入日期和离开日期；默认今天）',
  access: access.organization,
  params: z.object({ code: code('班组编号') }),
  query: dateQuery,
  response: z.object({
    team: z.object({ code: z.string(), name: z.string(), workshopCode: z.string() }),
    date: localDate,
    items: z.array(
      z.object({
        phone: z.string(),
        name: z.string().nullable(),
        validFrom: localDate.describe('加入日期'),
        validTo: localDate.nullable().describe('最后一天；null：未定'),
        coefficient: coefficientAnswer,
      }),
    ),
  }),
  errors: [TEAM_NOT_FOUND],
  example: {
    params: { code: 'C1-A' },
    query: { date: '2026-03-16' },
    response: {
      team: { code: 'C1-A', name: '冲压一班', workshopCode: 'C1' },
      date: '2026-03-16',
      items: [{ phone: '13800138000', name: '张三', validFrom: '2026-03-01', validTo: null, coefficient: 1.2 }],
    },
  },
  async handler({ params, query }, ctx) {
    const date = query.date ?? today(ctx);
    const { team, items } = await teamMembers(ctx.db.pool, params.code, date);
    return { team, date, items };
  },
});

export const personMembershipsRoute = defineRoute({
  method: 'get',
  path: '/api/people/:phone/memberships',
  tag: 'organization',
  summary: '一个人的全部班组记录（新的在前；调动后旧记录保留）',
  access: access.organization,
  params: z.object({ phone: phone('手机号') }),
  response: historyAnswer,
  example: { params: { phone: '13800138000' }, response: EXAMPLE_HISTORY },
  async handler({ params }, ctx) {
    return { phone: params.phone, items: await membershipHistory(ctx.db.pool, params.phone) };
  },
});

export const membershipStartRoute = defineRoute({
  method: 'post',
  path: '/api/memberships',
  tag: 'organization',
  summary: '员工加入班组或调动到另一个班组（从生效日期起；调动时原班组记录在前一天结束）',
  description:
    '生效日期默认今天（工厂时区），可以是将来的日期；不能早于已有记录（历史不能改写）。已在该班组时不做任何改变；' +
    '已在该班组但给出不同的系数时，从生效日期起按新系数记一条新的班组记录（原记录在前一天结束）。系数用于班组报工的分配（CREW_SPLIT=coefficient）。',
  access: access.organization,
  body: z.object({
    phone: phone('员工手机号'),
    teamCode: code('班组编号'),
    validFrom: localDate.optional().meta({ title: '生效日期', description: 'YYYY-MM-DD（工厂时区）；默认今天' }),
    coefficient: coefficientInput.optional(),
  }),
  response: historyAnswer,
  errors: [NOT_A_WORKER, TEAM_NOT_FOUND, MEMBERSHIP_DATE_TOO_EARLY, NOT_IN_SCOPE, CONCURRENT_MODIFICATION],
  example: { body: { phone: '13800138000', teamCode: 'C1-B', validFrom: '2026-03-16', coefficient: 1.2 }, response: EXAMPLE_HISTORY },
  async handler({ body, user, req }, ctx) {
    await startMembership(ctx.commands, actorOf(user, req), body, ctx.config.timeZone);
    return { phone: body.phone, items: await membershipHistory(ctx.db.pool, body.phone) };
  },
});

export const membershipEndRoute = defineRoute({
  method: 'post',
  path: '/api/memberships/end',
  tag: 'organization',
  summary: '员工离开当前班组（validTo 是在该班组的最后一天，默认今天）',
  access: access.organization,
  body: z.object({
    phone: phone('员工手机号'),
    validTo: localDate.optional().meta({ title: '最后一天', description: 'YYYY-MM-DD（工厂时区），含当天；默认今天' }),
  }),
  response: historyAnswer,
  errors: [NO_OPEN_MEMBERSHIP, MEMBERSHIP_DATE_TOO_EARLY, NOT_IN_SCOPE, CONCURRENT_MODIFICATION],
  example: {
    body: { phone: '13800138000', validTo: '2026-03-31' },
    response: { phone: '13800138000', items: [{ ...EXAMPLE_HISTORY.items[0], validTo: '2026-03-31' }, EXAMPLE_HISTORY.items[1]] },
  },
  async handler({ body, user, req }, ctx) {
    await endMembership(ctx.commands, actorOf(user, req), body, ctx.config.timeZone);
    return { phone: body.phone, items: await membershipHistory(ctx.db.pool, body.phone) };
  },
});

export const deviceWorkshopRoute = defineRoute({
  method: 'put',
  path: '/api/devices/:deviceNo/workshop',
  tag: 'organization',
  summary: '设置设备所属车间（null：不属于任何车间）',
  access: access.organization,
  params: z.object({ deviceNo: z.string().min(1).max(100).meta({ title: '设备编号' }) }),
  body: z.object({ workshopCode: code('车间编号').nullable().meta({ title: '车间编号', description: `${CODE_RULE}；null 表示不属于任何车间` }) }),
  response: z.object({ deviceNo: z.string(), workshopCode: z.string().nullable(), workshopName: z.string().nullable() }),
  errors: [DEVICE_NOT_FOUND, WORKSHOP_NOT_FOUND, NOT_IN_SCOPE, CONCURRENT_MODIFICATION],
  example: { params: { deviceNo: '冲床 01' }, body: { workshopCode: 'C1' }, response: { deviceNo: '冲床 01', workshopCode: 'C1', workshopName: '冲压车间' } },
  async handler({ params, body, user, req }, ctx) {
    const set = await setDeviceWorkshop(ctx.commands, actorOf(user, req), { deviceNo: params.deviceNo, workshopCode: body.workshopCode });
    return { ...set, workshopName: await workshopNameOf(ctx.db.pool, set.workshopCode) };
  },
});

export const organizationRoutes = [
  workshopListRoute,
  workshopCreateRoute,
  workshopRenameRoute,
  teamCreateRoute,
  teamChangeRoute,
  teamMembersRoute,
  personMembershipsRoute,
  membershipStartRoute,
  membershipEndRoute,
  deviceWorkshopRoute,
];
