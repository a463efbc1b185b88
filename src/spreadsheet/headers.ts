/**
 * Header matching (decisions.md "Spreadsheet import"): column names are compared ignoring spaces and line
 * breaks (including full-width spaces) and a trailing unit in brackets, so `标准\n节拍（秒）` matches 标准节拍.
 */

/** The comparable form of a header text. */
export function normalizeHeader(text: string): string {
  return text
    .replace(/[\s\u3000]+/g, '')
    .replace(/[(（][^()（）]*[)）]$/, '');
}

/** One column an import reads. `key` is the field name used by the rules; `header` the exact spec name. */
export interface ColumnSpec<K extends string = string> {
  readonly key: K;
  readonly header: string;
  /** The header row must contain this column. */
  readonly required: boolean;
}

export interface HeaderMatch<K extends string> {
  /** Column index (0-based) of each matched key. */
  readonly columns: Partial<Record<K, number>>;
  readonly missing: readonly ColumnSpec<K>[];
  /** Keys whose header appears more than once, with their column indexes. */
  readonly duplicated: readonly { spec: ColumnSpec<K>; indexes: number[] }[];
  readonly matched: number;
}

/** Matches one row of header texts against the column specs. */
export function matchHeaders<K extends string>(texts: readonly (string | null)[], specs: readonly ColumnSpec<K>[]): HeaderMatch<K> {
  const byName = new Map(specs.map((s) => [normalizeHeader(s.header), s]));
  const found = new Map<K, number[]>();
  texts.forEach((t, i) => {
    if (!t) return;
    const spec = byName.get(normalizeHeader(t));
    if (spec) found.set(spec.key, [...(found.get(spec.key) ?? []), i]);
  });
  const columns: Partial<Record<K, number>> = {};
  for (const [k, idx] of found) columns[k] = idx[0];
  return {
    columns,
    missing: specs.filter((s) => s.required && !found.has(s.key)),
    duplicated: specs.filter((s) => (found.get(s.key)?.length ?? 0) > 1).map((spec) => ({ spec, indexes: found.get(spec.key)! })),
    matched: found.size,
  };
}
