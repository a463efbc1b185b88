/**
 * Given-when-then for deciders, with no database: `given(events).when(command)` returns the new events or
 * the thrown error, for `expect` to check.
 */
import { fold, type Decider } from '../../src/commands/decider.ts';

export function scenario<C, S, E>(decider: Decider<C, S, E>) {
  return {
    given(events: E[]) {
      return {
        /** Decides `command` on the state folded from the given events. Returns the events or the error. */
        when(command: C): { events?: E[]; error?: any; state: S } {
          const state = fold(decider, events);
          try {
            return { events: decider.decide(command, state), state };
          } catch (error) {
            return { error, state };
          }
        },
      };
    },
  };
}
