/**
 * Defect reasons (不良原因) as the console shows them: the categories' Chinese names (工废 the worker's doing, 料废 the
 * material's, 其他 machine / setup / unknown; the service's rule in domain/defect-reasons.ts), the factory's reasons
 * read once per page from GET /api/defect-reasons (codes → current names, inactive ones too, since old lines name
 * them; pages show reasons once `settled`, so that a line never flashes the codes first), and a report line's reasons as parts: each reason with its category and pieces, then 未注明 for the
 * defective pieces without a reason (defectiveQty − the reasons' sum; never negative, the service checks the sum).
 */
import { reactive } from 'vue';
import { api, unwrap } from './api/client';
import type { DefectCategory, DefectReason, QualityGroup } from './api/types';

export const CATEGORY_LABELS: Record<DefectCategory, string> = { operator: '工废', material: '料废', other: '其他' };
/** What each category means for pay, as the reason dialog and the rate dialog explain it. */
export const CATEGORY_HINTS: Record<DefectCategory, string> = {
  operator: '工人造成，按不良单价计',
  material: '材料造成，按料废单价计',
  other: '设备、调机、不明等，按不良单价计',
};
export const CATEGORY_TAGS: Record<DefectCategory, 'danger' | 'warning' | 'info'> = { operator: 'danger', material: 'warning', other: 'info' };
export const CATEGORIES: DefectCategory[] = ['operator', 'material', 'other'];
/** The label of 未注明 (pieces without a reason), as the service names that group in the Pareto. */
export const UNEXPLAINED = '未注明';

/** The groupings of the 质量 page, in the order offered (the service's `groupBy` values). */
export const GROUP_LABELS: Record<QualityGroup, string> = {
  reason: '不良原因',
  category: '类别',
  product: '产品',
  device: '设备',
  team: '班组',
  worker: '员工',
  workOrder: '工单',
};

/** The factory's reasons (all, inactive too); `loaded` once read; `settled` once the first read answered (or failed). */
export const reasons = reactive<{ items: DefectReason[]; loaded: boolean; settled: boolean }>({ items: [], loaded: false, settled: false });

/** Reads the reasons (again when `force`); a failure leaves the list as it was (lines then show the codes). */
export async function loadReasons(force = false): Promise<void> {
  if (reasons.loaded && !force) return;
  try {
    reasons.items = (await unwrap(api.GET('/api/defect-reasons', { params: { query: {} } }))).items;
    reasons.loaded = true;
  } catch {
    // kept as it was
  } finally {
    reasons.settled = true;
  }
}

/** The current name of reason `code`, or the code when it is not known here. */
export const reasonName = (code: string): string => reasons.items.find((r) => r.code === code)?.name ?? code;

export interface DefectPart {
  /** The reason's code; null for 未注明. */
  code: string | null;
  name: string;
  category: DefectCategory | null;
  qty: number;
}

/** A line's reasons and then its 未注明 pieces (module docstring); [] for a line without defective pieces. */
export function defectParts(line: { defectiveQty: number; defects?: { reasonCode: string; qty: number; category: DefectCategory }[] }): DefectPart[] {
  const parts: DefectPart[] = (line.defects ?? []).map((d) => ({ code: d.reasonCode, name: reasonName(d.reasonCode), category: d.category, qty: d.qty }));
  const rest = line.defectiveQty - parts.reduce((s, p) => s + p.qty, 0);
  if (rest > 0) parts.push({ code: null, name: UNEXPLAINED, category: null, qty: rest });
  return parts;
}

/** `划伤（工废）2、材料裂纹（料废）3、未注明 1`: a line's parts in words. */
export const partsText = (parts: DefectPart[]): string =>
  parts.map((p) => (p.category ? `${p.name}（${CATEGORY_LABELS[p.category]}）${p.qty}` : `${p.name} ${p.qty}`)).join('、');
