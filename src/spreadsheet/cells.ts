/**
 * Cell values as the import rules see them, and their conversion to text and numbers
 * (decisions.md "Spreadsheet import": numbers may arrive as numeric cells or as numeric text).
 *
 * A cell is `null` (blank), a string, a number, a boolean or a `CellError` (an Excel error such as `#DIV/0!`,
 * or a formula saved without its computed value). Formulas with a saved value arrive as that value.
 */

/** An error cell: Excel's error text (`#DIV/0!`, `#N/A`, …) or a formula the file holds no result for. */
export class CellError {
  constructor(readonly text: string) {}
  toJSON(): string {
    return this.text;
  }
  toString(): string {
    return this.text;
  }
}

export type CellValue = string | number | boolean | null | CellError;

/** Marker text of a formula cell saved without its result (files written by programs that do not calculate). */
export const UNCOMPUTED_FORMULA = '#公式未计算';

// A Map: a hostile file's error cell may carry any value (`constructor` …), which must find nothing.
const ERROR_CODES: ReadonlyMap<unknown, string> = new Map<unknown, string>([
  [0x00, '#NULL!'],
  [0x07, '#DIV/0!'],
  [0x0f, '#VALUE!'],
  [0x17, '#REF!'],
  [0x1d, '#NAME?'],
  [0x24, '#NUM!'],
  [0x2a, '#N/A'],
  [0x2b, '#GETTING_DATA'],
]);

/** Minimal view of a SheetJS cell object. */
export interface RawCell {
  t: string;
  v?: unknown;
  z?: unknown;
}

/**
 * Converts a SheetJS cell into a CellValue. Numeric cells with a zero-padding number format (`000000`) become
 * the padded text the spreadsheet program shows, so material codes keep their leading zeros.
 */
export function fromSheetCell(cell: RawCell | undefined): CellValue {
  if (!cell) return null;
  switch (cell.t) {
    case 'z':
      return null;
    case 's': {
      const s = String(cell.v ?? '');
      return s === '' ? null : s;
    }
    case 'n': {
      const n = cell.v as number;
      if (typeof n !== 'number' || !Number.isFinite(n)) return null;
      if (typeof cell.z === 'string' && /^0+$/.test(cell.z) && Number.isInteger(n) && n >= 0) {
        return String(n).padStart(cell.z.length, '0');
      }
      return n;
    }
    case 'b':
      return Boolean(cell.v);
    case 'd':
      return cell.v instanceof Date ? cell.v.toISOString().slice(0, 10) : String(cell.v);
    case 'e':
      return new CellError(cell.v === undefined ? UNCOMPUTED_FORMULA : (ERROR_CODES.get(cell.v) ?? '#ERROR'));
    default:
      return cell.v === undefined || cell.v === null ? null : String(cell.v);
  }
}

/** A number written without binary noise: 19.200000000000003 → "19.2"; integers stay whole. */
export function numberText(n: number): string {
  return String(Number(n.toPrecision(15)));
}

/** Text of a cell as shown: trimmed strings, numbers without float noise; blank → null. Errors give their text. */
export function cellText(v: CellValue): string | null {
  if (v === null) return null;
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof CellError) return v.text;
  const s = v.trim();
  return s === '' ? null : s;
}

export type NumberReading =
  | { kind: 'blank' }
  | { kind: 'number'; value: number }
  /** Not a number: text such as "约30秒", an error cell, a boolean. `text` is what the cell shows. */
  | { kind: 'invalid'; text: string };

const FULL_WIDTH = /[\uFF10-\uFF19\uFF0E\uFF0D\uFF0B\uFF0C]/g;
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const GROUPED = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

/**
 * Reads a number from a numeric cell or numeric text: full-width digits, surrounding spaces and thousands
 * separators (`1,200`) are accepted; anything else is `invalid`.
 */
export function cellNumber(v: CellValue): NumberReading {
  if (v === null) return { kind: 'blank' };
  if (typeof v === 'number') return { kind: 'number', value: v };
  if (typeof v !== 'string') return { kind: 'invalid', text: cellText(v) ?? '' };
  const s = v.trim().replace(FULL_WIDTH, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
  if (s === '') return { kind: 'blank' };
  const plain = GROUPED.test(s) ? s.replace(/,/g, '') : s;
  if (!DECIMAL.test(plain)) return { kind: 'invalid', text: v.trim() };
  const value = Number(plain);
  return Number.isFinite(value) ? { kind: 'number', value } : { kind: 'invalid', text: v.trim() };
}
