/**
 * Deciders: a decider is pure. `decide(command, state) → events` (throwing a domain error when the
 * command does not fit the state, domain/errors.ts) and `evolve(state, event) → state`. The one impure path that
 * loads, decides, projects and appends is command.ts.
 */
export interface Decider<C, S, E> {
  readonly initialState: S;
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
}

/** Folds events into a state. */
export function fold<S, E>(decider: Pick<Decider<unknown, S, E>, 'initialState' | 'evolve'>, events: readonly E[]): S {
  return events.reduce(decider.evolve, decider.initialState);
}
