/**
 * Setting a person's scope (issue #24 part S "Scoped review and reading"): one `runCommand` (command.ts) of the
 * scope decider on the stream `scope-<phone>`. Facts read before the decision (decider.ts): whether the person
 * holds the role, and which given codes name no workshop (`workshops`) or team (`teams`, migrations/013 of the
 * organization part), blank codes ignored (domain/scope.ts `normalScope`). They are not guarded: a role removed or a workshop renamed meanwhile leaves a scope that
 * names it, which the one rule reads as nothing more visible (domain/scope.ts). Run by
 * `PUT /api/people/:phone/scope` (managers, `access.scopes`).
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
 * Sets `input` for `actor` (module docstring) → the scope as it stands. Throws OWN_SCOPE, SCOPE_PERSON_NOT_FOUND,
 * UNKNOWN_SCOPE_CODES, ROLE_REVOKED.
 */
export async function setScope(deps: CommandDeps, actor: Actor, input: ScopeInput): Promise<ScopeAnswer> {
  const r = await deps.reads.query(
    `SELECT EXISTS (SELECT 1 FROM personnel WHERE phone = $1 AND role = $2) AS holds,
            ARRAY(SELECT c FROM unnest($3::text[]) c WHERE NOT EXISTS (SELECT 1 FROM workshops w WHERE w.code = c) ORDER BY c) AS unknown_workshops,
            ARRAY(SELECT c FROM unnest($4::text[]) c WHERE NOT EXISTS (SELECT 1 FROM teams t WHERE t.code = c) ORDER BY c) AS unknown_teams`,
    [input.phone, input.role, normalScope(input).workshops, normalScope(input).teams],
  );
  const f = r.rows[0];
  return runCommand(deps, actor, {
    decider: scopeDecider,
    stream: { streamId: streams.scope(input.phone), fold: scopeDecider },
    command: (_, now) => ({
      type: 'SetScope' as const,
      ...input,
      at: now.toISOString(),
      actorPhone: actor.phone,
      holdsRole: f.holds,
      unknownWorkshops: f.unknown_workshops,
      unknownTeams: f.unknown_teams,
    }),
    answer: (state) => {
      const scope = state.byRole[input.role] ?? { workshops: [], teams: [] };
      return { phone: input.phone, role: input.role, workshops: [...scope.workshops], teams: [...scope.teams] };
    },
  });
}
