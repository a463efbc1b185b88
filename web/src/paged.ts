/**
 * `usePagedList(fetchPage)`: the state of a paged list of the service (`{items, total}` answers, decisions.md
 * "HTTP conventions": pages of 20), with `load()` (the current page; a failure is shown as a message) and
 * `search()` (back to page 1). ListPager.vue shows its pager.
 */
import { reactive } from 'vue';
import { ElMessage } from 'element-plus';
import 'element-plus/es/components/message/style/css';

export interface PagedList<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  loading: boolean;
}

export function usePagedList<T>(fetchPage: (page: number, pageSize: number) => Promise<{ items: T[]; total: number }>) {
  const list = reactive({ items: [], total: 0, page: 1, pageSize: 20, loading: false }) as PagedList<T>;
  async function load(): Promise<void> {
    list.loading = true;
    try {
      const r = await fetchPage(list.page, list.pageSize);
      list.items = r.items;
      list.total = r.total;
    } catch (err) {
      ElMessage.error((err as Error).message);
    } finally {
      list.loading = false;
    }
  }
  function search(): Promise<void> {
    list.page = 1;
    return load();
  }
  return { list, load, search };
}
