/**
 * The filters a report page keeps in its address (`?startDate=&endDate=&workshop=…`), read once as it opens:
 * `useAddress()` → `date(k)` (a `YYYY-MM-DD` parameter, or undefined when absent or malformed), `code(k)` (a text
 * parameter, '' when absent) and `range()` (`[startDate, endDate]` of the address, by default the first of this
 * month to today in the browser's zone, the office's). Used by 看板, 质量 and 设备效率.
 */
import { useRoute } from 'vue-router';
import { isoDate } from './labels';

export function useAddress() {
  const route = useRoute();
  const text = (k: string) => (typeof route.query[k] === 'string' ? (route.query[k] as string) : undefined);
  const date = (k: string) => {
    const v = text(k);
    return v !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined;
  };
  const code = (k: string) => text(k) ?? '';
  const range = (): [string, string] => {
    const today = new Date();
    return [date('startDate') ?? isoDate(new Date(today.getFullYear(), today.getMonth(), 1)), date('endDate') ?? isoDate(today)];
  };
  return { date, code, range };
}
