/**
 * Setting a person's scope: one `runCommand` (command.ts) of the
 * scope decider on the stream `scope-<phone>`. Facts (commands/facts.ts, as the organization's commands ask them):
 * the person's roles (does the person hold the role?) and which given codes name a workshop or a team
 * (migrations/013), blank codes ignored (domain/scope.ts `normalScope`). The person's roles are guarded in the
 * append; workshops and teams are never removed. Only a manager of the whole factory sets scopes (WHOLE_FACTORY_ONLY,
 * domain/scope.ts). Run by `PUT /api/people/:phone/scope` (managers, `access.scopes`).
 */
import { streams } from '../../events/catalog.ts';
import type { Actor } from '../../shared/actor.ts';
import { normalScope, type Scope } from '../../domain/scope.ts';
import { runCommand, type CommandDeps } from '../command.ts';
import { scopeDecider, type ScopeRole } from './decider.ts';

/** A scope to set: the role it applies to and the codes (both empty = the whole factory). */
export interface ScopeInput {
  phone: string;
  role: ScopeRole;
  workshops: string[];
  teams: string[];
}

/** The answer: the person's scope in that role as it stands. */
export interface ScopeAnswer extends Scope {
  phone: string;
  role: ScopeRole;
}

/**
 * Sets `input` for `actor` (module docstring) → the scope as it stands. Throws WHOLE_FACTORY_ONLY, OWN_SCOPE, SCOPE_PERSON_NOT_FOUND,
 * UNKNOWN_SCOPE_CODES, ROLE_REVOKED.
 */
export function setScope(deps: CommandDeps, actor: Actor, input: ScopeInput): Promise<ScopeAnswer> {
  const asked = normalScope(input);
  return runCommand(deps, actor, {
    decider: scopeDecider,
    stream: { streamId: streams.scope(input.phone), fold: scopeDecider },
    facts: { people: [input.phone], workshopCodes: asked.workshops, teamCodes: asked.teams, writeScope: [{ kind: 'factory', write: 'scope' }] },
    command: (facts, now) => ({
      type: 'SetScope' as const,
      ...input,
      at: now.toISOString(),
      actorPhone: actor.phone,
      holdsRole: (facts.people ?? []).some((p) => p.phone === input.phone && p.roles.includes(input.role)),
      unknownWorkshops: asked.workshops.filter((c) => !(facts.workshops ?? []).includes(c)),
      unknownTeams: asked.teams.filter((c) => !(facts.teams ?? []).includes(c)),
    }),
    answer: (state) => {
      const scope = state.byRole[input.role] ?? { workshops: [], teams: [] };
      return { phone: input.phone, role: input.role, workshops: [...scope.workshops], teams: [...scope.teams] };
    },
  });
}
