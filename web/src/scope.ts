/**
 * The signed-in reader's scope (审核范围) as the pages show it: from GET /api/auth/me `scope` (codes; both empty: the
 * whole factory) with the names of web/src/org.ts. A scoped reader's pages say what they cover ("本页只含：冲压车间")
 * and the 车间 / 班组 filters offer only what lies inside: the scope's workshops (and the workshops of its teams, to
 * narrow by), and the teams of those workshops or the scope's own teams (domain/scope.ts: a team is inside when it
 * is one of the scope's teams or in one of its workshops).
 */
import { computed } from 'vue';
import { org, orgLabel, type OrgTeam, type OrgWorkshop } from './org';
import { session } from './session';

/** The current role's scope; null: the whole factory (or not signed in). */
export const readerScope = computed(() => {
  const s = session.account?.scope;
  return s && s.workshops.length + s.teams.length > 0 ? s : null;
});

/** "冲压车间、焊装一班": what a scoped reader's page covers; '' for the whole factory. */
export const scopeText = computed(() => {
  const s = readerScope.value;
  if (!s) return '';
  return [...s.workshops.map((c) => orgLabel(c, 'workshop')), ...s.teams.map((c) => orgLabel(c, 'team'))].join('、');
});

/** Whether team `t` is inside the reader's scope. */
const teamInside = (t: OrgTeam) => {
  const s = readerScope.value;
  return !s || s.teams.includes(t.code) || s.workshops.includes(t.workshopCode);
};

/** The workshops a filter offers: all for the whole factory, else those of the scope and of its teams. */
export const scopedWorkshops = computed<OrgWorkshop[]>(() => {
  const s = readerScope.value;
  if (!s) return org.workshops;
  const codes = new Set([...s.workshops, ...org.teams.filter((t) => s.teams.includes(t.code)).map((t) => t.workshopCode)]);
  return org.workshops.filter((w) => codes.has(w.code));
});

/** The teams a filter offers: those inside the reader's scope. */
export const scopedTeams = computed<OrgTeam[]>(() => org.teams.filter(teamInside));
