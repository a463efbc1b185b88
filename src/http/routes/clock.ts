/**
 * Clocking endpoints (spec 3.1, 4.5; decisions.md "Clocking", "Device codes"), workers only, own data only.
 * - GET /api/clock/state?deviceNo= (or deviceKey=) → {label, deviceNo, sessionId?, clockInAt?, expiresAt?}
 * - POST /api/clock/start | /switch-device {deviceNo | deviceKey} → {sessionId, clockInAt, devices, label}
 * - POST /api/clock/finish {deviceNo | deviceKey} → {sessionId, clockInAt, clockOutAt, expiresAt, devices, label}
 * Timestamps are ISO 8601 with the offset of APP_TIMEZONE. The worker is the token's person.
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import { finishClock, startClock, switchDevice } from '../../commands/clock/handlers.ts';
import { ALL_LABELS } from '../../domain/labels.ts';
import { clockState } from '../../queries/clock-state.ts';
import { instant, zonedIso as iso } from '../dates.ts';
import { checkedRule } from '../json-schema.ts';
import { actorOf, defineRoute, type ErrorDoc } from '../route.ts';
import { CLOCK_STATE_CONFLICT, CONCURRENT_MODIFICATION, DEVICE_NOT_FOUND } from './error-docs.ts';

/**
 * A scanned device: its number (exact string, spaces and Chinese allowed) or the short key of its code, exactly one
 * of them (422 VALIDATION_FAILED otherwise; the document says `oneOf`).
 */
export const deviceRefSchema = checkedRule(
  z
    .object({
      deviceNo: z.string().min(1).max(200).optional().meta({ title: '设备编号', description: '设备码 scene 为 deviceNo=… 时，解码后的设备编号（原样，可含空格和中文）' }),
      deviceKey: z.string().min(1).max(64).optional().meta({ title: '设备短码', description: '设备码 scene 为 d=… 时的短码' }),
    })
    .superRefine((v, ctx) => {
      if (v.deviceNo === undefined && v.deviceKey === undefined) ctx.addIssue({ code: 'custom', message: '请扫描设备码：需要设备编号或设备短码' });
      else if (v.deviceNo !== undefined && v.deviceKey !== undefined) ctx.addIssue({ code: 'custom', message: '设备编号和设备短码只能提供一个' });
    }),
  { oneOf: [{ required: ['deviceNo'] }, { required: ['deviceKey'] }] },
);

const labelSchema = z.enum(ALL_LABELS).describe('唯一的操作标签（接口文档 3.1）');

const CLOCK_ERRORS: ErrorDoc[] = [DEVICE_NOT_FOUND, CLOCK_STATE_CONFLICT, CONCURRENT_MODIFICATION];


export const clockStateRoute = defineRoute({
  method: 'get',
  path: '/api/clock/state',
  tag: 'clock',
  summary: '扫码后的操作标签（开始上班/换设备/下班报工/继续报工/重新报工，只返回一个）',
  access: access.worker,
  personCheckedByHandler: true,
  lean: true,
  query: deviceRefSchema,
  response: z.object({
    label: labelSchema,
    deviceNo: z.string().describe('扫描的设备编号'),
    sessionId: z.string().optional().describe('进行中的上班记录（有时给出）'),
    clockInAt: instant.optional().describe('进行中的上班记录的上班时间（与 sessionId 一同给出；小程序在确认下班报工、重新报工时显示）'),
    expiresAt: instant.optional().describe('继续报工、重新报工：报工单填写截止时间'),
    stop: z
      .object({
        stopId: z.string(),
        reasonCode: z.string(),
        reasonName: z.string(),
        category: z.enum(['planned', 'unplanned']).nullable(),
        startAt: instant,
      })
      .optional()
      .describe('设备正在停机时给出：停机原因和开始时间（小程序显示停机分钟数和“恢复生产”）'),
  }),
  errors: [DEVICE_NOT_FOUND],
  example: {
    query: { deviceNo: '冲床 01' },
    response: { label: '下班报工', deviceNo: '冲床 01', sessionId: '0b6f1f0e-3c1a-4d6e-9a57-2f1d2c3b4a59', clockInAt: '2026-03-02T08:00:12+08:00' },
  },
  async handler({ query, user }, ctx) {
    const s = await clockState(ctx.db.reads, ctx.clockSettings, ctx.clock.now(), user, query);
    return {
      label: s.label,
      deviceNo: s.deviceNo,
      ...(s.sessionId ? { sessionId: s.sessionId } : {}),
      ...(s.clockInAt ? { clockInAt: iso(ctx, s.clockInAt) } : {}),
      ...(s.expiresAt ? { expiresAt: iso(ctx, s.expiresAt) } : {}),
      ...(s.stopped ? { stop: { ...s.stopped, startAt: iso(ctx, s.stopped.startAt) } } : {}),
    };
  },
});

const sessionAnswer = z.object({
  sessionId: z.string(),
  clockInAt: instant,
  devices: z.array(z.string()).describe('本次上班用过的设备，按出现顺序'),
  label: labelSchema.describe('此刻再扫同一台设备得到的标签'),
});

const SESSION_EXAMPLE = {
  sessionId: '0b6f1f0e-3c1a-4d6e-9a57-2f1d2c3b4a59',
  clockInAt: '2026-03-02T08:00:00+08:00',
  devices: ['冲床 01', 'K-12'],
};

function sessionRoute(path: string, summary: string, run: typeof startClock, example: { body: unknown; response: unknown }) {
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
    errors: CLOCK_ERRORS,
    example,
    async handler({ body, user, req }, ctx) {
      const s = await run(ctx, actorOf(user, req), body);
      return { sessionId: s.sessionId, clockInAt: iso(ctx, s.clockInAt), devices: s.devices, label: s.label };
    },
  });
}

export const clockStartRoute = sessionRoute('/api/clock/start', '开始上班', startClock, {
  body: { deviceNo: '冲床 01' },
  response: { ...SESSION_EXAMPLE, devices: ['冲床 01'], label: '下班报工' },
});
export const clockSwitchRoute = sessionRoute('/api/clock/switch-device', '换设备（把扫描的设备加入本次上班）', switchDevice, {
  body: { deviceKey: 'Qm7x2LpA0c' },
  response: { ...SESSION_EXAMPLE, label: '下班报工' },
});

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
  errors: CLOCK_ERRORS,
  example: {
    body: { deviceNo: 'K-12' },
    response: { ...SESSION_EXAMPLE, clockOutAt: '2026-03-02T17:00:00+08:00', expiresAt: '2026-03-02T17:30:00+08:00', label: '继续报工' },
  },
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
