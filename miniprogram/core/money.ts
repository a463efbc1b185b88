/**
 * Money as 我的工资 shows it (on `GET /api/wages/mine`). Plain TypeScript, no `wx`.
 *
 * The service answers amounts as text with 2 decimals (yuan, `"168.01"`, `"-0.13"`), computed exactly from integer
 * fen (README "Wages": each line rounded to the fen half away from zero, totals are sums of rounded lines). The
 * phone never turns them into a float: an amount is read into **integer fen as decimal text** (`"16801"`), shown from
 * that text, and the one figure the phone works out itself (the change since the previous close) is a difference of
 * two such texts, digit by digit. Not `Number` (a double is exact only below 2^53 fen and rounds `0.1 + 0.2`) and not
 * `BigInt` either: DevTools may compile the package for base libraries and phones (iOS before 14) that have no
 * BigInt, so the arithmetic here is on strings and works on any JavaScript engine.
 */

/** Integer fen as text: an optional `-` and digits, no leading zeros, never `-0` (`"16801"`, `"-13"`, `"0"`). */
export type FenText = string;

const INTEGER = /^(-?)(\d+)$/;
const AMOUNT = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/** `digits` without leading zeros (`"0"` for none). */
const trim = (digits: string): string => digits.replace(/^0+(?=\d)/, '');

/** The canonical FenText of a sign and a magnitude (no `-0`). */
const signed = (negative: boolean, magnitude: string): FenText => {
  const m = trim(magnitude);
  return negative && m !== '0' ? `-${m}` : m;
};

/** Integer text (`"007"`, `"-0"`, `"9007199254740993"`) as FenText, or undefined when it is not an integer. */
export function fenText(text: string): FenText | undefined {
  const m = INTEGER.exec(text.trim());
  return m ? signed(m[1] === '-', m[2]) : undefined;
}

/**
 * An amount as the service writes it (yuan with at most 2 decimals: `"168.01"`, `"-0.13"`, `"13065"`) as integer
 * fen text (`"16801"`, `"-13"`, `"1306500"`), or undefined for anything else (a float form like `"1e3"`, 3 decimals,
 * an empty string): the caller then shows the text as it came.
 */
export function fenOfAmount(amount: string): FenText | undefined {
  const m = AMOUNT.exec(amount.trim());
  if (!m) return undefined;
  const [, sign, yuan, fen = ''] = m;
  return signed(sign === '-', yuan + fen.padEnd(2, '0'));
}

/** Digits grouped by thousands: `"1234567"` → `"1,234,567"`. */
function grouped(digits: string): string {
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

/**
 * Integer fen text as yuan with 2 decimals and thousands grouped, the sign in front of the currency sign:
 * `"16801"` → `"¥168.01"`, `"1306500"` → `"¥13,065.00"`, `"-13"` → `"-¥0.13"`, `"0"` → `"¥0.00"`; any length
 * (`"9007199254740993"` → `"¥90,071,992,547,409.93"`). Throws on text that is not an integer (a programming error:
 * callers pass FenText).
 */
export function yuanOfFen(fen: FenText): string {
  const m = INTEGER.exec(fen);
  if (!m) throw new Error(`not integer fen: ${fen}`);
  const digits = trim(m[2]).padStart(3, '0');
  const negative = m[1] === '-' && trim(m[2]) !== '0';
  return `${negative ? '-' : ''}¥${grouped(trim(digits.slice(0, -2)))}.${digits.slice(-2)}`;
}

/** An amount of the service (`"13065.00"`) as the page shows it (`"¥13,065.00"`); unreadable text as it came. */
export function moneyOf(amount: string): string {
  const fen = fenOfAmount(amount);
  return fen === undefined ? amount : yuanOfFen(fen);
}

/** Compares two magnitudes (digit texts without leading zeros): −1, 0, 1. */
function compareMagnitude(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/** a + b of two magnitudes (digit texts). */
function addMagnitude(a: string, b: string): string {
  let out = '';
  let carry = 0;
  for (let i = a.length - 1, j = b.length - 1; i >= 0 || j >= 0 || carry; i--, j--) {
    const s = (i >= 0 ? a.charCodeAt(i) - 48 : 0) + (j >= 0 ? b.charCodeAt(j) - 48 : 0) + carry;
    out = String(s % 10) + out;
    carry = s >= 10 ? 1 : 0;
  }
  return trim(out || '0');
}

/** a − b of two magnitudes with a ≥ b. */
function subtractMagnitude(a: string, b: string): string {
  let out = '';
  let borrow = 0;
  for (let i = a.length - 1, j = b.length - 1; i >= 0; i--, j--) {
    let d = a.charCodeAt(i) - 48 - (j >= 0 ? b.charCodeAt(j) - 48 : 0) - borrow;
    borrow = d < 0 ? 1 : 0;
    if (d < 0) d += 10;
    out = String(d) + out;
  }
  return trim(out);
}

/** a + b of integer fen texts, exact at any size. Throws on text that is not FenText. */
export function addFen(a: FenText, b: FenText): FenText {
  const x = INTEGER.exec(a);
  const y = INTEGER.exec(b);
  if (!x || !y) throw new Error(`not integer fen: ${a}, ${b}`);
  const [xn, xm, yn, ym] = [x[1] === '-', trim(x[2]), y[1] === '-', trim(y[2])];
  if (xn === yn) return signed(xn, addMagnitude(xm, ym));
  const c = compareMagnitude(xm, ym);
  if (c === 0) return '0';
  return c > 0 ? signed(xn, subtractMagnitude(xm, ym)) : signed(yn, subtractMagnitude(ym, xm));
}

/** a − b of integer fen texts, exact at any size. */
export function subtractFen(a: FenText, b: FenText): FenText {
  const y = fenText(b);
  if (y === undefined) throw new Error(`not integer fen: ${b}`);
  return addFen(a, y.startsWith('-') ? y.slice(1) : y === '0' ? '0' : `-${y}`);
}

/**
 * What a reopened and closed-again month says about the previous close ("the statement shows the
 * previous version's amount beside the new one"): `上次结账时 ¥280.98，现在 ¥300.00（多 ¥19.02）`, `（少 ¥1.00）`
 * or `（没有变化）`. Both amounts as the service writes them; undefined when either cannot be read.
 */
export function previousCloseText(previousAmount: string, amount: string): string | undefined {
  const before = fenOfAmount(previousAmount);
  const now = fenOfAmount(amount);
  if (before === undefined || now === undefined) return undefined;
  const change = subtractFen(now, before);
  const how = change === '0' ? '没有变化' : change.startsWith('-') ? `少 ${yuanOfFen(change.slice(1))}` : `多 ${yuanOfFen(change)}`;
  return `上次结账时 ${yuanOfFen(before)}，现在 ${yuanOfFen(now)}（${how}）`;
}
