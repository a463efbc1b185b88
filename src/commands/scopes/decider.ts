/**
 * The scope decider (domain/scope.ts), pure: an administrator's or manager's scope on the stream
 * `scope-<phone>`. State: the person's scope per role (absent: the whole factory).
 *
 * Command `SetScope {phone, role, workshops, teams, at, actorPhone, holdsRole, unknownWorkshops, unknownTeams}`:
 * - nobody sets their own scope (OWN_SCOPE, 403): a reviewer never widens their own;
 * - the person must hold the role (SCOPE_PERSON_NOT_FOUND, 404) — a fact;
 * - every code must name an existing workshop or team (UNKNOWN_SCOPE_CODES, 422) — facts;
 * - → ScopeSet with the codes trimmed, without repeats, sorted; the same scope as now decides nothing.
 */
import type { Decider } from '../decider.ts';
import type { ScopeEvent } from '../../events/catalog.ts';
import { domainError } from '../../domain/errors.ts';
import { normalScope, WHOLE_FACTORY, type Scope } from '../../domain/scope.ts';

export type ScopeRole = 'admin' | 'manager';

export interface ScopeState {
  /** The scope of each role that was ever set. */
  readonly byRole: Readonly<Partial<Record<ScopeRole, Scope>>>;
}

export interface SetScope {
  readonly type: 'SetScope';
  readonly phone: string;
  readonly role: ScopeRole;
  readonly workshops: readonly string[];
  readonly teams: readonly string[];
  /** ISO 8601 instant of the decision. */
  readonly at: string;
  /** Who sets it. */
  readonly actorPhone: string;
  /** Whether `phone` holds `role` in personnel (a fact). */
  readonly holdsRole: boolean;
  /** The given codes that name no workshop / no team (facts). */
  readonly unknownWorkshops: readonly string[];
  readonly unknownTeams: readonly string[];
}

const same = (a: Scope, b: Scope) => a.workshops.join('\n') === b.workshops.join('\n') && a.teams.join('\n') === b.teams.join('\n');

export const scopeDecider: Decider<SetScope, ScopeState, ScopeEvent> = {
  initialState: { byRole: {} },

  decide(c, state) {
    if (c.phone === c.actorPhone) throw domainError('OWN_SCOPE');
    if (!c.holdsRole) throw domainError('SCOPE_PERSON_NOT_FOUND', undefined, { role: c.role });
    if (c.unknownWorkshops.length || c.unknownTeams.length) {
      throw domainError('UNKNOWN_SCOPE_CODES', { workshops: [...c.unknownWorkshops], teams: [...c.unknownTeams] });
    }
    const scope = normalScope(c);
    if (same(scope, state.byRole[c.role] ?? WHOLE_FACTORY)) return [];
    return [{ type: 'ScopeSet', data: { phone: c.phone, role: c.role, workshops: [...scope.workshops], teams: [...scope.teams], at: c.at } }];
  },

  evolve(state, e) {
    return { byRole: { ...state.byRole, [e.data.role]: { workshops: e.data.workshops, teams: e.data.teams } } };
  },
};
