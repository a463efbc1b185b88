/**
 * Stop reasons (停机原因; domain/stop-reasons.ts, commands/stop-reasons/decider.ts): the reason-list routes
 * (./reason-list.ts) at `/api/stop-reasons`; 409 STOP_REASON_EXISTS, 404 STOP_REASON_NOT_FOUND, 422
 * INVALID_STOP_REASON. The category decides where the OEE read counts a stop (domain/oee.ts).
 */
import { changeStopReason, defineStopReason } from '../../commands/stop-reasons/handlers.ts';
import { STOP_CATEGORIES, STOP_REASON_CODE_MAX, STOP_REASON_CODE_RE, STOP_REASON_NAME_MAX } from '../../domain/stop-reasons.ts';
import { listStopReasons } from '../../queries/stop-reasons.ts';
import { reasonCodeSchema, reasonListRoutes, type ReasonListRouteSpec } from './reason-list.ts';
import type { StopCategory } from '../../domain/stop-reasons.ts';

const spec: ReasonListRouteSpec<StopCategory> = {
  path: '/api/stop-reasons',
  tag: 'stops',
  label: '停机原因',
  categories: STOP_CATEGORIES,
  categoryDescription: 'planned 计划停机（换模、保养、培训、会议：不计入计划生产时间）；unplanned 非计划停机（设备故障、待料、质量问题、停电：计入可用率损失）',
  nameExamples: '换模、设备故障',
  chosenWhen: '记录停机时',
  createDescription: '类别决定设备效率中停机的算法：计划停机不计入计划生产时间，非计划停机计入可用率损失。停机按原因当前的类别统计。',
  changeDescription: '不填的字段不变。用过的停机原因只能停用（active=false），不能删除：停用后不能再选，已记录的停机照旧。',
  codeRe: STOP_REASON_CODE_RE,
  codeMax: STOP_REASON_CODE_MAX,
  nameMax: STOP_REASON_NAME_MAX,
  errors: { invalid: 'INVALID_STOP_REASON', exists: 'STOP_REASON_EXISTS', notFound: 'STOP_REASON_NOT_FOUND' },
  examples: [
    { code: 'CHG', name: '换模', category: 'planned', active: true },
    { code: 'BRK', name: '设备故障', category: 'unplanned', active: true },
  ],
  list: listStopReasons,
  define: defineStopReason,
  change: changeStopReason,
};

/** A stop reason's code with its Chinese sentence (the stops' routes name one). */
export const stopReasonCode = reasonCodeSchema(spec);
export const stopReasonRoutes = reasonListRoutes(spec);
