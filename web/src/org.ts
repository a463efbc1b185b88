/**
 * The factory's workshops and their teams for the console's pickers: read once per page from
 * GET /api/workshops (codes and names), shared by the 车间/班组 filters of 看板 and 工资 and the people page's
 * 审核范围 dialog. A failure leaves the lists empty (the filters then offer nothing; the pages still work).
 */
import { reactive } from 'vue';
import { api, unwrap } from './api/client';

export interface OrgTeam {
  code: string;
  name: string;
  workshopCode: string;
}
export interface OrgWorkshop {
  code: string;
  name: string;
}

/** `loaded`: the lists are the factory's; `settled`: the first read has answered (loaded or failed). */
export const org = reactive<{ workshops: OrgWorkshop[]; teams: OrgTeam[]; loaded: boolean; settled: boolean }>({
  workshops: [],
  teams: [],
  loaded: false,
  settled: false,
});

/** Loads the workshops and teams (again when `force`). */
export async function loadOrg(force = false): Promise<void> {
  if (org.loaded && !force) return;
  try {
    const r = await unwrap(api.GET('/api/workshops', {}));
    org.workshops = r.items.map((w) => ({ code: w.code, name: w.name }));
    org.teams = r.items.flatMap((w) => w.teams.map((t) => ({ code: t.code, name: t.name, workshopCode: w.code })));
    org.loaded = true;
  } catch {
    org.workshops = [];
    org.teams = [];
  } finally {
    org.settled = true;
  }
}

/** `name（code）` of a workshop or team code, or the code when unknown. */
export const orgLabel = (code: string, kind: 'workshop' | 'team'): string => {
  const found = (kind === 'workshop' ? org.workshops : org.teams).find((x) => x.code === code);
  return found ? found.name : code;
};
