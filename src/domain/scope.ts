/**
 * The one scope rule: which reports an administrator or manager may see
 * and act on. Everything that shows or acts on a report applies this rule and only this rule — in TypeScript
 * (`inScope`, for pure deciders and tests) and in SQL (`scopeSql`, `storedScopeSql`, for queries and the guard of
 * a review's append): the pending queue, 我审核的, approve / correct / reject, break changes, a report and its audit
 * trail, the office's report list, the dashboard (summary, rows, export) and the wages.
 *
 * Rule: a scope is a set of workshop codes and a set of team codes (`Scope`). A report (its placement as of its
 * report date, domain/placement.ts, recorded in ReportSubmitted) is in scope when
 *   - the scope is empty (both sets empty: the whole factory, today's behaviour), or
 *   - its `workshop_code` is one of the scope's workshops, or
 *   - its `team_code` is one of the scope's teams.
 * A report in no team (and no workshop) is therefore visible only to unscoped people (decision, README "审核范围":
 * who belongs nowhere is the whole factory's business, never a workshop reviewer's).
 *
 * Filters (`workshop`, `team` query parameters of the dashboard and wages) narrow within the scope (`ReportFilter`):
 * a filter outside the reader's scope gives nothing (empty lists, zero sums), never 403, so it leaks nothing about
 * what exists outside the scope.
 */
import { domainError, type WholeFactoryWrite } from './errors.ts';

export type { WholeFactoryWrite };

/** A reviewer's or manager's scope: workshop codes and team codes; both empty = the whole factory. */
export interface Scope {
  readonly workshops: readonly string[];
  readonly teams: readonly string[];
}

/** The whole factory (no scope set). */
export const WHOLE_FACTORY: Scope = Object.freeze({ workshops: [], teams: [] });

/** True when `scope` is the whole factory (both sets empty). */
export const isWholeFactory = (scope: Scope): boolean => scope.workshops.length === 0 && scope.teams.length === 0;

/** Where a report is counted (domain/placement.ts), as the rule reads it. */
export interface ScopedPlacement {
  readonly workshopCode: string | null;
  readonly teamCode: string | null;
}

/** The rule (module docstring): is a report placed at `placement` in `scope`? */
export function inScope(scope: Scope, placement: ScopedPlacement): boolean {
  if (isWholeFactory(scope)) return true;
  if (placement.workshopCode !== null && scope.workshops.includes(placement.workshopCode)) return true;
  return placement.teamCode !== null && scope.teams.includes(placement.teamCode);
}

/** The `workshop` / `team` filters of a reading (codes; absent: no filter). Applied within the scope. */
export interface ReportFilter {
  readonly workshop?: string;
  readonly team?: string;
}

/** True when a report placed at `placement` passes `filter`. */
export const passesFilter = (filter: ReportFilter, placement: ScopedPlacement): boolean =>
  (filter.workshop === undefined || placement.workshopCode === filter.workshop) && (filter.team === undefined || placement.teamCode === filter.team);

/**
 * The rule in SQL over the columns `workshopCol`, `teamCol` (e.g. `r.workshop_code`, `r.team_code`) against a
 * scope bound as two text[] parameters `workshops`, `teams` (placeholders such as `$3`). Never NULL.
 */
export const scopeSql = (workshopCol: string, teamCol: string, workshops: string, teams: string): string =>
  `(cardinality(${workshops}::text[]) + cardinality(${teams}::text[]) = 0 OR COALESCE(${workshopCol} = ANY(${workshops}::text[]), false) OR COALESCE(${teamCol} = ANY(${teams}::text[]), false))`;

/** The `scopes` row `s` of (`phone`, `role`), when it names a workshop or a team. */
const narrowStoredScope = (phone: string, role: string) => `s.phone = ${phone} AND s.role = ${role} AND cardinality(s.workshops) + cardinality(s.teams) > 0`;

/**
 * The rule in SQL against the scope STORED for (`phone`, `role`) in `scopes` (migrations/015; a person with no
 * row there is unscoped): what a review's append checks in its guard, so a scope changed between the decision and
 * the append refuses the write (commands/facts.ts).
 */
export const storedScopeSql = (workshopCol: string, teamCol: string, phone: string, role: string): string =>
  `NOT EXISTS (SELECT 1 FROM scopes s WHERE ${narrowStoredScope(phone, role)}
     AND NOT (COALESCE(${workshopCol} = ANY(s.workshops), false) OR COALESCE(${teamCol} = ANY(s.teams), false)))`;

/**
 * SQL: (`phone`, `role`) has a stored scope narrower than the whole factory (a row of `scopes` with a workshop or a
 * team), e.g. a manager who may not close a month (only whole-factory managers close). Never NULL.
 */
export const hasNarrowScopeSql = (phone: string, role: string): string => `EXISTS (SELECT 1 FROM scopes s WHERE ${narrowStoredScope(phone, role)})`;

/** The filters in SQL over `workshopCol`, `teamCol` with `workshop`, `team` bound as text parameters (NULL: none). */
export const filterSql = (workshopCol: string, teamCol: string, workshop: string, team: string): string =>
  `(${workshop}::text IS NULL OR ${workshopCol} = ${workshop}::text) AND (${team}::text IS NULL OR ${teamCol} = ${team}::text)`;

/**
 * The scope and filter condition over `workshopCol`, `teamCol`, its values pushed onto `args` (placeholders
 * numbered after the values already there): for queries that build their parameter list as they go.
 */
export function scopeAndFilter(workshopCol: string, teamCol: string, scope: Scope, filter: ReportFilter, args: unknown[]): string {
  const p = (v: unknown) => {
    args.push(v);
    return `$${args.length}`;
  };
  const s = scopeSql(workshopCol, teamCol, p([...scope.workshops]), p([...scope.teams]));
  return `${s} AND ${filterSql(workshopCol, teamCol, p(filter.workshop ?? null), p(filter.team ?? null))}`;
}

/**
 * What a write of the organization changes, for the scope rule of writes (`outsideScopeSql`): the workshop, team,
 * worker (their open team) or device it touches, or `factory` for a write only the whole factory may make (a new
 * workshop, a shift, a scope). `workshop` with `team`: the workshop a team is put in, in scope also when it is the
 * team's workshop already (a team-scoped person may change their team without moving it).
 */
export type ScopeTarget =
  | { readonly kind: 'factory'; readonly write: WholeFactoryWrite }
  | { readonly kind: 'workshop'; readonly code: string; readonly team?: string }
  | { readonly kind: 'team' | 'member' | 'device'; readonly code: string };


/** Team `t` (a row of `teams`) is inside the stored scope `s`: one of its teams, or in one of its workshops. */
const TEAM_INSIDE = '(t.code = ANY(s.teams) OR t.workshop_code = ANY(s.workshops))';

/**
 * The scope rule of writes, in SQL: the first of `targets` (a jsonb array of ScopeTarget, a placeholder such as
 * `$15`) outside the scope stored for (`phone`, `role`), as `{kind, code, write}` JSON, or NULL when every target
 * is inside (always for a person of the whole factory). Inside the scope means:
 * - a workshop: one of the scope's workshops (a team scope covers no workshop), or, with `team`, that team's
 *   workshop already;
 * - a team: one of the scope's teams, or its workshop one of the scope's workshops; a code that names no team is
 *   outside (so a scoped person learns nothing of what exists outside their scope);
 * - a worker: no open membership, or the open one's team inside (moving a worker out of another workshop's team
 *   changes that team);
 * - a device: in no workshop, or in one of the scope's workshops;
 * - `factory`: never inside a narrow scope.
 * What the command path checks before a write of the organization, shifts, overrides, devices and memberships, and
 * again in the guard of its append (commands/facts.ts), so a scope narrowed, or a team moved, between the decision
 * and the append writes nothing.
 */
export const outsideScopeSql = (targets: string, phone: string, role: string): string =>
  `(SELECT json_build_object('kind', x.kind, 'code', x.code, 'write', x.write)
      FROM scopes s
      CROSS JOIN ROWS FROM (jsonb_to_recordset(${targets}::jsonb) AS (kind text, code text, team text, write text)) WITH ORDINALITY AS x(kind, code, team, write, n)
     WHERE s.phone = ${phone} AND s.role = ${role} AND cardinality(s.workshops) + cardinality(s.teams) > 0
       AND NOT CASE x.kind
         WHEN 'workshop' THEN x.code = ANY(s.workshops)
           OR EXISTS (SELECT 1 FROM teams t WHERE x.team IS NOT NULL AND t.code = x.team AND t.workshop_code = x.code)
         WHEN 'team' THEN EXISTS (SELECT 1 FROM teams t WHERE t.code = x.code AND ${TEAM_INSIDE})
         WHEN 'member' THEN NOT EXISTS (SELECT 1 FROM team_memberships m JOIN teams t ON t.code = m.team_code
                                        WHERE m.phone = x.code AND m.valid_to IS NULL AND NOT ${TEAM_INSIDE})
         WHEN 'device' THEN NOT EXISTS (SELECT 1 FROM device_workshops d WHERE d.device_no = x.code AND NOT d.workshop_code = ANY(s.workshops))
         ELSE false END
     ORDER BY x.n LIMIT 1)`;

/**
 * The refusal of a write whose target `t` is outside the person's scope: WHOLE_FACTORY_ONLY (403) for a write only
 * the whole factory makes, else NOT_IN_SCOPE (404, as a report outside the scope: the target may as well not exist).
 */
export const outsideScopeError = (t: ScopeTarget) =>
  t.kind === 'factory' ? domainError('WHOLE_FACTORY_ONLY', undefined, { write: t.write }) : domainError('NOT_IN_SCOPE', { kind: t.kind, code: t.code });

/** A scope given by a person (lists of codes): trimmed, without blanks and repeats, sorted. */
export function normalScope(scope: { workshops: readonly string[]; teams: readonly string[] }): Scope {
  const clean = (xs: readonly string[]) => [...new Set(xs.map((x) => x.trim()).filter((x) => x !== ''))].sort();
  return { workshops: clean(scope.workshops), teams: clean(scope.teams) };
}

/** Who reads, for readings that take filters (dashboard, wages): the reader's scope and the filters given. */
export interface Reader {
  readonly scope: Scope;
  readonly filter: ReportFilter;
}

/** The whole factory without filters. */
export const WHOLE_READER: Reader = Object.freeze({ scope: WHOLE_FACTORY, filter: Object.freeze({}) });

/** True when `reader` sees everything (the whole factory, no filter): readings may use whole-factory sums. */
export const readsEverything = (reader: Reader): boolean =>
  isWholeFactory(reader.scope) && reader.filter.workshop === undefined && reader.filter.team === undefined;

/**
 * The scope rule of device readings (the stops, the OEE): a device is seen by a reader of the whole factory, or when
 * its workshop (`device_workshops`) is one of the scope's workshops or the workshop of one of the scope's teams. A
 * device in no workshop is the whole factory's business only (as a report in no workshop). `deviceCol` the device
 * number column; `workshops`, `teams` text[] placeholders. Never NULL.
 */
export const deviceScopeSql = (deviceCol: string, workshops: string, teams: string): string =>
  `(cardinality(${workshops}::text[]) + cardinality(${teams}::text[]) = 0
    OR EXISTS (SELECT 1 FROM device_workshops dw WHERE dw.device_no = ${deviceCol}
                AND (dw.workshop_code = ANY(${workshops}::text[])
                     OR dw.workshop_code IN (SELECT t.workshop_code FROM teams t WHERE t.code = ANY(${teams}::text[])))))`;
