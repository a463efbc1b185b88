/**
 * Shifts (班次) and teams' shift calendars, administrators and managers
 * (`access.organization`):
 * - `GET /api/shifts` → every shift with its break windows; `POST /api/shifts` → 201 a new shift;
 *   `PUT /api/shifts/:shiftId` → the whole new definition (reports already submitted keep their break);
 * - `POST /api/teams/:code/shift-assignments {validFrom, rotation, daysEach}` → 201 the assignment;
 * - `PUT /api/teams/:code/shift-overrides/:date {shiftId | null}` → 204; `DELETE …/shift-overrides/:date` → 204;
 * - `GET /api/teams/:code/shift-calendar?month=YYYY-MM` → the month day by day;
 * - `GET /api/teams/:code/shift-schedule` → the team's assignments, the one in force today and the overrides from
 *   today on (what the console's 排班 form shows before a change).
 * Rules: domain/shift-breaks.ts (times, windows), domain/shift-schedule.ts (rotation), commands/shifts/decider.ts.
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { assignShifts, changeShift, defineShift, overrideShift, removeOverride, type ShiftInput } from '../../commands/shifts/handlers.ts';
import type { ShiftDefinition } from '../../commands/shifts/decider.ts';
import { MAX_BREAK_WINDOWS } from '../../domain/shift-breaks.ts';
import { MAX_DAYS_EACH, MAX_ROTATION } from '../../domain/shift-schedule.ts';
import { listShifts, shiftCalendar, teamScheduleAsItIs } from '../../queries/shifts.ts';
import { localDate as todayIn } from '../../time.ts';
import { localDate } from '../dates.ts';
import { checkedRule } from '../json-schema.ts';
import { actorOf, defineRoute, type ErrorDoc } from '../route.ts';
import { CONCURRENT_MODIFICATION, NOT_IN_SCOPE, WHOLE_FACTORY_ONLY } from './error-docs.ts';

const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;
const time = (title: string) => z.string().regex(TIME_RE, { error: `${title}应为 HH:mm，例如 08:00` }).meta({ title, description: 'HH:mm，工厂时区的当地时间' });
const breakWindowInput = z.object({
  start: time('休息开始时间'),
  end: time('休息结束时间'),
  paid: z.boolean().meta({ title: '是否带薪', description: 'true：带薪休息，不扣除；默认 false（不带薪，从工作时间中扣除）' }).optional(),
});
const shiftBody = z.object({
  name: checkedRule(z.string().meta({ title: '班次名称', description: '1–30 个字，例如 白班、夜班' }), { minLength: 1, maxLength: 30 }),
  start: time('上班时间'),
  end: time('下班时间').describe('HH:mm；不晚于上班时间表示跨过午夜（相同表示 24 小时）'),
  breaks: z.array(breakWindowInput).max(MAX_BREAK_WINDOWS, { error: `休息时段最多 ${MAX_BREAK_WINDOWS} 个` }).meta({ title: '休息时段', description: '在班次时间内、互不重叠' }),
});

const breakWindow = z.object({ start: z.string(), end: z.string(), paid: z.boolean() });
const shiftSchema = z.object({ shiftId: z.string(), name: z.string(), start: z.string(), end: z.string(), breaks: z.array(breakWindow) });
const shiftAnswer = (s: ShiftDefinition) => ({ ...s, breaks: s.breaks.map((w) => ({ start: w.start, end: w.end, paid: w.paid === true })) });
const inputOf = (b: z.infer<typeof shiftBody>): ShiftInput => ({ name: b.name, start: b.start, end: b.end, breaks: b.breaks });

const INVALID_SHIFT: ErrorDoc = {
  status: 422,
  code: 'INVALID_SHIFT',
  description: '班次名称或时间不符合规则：details.problem 为 name / time / windowTime / windowEmpty / windowOutside / windowsOverlap / tooManyWindows，window 为休息时段序号（从 0 起）',
  details: z.object({ problem: z.string(), field: z.string().optional(), window: z.number().int().optional(), max: z.number().int().optional() }),
};
const SHIFT_NOT_FOUND: ErrorDoc = { status: 404, code: 'SHIFT_NOT_FOUND', description: '没有这个班次' };
const UNKNOWN_SHIFT: ErrorDoc = { status: 422, code: 'UNKNOWN_SHIFT', description: '所选班次不存在（details.shiftId）', details: z.object({ shiftId: z.string() }) };

/** 404 of a team's calendar route: no such team (part A's teams; the same answer as its routes give). */
const TEAM_NOT_FOUND: ErrorDoc = { status: 404, code: 'TEAM_NOT_FOUND', description: '没有这个班组（details.code）', details: z.object({ code: z.string() }) };

const DAY_SHIFT = { shiftId: '5b0c1c3e-8f43-4d2e-9a51-1f4a1e2b3c4d', name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '13:00', paid: false }] };

export const shiftListRoute = defineRoute({
  method: 'get',
  path: '/api/shifts',
  tag: 'shifts',
  summary: '班次列表（管理员、经理；含休息时段）',
  access: access.organization,
  response: z.object({ items: z.array(shiftSchema) }),
  example: { response: { items: [DAY_SHIFT] } },
  async handler(_, ctx) {
    return { items: (await listShifts(ctx.db.pool)).map(shiftAnswer) };
  },
});

export const shiftCreateRoute = defineRoute({
  method: 'post',
  path: '/api/shifts',
  tag: 'shifts',
  summary: '新建班次（管理员、经理）',
  description:
    '上班、下班和休息时段都是工厂时区的当地时间 HH:mm；下班时间不晚于上班时间表示跨过午夜（例如夜班 22:00–06:00，相同表示 24 小时）。' +
    '休息时段须在班次时间内、互不重叠；不带薪的休息时段与员工上下班时间重叠的分钟数就是报工单的休息时间（README“班次与休息”）。',
  access: access.organization,
  body: shiftBody,
  status: 201,
  response: shiftSchema,
  errors: [INVALID_SHIFT, WHOLE_FACTORY_ONLY],
  example: { body: { name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '13:00' }] }, response: DAY_SHIFT },
  async handler({ body, user, req }, ctx) {
    return shiftAnswer(await defineShift(ctx.commands, actorOf(user, req), inputOf(body)));
  },
});

export const shiftChangeRoute = defineRoute({
  method: 'put',
  path: '/api/shifts/:shiftId',
  tag: 'shifts',
  summary: '修改班次（管理员、经理；已提交的报工单保留原来的休息时间）',
  access: access.organization,
  params: z.object({ shiftId: z.string().max(64).meta({ title: '班次编号' }) }),
  body: shiftBody,
  response: shiftSchema,
  errors: [SHIFT_NOT_FOUND, INVALID_SHIFT, WHOLE_FACTORY_ONLY, CONCURRENT_MODIFICATION],
  example: {
    params: { shiftId: DAY_SHIFT.shiftId },
    body: { name: '白班', start: '08:00', end: '17:30', breaks: [{ start: '12:00', end: '13:00' }] },
    response: { ...DAY_SHIFT, end: '17:30' },
  },
  async handler({ params, body, user, req }, ctx) {
    return shiftAnswer(await changeShift(ctx.commands, actorOf(user, req), params.shiftId, inputOf(body)));
  },
});

const teamParams = z.object({ code: z.string().min(1).max(40).meta({ title: '班组编码' }) });

const assignmentSchema = z.object({
  validFrom: localDate,
  rotation: z.array(z.string().nullable()).describe('轮班顺序：班次编号，null 为休息日'),
  daysEach: z.number().int().describe('每个班次连续的天数'),
});

export const shiftAssignRoute = defineRoute({
  method: 'post',
  path: '/api/teams/:code/shift-assignments',
  tag: 'shifts',
  summary: '给班组排班（管理员、经理；从生效日期起，直到下一次排班）',
  description:
    '单一班次：rotation 只有一个班次编号。倒班：rotation 按顺序列出班次（null 为休息日），每个班次连续 daysEach 天，从 validFrom 起循环；' +
    '例如 ["早班","中班","夜班"] 的编号、daysEach 7 表示每周轮换一次。同一生效日期再次排班会替换该条。',
  access: access.organization,
  params: teamParams,
  body: z.object({
    validFrom: localDate.meta({ title: '生效日期', description: 'YYYY-MM-DD（工厂时区）' }),
    rotation: z
      .array(z.string().min(1).max(64).nullable().meta({ title: '班次编号' }))
      .min(1, { error: '轮班顺序至少要有一个班次' })
      .max(MAX_ROTATION, { error: `轮班顺序最多 ${MAX_ROTATION} 个` })
      .meta({ title: '轮班顺序', description: `班次编号（null 为休息日），1–${MAX_ROTATION} 个` }),
    daysEach: z
      .number({ error: '每班天数应为整数' })
      .int({ error: '每班天数应为整数' })
      .min(1, { error: `每班天数应为 1–${MAX_DAYS_EACH}` })
      .max(MAX_DAYS_EACH, { error: `每班天数应为 1–${MAX_DAYS_EACH}` })
      .meta({ title: '每班天数', description: `每个班次连续的天数，1–${MAX_DAYS_EACH}，默认 1` })
      .optional(),
  }),
  status: 201,
  response: assignmentSchema,
  errors: [
    TEAM_NOT_FOUND,
    UNKNOWN_SHIFT,
    NOT_IN_SCOPE,
    { status: 422, code: 'INVALID_ROTATION', description: '轮班顺序或每班天数不符合规则（不能全是休息日）', details: z.object({ field: z.enum(['rotation', 'daysEach']), max: z.number().int() }) },
    CONCURRENT_MODIFICATION,
  ],
  example: {
    params: { code: 'A1' },
    body: { validFrom: '2026-03-02', rotation: [DAY_SHIFT.shiftId], daysEach: 1 },
    response: { validFrom: '2026-03-02', rotation: [DAY_SHIFT.shiftId], daysEach: 1 },
  },
  async handler({ params, body, user, req }, ctx) {
    return assignShifts(ctx.commands, actorOf(user, req), params.code, { validFrom: body.validFrom, rotation: body.rotation, daysEach: body.daysEach ?? 1 });
  },
});

const overrideParams = teamParams.extend({ date: localDate.meta({ title: '日期', description: 'YYYY-MM-DD（工厂时区）' }) });

export const shiftOverrideRoute = defineRoute({
  method: 'put',
  path: '/api/teams/:code/shift-overrides/:date',
  tag: 'shifts',
  summary: '调整班组某一天的班次（管理员、经理；shiftId 为 null 表示休息）',
  access: access.organization,
  params: overrideParams,
  body: z.object({ shiftId: z.string().min(1).max(64).nullable().meta({ title: '班次编号', description: 'null：这天休息' }) }),
  errors: [TEAM_NOT_FOUND, UNKNOWN_SHIFT, NOT_IN_SCOPE, CONCURRENT_MODIFICATION],
  example: { params: { code: 'A1', date: '2026-03-07' }, body: { shiftId: null } },
  async handler({ params, body, user, req }, ctx) {
    await overrideShift(ctx.commands, actorOf(user, req), params.code, params.date, body.shiftId);
  },
});

export const shiftOverrideRemoveRoute = defineRoute({
  method: 'delete',
  path: '/api/teams/:code/shift-overrides/:date',
  tag: 'shifts',
  summary: '取消班组某一天的班次调整（管理员、经理；恢复按排班；没有调整时什么也不做）',
  access: access.organization,
  params: overrideParams,
  errors: [TEAM_NOT_FOUND, NOT_IN_SCOPE, CONCURRENT_MODIFICATION],
  example: { params: { code: 'A1', date: '2026-03-07' } },
  async handler({ params, user, req }, ctx) {
    await removeOverride(ctx.commands, actorOf(user, req), params.code, params.date);
  },
});

export const shiftCalendarRoute = defineRoute({
  method: 'get',
  path: '/api/teams/:code/shift-calendar',
  tag: 'shifts',
  summary: '班组某月的班次日历（管理员、经理；每天的班次及来源：排班、调整或无）',
  access: access.organization,
  params: teamParams,
  query: z.object({
    month: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: '月份应为 YYYY-MM，例如 2026-03' })
      .meta({ title: '月份', description: 'YYYY-MM（工厂时区）' }),
  }),
  errors: [TEAM_NOT_FOUND],
  response: z.object({
    items: z.array(
      z.object({
        date: localDate,
        shift: z.object({ shiftId: z.string(), name: z.string(), start: z.string(), end: z.string() }).nullable().describe('这天的班次；null 为休息或未排班'),
        source: z.enum(['assignment', 'override', 'none']).describe('assignment：按排班；override：当天调整；none：未排班'),
      }),
    ),
  }),
  example: {
    params: { code: 'A1' },
    query: { month: '2026-03' },
    response: { items: [{ date: '2026-03-01', shift: { shiftId: DAY_SHIFT.shiftId, name: '白班', start: '08:00', end: '17:00' }, source: 'assignment' }] },
  },
  async handler({ params, query }, ctx) {
    return { items: await shiftCalendar(ctx.db.pool, params.code, query.month) };
  },
});

export const shiftScheduleRoute = defineRoute({
  method: 'get',
  path: '/api/teams/:code/shift-schedule',
  tag: 'shifts',
  summary: '班组现行的排班和调整（管理员、经理；全部排班、今天生效的一条、今天起的调整）',
  description: '排班页在修改之前显示的内容：today 为服务所在工厂时区的今天；inForce 为今天生效的排班（没有时为 null）；overrides 只含今天及以后的调整。',
  access: access.organization,
  params: teamParams,
  errors: [TEAM_NOT_FOUND],
  response: z.object({
    today: localDate,
    assignments: z.array(assignmentSchema).describe('全部排班，按生效日期从早到晚'),
    inForce: assignmentSchema.nullable().describe('今天生效的排班；null：还没有排班，或只有以后生效的'),
    overrides: z.array(z.object({ date: localDate, shiftId: z.string().nullable().describe('这天的班次编号；null 为休息') })).describe('今天及以后的调整，按日期'),
  }),
  example: {
    params: { code: 'A1' },
    response: {
      today: '2026-03-20',
      assignments: [{ validFrom: '2026-03-02', rotation: [DAY_SHIFT.shiftId], daysEach: 1 }],
      inForce: { validFrom: '2026-03-02', rotation: [DAY_SHIFT.shiftId], daysEach: 1 },
      overrides: [{ date: '2026-03-21', shiftId: null }],
    },
  },
  async handler({ params }, ctx) {
    return teamScheduleAsItIs(ctx.db.pool, params.code, todayIn(ctx.clock.now(), ctx.config.timeZone));
  },
});

export const shiftRoutes = [
  shiftListRoute,
  shiftCreateRoute,
  shiftChangeRoute,
  shiftAssignRoute,
  shiftOverrideRoute,
  shiftOverrideRemoveRoute,
  shiftCalendarRoute,
  shiftScheduleRoute,
];
