/**
 * Defect reasons (不良原因; domain/defect-reasons.ts, commands/defect-reasons/decider.ts): the reason-list routes
 * (./reason-list.ts) at `/api/defect-reasons`; 409 DEFECT_REASON_EXISTS, 404 DEFECT_REASON_NOT_FOUND, 422
 * INVALID_DEFECT_REASON. The category decides the pay of the pieces a line names the reason for.
 */
import { changeDefectReason, defineDefectReason } from '../../commands/defect-reasons/handlers.ts';
import { DEFECT_CATEGORIES, DEFECT_REASON_CODE_MAX, DEFECT_REASON_CODE_RE, DEFECT_REASON_NAME_MAX } from '../../domain/defect-reasons.ts';
import { listDefectReasons } from '../../queries/defect-reasons.ts';
import { reasonListRoutes } from './reason-list.ts';

export const defectReasonRoutes = reasonListRoutes({
  path: '/api/defect-reasons',
  tag: 'defect-reasons',
  label: '不良原因',
  categories: DEFECT_CATEGORIES,
  categoryDescription: 'operator 工废（工人造成，按不良单价计）；material 料废（材料造成，按料废单价计）；other 其他（设备、调机、不明，按不良单价计）',
  nameExamples: '划伤、材料裂纹',
  chosenWhen: '报工时',
  createDescription: '类别决定工资：工废和其他按产品的不良单价计，料废按料废单价计。已有报工单记录了当时的类别，以后改类别不会改变已计的工资。',
  changeDescription: '不填的字段不变。用过的不良原因只能停用（active=false），不能删除：停用后报工时不能再选，已记录的报工单照旧。',
  codeRe: DEFECT_REASON_CODE_RE,
  codeMax: DEFECT_REASON_CODE_MAX,
  nameMax: DEFECT_REASON_NAME_MAX,
  errors: { invalid: 'INVALID_DEFECT_REASON', exists: 'DEFECT_REASON_EXISTS', notFound: 'DEFECT_REASON_NOT_FOUND' },
  examples: [
    { code: 'SCR', name: '划伤', category: 'operator', active: true },
    { code: 'CRK', name: '材料裂纹', category: 'material', active: true },
  ],
  list: listDefectReasons,
  define: defineDefectReason,
  change: changeDefectReason,
});
