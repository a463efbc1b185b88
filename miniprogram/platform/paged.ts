/**
 * 加载更多 of a list page: the next page of a paginated answer (`{items, page, pageSize, total}`, decisions.md
 * "HTTP conventions") appended to the page's `rows`, with `loading` while it runs and `error` when it fails.
 * `restartList` empties the list and loads its first page for a new filter (a date range, a tab, a pull-down): an
 * answer still under way for the list before is dropped when it arrives, never appended to the new one.
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

/** Each page's list generation: bumped by restartList, so that an older list's answer is dropped. */
const generations = new WeakMap<object, number>();
const generationOf = (self: object) => generations.get(self) ?? 0;

/** Loads the next page of `path` (with `query`) into `self.data.rows`, each item through `view`. */
export async function appendNextPage<T, V>(self: ListPage<V>, path: string, view: (item: T) => V, query: Record<string, string> = {}): Promise<void> {
  if (self.data.loading) return;
  const generation = generationOf(self);
  self.setData({ loading: true, error: '' });
  try {
    const page = self.data.page + 1;
    const r = await call<{ items: T[]; total: number }>('GET', path, { query: { ...query, page, pageSize: PAGE_SIZE } });
    if (generationOf(self) === generation) self.setData({ rows: self.data.rows.concat(r.items.map(view)), page, total: r.total });
  } catch (err) {
    if (generationOf(self) === generation) self.setData({ error: stepOf(err).text });
  } finally {
    if (generationOf(self) === generation) self.setData({ loading: false });
  }
}

/** Empties the list and loads the first page of `path` with `query` (module docstring). */
export function restartList<T, V>(self: ListPage<V>, path: string, view: (item: T) => V, query: Record<string, string> = {}): Promise<void> {
  generations.set(self, generationOf(self) + 1);
  self.setData({ rows: [], page: 0, total: 0, loading: false, error: '' });
  return appendNextPage(self, path, view, query);
}
