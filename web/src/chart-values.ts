/**
 * The values of the 看板 charts' tooltips as the table shows them (a bare "12" beside "19.05" says nothing):
 * each with its unit and the table's decimals.
 * - `seconds(v, flagged?)`: a cycle time in seconds → `19.05 秒` (2 decimals, as `figure` in labels.ts); `—` without
 *   output (null); `异常（N 张报工单有异常标记）` when `flagged` > 0 (the actual cycle time is then untrusted, and the
 *   table shows 异常 in its place).
 * - `pieces(v)`: a quantity → `780 件`; `—` for null.
 * - `percent(v)`: a percentage as the service rounds it (1 decimal, 质量's Pareto) → `83.3 %`; `—` for null.
 * - `cumulativeLine(values)`: the series of a Pareto's cumulative share (累计占比, right axis, labelled and explained
 *   with `percent`), as 质量 and 设备效率 draw it.
 */
import { figure } from './labels';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A cycle time in seconds as the tooltip says it (module docstring). */
export function seconds(v: unknown, flagged = 0): string {
  if (flagged > 0) return `异常（${flagged} 张报工单有异常标记）`;
  const n = num(v);
  return n === null ? '—' : `${figure(n)} 秒`;
}

/** A quantity of pieces as the tooltip says it (module docstring). */
export const pieces = (v: unknown): string => {
  const n = num(v);
  return n === null ? '—' : `${n} 件`;
};

/** A percentage with 1 decimal as the service gives it (module docstring). */
export const percent = (v: unknown): string => {
  const n = num(v);
  return n === null ? '—' : `${n.toFixed(1)} %`;
};

/** The cumulative-share line of a Pareto chart (module docstring); `values` are the service's `cumulativePct`. */
export const cumulativeLine = (values: number[]) => ({
  name: '累计占比',
  type: 'line',
  yAxisIndex: 1,
  data: values,
  itemStyle: { color: '#1a5fb4' },
  label: { show: true, position: 'top', formatter: (p: { value: unknown }) => percent(p.value), fontSize: 11 },
  tooltip: { valueFormatter: percent },
});
