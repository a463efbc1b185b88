/**
 * What counts as text in this service: a string is valid text when it holds no NUL
 * character (PostgreSQL text cannot store one) and no lone UTF-16 surrogate (half of a pair, e.g. `"\ud800"` in
 * JSON, is no Unicode character: PostgreSQL refuses it in jsonb and drivers replace it with U+FFFD). The one
 * rule for request input (src/http/pipeline.ts) and spreadsheet cells (src/imports/problems.ts).
 */

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const INVALID = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `s` holds neither NUL nor a lone surrogate (module docstring). */
export function isValidText(s: string): boolean {
  return !INVALID.test(s);
}
