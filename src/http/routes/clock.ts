/**
 * Clocking endpoints (spec 3.1, 4.5; decisions.md "Clocking", "Device codes"), workers only, own data only.
 * - GET /api/clock/state?deviceNo= (or deviceKey=) → {label, deviceNo, sessionId?, expiresAt?}
 * - POST /api/clock/start | /switch-device {deviceNo | deviceKey} → {sessionId, clockInAt, devices, label}
 * - POST /api/clock/finish {deviceNo | deviceKey} → {sessionId, clockInAt, clockOutAt, expiresAt, devices, label}
 * Timestamps are ISO 8601 with the offset of APP_TIMEZONE. The worker is the token's person.
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { finishClock, startClock, switchDevice } from '../../commands/clock/handlers.ts';
import { ALL_LABELS } from '../../domain/labels.ts';
import { clockState } from '../../queries/clock-state.ts';
import { zonedIso as iso } from '../dates.ts';
import { actorOf, defineRoute, type ErrorDoc } from '../route.ts';

/** A scanned device: its number (exact string, spaces and Chinese allowed) or the short key of its code. */
export const deviceRefSchema = z
  .object({
    deviceNo: z
      .string({ error: '设备编号应为文字' })
      .min(1, '设备编号不能为空')
      .max(200, '设备编号过长')
      .optional()
      .describe('设备编号（原样，可含空格和中文）'),
    deviceKey: z
      .string({ error: '设备码应为文字' })
      .min(1, '设备码不能为空')
      .max(64, '设备码过长')
      .optional()
      .describe('设备码中的短码（scene d=<短码>）'),
  })
  .refine((v) => v.deviceNo !== undefined || v.deviceKey !== undefined, { message: '请扫描设备码（需要 deviceNo 或 deviceKey）' });

const labelSchema = z.enum(ALL_LABELS).describe('唯一的操作标签（接口文档 3.1）');
const instant = z.string().describe('ISO 8601，带 APP_TIMEZONE 时区偏移');

const DEVICE_ERRORS: ErrorDoc[] = [{ status: 404, code: 'DEVICE_NOT_FOUND', description: '没有产品使用这台设备（设备码无效）' }];
const CONFLICT: ErrorDoc = {
  status: 409,
  code: 'CLOCK_STATE_CONFLICT',
  description: '操作与当前状态不符；details.label 是当前应点击的标签，details.sessionId 是相关的上班记录',
};


export const clockStateRoute = defineRoute({
  method: 'get',
  path: '/api/clock/state',
  tag: 'clock',
  summary: '扫码后的操作标签（开始上班/换设备/下班报工/继续报工/重新报工，只返回一个）',
  access: access.worker,
  personCheckedByHandler: true,
  lean: true,
  query: deviceRefSchema,
  response: z.object({ label: labelSchema, deviceNo: z.string(), sessionId: z.string().optional(), expiresAt: instant.optional() }),
  errors: DEVICE_ERRORS,
  async handler({ query, user }, ctx) {
    const s = await clockState(ctx.db.pool, ctx.clockSettings, ctx.clock.now(), user, query);
    return {
      label: s.label,
      deviceNo: s.deviceNo,
      ...(s.sessionId ? { sessionId: s.sessionId } : {}),
      ...(s.expiresAt ? { expiresAt: iso(ctx, s.expiresAt) } : {}),
    };
  },
});

const sessionAnswer = z.object({
  sessionId: z.string(),
  clockInAt: instant,
  devices: z.array(z.string()).describe('本次上班用过的设备，按出现顺序'),
  label: labelSchema.describe('此刻再扫同一台设备得到的标签'),
});

function sessionRoute(path: string, summary: string, run: typeof startClock) {
  return defineRoute({
    method: 'post',
    path,
    tag: 'clock',
    summary,
    description: '重复同一操作（双击、弱网重试）不会重复记录，返回与第一次相同的结果。',
    access: access.worker,
    personCheckedByHandler: true,
    lean: true,
    body: deviceRefSchema,
    response: sessionAnswer,
    errors: [...DEVICE_ERRORS, CONFLICT],
    async handler({ body, user, req }, ctx) {
      const s = await run(ctx, actorOf(user, req), body);
      return { sessionId: s.sessionId, clockInAt: iso(ctx, s.clockInAt), devices: s.devices, label: s.label };
    },
  });
}

export const clockStartRoute = sessionRoute('/api/clock/start', '开始上班', startClock);
export const clockSwitchRoute = sessionRoute('/api/clock/switch-device', '换设备（把扫描的设备加入本次上班）', switchDevice);

export const clockFinishRoute = defineRoute({
  method: 'post',
  path: '/api/clock/finish',
  tag: 'clock',
  summary: '下班报工；填写时限已过时即“重新报工”（下班时间更新为现在，重新计时）',
  description: '在填写时限内重复调用返回同一个时限；重复操作不会重复记录。',
  access: access.worker,
  personCheckedByHandler: true,
  lean: true,
  body: deviceRefSchema,
  response: sessionAnswer.extend({ clockOutAt: instant, expiresAt: instant.describe('报工单填写截止时间') }),
  errors: [...DEVICE_ERRORS, CONFLICT],
  async handler({ body, user, req }, ctx) {
    const s = await finishClock(ctx, actorOf(user, req), body);
    return {
      sessionId: s.sessionId,
      clockInAt: iso(ctx, s.clockInAt),
      clockOutAt: iso(ctx, s.clockOutAt),
      expiresAt: iso(ctx, s.expiresAt),
      devices: s.devices,
      label: s.label,
    };
  },
});

export const clockRoutes = [clockStateRoute, clockStartRoute, clockSwitchRoute, clockFinishRoute];
