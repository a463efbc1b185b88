/**
 * The report line (spec 2.4; decisions.md "Reports and review"), defined once: the product fields a line copies
 * at submission (the product snapshot, so that later product edits never rewrite a report) and the quantities.
 * The event payloads (events/catalog.ts), the types, the API's answer schemas (http/routes) and the SQL that
 * reads and checks snapshots (products/snapshot.ts) all derive from these fields.
 *
 * Units: standard cycle time (标准节拍) in seconds (up to 3 decimals), standard workload (标准工作量) in pieces
 * per 8-hour day, quantities in whole pieces.
 */
import { z } from 'zod';
import { defectCategorySchema, type DefectCategory } from './defect-reasons.ts';

/** Upper bound of one quantity, pieces: far above a day's output, low enough to catch a slipped finger. */
export const MAX_QTY = 10_000_000;
/** Most lines one report may have. */
export const MAX_LINES = 200;

const qty = z.number().int().min(0);

/** The product fields a line copies, each with its schema (the key order is the answer's field order). */
export const productSnapshotFields = {
  productId: z.number().int().describe('产品编号'),
  projectNo: z.string().describe('项目号'),
  productName: z.string().describe('产品名称'),
  deviceNo: z.string().describe('使用设备'),
  processName: z.string().describe('工序'),
  standardCycleSeconds: z.number().positive().describe('标准节拍（秒），提交时复制'),
  standardWorkload: z.number().int().min(0).describe('标准工作量（件/天），提交时复制'),
};

/** The quantities of a line, pieces. */
export const quantityFields = {
  finishedQty: qty.describe('成品数量'),
  defectiveQty: qty.describe('不良数量（报废计入不良）'),
  outputQty: qty.describe('产出数量 = 成品 + 不良'),
};

/**
 * Why some of a line's defective pieces were lost (domain/defect-reasons.ts): the reason, its pieces (≥ 1) and the
 * reason's category when the line was recorded, so a later recategorisation never reprices the line. Distinct
 * reasons summing to at most `defectiveQty`; the pieces left are 未注明. Absent on lines recorded without reasons.
 */
export const lineDefectSchema = z.object({
  reasonCode: z.string().describe('不良原因编码'),
  qty: z.number().int().min(1).describe('该原因的不良数量'),
  category: defectCategorySchema.describe('记录时该原因的类别：operator 工废、material 料废、other 其他'),
});

/**
 * A member's share of a crew line (班组报工; domain/crew-split.ts), recorded with the line when it is submitted (and
 * when a reviewer corrects it), so a later change of coefficients never reprices the past: the member, their whole
 * seconds on the line's device inside the submitter's session window and the first instant there (the tie-break),
 * the coefficient (系数, e.g. 1.2) on the report date, the weight the split used (seconds, seconds × coefficient or 1
 * by CREW_SPLIT; at most 2 decimals) and the pieces. The shares' pieces sum exactly to the line's.
 */
export const crewShareSchema = z.object({
  phone: z.string().describe('组员手机号'),
  name: z.string().nullable().describe('组员姓名（提交时）'),
  clockInAt: z.string().describe('在提交人上班时段内最早上该设备的时刻（并列时先上机者优先）'),
  seconds: z.number().int().min(0).describe('提交人上班时段内在该设备上的秒数'),
  coefficient: z.number().describe('报工日期的系数（如 1.2）'),
  weight: z.number().min(0).describe('分配权重：按 CREW_SPLIT 为在机秒数、秒数 × 系数或 1'),
  finishedQty: z.number().int().min(0).describe('分得的成品数量'),
  defectiveQty: z.number().int().min(0).describe('分得的不良数量'),
});
/** A recorded share of a crew line. */
export type CrewShareRecord = z.infer<typeof crewShareSchema>;

export const productSnapshotSchema = z.object(productSnapshotFields);
export const reportLineSchema = z.object({
  ...productSnapshotFields,
  ...quantityFields,
  defects: z.array(lineDefectSchema).optional().describe('不良原因（未填原因的不良为“未注明”）；没有时省略'),
  /** The work order the line counts toward (domain/work-orders.ts); absent: none (also every line written before orders). */
  workOrderNo: z.string().optional().describe('工单号；不属于任何工单时省略'),
  shares: z.array(crewShareSchema).optional().describe('班组报工：各组员分得的份额（合计等于本行数量）；不是班组报工时省略'),
});
/** One reason of a line, as recorded. */
export type LineDefect = z.infer<typeof lineDefectSchema>;

/** The product fields a line copies (from `products` when the line is written). */
export type ProductSnapshot = z.infer<typeof productSnapshotSchema>;
/** A line as stored in a report: the product snapshot and the quantities. */
export type ReportLine = z.infer<typeof reportLineSchema>;
export type SnapshotField = keyof ProductSnapshot;

/** A line as a worker submits it (or an administrator corrects it): the product and its quantities. */
export interface LineInput {
  productId: number;
  finishedQty: number;
  defectiveQty: number;
  /** finished + defective; computed when omitted. */
  outputQty?: number;
  /**
   * The reasons of the defective pieces `{reasonCode, qty}`; omitted: none (a correction keeps the line's
   * recorded reasons, commands/report-lines.ts).
   */
  defects?: { reasonCode: string; qty: number }[];
  /**
   * The work order the line counts toward; omitted: none at submission, and at a correction the order the report's
   * line of that product names (kept); null: none.
   */
  workOrderNo?: string | null;
  /**
   * Crew work: the members' phones (the submitter included) of a crew line (domain/crew-split.ts); omitted: a line of
   * the submitter alone (a correction keeps the recorded crew).
   */
  crew?: string[];
}

/** The pieces of a line by category: 工废, 料废, 其他 and 未注明 (defective pieces without a reason). */
export interface DefectSplit {
  readonly operator: number;
  readonly material: number;
  readonly other: number;
  readonly unexplained: number;
}

/** The split of `defectiveQty` by the categories of `defects` (the pieces without a reason are 未注明). */
export function defectSplit(defectiveQty: number, defects: readonly { qty: number; category: DefectCategory }[] | undefined): DefectSplit {
  const by = { operator: 0, material: 0, other: 0 };
  for (const d of defects ?? []) by[d.category] += d.qty;
  return { ...by, unexplained: defectiveQty - by.operator - by.material - by.other };
}

/** A standard cycle time in thousandths of a second, exact (the catalog allows at most 3 decimals). */
export const cycleMilli = (seconds: number): number => Math.round(seconds * 1000);

/** The snapshot part of `line`. */
export const snapshotOf = (line: ProductSnapshot): ProductSnapshot => {
  const out = {} as Record<SnapshotField, unknown>;
  for (const f of Object.keys(productSnapshotFields) as SnapshotField[]) out[f] = line[f];
  return out as ProductSnapshot;
};

/**
 * Who counts what of a line (班组报工: decisions.md, crew work): a crew line (one with `shares`) counts each member's
 * share (whole pieces, summing exactly to the line), any other line counts whole for its submitter. Every figure of a
 * person (dashboard, quality by worker, wages, 我的报工) takes a line's pieces through this rule.
 */
export function countedPieces(l: Pick<ReportLine, 'finishedQty' | 'defectiveQty' | 'shares'>, submitter: string): { phone: string; finishedQty: number; defectiveQty: number }[] {
  if (!l.shares) return [{ phone: submitter, finishedQty: l.finishedQty, defectiveQty: l.defectiveQty }];
  return l.shares.map((x) => ({ phone: x.phone, finishedQty: x.finishedQty, defectiveQty: x.defectiveQty }));
}

/** The pieces of `l` that count for `phone` (countedPieces), or undefined when none do. */
export const piecesOf = (l: Pick<ReportLine, 'finishedQty' | 'defectiveQty' | 'shares'>, submitter: string, phone: string) =>
  countedPieces(l, submitter).find((x) => x.phone === phone);

/**
 * What a correction may change of a line, as one comparable text: its quantities, its defect reasons (in any order,
 * with their recorded categories), its work order and its crew's shares. Two lines of a product say the same when
 * their keys are equal (the review's "no correction", the audit trail's changed lines).
 */
export function lineContentKey(l: ReportLine): string {
  const reasons = (l.defects ?? []).map((d) => `${d.reasonCode}=${d.qty}/${d.category}`).sort().join(',');
  const shares = (l.shares ?? []).map((x) => `${x.phone}=${x.finishedQty}/${x.defectiveQty}`).join(',');
  return `${l.finishedQty}:${l.defectiveQty}:${l.outputQty}:${reasons}:${l.workOrderNo ?? ''}:${shares}`;
}
