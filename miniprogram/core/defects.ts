/**
 * Defect reasons (不良原因) as the phone shows and takes them (decisions.md "不良原因"; the service checks
 * everything again, src/commands/report-lines.ts). Plain TypeScript, no `wx`.
 *
 * - A reason is `{code, name, category}`, category `operator` 工废 (the worker's doing), `material` 料废 (the
 *   material's) or `other` 其他; a line names each reason once with a whole number of pieces ≥ 1, summing to at
 *   most its 不良 (the pieces left are 未注明).
 * - The order of the reasons on the 报工单 (`orderReasons`): the service gives no usage order, so the reasons this
 *   worker named most often on that product (counted on this phone: platform/defect-use-store.ts, one count per
 *   submitted line naming the reason) come first; the rest, and ties, by category (工废, 料废, 其他) then code.
 * - What a line says of its reasons: `已注明 5 / 不良 6` while typing (`defectInfo`), `划伤（工废）2、材料裂纹（料废）3、
 *   未注明 1` on the reviewer's page (`defectsText`), `工废 2 件（划伤 2）` on 我的工资 (`wageSplitText`).
 */

/** The categories, in the order the phone lists them. */
export const CATEGORIES = ['operator', 'material', 'other'] as const;
export type Category = (typeof CATEGORIES)[number];

/** The Chinese name of each category. */
export const CATEGORY_NAMES: Record<Category, string> = { operator: '工废', material: '料废', other: '其他' };

/** A reason as `GET /api/defect-reasons` answers it. */
export interface Reason {
  code: string;
  name: string;
  category: Category;
  active?: boolean;
}

/** A reason on a form: the reason, its category's name, and the pieces as typed ('' for none). */
export interface ReasonQty {
  code: string;
  name: string;
  category: Category;
  categoryName: string;
  qty: string;
}

/** How often this worker named each reason on a product (reason code → lines naming it). */
export type ReasonUse = Record<string, number>;

const rank = (c: string) => {
  const i = (CATEGORIES as readonly string[]).indexOf(c);
  return i < 0 ? CATEGORIES.length : i;
};

/** `reasons` in the order the 报工单 lists them (module docstring); a new array. */
export function orderReasons<R extends Reason>(reasons: readonly R[], use?: ReasonUse): R[] {
  const used = (r: R) => (use && typeof use[r.code] === 'number' ? use[r.code] : 0);
  return reasons.slice().sort((a, b) => used(b) - used(a) || rank(a.category) - rank(b.category) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/** `reasons` as blank form entries. */
export const reasonInputs = (reasons: readonly Reason[]): ReasonQty[] =>
  reasons.map((r) => ({ code: r.code, name: r.name, category: r.category, categoryName: CATEGORY_NAMES[r.category] ?? '其他', qty: '' }));

/** A typed number of pieces: blank is 0; a whole number of at most 8 digits; undefined otherwise. */
function piecesOf(text: string): number | undefined {
  const t = (text ?? '').trim();
  if (t === '') return 0;
  return /^\d{1,8}$/.test(t) ? Number(t) : undefined;
}

/** The pieces typed for `reasons`, counting a quantity that is not a whole number as 0. */
export const typedSum = (reasons: readonly { qty: string }[]): number => reasons.reduce((s, r) => s + (piecesOf(r.qty) ?? 0), 0);

/** What a row of the form shows of its reasons (the 报工单 and the correction). */
export interface DefectInfo {
  /** Whether the reasons are shown: there are reasons to pick and 不良 > 0 (or a reason has pieces). */
  show: boolean;
  /** `已注明 5 / 不良 6（1 件未注明）`, `已注明 7 / 不良 6：多了 1 件，请核对`, `已注明 6 / 不良 6`. */
  text: string;
  /** The reasons cover more pieces than 不良. */
  over: boolean;
}

/** What a row with `defective` typed and `reasons` shows (see DefectInfo). */
export function defectInfo(defective: string, reasons: readonly { qty: string }[]): DefectInfo {
  const bad = piecesOf(defective) ?? 0;
  const sum = typedSum(reasons);
  const show = reasons.length > 0 && (bad > 0 || sum > 0);
  const tail = sum > bad ? `：多了 ${sum - bad} 件，请核对` : sum < bad ? `（${bad - sum} 件未注明）` : '';
  return { show, text: `已注明 ${sum} / 不良 ${bad}${tail}`, over: sum > bad };
}

/** The problem sentence of a row whose reasons cover more pieces than its 不良 (checked before sending). */
export const overSumProblem = (product: string, sum: number, defective: number) =>
  `“${product}”的不良原因合计 ${sum} 件，超过了不良数量 ${defective} 件，请核对`;

/**
 * A line's recorded reasons as the reviewer reads them: `划伤（工废）2、材料裂纹（料废）3、未注明 1`; `未注明 6` for
 * defective pieces without any reason; '' for a line without defective pieces. `names`: code → the reason's name
 * (the code itself when unknown); the category is the one recorded with the line.
 */
export function defectsText(defectiveQty: number, defects: readonly { reasonCode: string; qty: number; category: string }[] | undefined, names: Record<string, string>): string {
  if (defectiveQty === 0 && !(defects ?? []).length) return '';
  const parts = (defects ?? []).map((d) => `${names[d.reasonCode] ?? d.reasonCode}（${CATEGORY_NAMES[d.category as Category] ?? d.category}）${d.qty}`);
  const unexplained = defectiveQty - (defects ?? []).reduce((s, d) => s + d.qty, 0);
  if (unexplained > 0) parts.push(`未注明 ${unexplained}`);
  return parts.join('、');
}

/** The fields of a wage statement line that split its 不良 (`GET /api/wages/mine`). */
export interface WageSplit {
  defectiveQty: number;
  defects?: readonly { reasonName: string; category: string; qty: number }[];
  operatorDefectQty?: number;
  materialDefectQty?: number;
  otherDefectQty?: number;
  unexplainedDefectQty?: number;
}

/**
 * A statement line's 不良 by category as 我的工资 shows it: `工废 2 件（划伤 2），料废 3 件（材料裂纹 3），未注明 1 件`;
 * '' for a line recorded without reasons (its 不良 are all priced at the 不良单价, as before reasons existed).
 */
export function wageSplitText(l: WageSplit): string {
  const defects = l.defects ?? [];
  if (!defects.length) return '';
  const qty: Record<Category, number | undefined> = { operator: l.operatorDefectQty, material: l.materialDefectQty, other: l.otherDefectQty };
  const parts: string[] = [];
  for (const c of CATEGORIES) {
    const n = qty[c] ?? 0;
    if (n <= 0) continue;
    const named = defects.filter((d) => d.category === c).map((d) => `${d.reasonName} ${d.qty}`);
    parts.push(`${CATEGORY_NAMES[c]} ${n} 件${named.length ? `（${named.join('、')}）` : ''}`);
  }
  if ((l.unexplainedDefectQty ?? 0) > 0) parts.push(`未注明 ${l.unexplainedDefectQty} 件`);
  return parts.join('，');
}

/** `use` with one more use of each of `codes` (a submitted line naming them); a new object. */
export function withUse(use: ReasonUse | undefined, codes: readonly string[]): ReasonUse {
  const next: ReasonUse = { ...(use ?? {}) };
  for (const c of codes) next[c] = (typeof next[c] === 'number' ? next[c] : 0) + 1;
  return next;
}

/**
 * The sentence of a refusal that names a line (`details.line`, 1-based over the lines sent) with that line's
 * product in front: `“前围横梁”：第 1 行不良数量 6，已填原因的只有 5：每件不良都要填写原因，请补齐`. The lines sent
 * leave out the products with nothing typed, so the service's line number alone would not match the form.
 */
export function namedLine(text: string, line: unknown, products: readonly string[]): string {
  const name = typeof line === 'number' && Number.isInteger(line) ? products[line - 1] : undefined;
  return name ? `“${name}”：${text}` : text;
}
