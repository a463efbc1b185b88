/**
 * Pagination at the edge (decisions.md "HTTP conventions"): query `page` (1-based, default 1) and `pageSize`
 * (default 20, at most 100); answer `{items, page, pageSize, total}` (shared/page.ts).
 */
import { z } from 'zod';

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

/** The envelope schema of a page of `item`. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), page: z.number().int(), pageSize: z.number().int(), total: z.number().int() });
