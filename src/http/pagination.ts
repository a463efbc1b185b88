/**
 * Pagination at the edge (decisions.md "HTTP conventions"): query `page` (1-based, default 1) and `pageSize`
 * (default 20, at most 100); answer `{items, page, pageSize, total}` (shared/page.ts).
 */
import { z } from 'zod';

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1).meta({ title: '页码', description: '从 1 开始' }),
  pageSize: z.coerce.number().int().min(1).max(100).default(20).meta({ title: '每页条数', description: '1–100' }),
});

/** The envelope schema of a page of `item`. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1).max(100),
    total: z.number().int().min(0).describe('符合条件的总条数'),
  });

