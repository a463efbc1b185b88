/**
 * Subscription message values cut to the platform's per-type limits (the platform's subscribeMessage.send
 * "parameter value limits"; a value over its limit makes the whole send fail with 47003). The type of a key is
 * its name without the trailing number: `thing1` → thing, `character_string19` → character_string.
 *
 * | type | rule applied here |
 * |---|---|
 * | thing | at most 20 characters (longer: 19 + "…") |
 * | character_string | digits, letters, symbols only (other characters dropped), at most 32 |
 * | number | digits with an optional sign and decimal point, at most 32 |
 * | letter | letters only, at most 32 |
 * | symbol | symbols only, at most 5 |
 * | phrase | Chinese characters only, at most 5 |
 * | name | 10 characters when it holds any Chinese character, otherwise 20 letters/symbols |
 * | phone_number | digits and symbols, at most 17 |
 * | car_number | at most 8 characters |
 * | time | an ISO 8601 instant becomes `2026年3月2日 08:00` in the factory's time zone |
 * | date | an ISO 8601 instant or `YYYY-MM-DD` becomes `2026年3月2日` |
 * | others (amount, enum, …) | unchanged |
 *
 * Characters are counted as Unicode code points. `cutTemplateValue(key, value, timeZone)` → the value to send.
 */
import { toZonedIso } from '../time.ts';

const chars = (s: string) => Array.from(s);
const take = (s: string, n: number) => chars(s).slice(0, n).join('');
const HAN = /\p{Script=Han}/u;
const ASCII_PRINTABLE = /^[\x21-\x7e]$/;
const LETTER = /^[A-Za-z]$/;
const SYMBOL = /^[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]$/;

/** The type of a template key: its name without trailing digits. */
export const keyType = (key: string): string => key.replace(/\d+$/, '');

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function chineseDate(ymd: string): string {
  const [y, m, d] = ymd.split('-');
  return `${y}年${Number(m)}月${Number(d)}日`;
}

function formatTime(value: string, timeZone: string, withTime: boolean): string {
  if (ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value))) {
    const local = toZonedIso(new Date(value), timeZone); // 2026-03-02T08:00:00.000+08:00
    return withTime ? `${chineseDate(local.slice(0, 10))} ${local.slice(11, 16)}` : chineseDate(local.slice(0, 10));
  }
  if (LOCAL_DATE.test(value)) return chineseDate(value);
  return value;
}

/** The value of template key `key` cut or formatted to the platform's limit for its type (module docstring). */
export function cutTemplateValue(key: string, value: string, timeZone: string): string {
  const v = value.trim();
  switch (keyType(key)) {
    case 'thing':
      return chars(v).length <= 20 ? v : take(v, 19) + '…';
    case 'character_string':
      return take(chars(v).filter((c) => ASCII_PRINTABLE.test(c)).join(''), 32);
    case 'number': {
      const m = /-?\d+(\.\d+)?/.exec(v.replace(/,/g, ''));
      return take(m ? m[0] : '', 32);
    }
    case 'letter':
      return take(chars(v).filter((c) => LETTER.test(c)).join(''), 32);
    case 'symbol':
      return take(chars(v).filter((c) => SYMBOL.test(c)).join(''), 5);
    case 'phrase':
      return take(chars(v).filter((c) => HAN.test(c)).join(''), 5);
    case 'name':
      return HAN.test(v) ? take(v, 10) : take(v, 20);
    case 'phone_number':
      return take(chars(v).filter((c) => ASCII_PRINTABLE.test(c) && !LETTER.test(c)).join(''), 17);
    case 'car_number':
      return take(v, 8);
    case 'time':
      return formatTime(v, timeZone, true);
    case 'date':
      return formatTime(v, timeZone, false);
    default:
      return v;
  }
}

/** Checks a value as the platform does (used by the simulator to answer 47003). Null when valid, else why. */
export function templateValueProblem(key: string, value: string): string | null {
  const n = chars(value).length;
  const all = (re: RegExp) => chars(value).every((c) => re.test(c));
  switch (keyType(key)) {
    case 'thing':
      return n <= 20 ? null : 'longer than 20 characters';
    case 'character_string':
      return n <= 32 && all(ASCII_PRINTABLE) ? null : 'not up to 32 digits, letters or symbols';
    case 'number':
      return n <= 32 && /^-?\d+(\.\d+)?$/.test(value) ? null : 'not a number of up to 32 digits';
    case 'letter':
      return n <= 32 && all(LETTER) ? null : 'not up to 32 letters';
    case 'symbol':
      return n <= 5 && all(SYMBOL) ? null : 'not up to 5 symbols';
    case 'phrase':
      return n >= 1 && n <= 5 && all(HAN) ? null : 'not 1 to 5 Chinese characters';
    case 'name':
      return n <= (HAN.test(value) ? 10 : 20) ? null : 'name too long';
    case 'phone_number':
      return n <= 17 ? null : 'longer than 17 characters';
    case 'car_number':
      return n <= 8 ? null : 'longer than 8 characters';
    default:
      return null;
  }
}
