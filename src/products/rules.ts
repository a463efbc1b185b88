/**
 * Product rules (spec 2.1, 2.5; decisions.md "Spreadsheet import", "Calculations"): the one place that turns
 * raw values — spreadsheet cells or the fields of `POST /api/products` — into a checked `ProductData`.
 *
 * - 项目号, 产品名称, 使用设备, 工序: required text (trimmed, at most 200 characters).
 * - 型材号, 物料编码, 物料名称, 冲压方式: optional text. Numeric cells become their digits.
 * - 操作人数: optional whole number ≥ 0 (numeric cell or numeric text).
 * - 标准节拍: required, seconds, > 0 and ≤ 28800 (one 8-hour day), stored with 3 decimals.
 * - 标准工作量: optional whole number ≥ 1; when blank, floor(28800 / 标准节拍).
 *
 * Problem codes: no_project_no, no_name, no_device, no_process, too_long, no_cycle, text_cycle, zero_cycle,
 * negative_cycle, cycle_too_large, bad_people, negative_people, bad_workload, error_cell, uncomputed_formula,
 * invalid_characters.
 */
import { cellNumber, cellText, numberText, type CellValue } from '../spreadsheet/cells.ts';
import { cellProblem, type Problem } from '../imports/problems.ts';
import { PRODUCT_FIELD_LABELS as L, type ProductData, type ProductField } from './model.ts';

/** Seconds in the daily standard (spec section 8): 8 hours. */
export const DAILY_STANDARD_SECONDS = 28_800;
export const MAX_TEXT_LENGTH = 200;
const MAX_OPERATORS = 999;
const MAX_WORKLOAD = 100_000_000;

export type RawProduct = Readonly<Record<ProductField, CellValue | undefined>>;

export type ProductCheck =
  | { ok: true; product: ProductData; workloadComputed: boolean }
  | { ok: false; problems: Problem[] };

/**
 * Default standard workload: floor(28800 / cycle seconds), computed on whole milliseconds so that 0.3 s gives
 * 96000, not 95999. `cycleSeconds` must be > 0.
 */
export function defaultWorkload(cycleSeconds: number): number {
  return Math.floor((DAILY_STANDARD_SECONDS * 1000) / Math.round(cycleSeconds * 1000));
}

/** Checks one product. Never throws: every problem of the row is returned, in column order. */
export function checkProduct(raw: RawProduct): ProductCheck {
  const problems: Problem[] = [];
  const text = (field: ProductField, required?: { code: string; reason: string }): string | null => {
    const v = raw[field] ?? null;
    const bad = cellProblem(L[field], field, v);
    if (bad) {
      problems.push(bad);
      return null;
    }
    const t = cellText(v);
    if (t === null) {
      if (required) problems.push({ ...required, field });
      return null;
    }
    if (t.length > MAX_TEXT_LENGTH) {
      problems.push({ code: 'too_long', field, reason: `${L[field]}超过 ${MAX_TEXT_LENGTH} 个字` });
      return null;
    }
    return t;
  };

  const projectNo = text('projectNo', { code: 'no_project_no', reason: '项目号为空，且上方没有可沿用的项目号' });
  const profileNo = text('profileNo');
  const productName = text('productName', { code: 'no_name', reason: '产品名称为空，请填写产品名称' });
  const materialCode = text('materialCode');
  const materialName = text('materialName');
  const deviceNo = text('deviceNo', { code: 'no_device', reason: '使用设备为空，请填写设备编号' });
  const processName = text('processName', { code: 'no_process', reason: '工序为空，请填写工序' });
  const stampingMethod = text('stampingMethod');
  const operatorCount = checkOperators(raw.operatorCount ?? null, problems);
  const cycle = checkCycle(raw.standardCycleSeconds ?? null, problems);
  const workload = checkWorkload(raw.standardWorkload ?? null, problems);

  if (problems.length) return { ok: false, problems };
  const workloadComputed = workload === null;
  return {
    ok: true,
    workloadComputed,
    product: {
      projectNo: projectNo!,
      profileNo,
      productName: productName!,
      materialCode,
      materialName,
      deviceNo: deviceNo!,
      processName: processName!,
      stampingMethod,
      operatorCount,
      standardCycleSeconds: cycle!,
      standardWorkload: workload ?? defaultWorkload(cycle!),
    },
  };
}

function fail(problems: Problem[], p: Problem): null {
  problems.push(p);
  return null;
}

function checkOperators(v: CellValue, problems: Problem[]): number | null {
  const bad = cellProblem(L.operatorCount, 'operatorCount', v);
  if (bad) return fail(problems, bad);
  const n = cellNumber(v);
  const field = 'operatorCount';
  if (n.kind === 'blank') return null;
  if (n.kind === 'invalid') return fail(problems, { code: 'bad_people', field, reason: `操作人数「${n.text}」不是数字，请填写整数人数` });
  if (n.value < 0) return fail(problems, { code: 'negative_people', field, reason: `操作人数不能是负数（表中是 ${numberText(n.value)}）` });
  if (!Number.isInteger(n.value) || n.value > MAX_OPERATORS) {
    return fail(problems, { code: 'bad_people', field, reason: `操作人数必须是 0 到 ${MAX_OPERATORS} 的整数（表中是 ${numberText(n.value)}）` });
  }
  return n.value;
}

function checkCycle(v: CellValue, problems: Problem[]): number | null {
  const bad = cellProblem(L.standardCycleSeconds, 'standardCycleSeconds', v);
  if (bad) return fail(problems, bad);
  const n = cellNumber(v);
  const field = 'standardCycleSeconds';
  if (n.kind === 'blank') return fail(problems, { code: 'no_cycle', field, reason: '标准节拍为空，请填写每件的秒数' });
  if (n.kind === 'invalid') {
    return fail(problems, { code: 'text_cycle', field, reason: `标准节拍「${n.text}」不是数字，请只填写秒数（如 30 或 22.5）` });
  }
  if (n.value < 0) {
    return fail(problems, { code: 'negative_cycle', field, reason: `标准节拍不能是负数（表中是 ${numberText(n.value)}），请填写大于 0 的秒数` });
  }
  const ms = Math.round(n.value * 1000);
  if (ms === 0) {
    return fail(problems, { code: 'zero_cycle', field, reason: `标准节拍必须大于 0 秒（表中是 ${numberText(n.value)}）` });
  }
  if (ms > DAILY_STANDARD_SECONDS * 1000) {
    return fail(problems, { code: 'cycle_too_large', field, reason: `标准节拍 ${numberText(n.value)} 秒超过了一个工作日（28800 秒），请确认单位是秒` });
  }
  return ms / 1000;
}

function checkWorkload(v: CellValue, problems: Problem[]): number | null {
  const bad = cellProblem(L.standardWorkload, 'standardWorkload', v);
  if (bad) return fail(problems, bad);
  const n = cellNumber(v);
  if (n.kind === 'blank') return null;
  const field = 'standardWorkload';
  if (n.kind === 'invalid') {
    return fail(problems, { code: 'bad_workload', field, reason: `标准工作量「${n.text}」不是数字，请填写整数件数或留空自动计算` });
  }
  if (!Number.isInteger(n.value) || n.value < 1 || n.value > MAX_WORKLOAD) {
    return fail(problems, { code: 'bad_workload', field, reason: `标准工作量必须是正整数件数（表中是 ${numberText(n.value)}），或留空自动计算` });
  }
  return n.value;
}
