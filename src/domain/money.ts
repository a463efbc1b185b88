/**
 * Money, exact ("Wages"): never a float anywhere on the way.
 *
 * - A rate (计件单价, 不良单价) is yuan per piece with at most 4 decimals, held as an integer of ten-thousandths of a
 *   yuan (`"1.25"` → 12500). Input is decimal text or a JSON number; a number arrives as a double, so it is read
 *   through its shortest decimal form (`String(0.8)` = "0.8") and never multiplied: exponent forms (`1e-7`) and
 *   more than 4 decimals are refused. Bounded to ±MAX_RATE (99,999.9999 yuan), so a rate is a safe integer.
 * - An amount is an integer of fen, a BigInt: a line's amount is computed in ten-thousandths of a yuan (quantities
 *   up to 10,000,000 × rates up to 10^9 exceed 2^53, hence BigInt) and rounded to the fen once, half away from
 *   zero (1.005 → 1.01, −0.125 → −0.13); every total is a sum of rounded lines.
 * - Output: rates `"1.2500"` (4 decimals), amounts `"168.01"` (2 decimals), both as strings.
 */

/** Ten-thousandths of a yuan in a yuan. */
export const RATE_SCALE = 10_000;
/** The largest rate magnitude, ten-thousandths of a yuan (99,999.9999 yuan). */
export const MAX_RATE = 999_999_999;
/** A rate as decimal text: at most 5 digits before the point and 4 after, an optional minus sign. */
export const RATE_TEXT = /^-?\d{1,5}(\.\d{1,4})?$/;

/** Why a rate is refused (the sentence names the field: money.ts callers add its label). */
export type RateProblem = 'not_a_number' | 'too_many_decimals' | 'negative' | 'too_large';

/** The Chinese sentence of a rate problem for the field `label` (计件单价, 不良单价). */
export function rateProblemText(label: string, problem: RateProblem): string {
  switch (problem) {
    case 'not_a_number':
      return `${label}应为数字（元，最多 4 位小数），例如 1.25`;
    case 'too_many_decimals':
      return `${label}最多 4 位小数（元）`;
    case 'negative':
      return `${label}不能是负数`;
    case 'too_large':
      return `${label}超出范围：绝对值不能超过 99999.9999 元`;
  }
}

/**
 * A rate from decimal text or a JSON number → ten-thousandths of a yuan, or the problem. `allowNegative`: a
 * defect rate may be negative (a deduction); a piece rate may not.
 */
export function parseRate(value: unknown, allowNegative: boolean): { ok: true; value: number } | { ok: false; problem: RateProblem } {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { ok: false, problem: 'not_a_number' };
    text = String(value); // the shortest decimal form that reads back as this double; exponents below
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return { ok: false, problem: 'not_a_number' };
  }
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return { ok: false, problem: 'not_a_number' };
  const [, sign, whole, fraction = ''] = m;
  if (fraction.length > 4) return { ok: false, problem: 'too_many_decimals' };
  const digits = whole.replace(/^0+(?=\d)/, '');
  if (digits.length > 5) return { ok: false, problem: 'too_large' };
  const magnitude = Number(digits) * RATE_SCALE + Number(fraction.padEnd(4, '0'));
  const negative = sign === '-' && magnitude !== 0;
  if (negative && !allowNegative) return { ok: false, problem: 'negative' };
  if (magnitude > MAX_RATE) return { ok: false, problem: 'too_large' };
  return { ok: true, value: negative ? -magnitude : magnitude };
}

/** A rate in ten-thousandths as text with 4 decimals: 12500 → "1.2500", −5000 → "-0.5000". */
export function formatRate(tenThousandths: number): string {
  const sign = tenThousandths < 0 ? '-' : '';
  const abs = Math.abs(tenThousandths);
  return `${sign}${Math.floor(abs / RATE_SCALE)}.${String(abs % RATE_SCALE).padStart(4, '0')}`;
}

/** An amount in fen as text with 2 decimals: 16801n → "168.01", −13n → "-0.13". */
export function formatFen(fen: bigint): string {
  const sign = fen < 0n ? '-' : '';
  const abs = fen < 0n ? -fen : fen;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** Fen from text of digits (a numeric column read as text, an event's amount); "" or null → 0. */
export const fenOf = (text: string | number | null | undefined): bigint => (text === null || text === undefined || text === '' ? 0n : BigInt(text));

/** Ten-thousandths of a yuan rounded to fen, half away from zero (one rounding per line). */
export function roundToFen(tenThousandths: bigint): bigint {
  const negative = tenThousandths < 0n;
  const abs = negative ? -tenThousandths : tenThousandths;
  const fen = abs / 100n + (abs % 100n >= 50n ? 1n : 0n);
  return negative ? -fen : fen;
}

/**
 * The rates of a line: ten-thousandths of a yuan per finished piece, per defective piece (工废, 其他 and 未注明),
 * and per piece lost to the material (料废; absent: `defectRate`, as before the material's own rate existed).
 */
export interface LineRates {
  readonly pieceRate: number;
  readonly defectRate: number;
  readonly materialDefectRate?: number;
}

/** The rate of a 料废 piece: `materialDefectRate`, or `defectRate` when the entry has none. */
export const materialRateOf = (rates: LineRates): number => rates.materialDefectRate ?? rates.defectRate;

/**
 * A line's amount in fen: finishedQty × pieceRate + (defectiveQty − materialDefectQty) × defectRate +
 * materialDefectQty × materialDefectRate, in ten-thousandths of a yuan, rounded to the fen once, half away from
 * zero. `materialDefectQty` (料废, default 0) is the part of `defectiveQty` whose reasons are of the category
 * `material` as recorded with the line (domain/report-line.ts `defectSplit`); the rest — 工废, 其他 and the pieces
 * without a reason (未注明) — is priced at `defectRate`. With no 料废, or no `materialDefectRate`, the amount is the
 * one of finishedQty × pieceRate + defectiveQty × defectRate, as before.
 */
export function lineAmountFen(finishedQty: number, defectiveQty: number, rates: LineRates, materialDefectQty = 0): bigint {
  return roundToFen(
    BigInt(finishedQty) * BigInt(rates.pieceRate) +
      BigInt(defectiveQty - materialDefectQty) * BigInt(rates.defectRate) +
      BigInt(materialDefectQty) * BigInt(materialRateOf(rates)),
  );
}
