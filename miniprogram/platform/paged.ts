/**
 * 加载更多 of a list page: the next page of a paginated answer (`{items, page, pageSize, total}`, decisions.md
 * "HTTP conventions") appended to the page's `rows`, with `loading` while it runs and `error` when it fails.
 */
import { call } from './request';
import { stepOf } from './failure';

/** The data and `setData` of a list page. */
export interface ListPage<V> {
  data: { rows: V[]; page: number; total: number; loading: boolean; error: string };
  setData(data: Record<string, unknown>): void;
}

/** Rows a list page asks for at a time. */
export const PAGE_SIZE = 20;

/** Loads the next page of `path` (with `query`) into `self.data.rows`, each item through `view`. */
export async function appendNextPage<T, V>(self: ListPage<V>, path: string, view: (item: T) => V, query: Record<string, string> = {}): Promise<void> {
  if (self.data.loading) return;
  self.setData({ loading: true, error: '' });
  try {
    const page = self.data.page + 1;
    const r = await call<{ items: T[]; total: number }>('GET', path, { query: { ...query, page, pageSize: PAGE_SIZE } });
    self.setData({ rows: self.data.rows.concat(r.items.map(view)), page, total: r.total });
  } catch (err) {
    self.setData({ error: stepOf(err).text });
  } finally {
    self.setData({ loading: false });
  }
}
