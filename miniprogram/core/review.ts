/**
 * The reviewer's and the manager's input rules, checked on the phone before sending (decisions.md "Reports and
 * review"; the service checks them again). Plain TypeScript, no `wx`.
 */

/** Most characters of a reason (a character is a code point: an emoji counts once, as the service counts). */
export const MAX_REASON = 200;

/** The problem of a reject reason (required) or a break-change reason (optional), or '' when fine. */
export function reasonProblem(text: string, required: boolean): string {
  const t = text.trim();
  if (required && t === '') return '请填写驳回原因';
  if (Array.from(t).length > MAX_REASON) return `原因最多 ${MAX_REASON} 个字`;
  return '';
}

/** Break minutes as typed: a whole number ≥ 0, or undefined. */
export function breakMinutesOf(text: string): number | undefined {
  const t = text.trim();
  return /^\d{1,5}$/.test(t) ? Number(t) : undefined;
}

/** A percentage as the dashboard shows it: `+22.52%`, `-11.02%`, `—` for none. */
export function percent(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return `${value > 0 ? '+' : ''}${value.toFixed(2)}%`;
}

/** Seconds with 2 decimals (`19.60 秒`), `—` for none. */
export function seconds(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value.toFixed(2)} 秒`;
}

/** A team's figures over a range: sums of the per-employee figures, and the workload difference. */
export interface TeamFigures {
  people: number;
  reportedQty: number;
  finishedQty: number;
  standardWorkload: number;
  /** (Σ finished − Σ standard workload) / Σ standard workload × 100, as `percent` shows it. */
  workloadDiff: string;
}

/**
 * The team's figures of `GET /api/dashboard/summary`'s `byEmployee` rows (integers summed exactly; the
 * percentage rounded to 2 decimals, half away from zero, as decisions.md "Calculations" rounds).
 */
export function teamFigures(rows: readonly { reportedQty: number; finishedQty: number; standardWorkload: number }[]): TeamFigures {
  const sum = (k: 'reportedQty' | 'finishedQty' | 'standardWorkload') => rows.reduce((s, r) => s + r[k], 0);
  const finished = sum('finishedQty');
  const standard = sum('standardWorkload');
  const raw = standard === 0 ? null : ((finished - standard) / standard) * 100;
  const rounded = raw === null ? null : (Math.sign(raw) * Math.round(Math.abs(raw) * 100)) / 100;
  return { people: rows.length, reportedQty: sum('reportedQty'), finishedQty: finished, standardWorkload: standard, workloadDiff: percent(rounded) };
}
