/**
 * Pages (decisions.md "HTTP conventions"), a neutral shape shared by queries and the HTTP edge: `page` is
 * 1-based, `pageSize` at most 100 (checked at the edge, http/pagination.ts); answers are `{items, page, pageSize,
 * total}`.
 */
export interface PageQuery {
  page: number;
  pageSize: number;
}

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

/** SQL LIMIT/OFFSET values of a page. */
export const limitOffset = (p: PageQuery) => ({ limit: p.pageSize, offset: (p.page - 1) * p.pageSize });

/** The page of `items` (of `total` in all) for `p`. */
export const toPage = <T>(items: T[], total: number, p: PageQuery): Page<T> => ({ items, page: p.page, pageSize: p.pageSize, total });
