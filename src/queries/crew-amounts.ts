/**
 * The amounts of crew lines (班组报工) for the office's report answers (the review queue, 我审核的, the report list
 * and one report): each share of a crew line gets `amount`, the yuan text of its fen ("211.43"), or null when the
 * product has no rate on the report date. The rule is the wages' (domain/crew-split.ts `crewLineAmounts`): the whole
 * line priced once with the rate entry in force on the report date (the `product_rates` read model), split to the
 * fen on the recorded weights, so the members' amounts sum exactly to the crew's. A pending report is priced as its
 * approval would price it in an open month; a month closed with other rates keeps those on the wage statement
 * (GET /api/wages/{phone}), which stays the payroll's figure.
 */
import type { Queryable } from '../db/transaction.ts';
import { crewLineAmounts } from '../domain/crew-split.ts';
import { formatFen } from '../domain/money.ts';
import { rateOn } from '../domain/rates.ts';
import { defectSplit, type ReportLine } from '../domain/report-line.ts';
import { rateEntriesOf } from '../products/store.ts';

type Share = NonNullable<ReportLine['shares']>[number];
/** A report line whose crew shares carry their amounts (yuan text; null: unpriced). */
export type PricedLine = Omit<ReportLine, 'shares'> & { shares?: (Share & { amount: string | null })[] };

/**
 * `items` with every crew line's shares priced (module docstring); other lines unchanged. One read of the rates of
 * the crew lines' products, none when there is no crew line.
 */
export async function withShareAmounts<T extends { reportDate: string; lines: PricedLine[] }>(q: Queryable, items: T[]): Promise<T[]> {
  const ids = [...new Set(items.flatMap((r) => r.lines.filter((l) => l.shares?.length).map((l) => l.productId)))];
  if (ids.length === 0) return items;
  const histories = await rateEntriesOf(q, ids);
  return items.map((r) => ({
    ...r,
    lines: (r.lines as ReportLine[]).map((l): PricedLine => {
      if (!l.shares?.length) return l as PricedLine;
      const material = defectSplit(l.defectiveQty, l.defects).material;
      const amounts = crewLineAmounts({ ...l, shares: l.shares, materialDefectQty: material }, rateOn(histories.get(l.productId) ?? [], r.reportDate));
      return { ...l, shares: l.shares.map((s, i) => ({ ...s, amount: amounts ? formatFen(amounts.shares[i]) : null })) };
    }),
  }));
}
